#!/usr/bin/env python3
"""Developer entry point: sets up ./.venv by itself, then runs a job.

    python3 dev.py demo    validate the bundled pack and run a seeded test race
    python3 dev.py test    run the whole test suite (plus ruff, mypy and the import contracts)
    python3 dev.py setup   only create/refresh the virtual environment

Needs nothing but Python 3.11+ and access to the package index.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".slipstream-installed"


def run(*cmd: str | Path, check: bool = True) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, check=check).returncode


def setup() -> None:
    """Create the venv and install the package with its gui and dev extras when needed."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs before anything is installed
        sys.exit("Slipstream needs Python 3.11 or newer")
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == want and PY.exists():
        return
    if not PY.exists():
        print(f"creating {VENV.name}/", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    run(PY, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-e", ".[gui,dev]")
    STAMP.write_text(want)


def demo() -> int:
    setup()
    slip = BIN / "slipstream"
    rc = run(slip, "validate", "content/", check=False)
    if rc:
        return rc
    race = [slip, "race", "--seed", "7"]
    if subprocess.run([str(slip), "race", "--help"], cwd=ROOT, capture_output=True).returncode == 0:
        return run(*race, check=False)
    return run(slip, "render", "content/base/tracks/first-oval.yaml", "-o", "first-oval.svg", check=False)


def test(extra: list[str]) -> int:
    setup()
    env_rc = 0
    env_rc |= run(PY, "-m", "ruff", "check", ".", check=False)
    env_rc |= run(PY, "-m", "mypy", "engine", check=False)
    # the engine's parts depend one way (DESIGN §3): contracts in pyproject.toml
    env_rc |= run(BIN / "lint-imports", "--no-cache", check=False)
    env_rc |= run(PY, "-m", "pytest", *extra, check=False)
    return env_rc


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0
    cmd, rest = argv[0], argv[1:]
    if cmd == "setup":
        setup()
        return 0
    if cmd == "demo":
        return demo()
    if cmd == "test":
        return test(rest)
    print(f"unknown job {cmd!r}\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
