"""The build backend of pyproject.toml: setuptools' own, asking for mypy only when it will compile.

A wheel (and so `pip install .`) compiles the accelerator when it can (slipstream_accel.py):
only then is mypy a build requirement, so a pure build (`SLIPSTREAM_PURE=1`, no C compiler)
and the editable install of dev.py need nothing but setuptools, and an sdist never needs mypy.
"""

from __future__ import annotations

from typing import Any

import slipstream_accel
from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - every hook as setuptools has it, then:


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    needs = list(_setuptools.get_requires_for_build_wheel(config_settings))
    if slipstream_accel.skip_reason(need_mypyc=False) is None:
        needs.append(slipstream_accel.MYPYC_REQUIREMENT)
    return needs
