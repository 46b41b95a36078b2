#!/usr/bin/env python3
"""Mutation run over the rule options (RULES §8, the pack's rules file): is every branch caught?

    .venv/bin/python tests/tools/mutate_options.py [-k SUBSTRING] [--jobs N]

For every option and each of its values, the code that reads the option is changed so that the
value is read as another one (`opts.drafting` becomes `("segment" if opts.drafting == "space"
else opts.drafting)`), or, where a value is not a switch (season points, the round cap), the
branch's arithmetic is changed. The mutated module is compiled from a patched copy of its source
in a fresh process (the files on disk are never touched), and the tests that own rule options run
there, stopping at the first failure. A mutant is *caught* when a test fails. Not part of the
normal test run: it runs the option tests once per mutant (about a minute in all on one core).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Tests that own rule options: the rule tests, the base pack's scenarios (`slipstream test`),
# the property races and the season tests (season options, the wear stock between races).
# The long season batches run last, so a caught mutant stops early.
TESTS = ["tests/rulesets/automobiles/test_options.py", "tests/rulesets/automobiles/test_movement_rules.py",
         "tests/rulesets/automobiles/test_scenarios.py", "tests/rulesets/automobiles/test_properties.py",
         *sorted((str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "rulesets" / "automobiles" / "season").glob("test_*.py")),
                 key=lambda p: ("acceptance" in p or "strong" in p, p))]


@dataclass(frozen=True)
class Mutant:
    option: str
    value: str  # the value whose branch is broken
    as_: str  # what the mutant does instead
    module: str
    edits: tuple[tuple[str, str], ...]  # (old, new); every occurrence of old in the module


def switch(option: str, sites: dict[str, list[str]], values: list[object]) -> list[Mutant]:
    """For each value and each other value, per module: read the value as the other one."""
    out = []
    for v in values:
        for w in values:
            if w == v:
                continue
            for module, reads in sites.items():
                edits = tuple((r, f"({w!r} if ({r}) == {v!r} else ({r}))") for r in reads)
                where = f" ({module.rpartition('.')[2]})" if len(sites) > 1 else ""
                out.append(Mutant(option, repr(v), f"read as {w!r}{where}", module, edits))
    return out


E = "slipstream.engine.rulesets.automobiles."
MOVE, GAME, PHASES, EFFECTS, SEASON, OPTIONS = (E + m for m in
                                                ("movement", "game", "phases", "effects", "season", "options"))
B = [True, False]

MUTANTS: list[Mutant] = [
    *switch("weaving", {MOVE: ["opts.weaving"]}, B),
    *switch("momentum", {MOVE: ["opts.momentum"]}, ["slide", "none"]),
    *switch("drivers_in_single_races", {GAME: ["rules.options.drivers_in_single_races"]}, B),
    *switch("strict_play", {PHASES: ["rs.options.strict_play"]}, B),
    *switch("unlimited_wear", {GAME: ["rules.options.unlimited_wear"],
                               SEASON: ["rules.options.unlimited_wear",
                                        "self.rules.options.unlimited_wear"]}, B),
    *switch("wear_card_playable", {PHASES: ["rs.options.wear_card_playable"]}, B),
    *switch("turn_order", {GAME: ["self.rules.options.turn_order"]}, ["fixed", "position"]),
    *switch("occupancy", {MOVE: ["opts.occupancy"]}, ["segment", "space", "unlimited"]),
    *switch("drafting", {MOVE: ["opts.drafting"]}, ["segment_or_space", "segment", "space"]),
    *switch("placement_chain", {EFFECTS: ["opts.placement_chain", "g.rules.options.placement_chain"]}, B),
    *switch("positions_count_laps", {MOVE: ["opts.positions_count_laps"]}, B),
    *switch("refill_on_any_draw", {GAME: ["self.rules.options.refill_on_any_draw"]}, B),
    # gains_to is compared, not read: flip the comparison's result
    Mutant("gains_to", "'discard'", "read as 'used'", GAME,
           (('self.rules.options.gains_to == "discard"', "False"),)),
    Mutant("gains_to", "'used'", "read as 'discard'", GAME,
           (('self.rules.options.gains_to == "discard"', "True"),)),
    # full_spaces has one implemented value; other values must be refused, not run
    Mutant("full_spaces", "'block'", "other values accepted", OPTIONS,
           (('choices=("block", "pass"), supported=("block",)', 'choices=("block", "pass")'),)),
    Mutant("max_rounds", "N", "cap one round later", GAME,
           (("race.round >= self.rules.options.max_rounds", "race.round > self.rules.options.max_rounds"),)),
    *switch("drivers (season)", {SEASON: ["self.config.drivers"]}, B),
    Mutant("season_grid", "'winner_pole'", "read as 'reverse'", SEASON,
           (('list(finish) if mode == "winner_pole"', 'list(finish) if mode == "never"'),)),
    Mutant("season_grid", "'reverse'", "read as 'winner_pole'", SEASON,
           (('list(finish) if mode == "winner_pole"', "list(finish) if True"),)),
    *switch("season_grid_purchase", {SEASON: ["self.config.grid_purchase"]}, B),
    Mutant("season_points", "'players_minus_place'", "one point less", SEASON,
           (("return players - place + 1", "return players - place"),)),
    Mutant("season_points", "[list]", "read one place off", SEASON,
           (("return self.points[place - 1] if place <= len(self.points)",
             "return self.points[place % len(self.points)] if place <= len(self.points)"),)),
    *switch("sponsor_level_by_draft", {SEASON: ["self.config.level_by_draft"]}, B),
]

def mutated(src: str, edits: Sequence[Sequence[str]]) -> str | None:
    """`src` with every edit applied, or None when an edit's text is not there (a stale mutant).

    Whole expressions only: `rules.options.x` does not match inside `self.rules.options.x`.
    """
    for old, new in edits:
        src, n = re.subn(r"(?<![\w.])" + re.escape(old), lambda _, new=new: new, src)
        if not n:
            return None
    return src


BOOT = r"""
import importlib.abc, importlib.machinery, importlib.util, json, sys
spec_in = json.loads(sys.argv[1])
target = spec_in["module"]
sys.path.insert(0, spec_in["tools"])
from mutate_options import mutated

class Loader(importlib.machinery.SourceFileLoader):
    def get_code(self, fullname):
        src = mutated(self.get_data(self.path).decode("utf-8"), spec_in["edits"])
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
importlib.import_module(target)  # a mutant must compile and apply
from hypothesis import settings
# the same examples for every mutant, and no mutant's failures left in the example database
settings.register_profile("mutants", database=None, derandomize=True)
settings.load_profile("mutants")
import pytest
sys.exit(pytest.main(["-q", "-x", "-p", "no:cacheprovider", *spec_in["tests"]]))
"""


def run(m: Mutant) -> tuple[Mutant, str, str, float]:
    t0 = time.perf_counter()
    arg = json.dumps({"module": m.module, "edits": m.edits, "tests": TESTS, "tools": str(Path(__file__).parent)})
    # pure Python (SLIPSTREAM_PURE): a mutated source must be what runs, not the compiled
    # accelerator built from the unmutated one (engine/core/accel.py)
    proc = subprocess.run([sys.executable, "-c", BOOT, arg], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "SLIPSTREAM_PURE": "1"})
    dt = time.perf_counter() - t0
    if proc.returncode == 99:
        return m, "INVALID", proc.stderr.strip().splitlines()[-1], dt
    if proc.returncode == 0:
        return m, "NOT CAUGHT", "", dt
    failed = [ln for ln in proc.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
    return m, "caught", (failed[0].split(" - ")[0] if failed else f"exit {proc.returncode}"), dt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", default="", help="only mutants whose option contains this")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    todo = [m for m in MUTANTS if args.k in m.option]
    print(f"{len(todo)} mutants; tests: {' '.join(TESTS)}")
    print(f"{'option':24} {'value broken':22} {'mutant':34} {'result':11} first failing test")
    bad = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for m, result, detail, dt in pool.map(run, todo):
            bad += result != "caught"
            print(f"{m.option:24} {m.value:22} {m.as_:34} {result:11} {detail} ({dt:.0f}s)", flush=True)
    print(f"{len(todo) - bad} of {len(todo)} mutants caught")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
