#!/usr/bin/env python3
"""Seasons: the acceptance run of issue 6, with timing.

Runs N seeded 4-bot seasons of 3 races (first-oval, road-course, first-oval at the tracks'
own race length, drivers dealt) twice: once in `--jobs` processes and once more in one
process, and checks that every season ran, that the cube supply (stock + collections) is
the same at the start of every race and at the end, and that both runs wrote
byte-identical season logs (sha256 per season). Prints seasons per second and the
sponsor/grid statistics of the first run.

    .venv/bin/python bench/season.py [--seasons 200] [--jobs 2] [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time

from slipstream.engine.rulesets.automobiles.seasonrun import SeasonSpec, run_seasons
from slipstream.engine.rulesets.automobiles.seasonstats import (
    format_season_summary,
    summarise_seasons,
)

TRACKS = ("first-oval", "road-course", "first-oval")
BOTS = ("greedy", "greedy", "greedy", "random")


def specs(n: int, laps: int | None) -> list[SeasonSpec]:
    return [SeasonSpec("", TRACKS, seed, BOTS, laps=laps, season_options=(("drivers", True),),
                       keep_lines=False) for seed in range(1, n + 1)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seasons", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="20 seasons of 1-lap races")
    args = ap.parse_args()
    n = 20 if args.quick else args.seasons
    laps = 1 if args.quick else None
    t0 = time.perf_counter()
    first = run_seasons(specs(n, laps), args.jobs)
    t1 = time.perf_counter()
    second = run_seasons(specs(n, laps), 1)
    t2 = time.perf_counter()
    bad_supply = [r.spec.seed for r in first if any(s != r.supply[0] for s in r.supply)]
    bad_races = [r.spec.seed for r in first if len(r.races) != 3 or len(r.drafts) != 2]
    differ = [a.spec.seed for a, b in zip(first, second, strict=True) if a.digest != b.digest or not a.digest]
    print(format_season_summary(summarise_seasons(first)))
    print()
    print(f"{n} seasons x 3 races, 4 bots: {t1 - t0:.1f}s with {args.jobs} job(s) "
          f"({n / (t1 - t0):.2f} seasons/s), {t2 - t1:.1f}s in one process")
    print(f"seasons with a wrong number of races/drafts: {len(bad_races)}")
    print(f"seasons whose supply changed between races: {len(bad_supply)}")
    print(f"seasons whose log differs between the two runs: {len(differ)}")
    ok = not (bad_supply or bad_races or differ)
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
