"""The build's own decisions (build_support/): when a wheel compiles, and that it never fails
an install for the accelerator's sake."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import slipstream_backend

from .installs import ROOT, slipstream_accel


@pytest.fixture
def no_setuptools_requires(monkeypatch: pytest.MonkeyPatch) -> None:
    """setuptools' own answer, without running setup.py in the checkout."""
    monkeypatch.setattr(slipstream_backend._setuptools, "get_requires_for_build_wheel", lambda cs=None: ["wheel"])


def test_a_wheel_asks_for_mypy_only_when_it_will_compile(monkeypatch: pytest.MonkeyPatch,
                                                         no_setuptools_requires: None) -> None:
    monkeypatch.delenv(slipstream_accel.PURE_ENV, raising=False)
    monkeypatch.setattr(slipstream_accel, "compiler_missing", lambda: None)
    assert slipstream_backend.get_requires_for_build_wheel() == ["wheel", slipstream_accel.MYPYC_REQUIREMENT]
    monkeypatch.setenv(slipstream_accel.PURE_ENV, "1")
    assert slipstream_backend.get_requires_for_build_wheel() == ["wheel"]
    monkeypatch.setenv(slipstream_accel.PURE_ENV, "0")  # "0" is not the switch
    assert slipstream_accel.MYPYC_REQUIREMENT in slipstream_backend.get_requires_for_build_wheel()
    monkeypatch.setattr(slipstream_accel, "compiler_missing", lambda: "no C compiler found")
    assert slipstream_backend.get_requires_for_build_wheel() == ["wheel"]
    # an sdist and the editable install never need it: setuptools' own hooks
    from setuptools import build_meta

    assert slipstream_backend.get_requires_for_build_sdist is build_meta.get_requires_for_build_sdist
    assert slipstream_backend.get_requires_for_build_editable is build_meta.get_requires_for_build_editable
    assert slipstream_backend.build_wheel is build_meta.build_wheel


def test_the_mypy_the_wheel_asks_for_is_the_dev_extras() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert slipstream_accel.MYPYC_REQUIREMENT in config["project"]["optional-dependencies"]["dev"]


def test_no_compiler_is_a_reason_not_to_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(slipstream_accel.PURE_ENV, raising=False)
    monkeypatch.setenv("CC", "no-such-compiler-xyz --flag")
    assert slipstream_accel.compiler_missing() == "no C compiler found ('no-such-compiler-xyz' is not on PATH)"
    assert slipstream_accel.skip_reason() == slipstream_accel.compiler_missing()
    monkeypatch.setenv(slipstream_accel.PURE_ENV, "1")
    assert slipstream_accel.skip_reason() == "SLIPSTREAM_PURE was set when it was built"


def test_a_failed_compile_is_reported_and_leaves_the_output_alone(tmp_path: Path) -> None:
    """What setup.py then does: a manifest of no modules saying why, and pure Python."""
    engine = tmp_path / "engine"
    for rel in slipstream_accel.ACCEL:
        src = engine / rel.removeprefix("engine/")
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text("X: int = 1\n")
    (engine / slipstream_accel.ACCEL[0].removeprefix("engine/")).write_text('X: int = "not an int"\n')
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep").write_text("")
    said: list[str] = []
    assert slipstream_accel.compile_modules(engine, out, sys.executable, log=said.append) is False
    assert "the compile failed, pure Python is used" in said[-1]
    assert "Incompatible types in assignment" in said[-1]
    assert sorted(p.name for p in out.iterdir()) == ["keep"]
    slipstream_accel.write_skipped(out, "the compile failed")
    assert json.loads((out / "manifest.json").read_text()) == {
        "format": slipstream_accel.FORMAT, "modules": {}, "skipped": "the compile failed"}


def test_the_build_compiles_several_c_files_at_once_biggest_first(tmp_path: Path) -> None:
    """slipstream_ccjobs: `jobs` compiler processes at a time, the biggest file started first,
    every object made, and the first failure ends the build."""
    import threading
    import time

    import slipstream_ccjobs

    sizes = {"small.c": 10, "big.c": 5000, "mid.c": 900, "tiny.c": 1}
    for name, size in sizes.items():
        (tmp_path / name).write_text("x" * size)
    running, peak, started = [0], [0], []
    lock = threading.Lock()

    class Compiler:
        fail = ""

        def _setup_compile(self, outdir, macros, incdirs, sources, depends, extra):  # noqa: ANN001, ANN202
            build = {src[:-2] + ".o": (src, ".c") for src in sources}
            return macros, list(build), extra, [], build

        def _get_cc_args(self, pp_opts, debug, before):  # noqa: ANN001, ANN202
            return ["-c"]

        def _compile(self, obj, src, ext, cc_args, extra_postargs, pp_opts):  # noqa: ANN001, ANN202
            with lock:
                started.append(Path(src).name)
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            time.sleep(0.2)
            with lock:
                running[0] -= 1
            if Path(src).name == self.fail:
                raise RuntimeError(f"error compiling {src}")
            Path(obj).write_text("object")

    assert slipstream_ccjobs.compile_at_once(2, Compiler)
    sources = [str(tmp_path / name) for name in sizes]
    objects = Compiler().compile(sources)  # type: ignore[attr-defined]
    assert sorted(objects) == sorted(s[:-2] + ".o" for s in sources)
    assert all(Path(o).is_file() for o in objects)
    assert peak[0] == 2
    assert started[:2] == ["big.c", "mid.c"]
    Compiler.fail = "mid.c"
    with pytest.raises(RuntimeError, match="mid.c"):
        Compiler().compile(sources)  # type: ignore[attr-defined]
    # one job, or a setuptools without these methods: left as it was (one file after another)
    assert not slipstream_ccjobs.compile_at_once(1, type("Other", (), {}))
    assert not slipstream_ccjobs.compile_at_once(4, type("Other", (), {}))


def test_the_build_uses_every_core_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.delenv(slipstream_accel.JOBS_ENV, raising=False)
    assert slipstream_accel.build_jobs() == len(os.sched_getaffinity(0))
    monkeypatch.setenv(slipstream_accel.JOBS_ENV, "3")
    assert slipstream_accel.build_jobs() == 3
    monkeypatch.setenv(slipstream_accel.JOBS_ENV, "lots")
    assert slipstream_accel.build_jobs() == len(os.sched_getaffinity(0))
