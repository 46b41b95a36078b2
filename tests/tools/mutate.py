#!/usr/bin/env python3
"""Mutation run over a ruleset's rules: does a test or a scenario fail when a rule is broken?

    .venv/bin/python tests/tools/mutate.py RULESET [-k TEXT] [--jobs N]

One harness for every ruleset; what is broken, and what must catch it, is the ruleset's table of
mutants (tests/tools/mutants_<ruleset>.py, `TABLE`):

- automobiles: every value of every rule option (RULES §8, the pack's rules file) is read as
  another one in the module that reads it (`opts.drafting` becomes `("segment" if opts.drafting
  == "space" else opts.drafting)`), or, where a value is not a switch (season points, the round
  cap), the branch's arithmetic is off; the tests that own rule options must fail (`tests`);
- formula-de and speed-hazard: one rule of docs/rules/<ruleset>.md is broken in the source of
  one engine module (a downshift cost, a ram's dice, the race order, ...), or in the pack's own
  data (`pack:FILE`: a die's faces, a wear figure); the pack's rule scenarios must fail
  (`slipstream test content/<ruleset>`).

The module is compiled from a patched copy of its source in a fresh process (the files on disk
are never touched; a data mutant runs on a patched copy of the pack in a temporary folder), in
pure Python (SLIPSTREAM_PURE: the mutated source must be what runs, not the compiled accelerator
built from the unmutated one, engine/core/accel.py). A mutant is *caught* when a test or a
scenario fails; the run prints one line per mutant and exits non-zero unless every mutant is
caught. Not part of the normal test run; tests/tools/test_mutate.py checks that every table's
edits still apply to their modules.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("automobiles", "formula-de", "speed-hazard")


@dataclass(frozen=True)
class Mutant:
    """One broken rule: the `edits` (old text, new text) made to `module`, a dotted module name
    or `pack:FILE` for a file of the pack.

    An edit replaces the first place its old text stands, or with `every` each place where it
    stands as a whole expression (`rules.options.x` does not match inside
    `self.rules.options.x`). A mutant of a rule option names it (`option`), the value whose
    branch it breaks (`value`) and what it does instead (`as_`)."""

    module: str
    edits: tuple[tuple[str, str], ...]
    every: bool = False
    option: str = ""
    value: str = ""
    as_: str = ""

    @property
    def data(self) -> str:
        """The pack file a data mutant changes ("" for a module)."""
        return self.module[5:] if self.module.startswith("pack:") else ""

    @property
    def name(self) -> str:
        if self.option:
            return f"{self.option} {self.value}: {self.as_}"
        new = self.edits[0][1]
        return f"{self.data or self.module.rpartition('.')[2]}: {' '.join(new.split())[:70]}"


def edit(module: str, old: str, new: str) -> Mutant:
    """A mutant that replaces the first place `old` stands in `module` with `new`."""
    return Mutant(module, ((old, new),))


@dataclass(frozen=True)
class Table:
    """A ruleset's mutants and what must catch them: the pytest files `tests` or, when there are
    none, the rule scenarios of `pack` (whose files the data mutants change)."""

    ruleset: str
    about: str  # the rules the mutants break, for the report
    mutants: Sequence[Mutant]
    tests: tuple[str, ...] = ()
    pack: Path | None = None


def table(ruleset: str) -> Table:
    """The table of mutants of `ruleset` (tests/tools/mutants_<ruleset>.py)."""
    found: Table = importlib.import_module("mutants_" + ruleset.replace("-", "_")).TABLE
    return found


def apply(src: str, edits: Sequence[Sequence[str]], every: bool = False) -> str | None:
    """`src` with every edit made, or None when an edit's old text is not there (a stale mutant)."""
    for old, new in edits:
        if every:
            src, n = re.subn(r"(?<![\w.])" + re.escape(old), new.replace("\\", "\\\\"), src)
            if not n:
                return None
        elif old in src:
            src = src.replace(old, new, 1)
        else:
            return None
    return src


def mutated(src: str, m: Mutant) -> str | None:
    """`src` (of the mutant's module or pack file) with the mutant's edits, or None when stale."""
    return apply(src, m.edits, m.every)


BOOT = r"""
import importlib, importlib.abc, importlib.machinery, json, sys
spec_in = json.loads(sys.argv[1])
target = spec_in["module"]  # "" for a data mutant: no module is changed
sys.path.insert(0, spec_in["tools"])
from mutate import apply

class Loader(importlib.machinery.SourceFileLoader):
    def get_code(self, fullname):
        src = apply(self.get_data(self.path).decode("utf-8"), spec_in["edits"], spec_in["every"])
        if src is None:
            print(f"MUTANT-INVALID: an edit does not apply to {target}", file=sys.stderr)
            sys.exit(99)
        return compile(src, self.path, "exec", dont_inherit=True)

class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target_=None):
        if fullname != target:
            return None
        for f in sys.meta_path:
            if f is self or not hasattr(f, "find_spec"):
                continue
            spec = f.find_spec(fullname, path, target_)
            if spec is not None:
                spec.loader = Loader(fullname, spec.origin)
                return spec
        return None

sys.meta_path.insert(0, Finder())
if target:
    importlib.import_module(target)  # a mutant must compile and apply
if spec_in["tests"]:
    from hypothesis import settings
    # the same examples for every mutant, and no mutant's failures left in the example database
    settings.register_profile("mutants", database=None, derandomize=True)
    settings.load_profile("mutants")
    import pytest
    sys.exit(pytest.main(["-q", "-x", "-p", "no:cacheprovider", *spec_in["tests"]]))
from slipstream.engine.play.registry import get
report = get(spec_in["ruleset"]).scenarios.run_folder(spec_in["pack"])
failed = [r.id for r in report.results if not r.ok]
print(json.dumps({"failed": failed, "malformed": len(report.diagnostics), "ran": len(report.results)}))
sys.exit(1 if failed or report.diagnostics else 0)
"""


def run(t: Table, m: Mutant) -> tuple[Mutant, str, str, float]:
    """Run one mutant in a fresh process: `caught` (with the first failing tests), `NOT CAUGHT`
    or `INVALID` (an edit no longer applies)."""
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        pack = t.pack
        if m.data and t.pack is not None:  # a copy of the pack with the one file changed
            out = mutated((t.pack / m.data).read_text(encoding="utf-8"), m)
            if out is None:
                return m, "INVALID", f"the edit does not apply to {m.data}", time.perf_counter() - t0
            pack = Path(tmp) / t.pack.name
            shutil.copytree(t.pack, pack)
            (pack / m.data).write_text(out, encoding="utf-8")
        arg = json.dumps({"module": "" if m.data else m.module, "edits": m.edits, "every": m.every,
                          "tests": list(t.tests), "ruleset": t.ruleset, "pack": str(pack),
                          "tools": str(Path(__file__).parent)})
        proc = subprocess.run([sys.executable, "-c", BOOT, arg], cwd=ROOT, capture_output=True, text=True,
                              env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "SLIPSTREAM_PURE": "1"})
    dt = time.perf_counter() - t0
    if proc.returncode == 99:
        return m, "INVALID", proc.stderr.strip().splitlines()[-1], dt
    if proc.returncode == 0:
        return m, "NOT CAUGHT", "", dt
    if t.tests:
        failed = [ln for ln in proc.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        return m, "caught", (failed[0].split(" - ")[0] if failed else f"exit {proc.returncode}"), dt
    try:
        out = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        # the engine raised: the scenarios did not pass either, but say so
        return m, "caught", "crash: " + (proc.stderr.strip().splitlines() or ["?"])[-1], dt
    return m, "caught", ", ".join(out["failed"][:4]) + (" ..." if len(out["failed"]) > 4 else ""), dt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ruleset", choices=RULESETS)
    ap.add_argument("-k", default="", help="only mutants whose name contains this")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    t = table(args.ruleset)
    todo = [m for m in t.mutants if args.k in m.name]
    by = " ".join(t.tests) if t.tests else f"the scenarios of {t.pack.relative_to(ROOT) if t.pack else '?'}/tests"
    print(f"{len(todo)} mutants of {t.about}; caught by: {by}")
    bad = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for m, result, detail, dt in pool.map(lambda m: run(t, m), todo):
            bad += result != "caught"
            print(f"{result:11} {m.name:78} {detail} ({dt:.1f}s)", flush=True)
    print(f"{len(todo) - bad} of {len(todo)} mutants caught")
    return 1 if bad else 0


if __name__ == "__main__":
    import mutate  # the tables build their mutants from this module as `mutate`, not `__main__`

    sys.exit(mutate.main())
