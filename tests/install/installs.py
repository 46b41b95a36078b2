"""One release build and one fresh install per test session, shared by the tests of this folder.

`dist`: the sdist and the wheel built from a copy of the checkout's files with `python -m build`
as a release would (build_support/slipstream_release.py): the sdist first, then the wheel from
the unpacked sdist, each in its own isolated environment, so the wheel holds only what the
sdist carried. The wheel compiles the accelerator when the machine can, as `pip install .`
does; a session run with SLIPSTREAM_PURE=1 builds it pure (and the tests then expect that).
When `python3 dev.py build` (which `dev.py test` runs) left a build of exactly these files in
build/dist/, that one is used instead of compiling again; nothing is written into the checkout.

`installed`: a new virtual environment (without pip: the session's pip installs into it) with
that wheel (not editable, no extras) and beside it the toy ruleset of tests/toyruleset.py as its
own tiny distribution (tests/install/toy-ruleset), found through its `slipstream.rulesets` entry
point. Commands run with `Installed.run` from an
empty folder outside the checkout, with none of the test session's variables that would reach
into the checkout (PYTHONPATH, SLIPSTREAM_RULESETS).

Under pytest-xdist the builds take a file lock and live in the run's shared temporary folder,
so the workers of a run share one build, one install and one hooks' environment.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "build_support"))
import slipstream_accel  # noqa: E402
import slipstream_backend  # noqa: E402, F401 - setuptools' build backend with our hook
import slipstream_release  # noqa: E402

# variables of the test session that must not reach an installed program
LEAKS = ("PYTHONPATH", "PYTHONHOME", "SLIPSTREAM_RULESETS", "VIRTUAL_ENV", "PYTHONSTARTUP",
         slipstream_accel.PURE_ENV)
TIMEOUT = 900
# for the marks of every test module here: the first test of a run may wait for the build
MARKS = [pytest.mark.timeout(1800)]


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in LEAKS}
    env.update(extra)
    return env


def sh(args: list[str | Path], cwd: Path, env: dict[str, str] | None = None,
       timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=clean_env() if env is None else env,
                          capture_output=True, text=True, timeout=timeout)


def checked(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, f"{done.args}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def source_files() -> list[str]:
    """The files of the working tree that git has or would add (tracked, new, not ignored)."""
    return slipstream_release.source_files(ROOT)


def shared_dir(factory: pytest.TempPathFactory, name: str) -> Path:
    """A folder all xdist workers of this run share (the base temp of the run)."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    return base / name


class Locked:
    """An exclusive lock on `path` (one xdist worker builds, the others wait and reuse)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = open(path, "w")  # noqa: SIM115 - closed in __exit__

    def __enter__(self) -> Locked:
        fcntl.flock(self.file, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.file, fcntl.LOCK_UN)
        self.file.close()


@cache
def _names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        return z.namelist()


@dataclass(frozen=True)
class Dist:
    sdist: Path
    wheel: Path
    log: str  # what the build printed

    @property
    def compiled(self) -> bool:
        """Whether the wheel holds the compiled accelerator."""
        return bool(json.loads(self.read("slipstream/_accel/manifest.json"))["modules"])

    def names(self) -> list[str]:
        return _names(self.wheel)

    def read(self, name: str) -> str:
        with zipfile.ZipFile(self.wheel) as z:
            return z.read(name).decode("utf-8")


@dataclass(frozen=True)
class Installed:
    venv: Path
    work: Path  # an empty folder outside the checkout, where commands run
    dist: Dist
    package: Path  # the installed package's folder (site-packages/slipstream)

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    def run(self, *args: str | Path, cwd: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """`slipstream ARGS` of this install, in `cwd` (default: the empty folder)."""
        return sh([self.bin / "slipstream", *args], cwd or self.work,
                  clean_env(**(env or {}), SLIPSTREAM_CACHE_DIR=str(self.work.parent / "cache")))


@dataclass(frozen=True)
class HookRepo:
    """A git repository of this checkout's release files, as a content repository's pre-commit
    config names it (`repo: PATH`, `rev: REV`), and the pre-commit cache its tests share."""

    path: Path
    rev: str
    home: Path  # PRE_COMMIT_HOME: the hooks' environment is built here once

    def env(self, pure: bool = True) -> dict[str, str]:
        """No dev venv on PATH (only the interpreter's own folder and the system's), git without
        the user's config, and the install-time switch for the hooks' install."""
        extra = {"PRE_COMMIT_HOME": str(self.home), "GIT_CONFIG_NOSYSTEM": "1",
                 "GIT_CONFIG_GLOBAL": str(self.home.parent / "gitconfig"),
                 "PATH": os.pathsep.join((str(Path(sys.base_prefix) / "bin"), "/usr/bin", "/bin")),
                 "SLIPSTREAM_CACHE_DIR": str(self.home.parent / "cache")}
        if pure:
            extra[slipstream_accel.PURE_ENV] = "1"
        return clean_env(**extra)

    def run(self, args: list[str | Path], cwd: Path, pure: bool = True) -> subprocess.CompletedProcess[str]:
        return sh(args, cwd, self.env(pure))

    def pre_commit(self, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        """The dev venv's `pre-commit` (the tool itself; the hooks get their own environment)."""
        return self.run([Path(sys.executable).parent / "pre-commit", *args], cwd)
