"""Fixtures for the pack editor tests: copies of the bundled base pack in tmp_path."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "content" / "base"
# Screenshots land here (git-ignored) so that a person can look at them after a test run.
SHOTS = ROOT / "out" / "pack-editor"


@pytest.fixture
def base_copy(tmp_path: Path) -> Path:
    """A copy of content/base that a test may edit and save (content/base itself never)."""
    dst = tmp_path / "base"
    shutil.copytree(BASE, dst, ignore=shutil.ignore_patterns("__pycache__"))
    return dst
