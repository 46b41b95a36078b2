"""Compiling the race engine's hot modules with mypyc: the one build of the accelerator.

Both ways of building call `compile_modules` here with the same list, flags and manifest:
`pip install .` and every wheel (setup.py, through the build backend next to this file) write
the result into the package as `slipstream/_accel/`; `python3 dev.py build` writes it into
`build/accel/` of the checkout for the editable install. engine/core/accel.py loads either
one only while every compiled module's source still has the sha256 the manifest records
(docs/engine.md "Speed").

Compiling needs a C compiler, Python's headers and mypy (mypyc) in the building Python; the
backend asks for mypy only when it will compile. Without them, or with `SLIPSTREAM_PURE=1`
in the environment, nothing is compiled: the manifest then says why, and everything runs as
pure Python. A compile that fails says so with the compiler's last lines and leaves pure
Python too: an install never fails for the accelerator's sake.

Standard library only: dev.py imports it with whatever Python runs dev.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# The hot modules of 4-greedy races of the three rulesets (issue 20), compiled together, as
# paths below the package `slipstream`. They must stay plainly typed Python: no
# object.__new__ of their classes, no attributes a class does not set in __init__, and a class
# subclassed elsewhere needs @mypyc_attr(allow_interpreted_subclasses=True); a function or class
# that tests replace at run time is marked so (effects.swappable, effects.PlainClass); a method
# of a compiled class can be assigned, but compiled code goes on calling its own.
ACCEL = ("engine/rulesets/automobiles/state.py", "engine/rulesets/automobiles/movement.py",
         "engine/rulesets/automobiles/gearplan.py", "engine/rulesets/automobiles/game.py",
         "engine/rulesets/automobiles/bots.py", "engine/rulesets/automobiles/effects.py",
         "engine/rulesets/automobiles/phases.py", "engine/rulesets/automobiles/rules.py",
         "engine/play/decisions.py",
         # the Automobiles look-ahead bot's rollouts (its loop of greedy decisions)
         "engine/rulesets/automobiles/lookahead.py",
         # the Formula Dé and speed-hazard races (4 greedy bots: the game, the bot and its moves)
         "engine/rulesets/formula_de/game.py", "engine/rulesets/formula_de/scoring.py",
         "engine/rulesets/formula_de/moves.py", "engine/rulesets/formula_de/bots.py",
         "engine/rulesets/formula_de/tally.py", "engine/rulesets/formula_de/lookahead.py",
         "engine/rulesets/formula_de/rules.py",
         "engine/rulesets/speed_hazard/game.py", "engine/rulesets/speed_hazard/greedy.py",
         "engine/rulesets/speed_hazard/moves.py", "engine/rulesets/speed_hazard/rules.py",
         # the speed-hazard look-ahead: its rollouts are greedy races of a round or two
         "engine/rulesets/speed_hazard/lookahead.py")
FORMAT = "accel/1"  # engine/core/accel.py reads this format
PURE_ENV = "SLIPSTREAM_PURE"
JOBS_ENV = "SLIPSTREAM_BUILD_JOBS"  # C files compiled at once (default: every core)
# What the build backend adds to the wheel's build requirements when it will compile; the dev
# extra of pyproject.toml asks for the same (dev.py compiles with the venv's mypy).
MYPYC_REQUIREMENT = "mypy>=1.10"
MANIFEST = "manifest.json"  # in the build folder, beside the libraries

Log = Callable[[str], None]


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def module_names() -> list[str]:
    """The dotted names of the compiled modules, sorted."""
    return sorted("slipstream." + rel[:-3].replace("/", ".") for rel in ACCEL)


def pure_requested() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def compiler_missing() -> str | None:
    """Why this Python cannot compile C extensions here (no compiler, no headers), or None."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    try:
        exe = shlex.split(cc)[0]
    except (ValueError, IndexError):
        exe = "cc"
    if shutil.which(exe) is None:
        return f"no C compiler found ({exe!r} is not on PATH)"
    include = sysconfig.get_paths().get("include") or ""
    if not Path(include, "Python.h").is_file():
        return f"Python's C headers are not installed (no Python.h in {include})"
    return None


def skip_reason(*, need_mypyc: bool = True) -> str | None:
    """Why this build will not compile (the switch, no compiler, no mypyc), or None: it will."""
    if pure_requested():
        return f"{PURE_ENV} was set when it was built"
    missing = compiler_missing()
    if missing:
        return missing
    if need_mypyc:
        import importlib.util

        if importlib.util.find_spec("mypyc") is None:
            return "mypy (mypyc) is not installed where it was built"
    return None


def python_tag(python: str | Path) -> str:
    """What a build for `python` is made for (as engine/core/accel.py's `python_tag`)."""
    code = ("import importlib.machinery, sys; print(f'{sys.implementation.cache_tag} "
            "{importlib.machinery.EXTENSION_SUFFIXES[0]}')")
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


def write_skipped(out: Path, reason: str) -> None:
    """A build folder holding no modules, whose manifest says why (read by `--version`)."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    (out / MANIFEST).write_text(json.dumps({"format": FORMAT, "skipped": reason, "modules": {}},
                                           indent=1, sort_keys=True) + "\n", encoding="utf-8")


# The generated setup script. mypyc writes one C file per module (`multi_file`): gcc's time
# grows faster than the size of one file, so 22 files compile in about 60% of the CPU time of
# the one big file, and they compile at once on every core the build may use (setuptools
# compiles the sources of one extension one after another; slipstream_ccjobs.py, copied next
# to the script, compiles the biggest first). The cost at run time is small (calls between
# modules are not inlined; docs/engine.md "Speed").
#
# The C compiler's optimisation level, mypyc's default. And on Unix compilers (gcc, clang) every
# symbol of the group's shared library but its module init is hidden (`-fvisibility=hidden`):
# mypyc declares its functions and its runtime's helpers extern, so that the 22 files can call
# each other, and in a shared library each such call then went through the PLT, the table
# that lets another library replace a symbol (about 44,000 calls in the library). Hidden, they
# are direct calls, and the compiler may inline within a file. Nothing else links to these
# symbols: each module's small library reaches the group through a capsule. Measured side by
# side on the 2-core machine (look-ahead against one greedy bot, 12 races, 3 alternating rounds,
# CPU time): Automobiles 8-9% faster than -O1 with the symbols visible (the setting before;
# -O3 alone gives 5%, and link-time optimisation nothing more), Formula Dé 3-8%, speed-hazard
# 1%; the build takes 44 s on the 2 cores instead of 40 (docs/engine.md "Speed").
OPT_LEVEL = "3"
_SETUP = """\
import os

from setuptools import setup
from mypyc.build import mypycify
from slipstream_ccjobs import compile_at_once

compile_at_once({jobs!r})
extensions = mypycify({args!r}, opt_level={opt!r}, debug_level="1", multi_file=True)
if os.name == "posix":  # gcc or clang (mypyc's own flags for them assume as much)
    for extension in extensions:
        extension.extra_compile_args = [*extension.extra_compile_args, "-fvisibility=hidden"]
setup(name="slipstream-accel", ext_modules=extensions)
"""


def build_jobs() -> int:
    """How many C files the build compiles at once: the cores this process may use, or
    SLIPSTREAM_BUILD_JOBS."""
    wanted = os.environ.get(JOBS_ENV, "")
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def compile_modules(engine: Path, out: Path, python: str | Path, log: Log = _say) -> bool:
    """Compile ACCEL from the engine sources in `engine` with `python` (which has mypyc) into
    the folder `out` (replaced): the shared library of the group, one small library per module
    under `slipstream/engine/...`, and `manifest.json` with each source's sha256. True when
    done; False when the compile failed (said through `log`, `out` left untouched)."""
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-accel-"))
    try:
        src = tmp / "src"
        # a copy of the engine as the package slipstream.engine (as installed), built in place
        shutil.copytree(engine, src / "slipstream" / "engine",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
        (src / "slipstream" / "__init__.py").write_text("")
        (src / "build").mkdir()
        jobs = build_jobs()
        (src / "build" / "setup.py").write_text(_SETUP.format(
            args=["--ignore-missing-imports", *(f"slipstream/{rel}" for rel in ACCEL)], jobs=jobs,
            opt=OPT_LEVEL))
        shutil.copy2(Path(__file__).with_name("slipstream_ccjobs.py"), src / "build")
        log(f"compiled accelerator: compiling {len(ACCEL)} modules with mypyc, {jobs} at once "
            "(under a minute) ...")
        t0 = time.monotonic()
        # as mypyc's own command does: the copy is on the import path, so the modules that are
        # not compiled are read as installed code (their typing is the type check's business)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (str(src), os.environ.get("PYTHONPATH", "")) if p)}
        done = subprocess.run([str(python), "build/setup.py", "build_ext", "--inplace"], cwd=src,
                              capture_output=True, text=True, env=env)
        groups = sorted(p for p in src.glob("*__mypyc*") if p.is_file())
        if done.returncode != 0 or len(groups) != 1:
            lines = (done.stdout + done.stderr).strip().splitlines()
            log("compiled accelerator: the compile failed, pure Python is used:\n  "
                + "\n  ".join(lines[-12:]))
            return False
        lib = tmp / "lib"
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
            digest = hashlib.sha256((src / "slipstream" / rel).read_bytes()).hexdigest()
            modules[name] = {"source": rel, "file": (folder / built[0].name).as_posix(), "sha256": digest}
        (lib / MANIFEST).write_text(json.dumps(
            {"format": FORMAT, "python": python_tag(python), "group": group.name.split(".")[0],
             "group_file": group.name, "modules": modules}, indent=1, sort_keys=True) + "\n",
            encoding="utf-8")
        shutil.rmtree(out, ignore_errors=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(lib), out)
        log(f"compiled accelerator: {len(modules)} modules compiled in {time.monotonic() - t0:.0f} s")
        return True
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
