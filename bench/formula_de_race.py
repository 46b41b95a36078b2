#!/usr/bin/env python3
"""Formula Dé-style race speed: six-car 2-lap races per CPU second on the bundled circuit.

    .venv/bin/python bench/formula_de_race.py [--races N]

Greedy races are measured against random-bot races of the same seeds in the same run (the
rules engine alone, with bots that think nothing), so the ratio says what the greedy bot's
look at every roll costs. CPU time of this process: stable on a busy machine.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from slipstream.engine.play.races import RaceSpec
from slipstream.engine.rulesets.formula_de.ruleset import RULESET

PACK = str(Path(__file__).resolve().parent.parent / "content" / "formula-de")
TARGET = 10.0  # six-greedy 2-lap races per CPU second (issue 14)


def per_cpu_second(bot: str, races: int) -> float:
    start = time.process_time()
    for seed in range(races):
        RULESET.run_race(RaceSpec(pack=PACK, track="tilleuls", seed=seed, bots=(bot,) * 6, laps=2, record=False))
    return races / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--races", type=int, default=20)
    args = ap.parse_args()
    per_cpu_second("random", 1)  # load the pack and warm the caches
    rnd = per_cpu_second("random", args.races)
    greedy = per_cpu_second("greedy", args.races)
    print(f"random: {rnd:.2f} races per CPU second")
    print(f"greedy: {greedy:.2f} races per CPU second ({greedy / rnd:.3f} of random; "
          f"target {TARGET:g}: {greedy / TARGET:.2f} of it)")


if __name__ == "__main__":
    main()
