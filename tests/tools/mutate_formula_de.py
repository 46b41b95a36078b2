#!/usr/bin/env python3
"""Mutation run over the Formula Dé-style rules: does a scenario fail when a rule is broken?

    .venv/bin/python tests/tools/mutate_formula_de.py [-k TEXT] [--jobs N]

Each mutant breaks one rule of docs/rules/formula-de.md in the source of one engine module
(rules.py, game.py or moves.py: a downshift cost, the blocked-lane limit, the collision order,
the race order, ...), or in the pack's own data (`pack:FILE`: a die's faces, a wear figure:
a data rule is a scenario too). The module is compiled from a patched copy of its source in a
fresh process (the files on disk are never touched; a data mutant runs on a patched copy of
the pack in a temporary folder), and the pack's rule scenarios run there
(`slipstream test content/formula-de`). A mutant is *caught* when a scenario fails; the run
exits non-zero unless every mutant is caught. Not part of the normal test run (about a
second per mutant); tests/tools/test_mutate_formula_de.py checks that every edit still applies.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACK = ROOT / "content" / "formula-de"
PKG = "slipstream.engine.rulesets.formula_de."
RULES, GAME, MOVES, PITLANE, CONTENT = PKG + "rules", PKG + "game", PKG + "moves", PKG + "pitlane", PKG + "content"


@dataclass(frozen=True)
class Mutant:
    module: str  # a module, or `pack:FILE` for a file of the pack
    old: str  # text of the module, replaced once
    new: str

    @property
    def data(self) -> str:
        """The pack file a data mutant changes ("" for a module)."""
        return self.module[5:] if self.module.startswith("pack:") else ""

    @property
    def name(self) -> str:
        return f"{self.data or self.module.rpartition('.')[2]}: {' '.join(self.new.split())[:70]}"


MUTANTS = [
    Mutant(RULES, '    if skip >= 2:\n        cost["brakes"] = 1',
           '    if skip >= 3:\n        cost["brakes"] = 1'),
    Mutant(RULES, '    if skip >= 3:\n        cost["engine"] = 1',
           '    if skip >= 4:\n        cost["engine"] = 1'),
    Mutant(RULES, 'MAX_SKIP: Final = 3',
           'MAX_SKIP: Final = 4'),
    Mutant(RULES, 'MAX_ABSORB: Final = 7',
           'MAX_ABSORB: Final = 6'),
    Mutant(RULES, '    if absorbed <= 3:\n        return {"brakes": absorbed}',
           '    if absorbed <= 4:\n        return {"brakes": absorbed}'),
    Mutant(RULES, '(required >= 3 and made <= 1)',
           '(required >= 3 and made == 0)'),
    Mutant(RULES, '(required == 2 and made == 0)',
           '(required == 2 and made < 0)'),
    Mutant(RULES, 'ONE_LAP_TYRE_LIMIT: Final = 4',
           'ONE_LAP_TYRE_LIMIT: Final = 5'),
    Mutant(RULES, '    if owed == tyres:\n        return 0, "spin"',
           '    if owed == tyres:\n        return 0, "ok"'),
    Mutant(RULES, '        return 0, "spin" if owed == 1 else "out"',
           '        return 0, "spin"'),
    Mutant(RULES, '    return 0, "out"\n',
           '    return 0, "spin"\n'),
    Mutant(RULES, '    return gear >= 5 and roll == max(faces)',
           '    return gear >= 6 and roll == max(faces)'),
    Mutant(RULES, 'ENGINE_DAMAGE_MAX: Final = 4',
           'ENGINE_DAMAGE_MAX: Final = 3'),
    Mutant(RULES, '    return roll == 1\n',
           '    return roll <= 2\n'),
    Mutant(RULES, '    if roll == 1:\n        return "stall"',
           '    if roll == 0:\n        return "stall"'),
    Mutant(RULES, 'FLYING_START_SQUARES: Final = 4',
           'FLYING_START_SQUARES: Final = 3'),
    Mutant(RULES, '        for value in sorted(set(rolls.values())):',
           '        for value in sorted(set(rolls.values()), reverse=True):'),
    Mutant(RULES, '            out += tied if len(tied) == 1 else order(tied)',
           '            out += tied'),
    Mutant(GAME, '            if g > car.gear + 1:\n                continue',
           '            if g > car.gear + 2:\n                continue'),
    Mutant(GAME, '            if cost and self.points(car, "transmission") == 0:\n                continue',
           '            if False:\n                continue'),
    Mutant(GAME, '        for q in near:\n            roll = self.black()\n            self.event("collision-roll", p=q, roll=roll)\n            if rules.collision_hit(roll):\n                self._body_hit(self.cars[q], "collision")\n        for q in near:\n            if car.out:\n                return\n            if self.cars[q].out:\n                self._body_hit(car, "collision")\n                continue\n',
           '        for q in near:\n            roll = self.black()\n            self.event("collision-roll", p=q, roll=roll)\n            if rules.collision_hit(roll):\n                self._body_hit(self.cars[q], "collision")\n        for q in near:\n            if car.out:\n                return\n'),
    Mutant(GAME, '            if c.gear < 5 or c.pit >= 0:  # engine damage is suspended in the pit lane\n                continue',
           '            if c.gear < 5 or c.pit >= 0 or c.seat != roller:\n                continue'),
    Mutant(GAME, '            self.event("spin", p=car.seat)\n            car.gear, car.spun = 1, True\n',
           '            self.event("spin", p=car.seat)\n            car.spun = True\n'),
    Mutant(GAME, '        if not nocount:\n            car.stops += 1',
           '        if True:\n            car.stops += 1'),
    Mutant(GAME, '                return sp.index, track.grid_progress(gs) - back - extra',
           '                return sp.index, (track.grid_progress(gs) if slot else 0) - back - extra'),
    Mutant(GAME, '                if roll - k > brakes:\n                    break',
           '                if roll - k > brakes + 1:\n                    break'),
    Mutant(GAME, '            if blocker is not None:\n                self._body_hit(self.cars[blocker], "blocking")',
           '            if blocker is not None:\n                pass'),
    Mutant(GAME, '        self.queue = [c.seat for c in sorted(self.running(), key=lambda c: (-c.progress, spaces[c.node].lane))]',
           '        self.queue = [c.seat for c in sorted(self.running(), key=lambda c: (c.progress, spaces[c.node].lane))]'),
    Mutant(GAME, '        if car.progress >= self.laps * self.track.segments:',
           '        if car.progress > self.laps * self.track.segments:'),
    Mutant(GAME, '        if owed and not self.pool and self.points(car, "brakes") > 0:',
           '        if False:'),
    Mutant(GAME, '        most = min(t.owed, self.points(self.cars[t.car], "brakes"))',
           '        most = min(t.owed - 1, self.points(self.cars[t.car], "brakes"))'),
    Mutant(GAME, '        self.pool = options.get("wear_model", "advanced") == "basic"',
           '        self.pool = False'),
    Mutant(GAME, '        self.diagonal = bool(options.get("collision_diagonal", True))',
           '        self.diagonal = True'),
    Mutant(GAME, '        self.needs_points = bool(options.get("downshift_needs_points", True))',
           '        self.needs_points = True'),
    Mutant(GAME, '        return self.finished + [c.seat for c in running] + list(reversed(self.eliminated))',
           '        return self.finished + [c.seat for c in running] + list(self.eliminated)'),
    Mutant(MOVES, '                if to in occupied or (locked',
           '                if (locked'),
    Mutant(MOVES, '                st = (to, locked or k in lock_after)',
           '                st = (to, locked)'),
    Mutant(MOVES, '        if made < need:',
           '        if made < need - 1:'),
    Mutant(GAME, '        near = self.neighbours(car)\n',
           '        near = self.neighbours(car)[::-1]\n'),
    Mutant(GAME, '        faces = self.tables.gears[car.gear - 1]\n        roll = faces[',
           '        faces = self.tables.gears[max(0, car.gear - 2)]\n        roll = faces['),
    Mutant(GAME, '            if kind == "flying":\n                t.roll, t.flying = rules.FLYING_START_SQUARES, True',
           '            if kind in ("flying", "normal"):\n                t.roll, t.flying = rules.FLYING_START_SQUARES, True'),
    Mutant(GAME, 'key=lambda c: (-c.progress, spaces[c.node].lane))]',
           'key=lambda c: (-c.progress, -spaces[c.node].lane))]'),
    Mutant(CONTENT, '    return {c: int(table[row][c]) for c in CATEGORIES}',
           '    return {c: int(table[min(table)][c]) for c in CATEGORIES}'),
    Mutant(GAME, '        if not car.started or car.spun:  # the start, and the turn after a spin: 1st only\n            return [1]',
           '        if not car.started or car.spun:\n            return [1, 2]'),
    Mutant(GAME, '            if kind == "stall":\n                if self.stall_first:',
           '            if kind == "never":\n                if self.stall_first:'),
    Mutant(GAME, '        if c.index != car.corner:\n            car.corner, car.stops = c.index, 0',
           '        if c.index != car.corner:\n            car.corner = c.index'),
    # the pit stop, several cars a player, the flying start's swerve
    Mutant(GAME, '            t.phase, t.pit_steps = "pit", k',
           '            t.phase, t.pit_steps = "move", k'),
    Mutant(GAME, '        if r is None or self.laps < 2 or car.pit >= 0:',
           '        if r is None or car.pit >= 0:'),
    Mutant(GAME, 'or r.first in self.pit_occupied():',
           'or False:'),
    Mutant(GAME, '        if self.pit_max_gear and car.gear > self.pit_max_gear:',
           '        if self.pit_max_gear and car.gear > self.pit_max_gear + 1:'),
    Mutant(GAME, '        cost = {} if car.pit >= 0 else rules.downshift_cost(car.gear, gear) or {}',
           '        cost = rules.downshift_cost(car.gear, gear) or {}'),
    Mutant(GAME, '            if c.gear < 5 or c.pit >= 0:',
           '            if c.gear < 5:'),
    Mutant(GAME, '        ahead = min((q for q in self.pit_occupied(car.seat) if q > pos), default=None)',
           '        ahead = None'),
    Mutant(GAME, '            gain = self._full_wear()["tyres"] - car.wear["tyres"]',
           '            gain = 0'),
    Mutant(PITLANE, '        return "quick", (roll + 1) // 2',
           '        return "quick", roll // 2'),
    Mutant(PITLANE, 'QUICK_STOP_NEXT = (3, 4, 5)',
           'QUICK_STOP_NEXT = (3, 4, 5, 6)'),
    Mutant(PITLANE, 'SLOW_STOP_MAX_GEAR = 4',
           'SLOW_STOP_MAX_GEAR = 5'),
    Mutant(GAME, '            rest = pos + steps - r.last - 1',
           '            rest = pos + steps - r.last'),
    Mutant(GAME, 'and r.exit not in self.occupied(car.seat):',
           ':'),
    Mutant(PITLANE, '    span = (dst.first - src.first) % track.segments',
           '    span = dst.first - src.first'),
    Mutant(GAME, '                t.targets = self.swerve_targets(car, t.roll)',
           '                t.targets = self.targets(car, t.roll)'),
    Mutant(GAME, '        who = self.owner[t.car]',
           '        who = t.car'),
    Mutant(GAME, '        car, parts = self.cars[self.turn.car], key.split()',
           '        car, parts = self.cars[d.player], key.split()'),
    Mutant(GAME, '        return list(dict.fromkeys(self.owner[c] for c in order))',
           '        return list(dict.fromkeys(self.owner[c] for c in order[::-1]))[::-1]'),
    Mutant(GAME, '        back = depth * (slot // len(grid))',
           '        back = 0'),
    # the pack's data (RULES A.4): the dice faces and the sourced 1-lap wear figures
    Mutant("pack:gears.yaml", '{gear: 2, faces: [2, 3, 3, 4, 4, 4]}', '{gear: 2, faces: [2, 3, 3, 3, 4, 4]}'),
    Mutant("pack:gears.yaml", 'black_die: 20', 'black_die: 12'),
    Mutant("pack:wear.yaml", '{laps: 1, tyres: 4, brakes: 3,', '{laps: 1, tyres: 5, brakes: 3,'),
    Mutant("pack:wear.yaml", 'basic_pool: 18', 'basic_pool: 20'),
    # issue 30: the turn after a spin or a stall, the 1-lap tyre limit, the swerve, the causes
    Mutant(GAME, '        if not car.started or car.spun:  # the start, and the turn after a spin: 1st only',
           '        if not car.started:'),
    Mutant(GAME, '        car.next_gears, car.spun = (), False\n',
           '        car.next_gears = ()\n'),
    Mutant(GAME, '                if self.stall_first:  # it starts the next turn in 1st gear (option)',
           '                if False:'),
    Mutant(GAME, '        self.stall_first = bool(options.get("stall_first_gear", True))',
           '        self.stall_first = True'),
    Mutant(GAME, '            car.tyre_toll += tyres  # all the overshoot demands, also beyond the points left',
           '            car.tyre_toll += have - left'),
    Mutant(GAME, '        return self.laps == 1 and not self.pool and car.tyre_toll > rules.ONE_LAP_TYRE_LIMIT',
           '        return self.laps == 1 and not self.pool and car.tyre_toll > rules.ONE_LAP_TYRE_LIMIT and car.wear["tyres"] > 0'),
    Mutant(GAME, '        self.toll_all = options.get("tyre_limit_counts", "overshoots") == "all"',
           '        self.toll_all = False'),
    Mutant(GAME, '            if self.toll_all and cost.get("tyres", 0):',
           '            if cost.get("tyres", 0):'),
    Mutant(GAME, '                car.tyre_toll += cost["tyres"]\n                if self._over_tyre_limit(car):',
           '                car.tyre_toll += cost["tyres"]\n                if False:'),
    Mutant(GAME, '        return rules.SWERVE_LANES if self.swerve_total else -1',
           '        return -1'),
    Mutant(GAME, '        self.swerve_total = options.get("flying_start_swerve", "two-lanes") == "two-lanes"',
           '        self.swerve_total = True'),
    Mutant(RULES, 'SWERVE_LANES: Final = 2',
           'SWERVE_LANES: Final = 3'),
    Mutant(MOVES, '                if most >= 0 and abs(spaces[st[0]].lane - home) > most:',
           '                if most >= 0 and abs(spaces[st[0]].lane - home) > most + 1:'),
    Mutant(GAME, '            self.eliminate(car, "engine" if engine_out else "downshift")',
           '            self.eliminate(car, "downshift")'),
    Mutant(GAME, '            self.eliminate(car, "engine" if engine_out else "downshift")',
           '            self.eliminate(car, "engine")'),
]


def mutated(src: str, m: Mutant) -> str | None:
    """`src` with the mutant's edit, or None when its text is not there (a stale mutant)."""
    return src.replace(m.old, m.new, 1) if m.old in src else None


BOOT = r"""
import importlib.abc, importlib.machinery, json, sys
spec_in = json.loads(sys.argv[1])
target = spec_in["module"]  # "" for a data mutant: no module is changed

class Loader(importlib.machinery.SourceFileLoader):
    def get_code(self, fullname):
        src = self.get_data(self.path).decode("utf-8")
        if spec_in["old"] not in src:
            print(f"MUTANT-INVALID: the edit does not apply to {target}", file=sys.stderr)
            sys.exit(99)
        return compile(src.replace(spec_in["old"], spec_in["new"], 1), self.path, "exec", dont_inherit=True)

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
from slipstream.engine.play.registry import get
report = get("formula-de").scenarios.run_folder(spec_in["pack"])
failed = [r.id for r in report.results if not r.ok]
print(json.dumps({"failed": failed, "malformed": len(report.diagnostics), "ran": len(report.results)}))
sys.exit(1 if failed or report.diagnostics else 0)
"""


def run(m: Mutant) -> tuple[Mutant, str, str, float]:
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        pack = PACK
        if m.data:  # a copy of the pack with the one file changed
            pack = Path(tmp) / "formula-de"
            shutil.copytree(PACK, pack)
            src = (pack / m.data).read_text(encoding="utf-8")
            if m.old not in src:
                return m, "INVALID", f"the edit does not apply to {m.data}", time.perf_counter() - t0
            (pack / m.data).write_text(mutated(src, m) or src, encoding="utf-8")
        arg = json.dumps({"module": "" if m.data else m.module, "old": m.old, "new": m.new, "pack": str(pack)})
        # pure Python (SLIPSTREAM_PURE): a mutated source must be what runs, not the compiled
        # accelerator built from the unmutated one (engine/core/accel.py)
        proc = subprocess.run([sys.executable, "-c", BOOT, arg], cwd=ROOT, capture_output=True, text=True,
                              env={**os.environ, "SLIPSTREAM_PURE": "1"})
    dt = time.perf_counter() - t0
    if proc.returncode == 99:
        return m, "INVALID", proc.stderr.strip().splitlines()[-1], dt
    try:
        out = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        # the engine raised: the scenarios did not pass either, but say so
        return m, "caught", "crash: " + (proc.stderr.strip().splitlines() or ["?"])[-1], dt
    if proc.returncode == 0:
        return m, "NOT CAUGHT", "", dt
    return m, "caught", ", ".join(out["failed"][:4]) + (" ..." if len(out["failed"]) > 4 else ""), dt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", default="", help="only mutants whose name contains this")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    todo = [m for m in MUTANTS if args.k in m.name]
    print(f"{len(todo)} mutants of the Formula Dé-style rules; scenarios: content/formula-de/tests")
    bad = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for m, result, detail, dt in pool.map(run, todo):
            bad += result != "caught"
            print(f"{result:11} {m.name:78} {detail} ({dt:.1f}s)", flush=True)
    print(f"{len(todo) - bad} of {len(todo)} mutants caught")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
