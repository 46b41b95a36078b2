#!/usr/bin/env python3
"""Formula Dé-style bot comparisons: win rates with 95% intervals over seeded 6-car races.

    .venv/bin/python bench/formula_de_bots.py [--races N] [--jobs J] [--lookahead NAME] [--only NAME ...]

Fields (2-lap races on the bundled circuit, seeds 0..N-1, the field rotated one seat a race):
  greedy-field      6 greedy: finish rate and eliminations by cause (the wear tuning figure)
  greedy-random     3 greedy + 3 random: does greedy win more than its fair share (50%)?
  lookahead-greedy  1 look-ahead + 5 greedy: does the look-ahead bot win more than 1/6?
A race is won by the first car across the line (a race nobody finishes has no winner). The
intervals are Wilson score intervals; a bot "clearly" beats the others when its interval
lies above its fair share. Races run in J worker processes (engine/play/batch.py).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from slipstream.engine.play.batch import run_many
from slipstream.engine.play.races import RaceSpec

PACK = str(Path(__file__).resolve().parent.parent / "content" / "formula-de")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def fields(name: str, lookahead: str) -> tuple[str, ...]:
    return {"greedy-field": ("greedy",) * 6,
            "greedy-random": ("greedy", "random") * 3,
            "lookahead-greedy": (lookahead,) + ("greedy",) * 5}[name]


def specs_of(field: Sequence[str], races: int) -> list[RaceSpec]:
    out = []
    for seed in range(races):
        r = seed % len(field)
        bots = tuple(field[r:]) + tuple(field[:r])
        out.append(RaceSpec(pack=PACK, track="tilleuls", seed=seed, bots=bots, laps=2, record=False))
    return out


def report(name: str, field: Sequence[str], results: Sequence[Any], wall: float) -> None:
    races = len(results)
    kinds = sorted(set(field), key=field.index)
    wins: Counter[str] = Counter()
    cars: Counter[str] = Counter()
    finished: Counter[str] = Counter()
    out: dict[str, Counter[str]] = {k: Counter() for k in kinds}
    no_winner = 0
    for r in results:
        n_fin = int(r.stats.get("finished", 0))
        if n_fin:
            wins[r.bots[r.standings[0]]] += 1
        else:
            no_winner += 1
        for p in r.standings[:n_fin]:
            finished[r.bots[p]] += 1
        cars.update(r.bots)
        for car_name, cause in r.result.get("out", {}).items():
            out[r.bots[r.names.index(car_name)]][cause] += 1
    print(f"\n{name}: {' + '.join(f'{field.count(k)} {k}' for k in kinds)}, {races} races, "
          f"{races / wall:.1f} races/s (wall)")
    for k in kinds:
        share = field.count(k) / len(field)
        lo, hi = wilson(wins[k], races)
        verdict = "above" if lo > share else ("below" if hi < share else "not clear of")
        flo, fhi = wilson(finished[k], cars[k])
        causes = ", ".join(f"{c} {v}" for c, v in sorted(out[k].items())) or "none"
        print(f"  {k:<14} wins {100 * wins[k] / races:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}] "
              f"(fair share {100 * share:.1f}%: {verdict})  finish {100 * finished[k] / cars[k]:5.1f}% "
              f"[{100 * flo:4.1f}, {100 * fhi:4.1f}] of {cars[k]} cars  out: {causes}")
    if no_winner:
        print(f"  races nobody finished: {no_winner}")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--races", type=int, default=500, help="races per field (default 500)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--lookahead", default="lookahead", help="the look-ahead bot's name (default lookahead)")
    ap.add_argument("--only", nargs="*", choices=("greedy-field", "greedy-random", "lookahead-greedy"),
                    help="only these fields")
    args = ap.parse_args()
    names = args.only or ["greedy-field", "greedy-random", "lookahead-greedy"]
    print(f"Formula Dé-style bots: {args.races} seeded 2-lap races per field on tilleuls, {args.jobs} jobs")
    for name in names:
        field = fields(name, args.lookahead)
        t0 = time.perf_counter()
        results = run_many(specs_of(field, args.races), jobs=args.jobs)
        report(name, field, results, time.perf_counter() - t0)


if __name__ == "__main__":
    main()
