#!/usr/bin/env python3
"""Speed-and-hazard bot comparisons: seeded 4-car races on the bundled track, 95% intervals.

    .venv/bin/python bench/speed_hazard_bots.py [--races 500] [--jobs 2] [--lookahead lookahead:8]

- greedy vs random: 2 greedy + 2 random cars, the seats rotated with the seed; the share of
  races a greedy car wins (no difference: 0.5).
- lookahead vs greedy: 1 look-ahead + 3 greedy cars, the look-ahead seat rotated; the share of
  races the look-ahead car wins (no difference: 0.25).

Each line gives the share with its Wilson 95% interval, the mean finishing place of each side
and the races per second of that field (wall clock over the `--jobs` worker processes of
engine/play/batch.py, so noisy on a busy machine; the random-only field is the baseline
measured in the same run). The grid is drawn by lot in every race, on top of the rotation.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

from slipstream.engine.play.batch import run_many
from slipstream.engine.play.races import RaceSpec

PACK = str(Path(__file__).resolve().parent.parent / "content" / "speed-hazard")
TRACK = "redline-loop"


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def field(pattern: tuple[str, ...], seed: int) -> tuple[str, ...]:
    """`pattern` rotated by the seed: every side sits in every seat equally often."""
    r = seed % len(pattern)
    return pattern[r:] + pattern[:r]


def run(pattern: tuple[str, ...], races: int, jobs: int, first: int) -> tuple[list[object], float]:
    specs = [RaceSpec(pack=PACK, track=TRACK, seed=s, bots=field(pattern, s), record=False)
             for s in range(first, first + races)]
    start = time.perf_counter()
    results = run_many(specs, jobs=jobs)
    return results, time.perf_counter() - start


def compare(name: str, pattern: tuple[str, ...], side: str, null: float, races: int, jobs: int,
            first: int) -> None:
    results, secs = run(pattern, races, jobs, first)
    wins = 0
    places: dict[str, list[int]] = {}
    capped = 0
    for r in results:
        bots = r.bots  # type: ignore[attr-defined]
        standings = r.standings  # type: ignore[attr-defined]
        capped += bool(r.capped)  # type: ignore[attr-defined]
        wins += bots[standings[0]] == side
        for place, seat in enumerate(standings, 1):
            places.setdefault(bots[seat], []).append(place)
    lo, hi = wilson(wins, races)
    verdict = "better" if lo > null else "worse" if hi < null else "no clear difference"
    mean = ", ".join(f"{b} {sum(p) / len(p):.2f}" for b, p in sorted(places.items()))
    print(f"{name}: {side} wins {wins}/{races} = {wins / races:.3f} (95% {lo:.3f}-{hi:.3f}; "
          f"even {null:.2f}: {verdict}); mean place {mean}; {races / secs:.1f} races/s; capped {capped}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--races", type=int, default=500)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--lookahead", default="lookahead:8")
    ap.add_argument("--only", choices=("greedy", "lookahead"), default=None)
    args = ap.parse_args()
    _, secs = run(("random",) * 4, args.races, args.jobs, args.first_seed)
    print(f"baseline: 4 random cars {args.races / secs:.1f} races/s ({args.jobs} jobs)")
    if args.only in (None, "greedy"):
        compare("greedy vs random (2+2)", ("greedy", "random", "greedy", "random"), "greedy", 0.5,
                args.races, args.jobs, args.first_seed)
    if args.only in (None, "lookahead"):
        la = args.lookahead
        compare(f"{la} vs greedy (1+3)", (la, "greedy", "greedy", "greedy"), la, 0.25,
                args.races, args.jobs, args.first_seed)


if __name__ == "__main__":
    main()
