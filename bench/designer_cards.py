#!/usr/bin/env python3
"""Races with the designer packs' cards in play (the acceptance runs of issues 17 and 34), or
with a ruleset's designer items in play (`--ruleset formula-de`: issue 34).

    .venv/bin/python bench/designer_cards.py [--random 1000] [--greedy 200] [--seed 0] [--replay-every 10] [--pack DIR ...]
    .venv/bin/python bench/designer_cards.py --ruleset formula-de [--random 1000] [--greedy 200]
    .venv/bin/python bench/designer_cards.py --ruleset speed-hazard [--random 1000] [--greedy 200] [--lookahead 7]

Plays `--random` races of 2-5 random bots, `--greedy` races of 2-4 greedy bots and
`--lookahead` races of a look-ahead bot against two greedy ones on the base tracks (alternating), spread evenly over every card set of each designer pack (tests/packs/designer-cards and
tests/packs/designer-cards-2 unless `--pack` names others; each pack gets the full counts), seeds
counting up from `--seed`. Every `--replay-every`-th race is played twice (byte-identical log)
and its log replayed. Prints progress, the number of cubes played per designer card (each
card must be played, else that is an error too), races that reached the round cap, and exits
non-zero on any error (a crash, a log that differs, a card never played).

With `--ruleset formula-de` the races are those of tests/rulesets/formula_de/fd_designer_races.py:
2-6 random or greedy bots on the designer circuit, the two designer packs in turn (weather by
schedule, by deck), 2 laps (every fourth race 1); it counts per designer item (wear category,
corner kind, weather condition, schedule, deck) how often it came into play, and an item never
in play is an error.

With `--ruleset speed-hazard` the same batch as for a designer card pack runs on
tests/packs/designer-speed-hazard, driven by tests/rulesets/speed_hazard/designer_races.py (its
`PACK`, `GROUPS`, `card_sets()` - three sets of rule options the races cycle through -,
`designer_cards()`, `field()`, `checked_race()`): races on the Redline Loop, and an item counts
as played when an action or equipment card is played, a nitrous or hazard card drawn or an
equipment card kept.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "rulesets" / "automobiles"))

import designer_races  # noqa: E402


def races_module(ruleset: str):  # type: ignore[no-untyped-def]
    """tests/rulesets/<ruleset>/designer_races.py, imported under a name of its own."""
    name = ruleset.replace("-", "_")
    spec = importlib.util.spec_from_file_location(f"designer_races_{name}",
                                                  ROOT / "tests" / "rulesets" / name / "designer_races.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--random", type=int, default=1000, help="random-bot races (default 1000)")
    ap.add_argument("--greedy", type=int, default=200, help="greedy races (default 200)")
    ap.add_argument("--lookahead", type=int, default=7,
                    help="races of one look-ahead bot against two greedy ones (default 7: one a set)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first race (default 0)")
    ap.add_argument("--replay-every", type=int, default=10, metavar="K",
                    help="play twice and replay every K-th race (default 10; 0: none)")
    ap.add_argument("--pack", action="append", metavar="DIR",
                    help="a pack folder (repeatable; default: both designer packs)")
    ap.add_argument("--ruleset", default="automobiles", choices=("automobiles", "formula-de", "speed-hazard"),
                    help="whose designer content to race (default automobiles: the designer cards)")
    a = ap.parse_args()
    if a.ruleset == "formula-de":
        return items_batch(a)
    if a.ruleset == "speed-hazard":
        sh = races_module(a.ruleset)
        sh.PACK = (a.pack or [sh.PACK])[0]
        print(f"== {Path(sh.PACK).name}")
        return run_pack(a, sh)
    failed = 0
    for pack in a.pack or list(designer_races.PACKS):
        designer_races.PACK = pack
        print(f"== {Path(pack).name}")
        failed += run_pack(a)
    return 1 if failed else 0


def run_pack(a: argparse.Namespace, races=designer_races) -> int:  # type: ignore[no-untyped-def]
    """The batch for the pack `races.PACK` (`races`: a ruleset's designer_races module); 1 on any error."""
    card_sets, checked_race, designer_cards, field = races.card_sets, races.checked_race, races.designer_cards, races.field
    sets = card_sets()
    cards = designer_cards()
    kinds = (("random", a.random), ("greedy", a.greedy), ("lookahead", a.lookahead))
    played: dict[str, Counter[str]] = {kind: Counter() for kind, _n in kinds}
    errors: list[str] = []
    capped: Counter[str] = Counter()
    rounds: Counter[str] = Counter()
    t0 = time.perf_counter()
    k = 0
    for kind, count in kinds:
        for i in range(count):
            seed = a.seed + i
            cs = sets[i % len(sets)]
            try:
                res, n = checked_race(cs, seed, field(kind, seed),
                                      replay=bool(a.replay_every) and k % a.replay_every == 0)
            except Exception as e:  # noqa: BLE001 - every failure is reported with its seed
                errors.append(f"{kind} {cs} seed {seed}: {type(e).__name__}: {e}")
                traceback.print_exc(file=sys.stderr)
            else:
                played[kind].update(n)
                capped[kind] += res.capped
                rounds[kind] += res.rounds
            k += 1
            if (i + 1) % 50 == 0 or i + 1 == count:
                print(f"  {kind}: {i + 1}/{count} races, {len(errors)} errors, "
                      f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    never = sorted(c for c in cards if not sum(played[kind][c] for kind, _n in kinds))
    errors += [f"card {c} was never played" for c in never]
    print(f"{a.random} random-bot, {a.greedy} greedy and {a.lookahead} look-ahead races over the card sets {', '.join(sets)} "
          f"(seeds from {a.seed}): {len(errors)} errors")
    for kind, count in kinds:
        if count:
            print(f"  {kind}: {rounds[kind] / count:.1f} rounds a race, {capped[kind]} reached the round cap")
    print(f"  {getattr(races, 'PLAYED', 'cubes played')} per designer card (random / greedy / look-ahead races):")
    for group in races.GROUPS:
        row = [f"{c} {'/'.join(str(played[kind][c]) for kind, _n in kinds)}" for c in sorted(cards) if cards[c] == group]
        print(f"    {group}: {', '.join(row)}")
    print(f"  {time.perf_counter() - t0:.1f} s wall")
    for e in errors:
        print(f"ERROR {e}")
    return 1 if errors else 0


def items_batch(a: argparse.Namespace) -> int:
    """The Formula Dé-style designer items in `--random` random and `--greedy` greedy races."""
    sys.path.insert(0, str(ROOT / "tests" / "rulesets" / "formula_de"))
    from fd_designer_races import ITEMS, PACKS, checked_race
    from fd_designer_races import field as fd_field

    kinds = (("random", a.random), ("greedy", a.greedy))
    seen: dict[str, Counter[str]] = {kind: Counter() for kind, _n in kinds}
    errors: list[str] = []
    capped: Counter[str] = Counter()
    rounds: Counter[str] = Counter()
    finished: Counter[str] = Counter()
    t0 = time.perf_counter()
    k = 0
    for kind, count in kinds:
        for i in range(count):
            seed = a.seed + i
            pack = PACKS[i % len(PACKS)]
            try:
                res, n = checked_race(pack, seed, fd_field(kind, seed),
                                      replay=bool(a.replay_every) and k % a.replay_every == 0)
            except Exception as e:  # noqa: BLE001 - every failure is reported with its seed
                errors.append(f"{kind} {pack} seed {seed}: {type(e).__name__}: {e}")
                traceback.print_exc(file=sys.stderr)
            else:
                seen[kind].update(n)
                capped[kind] += res.capped
                rounds[kind] += res.rounds
                finished[kind] += res.stats.get("finished", 0)
            k += 1
            if (i + 1) % 100 == 0 or i + 1 == count:
                print(f"  {kind}: {i + 1}/{count} races, {len(errors)} errors, "
                      f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    errors += [f"item {it} never came into play" for it in ITEMS if not sum(seen[kind][it] for kind, _n in kinds)]
    print(f"{a.random} random-bot and {a.greedy} greedy races of the Formula Dé-style designer packs "
          f"{', '.join(PACKS)} (seeds from {a.seed}): {len(errors)} errors")
    for kind, count in kinds:
        if count:
            print(f"  {kind}: {rounds[kind] / count:.1f} rounds a race, {finished[kind]} cars finished, "
                  f"{capped[kind]} reached the round cap")
    print("  times each designer item came into play (random / greedy races):")
    for it in ITEMS:
        print(f"    {it}: {' / '.join(str(seen[kind][it]) for kind, _n in kinds)}")
    print(f"  {time.perf_counter() - t0:.1f} s wall")
    for e in errors:
        print(f"ERROR {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
