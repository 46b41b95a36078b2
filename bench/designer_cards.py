#!/usr/bin/env python3
"""Races with a designer pack's cards in play (issue 17's acceptance run; issue 34 for the
other rulesets).

    .venv/bin/python bench/designer_cards.py [--ruleset automobiles] [--random 1000] [--greedy 200] [--seed 0] [--replay-every 10]

Plays `--random` races of 2-5 random bots, `--greedy` races of 2-4 greedy bots and
`--lookahead` races of a look-ahead bot against two greedy ones on the base tracks (alternating), spread evenly over every card set of tests/packs/designer-cards, seeds
counting up from `--seed`. Every `--replay-every`-th race is played twice (byte-identical log)
and its log replayed. Prints progress, the number of cubes played per designer card (each
card must be played, else that is an error too), races that reached the round cap, and exits
non-zero on any error (a crash, a log that differs, a card never played).

`--ruleset` picks the designer pack and its races: each ruleset has a small module
`tests/rulesets/<ruleset>/designer_races.py` with `PACK`, `GROUPS` (how the items are listed),
`card_sets()` (the card sets, or the rule options its races cycle through), `designer_cards()`
(item -> group), `field(kind, seed)` and `checked_race(set, seed, bots, replay)` (the race and
how often each item was played). `speed-hazard`: tests/packs/designer-speed-hazard, races on the
Redline Loop cycling three sets of rule options; an item counts as played when an action or
equipment card is played, a nitrous or hazard card drawn or an equipment card kept.
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
RULESETS = ("automobiles", "speed-hazard")  # those with a designer pack and its designer_races.py


def races_module(ruleset: str):  # type: ignore[no-untyped-def]
    """The ruleset's tests/rulesets/<ruleset>/designer_races.py, imported under its own name."""
    path = ROOT / "tests" / "rulesets" / ruleset.replace("-", "_") / "designer_races.py"
    spec = importlib.util.spec_from_file_location(f"designer_races_{ruleset.replace('-', '_')}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", choices=RULESETS, default="automobiles", help="whose designer pack (default automobiles)")
    ap.add_argument("--random", type=int, default=1000, help="random-bot races (default 1000)")
    ap.add_argument("--greedy", type=int, default=200, help="greedy races (default 200)")
    ap.add_argument("--lookahead", type=int, default=7,
                    help="races of one look-ahead bot against two greedy ones (default 7: one a set)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first race (default 0)")
    ap.add_argument("--replay-every", type=int, default=10, metavar="K",
                    help="play twice and replay every K-th race (default 10; 0: none)")
    ap.add_argument("--pack", default=None, help="the pack folder (default: the ruleset's designer pack)")
    a = ap.parse_args()
    designer_races = races_module(a.ruleset)
    card_sets, checked_race, designer_cards, field = (designer_races.card_sets, designer_races.checked_race,
                                                       designer_races.designer_cards, designer_races.field)
    if a.pack:
        designer_races.PACK = a.pack
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
    print(f"  {getattr(designer_races, 'PLAYED', 'cubes played')} per designer card (random / greedy / look-ahead races):")
    for group in designer_races.GROUPS:
        row = [f"{c} {'/'.join(str(played[kind][c]) for kind, _n in kinds)}" for c in sorted(cards) if cards[c] == group]
        print(f"    {group}: {', '.join(row)}")
    print(f"  {time.perf_counter() - t0:.1f} s wall")
    for e in errors:
        print(f"ERROR {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
