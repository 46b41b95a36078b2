#!/usr/bin/env python3
"""Speed-and-hazard race speed: four-car 3-lap races per CPU second on the Redline Loop.

    .venv/bin/python bench/speed_hazard_race.py [--races N] [--check 1000]

Greedy races are measured against random-bot races of the same seeds in the same run (the
rules engine with bots that think nothing), so the ratio says what the greedy bot costs; the
goal is 20 four-greedy races per second on one core. CPU time of this process: stable on a busy
machine. `--check N` also plays N seeded random-bot races with every invariant checked at every
decision (engine/rulesets/speed_hazard/invariants.py; the tests run 200 of them).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.speed_hazard.invariants import checked_race
from slipstream.engine.rulesets.speed_hazard.ruleset import RULESET

PACK = str(Path(__file__).resolve().parent.parent / "content" / "speed-hazard")
TARGET = 20.0  # four-greedy races per CPU second (issue 15)
OPTIONS = [{}, {"u_turn": True}, {"nitrous_until": "curve", "ram_beside": True},
           {"all_pit_entries": True, "check_leaving_curve": True, "sabotage_start_square": False}]


def per_cpu_second(bot: str, races: int) -> float:
    start = time.process_time()
    for seed in range(races):
        RULESET.run_race(RaceSpec(pack=PACK, track="redline-loop", seed=seed, bots=(bot,) * 4, record=False))
    return races / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--races", type=int, default=40)
    ap.add_argument("--check", type=int, default=0, help="also check the invariants over this many random races")
    args = ap.parse_args()
    per_cpu_second("random", 1)  # load the pack and warm the caches
    rnd = per_cpu_second("random", args.races)
    greedy = per_cpu_second("greedy", args.races)
    print(f"random: {rnd:.2f} races per CPU second")
    print(f"greedy: {greedy:.2f} races per CPU second ({greedy / rnd:.3f} of random; "
          f"target {TARGET:g}: {greedy / TARGET:.2f} of it)")
    if args.check:
        pack = load_pack(PACK)
        start = time.process_time()
        for seed in range(args.check):
            checked_race(pack, seed, ("random",) * 4, options=OPTIONS[seed % 4])
        print(f"invariants held over {args.check} random 3-lap races "
              f"({args.check / (time.process_time() - start):.1f} per CPU second with the checks)")


if __name__ == "__main__":
    main()
