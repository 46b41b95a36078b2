#!/usr/bin/env python3
"""Developer entry point: sets up ./.venv by itself, then runs a job.

    python3 dev.py demo    validate the bundled content, race one short race of each ruleset
    python3 dev.py test    run the whole test suite (plus ruff, mypy and the import contracts)
    python3 dev.py setup   only create/refresh the virtual environment (and the build below)
    python3 dev.py build   (re)build the compiled accelerator now [--force]
    python3 dev.py types   only the type check (mypy over slipstream.engine, .cli and .editor)

Needs nothing but Python 3.11+ and access to the package index. Each job also builds the
optional compiled accelerator when its sources changed: the modules in ACCEL compiled with
mypyc into build/accel/ (about a minute; engine/core/accel.py loads them only while they
match the sources). Without a C compiler the build is skipped and everything runs as pure
Python, only slower; SLIPSTREAM_PURE=1 skips it and turns it off.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".slipstream-installed"
# The hot modules of 4-greedy Automobiles races (issue 20), compiled together with mypyc. They
# must stay plainly typed Python: no object.__new__ of their classes, no attributes a class
# does not set in __init__, and a class subclassed elsewhere needs
# @mypyc_attr(allow_interpreted_subclasses=True); a function or class that tests replace at
# run time is marked so (effects.swappable, effects.PlainClass). docs/engine.md "Speed".
ACCEL = ("engine/rulesets/automobiles/state.py", "engine/rulesets/automobiles/movement.py",
         "engine/rulesets/automobiles/gearplan.py", "engine/rulesets/automobiles/game.py",
         "engine/rulesets/automobiles/bots.py", "engine/rulesets/automobiles/effects.py",
         "engine/rulesets/automobiles/phases.py",
         # the Formula Dé and speed-hazard races (4 greedy bots: the game, the bot and its moves)
         "engine/rulesets/formula_de/game.py", "engine/rulesets/formula_de/scoring.py",
         "engine/rulesets/formula_de/moves.py", "engine/rulesets/formula_de/bots.py",
         "engine/rulesets/formula_de/rules.py",
         "engine/rulesets/speed_hazard/game.py", "engine/rulesets/speed_hazard/greedy.py",
         "engine/rulesets/speed_hazard/moves.py", "engine/rulesets/speed_hazard/rules.py")
ACCEL_DIR = ROOT / "build" / "accel"


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


def _pure() -> bool:
    return os.environ.get("SLIPSTREAM_PURE", "") not in ("", "0")


def build(force: bool = False) -> bool:
    """Compile ACCEL with mypyc into build/accel/ unless that build is current; True if a current
    build is there afterwards. A failed build leaves pure Python in use and says why."""
    if _pure():
        print("compiled accelerator: SLIPSTREAM_PURE is set, not built", flush=True)
        return False
    # what the loader would say of the build there (engine/core/accel.py decides what is current)
    probe = subprocess.run([str(PY), "-c", "import json; from slipstream.engine.core import accel; "
                            "st = accel.read()[0]; print(json.dumps([accel.python_tag(), st.state, "
                            "list(st.modules)]))"], cwd=ROOT, capture_output=True, text=True)
    try:
        tag, state, modules = json.loads(probe.stdout)
    except ValueError:
        print(f"compiled accelerator: not built, the engine does not import:\n{probe.stderr[-2000:]}")
        return False
    wanted = sorted("slipstream." + rel[:-3].replace("/", ".") for rel in ACCEL)
    if not force and state == "on" and modules == wanted:
        print(f"compiled accelerator: up to date ({len(modules)} modules in "
              f"{ACCEL_DIR.relative_to(ROOT)}/)", flush=True)
        return True
    tmp = ROOT / "build" / f"accel-tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    src, lib = tmp / "src", tmp / "lib"
    # a copy of the engine as the package slipstream.engine (as installed), built in place there
    shutil.copytree(ROOT / "engine", src / "slipstream" / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    (src / "slipstream" / "__init__.py").write_text("")
    print(f"compiled accelerator: building {len(ACCEL)} modules with mypyc ...", flush=True)
    t0 = time.monotonic()
    done = subprocess.run([str(PY), "-m", "mypyc", "--ignore-missing-imports",
                           *(f"slipstream/{rel}" for rel in ACCEL)],
                          cwd=src, capture_output=True, text=True)
    groups = sorted(src.glob("*__mypyc*"))
    if done.returncode != 0 or len(groups) != 1:
        out = (done.stdout + done.stderr).strip().splitlines()
        print("compiled accelerator: the build failed, pure Python is used:\n  "
              + "\n  ".join(out[-12:]), flush=True)
        shutil.rmtree(tmp, ignore_errors=True)
        return False
    lib.mkdir()
    group = groups[0]
    shutil.move(str(group), lib / group.name)
    modules = {}
    for rel in ACCEL:
        stem = Path(rel).stem
        folder = Path("slipstream", *Path(rel).parts[:-1])
        built = sorted((src / folder).glob(f"{stem}.*.so")) + sorted((src / folder).glob(f"{stem}.*.pyd"))
        (lib / folder).mkdir(parents=True, exist_ok=True)
        shutil.move(str(built[0]), lib / folder / built[0].name)
        name = ".".join(folder.parts + (stem,))
        modules[name] = {"source": rel, "file": (folder / built[0].name).as_posix(),
                         "sha256": hashlib.sha256((src / "slipstream" / rel).read_bytes()).hexdigest()}
    (lib / "manifest.json").write_text(json.dumps(
        {"format": "accel/1", "python": tag, "group": group.name.split(".")[0],
         "group_file": group.name, "modules": modules}, indent=1, sort_keys=True) + "\n")
    shutil.rmtree(ACCEL_DIR, ignore_errors=True)
    lib.rename(ACCEL_DIR)
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"compiled accelerator: built in {time.monotonic() - t0:.0f} s into "
          f"{ACCEL_DIR.relative_to(ROOT)}/", flush=True)
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


def test(extra: list[str]) -> int:
    setup()
    build()
    env_rc = 0
    env_rc |= run(PY, "-m", "ruff", "check", ".", check=False)
    env_rc |= typecheck()
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
