#!/usr/bin/env python3
"""Formula Dé-style invariants over many seeded random-bot races (issue 14's acceptance run).

    .venv/bin/python bench/formula_de_check.py [--races 1000] [--seed 0] [--replay-every 1]

Every race is played with six random bots (a mix of one-lap and two-lap races, one wear pool,
unpaid downshifts, two cars a player and the pit-entry gear limit, as in
tests/rulesets/formula_de/test_formula_de_races.py, which plays 200 of them in CI). At every decision: the
chosen option is legal, no wear point is negative, nobody overtakes in the pit lane, a car in
its box has full tyres. After every race: each elimination has its cause event. Every
`--replay-every`-th race is also played a second time (the same seed must give the same log,
byte for byte, header included) and its log replayed (`identical`).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "rulesets" / "formula_de"))

from fd_invariants import PACK, check_finished, checked_race, random_race_options  # noqa: E402

from slipstream.engine.play.racelog import log_lines  # noqa: E402
from slipstream.engine.play.races import RaceSpec  # noqa: E402
from slipstream.engine.rulesets.formula_de.ruleset import RULESET  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--races", type=int, default=1000, help="how many seeded races (default 1000)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first race (default 0)")
    ap.add_argument("--replay-every", type=int, default=1, metavar="K",
                    help="replay and re-run every K-th race (default 1: all)")
    a = ap.parse_args()
    t0 = time.process_time()
    causes: Counter[str] = Counter()
    boxes = shorts = replayed = 0
    for k, seed in enumerate(range(a.seed, a.seed + a.races)):
        options, laps = random_race_options(seed)
        g = checked_race(seed, ("random",) * 6, laps=laps, options=options)
        shorts += check_finished(g)
        causes.update(c.out for c in g.cars if c.out)
        boxes += sum(e.get("ev") == "box" for e in g.log)
        if a.replay_every and k % a.replay_every == 0:
            spec = RaceSpec(pack=PACK, track="tilleuls", seed=seed, bots=("random",) * 6, laps=laps,
                            options=options)
            one, two = RULESET.run_race(spec), RULESET.run_race(spec)
            lines = log_lines(one.header, one.log, one.result)
            assert lines == log_lines(two.header, two.log, two.result), f"seed {seed}: two logs differ"
            rep = RULESET.replay(lines)
            assert rep.identical, f"seed {seed}: {rep.message} at line {rep.line}"
            replayed += 1
        if (k + 1) % 100 == 0:
            print(f"  {k + 1} races checked", file=sys.stderr)
    cpu = time.process_time() - t0
    print(f"{a.races} random races (seeds {a.seed}-{a.seed + a.races - 1}): every invariant held")
    print(f"  eliminations by cause: {', '.join(f'{c} {n}' for c, n in sorted(causes.items()))}")
    print(f"  cars out at once for owing more wear than they had: {shorts}; box stops: {boxes}")
    print(f"  {replayed} races played twice with byte-identical logs and replayed identically")
    print(f"  {cpu:.1f} CPU s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
