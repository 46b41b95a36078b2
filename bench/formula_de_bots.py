#!/usr/bin/env python3
"""Formula Dé-style bot comparisons: win rates with 95% intervals over seeded 6-car races.

    .venv/bin/python bench/formula_de_bots.py [--races N] [--jobs J] [--lookahead NAME] [--only NAME ...]
                                              [--wear T,B,G,BO,E]

Fields (2-lap races on the bundled circuit, seeds 0..N-1, the field rotated one seat a race):
  greedy-field      6 greedy: finish rate and eliminations by cause (the wear tuning figure)
  greedy-random     3 greedy + 3 random: does greedy win more than its fair share (50%)?
  lookahead-greedy  1 look-ahead + 5 greedy: does the look-ahead bot win more than 1/6?
A race is won by the first car across the line (a race nobody finishes has no winner). The
intervals are Wilson score intervals; a bot "clearly" beats the others when its interval
lies above its fair share. Races run in J worker processes (engine/play/batch.py). `--wear`
races a copy of the pack with another 2-lap wear row (how the house values were tuned).
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from slipstream.engine.play.batch import run_many
from slipstream.engine.play.races import RaceSpec, bot_seed, play_out, seats_of
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.formula_de.content import CATEGORIES
from slipstream.engine.rulesets.formula_de.ruleset import RULESET

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


def specs_of(field: Sequence[str], races: int, pack: str = PACK) -> list[RaceSpec]:
    out = []
    for seed in range(races):
        r = seed % len(field)
        bots = tuple(field[r:]) + tuple(field[:r])
        out.append(RaceSpec(pack=pack, track="tilleuls", seed=seed, bots=bots, laps=2, record=False))
    return out


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the report needs of one race (small to send back from a worker)."""

    bots: tuple[str, ...]
    standings: list[int]
    finished: int
    out: dict[int, str]  # seat -> cause of elimination
    wear: dict[int, dict[str, int]]  # seat -> points left, of the cars that finished


def run(spec: RaceSpec) -> Outcome:
    """One race of `spec`, played as `slipstream race` plays it, and its outcome."""
    pack = load_pack(spec.pack)
    track = pack.tracks[spec.track]
    game = RULESET.new_game(pack, track, seats_of(spec.bots), spec.seed, {}, spec.laps, record=False)
    play_out(game, [RULESET.make_bot(b, bot_seed(spec.seed, i)) for i, b in enumerate(spec.bots)])
    return Outcome(spec.bots, game.standings(), len(game.finished), {c.seat: c.out for c in game.cars if c.out},
                   {c.seat: dict(c.wear) for c in game.cars if c.finished})


def pack_with_wear(row: str, into: Path) -> str:
    """A copy of the pack whose 2-lap wear row is `row` (tyres,brakes,gearbox,body,engine)."""
    values = [int(v) for v in row.split(",")]
    if len(values) != 5:
        raise SystemExit("--wear takes five numbers: tyres,brakes,gearbox,body,engine")
    shutil.copytree(PACK, into)
    text = (into / "wear.yaml").read_text()
    new = "{laps: 2, " + ", ".join(f"{k}: {v}" for k, v in zip(CATEGORIES, values, strict=True)) + "}"
    (into / "wear.yaml").write_text(re.sub(r"\{laps: 2,[^}]*\}", new, text))
    return str(into)


def report(name: str, field: Sequence[str], results: Sequence[Outcome], wall: float) -> None:
    races = len(results)
    kinds = sorted(set(field), key=field.index)
    wins: Counter[str] = Counter()
    cars: Counter[str] = Counter()
    finished: Counter[str] = Counter()
    out: dict[str, Counter[str]] = {k: Counter() for k in kinds}
    left: dict[str, list[dict[str, int]]] = {k: [] for k in kinds}
    no_winner = 0
    for r in results:
        if r.finished:
            wins[r.bots[r.standings[0]]] += 1
        else:
            no_winner += 1
        for p in r.standings[:r.finished]:
            finished[r.bots[p]] += 1
        cars.update(r.bots)
        for p, cause in r.out.items():
            out[r.bots[p]][cause] += 1
        for p, wear in r.wear.items():
            left[r.bots[p]].append(wear)
    print(f"\n{name}: {' + '.join(f'{field.count(k)} {k}' for k in kinds)}, {races} races, "
          f"{races / wall:.1f} races/s (wall)")
    for k in kinds:
        share = field.count(k) / len(field)
        lo, hi = wilson(wins[k], races)
        verdict = "above" if lo > share else ("below" if hi < share else "not clear of")
        won = (f"wins {100 * wins[k] / races:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}] "
               f"(fair share {100 * share:.1f}%: {verdict})  ") if len(kinds) > 1 else ""
        flo, fhi = wilson(finished[k], cars[k])
        causes = ", ".join(f"{c} {v}" for c, v in sorted(out[k].items())) or "none"
        print(f"  {k:<14} {won}finish {100 * finished[k] / cars[k]:5.1f}% "
              f"[{100 * flo:4.1f}, {100 * fhi:4.1f}] of {cars[k]} cars  out: {causes}")
        if left[k]:
            order = {c: i for i, c in enumerate(CATEGORIES)}
            cats = sorted({c for w in left[k] for c in w}, key=lambda c: (order.get(c, len(order)), c))
            mean = ", ".join(f"{c} {sum(w[c] for w in left[k]) / len(left[k]):.2f}" for c in cats)
            none = ", ".join(f"{c} {100 * sum(w[c] == 0 for w in left[k]) / len(left[k]):.0f}%" for c in cats)
            print(f"  {'':<14} finishers' points left: {mean}; on none: {none}")
    if no_winner:
        print(f"  races nobody finished: {no_winner}")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--races", type=int, default=500, help="races per field (default 500)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--lookahead", default="lookahead", help="the look-ahead bot's name (default lookahead)")
    ap.add_argument("--only", nargs="*", choices=("greedy-field", "greedy-random", "lookahead-greedy"),
                    help="only these fields")
    ap.add_argument("--wear", metavar="T,B,G,BO,E",
                    help="race a copy of the pack with this 2-lap wear row (tyres,brakes,gearbox,body,engine)")
    args = ap.parse_args()
    names = args.only or ["greedy-field", "greedy-random", "lookahead-greedy"]
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-fd-bots-"))
    try:
        pack = pack_with_wear(args.wear, tmp / "pack") if args.wear else PACK
        print(f"Formula Dé-style bots: {args.races} seeded 2-lap races per field on tilleuls, {args.jobs} jobs"
              + (f", 2-lap wear {args.wear}" if args.wear else ""))
        for name in names:
            field = fields(name, args.lookahead)
            t0 = time.perf_counter()
            results = run_many(specs_of(field, args.races, pack), jobs=args.jobs, run=run)
            report(name, field, results, time.perf_counter() - t0)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
