#!/usr/bin/env python3
"""Developer entry point: sets up ./.venv by itself, then runs a job.

    python3 dev.py demo    validate the bundled content, race one short race of each ruleset
    python3 dev.py test    run the whole test suite (plus ruff, mypy and the import contracts)
    python3 dev.py setup   only create/refresh the virtual environment (and the build below)
    python3 dev.py build   (re)build the compiled accelerator now [--force]
    python3 dev.py types   only the type check (mypy over slipstream.engine, .cli and .editor)

Needs nothing but Python 3.11+ and access to the package index. Each job also builds the
optional compiled accelerator when its sources changed: the sdist and the wheel into
build/dist/ as a release would (the wheel compiles the modules in ACCEL with mypyc on every
core, as `pip install .` does; under a minute on two cores, started beside pip's install of
the environment), and the wheel's compiled modules into build/accel/
for the editable install (engine/core/accel.py loads them only while they match the sources).
Without a C compiler the build is skipped and everything runs as pure Python, only slower;
SLIPSTREAM_PURE=1 skips it and turns it off. `test` runs pytest on every core (pytest-xdist);
arguments after `test` go to pytest (`-n 0` runs it in one process).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".slipstream-installed"
sys.path.insert(0, str(ROOT / "build_support"))
import slipstream_accel  # noqa: E402 - the one build of the accelerator, shared with setup.py
import slipstream_release  # noqa: E402 - the sdist and wheel that build comes in

# The hot modules compiled with mypyc (the list is in build_support/slipstream_accel.py, which
# says what they must keep to; docs/engine.md "Speed").
ACCEL = slipstream_accel.ACCEL
ACCEL_DIR = ROOT / "build" / "accel"
DIST_DIR = ROOT / "build" / "dist"


def run(*cmd: str | Path, check: bool = True) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, check=check).returncode


def _wanted() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + (ROOT / "setup.py").read_bytes()).hexdigest()


def _make_venv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs before anything is installed
        sys.exit("Slipstream needs Python 3.11 or newer")
    if not PY.exists():
        print(f"creating {VENV.name}/", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)


def setup() -> None:
    """Create the venv and install the package with its gui and dev extras when needed."""
    _make_venv()
    want = _wanted()
    if STAMP.exists() and STAMP.read_text() == want:
        return
    run(PY, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-e", ".[gui,dev]")
    STAMP.write_text(want)


# A release build that `early_release` started, and how it ended (None: it did not fail).
_EARLY: dict[str, threading.Thread | str | float | None] = {"thread": None, "failed": None, "t0": None}


def early_release() -> None:
    """Start building the release (the sdist and the compiled wheel, build() below) now, beside
    the install of the dev environment, when the checkout has none of its current files: it
    needs nothing of that environment but the `build` package (`python -m build` makes its own
    environments), and on two cores the compile and pip's install then share the time."""
    if _pure() or slipstream_accel.compiler_missing():
        return
    _make_venv()
    files = slipstream_release.release_files(ROOT)
    if slipstream_release.current(DIST_DIR, slipstream_release.tree_key(ROOT, files, PY, dict(os.environ))):
        return
    if subprocess.run([str(PY), "-c", "import build"], capture_output=True).returncode != 0:
        run(PY, "-m", "pip", "install", "-q", "--disable-pip-version-check", "build>=1.0")

    def release() -> None:
        try:
            slipstream_release.build_release(ROOT, DIST_DIR, PY, log=lambda t: print(t, flush=True))
        except RuntimeError as e:
            _EARLY["failed"] = str(e)

    thread = threading.Thread(target=release, name="release")
    _EARLY["t0"] = time.monotonic()
    thread.start()
    _EARLY["thread"] = thread


def _pure() -> bool:
    return os.environ.get("SLIPSTREAM_PURE", "") not in ("", "0")


def build(force: bool = False) -> bool:
    """Make the compiled accelerator of build/accel/ current; True if it is afterwards.

    The build is a release's: the sdist and the wheel of this checkout (`python -m build` in
    isolated environments, build_support/slipstream_release.py) into build/dist/, whose wheel
    compiles ACCEL with mypyc exactly as `pip install .` does; its `slipstream/_accel/` is
    then unpacked into build/accel/ for the editable install. Done again when a file of the
    release or an ACCEL source changed (tests/install/ reuses the same wheel). A build that
    cannot compile leaves pure Python in use and says why."""
    if _pure():
        print("compiled accelerator: SLIPSTREAM_PURE is set, not built", flush=True)
        return False
    early = _EARLY["thread"]
    if isinstance(early, threading.Thread):
        early.join()
        if _EARLY["failed"]:
            print(f"compiled accelerator: not built, {_EARLY['failed']}", flush=True)
            return False
    # what the loader would say of the build there (engine/core/accel.py decides what is current)
    probe = subprocess.run([str(PY), "-c", "import json; from slipstream.engine.core import accel; "
                            "st = accel.read(accel.BUILD)[0]; print(json.dumps([st.state, "
                            "list(st.modules)]))"], cwd=ROOT, capture_output=True, text=True)
    try:
        state, modules = json.loads(probe.stdout)
    except ValueError:
        print(f"compiled accelerator: not built, the engine does not import:\n{probe.stderr[-2000:]}")
        return False
    files = slipstream_release.release_files(ROOT)
    released = slipstream_release.current(DIST_DIR, slipstream_release.tree_key(ROOT, files, PY, dict(os.environ)))
    if not force and state == "on" and modules == slipstream_accel.module_names() and released:
        print(f"compiled accelerator: up to date ({len(modules)} modules in "
              f"{ACCEL_DIR.relative_to(ROOT)}/)", flush=True)
        return True
    missing = slipstream_accel.compiler_missing()
    if missing:
        print(f"compiled accelerator: not built, {missing}; pure Python is used", flush=True)
        return False
    if force:
        shutil.rmtree(DIST_DIR, ignore_errors=True)
    started = _EARLY["t0"]
    t0 = started if isinstance(started, float) else time.monotonic()
    try:
        _, wheel = slipstream_release.build_release(ROOT, DIST_DIR, PY, log=lambda t: print(t, flush=True))
    except RuntimeError as e:
        print(f"compiled accelerator: not built, {e}", flush=True)
        return False
    with zipfile.ZipFile(wheel) as z:
        inside = [n for n in z.namelist() if n.startswith("slipstream/_accel/")]
        manifest = json.loads(z.read("slipstream/_accel/manifest.json"))
        if not manifest.get("modules"):
            print(f"compiled accelerator: not built ({manifest.get('skipped')}); pure Python is used",
                  flush=True)
            return False
        tmp = ACCEL_DIR.with_name(f"accel-tmp-{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        for name in inside:
            target = tmp / name[len("slipstream/_accel/"):]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(z.read(name))
    shutil.rmtree(ACCEL_DIR, ignore_errors=True)
    tmp.rename(ACCEL_DIR)
    print(f"compiled accelerator: {len(manifest['modules'])} modules in "
          f"{ACCEL_DIR.relative_to(ROOT)}/ (from {wheel.relative_to(ROOT)}, {time.monotonic() - t0:.0f} s)",
          flush=True)
    return True


def typecheck() -> int:
    """mypy over the packages of pyproject.toml's [tool.mypy], imported as installed.

    mypy does not follow setuptools' editable import hook, so build/typecheck/slipstream/ links
    each checked package to its folder (slipstream.engine -> engine/; the `mypy_path` there);
    the report names the checkout's files. Plain `mypy` works the same once the links exist."""
    import tomllib

    tree = ROOT / "build" / "typecheck"
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["packages"]
    for name in packages:
        part = name.split(".")[1]
        link, target = tree / "slipstream" / part, ROOT / part
        if link.is_symlink() and link.resolve() == target.resolve():
            continue
        if link.is_symlink() or link.is_file():
            link.unlink()
        shutil.rmtree(link, ignore_errors=True)
        link.parent.mkdir(parents=True, exist_ok=True)
        try:
            link.symlink_to(Path("..", "..", "..", part), target_is_directory=True)
        except OSError:  # no symbolic links here (Windows without developer mode): a fresh copy
            shutil.copytree(target, link, ignore=shutil.ignore_patterns("__pycache__"))
    print(f"+ {PY} -m mypy  # {' '.join(packages)}", flush=True)
    done = subprocess.run([str(PY), "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    prefix = str(tree.relative_to(ROOT) / "slipstream") + os.sep
    print((done.stdout + done.stderr).replace(prefix, "").replace(prefix.replace(os.sep, "/"), ""),
          end="", flush=True)
    return done.returncode


def demo() -> int:
    """Validate the bundled content, then one short seeded race on a bundled pack of each
    installed ruleset (`slipstream rulesets` names them), its start and its finish."""
    early_release()
    setup()
    build()
    slip = BIN / "slipstream"
    rc = run(slip, "validate", "content/", check=False)
    if rc:
        return rc
    listing = subprocess.run([str(slip), "rulesets", "--format", "json"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    for rs in json.loads(listing):
        for pack in rs.get("packs", [])[:1]:
            race = ("race", pack, "--seed", "7", "--laps", "1", "--players", "3")
            print(f"\n== {rs['name']}: slipstream {' '.join(race)}", flush=True)
            done = subprocess.run([str(slip), *race], cwd=ROOT, capture_output=True, text=True)
            lines = (done.stdout + done.stderr).rstrip().splitlines()
            cut = len(lines) > 16  # the start and the finish; the whole race with the command
            print("\n".join([*lines[:10], f"   ... {len(lines) - 14} more lines ...", *lines[-4:]]
                            if cut else lines), flush=True)
            rc = rc or done.returncode
    return rc


# The folders of the checkout's Python code (the package's and the tests' own).
CHECKOUT_CODE = ("engine", "cli", "editor", "tests", "examples", "bench", "build_support")


def test(extra: list[str]) -> int:
    early_release()  # the compile starts beside pip's install of the environment
    setup()
    # the compile (started above, on every core) goes on while the static checks run
    built = threading.Thread(target=build, name="build")
    built.start()
    env_rc = 0
    env_rc |= run(PY, "-m", "ruff", "check", ".", check=False)
    env_rc |= typecheck()
    # the engine's parts depend one way (DESIGN §3): contracts in pyproject.toml
    env_rc |= run(BIN / "lint-imports", "--no-cache", check=False)
    built.join()
    # the checkout's modules compiled to bytecode once, here: with PYTHONDONTWRITEBYTECODE set
    # (as on many CI machines) every process the tests start (workers, process pools, CLI runs)
    # would otherwise compile each module it imports from source again
    run(PY, "-m", "compileall", "-q", "-j", "0", *CHECKOUT_CODE, check=False)
    # on every core (pytest-xdist); tests/install/ shares its build and install between workers;
    # the heavy tests start first (tests/conftest.py) and a worker that runs out takes queued
    # tests from the other (worksteal), so both end together
    env_rc |= run(PY, "-m", "pytest", "-n", "auto", "--dist", "worksteal", *extra, check=False)
    return env_rc


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0
    cmd, rest = argv[0], argv[1:]
    if cmd == "setup":
        early_release()
        setup()
        build()
        return 0
    if cmd == "build":
        setup()
        return 0 if build(force="--force" in rest) else 1
    if cmd == "demo":
        return demo()
    if cmd == "types":
        setup()
        return typecheck()
    if cmd == "test":
        return test(rest)
    print(f"unknown job {cmd!r}\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
