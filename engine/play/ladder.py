"""A bot ladder for any ruleset: a round robin of races and Bradley-Terry ratings with intervals.

Every pair of bots races `races` one-against-one races (seats swapped every race), and
`races` mixed fields of `field` cars run with the bots rotated through the seats (a bot takes
two seats when there are fewer bots than cars). Race seeds count up from `seed` in schedule
order, so the grid (which most rulesets draw from the seed) changes from race to race too.
Each race counts as pairwise results between the cars of different bots (the car ahead in the
standings beats the one behind); a Bradley-Terry model fitted to them (Hunter's MM iteration,
with half a win each way per pair as a prior so that a bot that never wins keeps a finite
rating) gives ratings on the Elo scale (400 points = ten times the odds, mean 1500), and a
bootstrap over races gives 95% intervals. Everything is deterministic for a given seed.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.stats import Rate

Progress = Callable[[int], None]
BOOTSTRAP = 200


@dataclass(frozen=True, slots=True)
class LadderSpec:
    """What a ladder plays: the bots, the races per pairing and field, and the race settings."""

    pack: str
    track: str
    bots: tuple[str, ...]
    races: int
    seed: int = 1
    field: int = 4  # cars in a mixed field (0: no mixed fields)
    pairs: bool = True  # one-against-one races
    laps: int | None = None
    options: tuple[tuple[str, Any], ...] = ()
    setup: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Race:
    """One scheduled race: which kind (`1v1` or `field`) and its spec."""

    kind: str
    spec: RaceSpec


def schedule(ls: LadderSpec) -> list[Race]:
    """Every race of the ladder, in order: pairs first (seats swapped), then mixed fields."""
    out: list[Race] = []
    seed = ls.seed

    def add(kind: str, seats: Sequence[str]) -> None:
        nonlocal seed
        out.append(Race(kind, RaceSpec(ls.pack, ls.track, seed, tuple(seats), ls.laps, ls.options,
                                       ls.setup, record=False)))
        seed += 1

    if ls.pairs:
        for a, b in itertools.combinations(ls.bots, 2):
            for i in range(ls.races):
                add("1v1", (a, b) if i % 2 == 0 else (b, a))
    if ls.field > 0 and ls.bots:
        k = len(ls.bots)
        for i in range(ls.races):
            add("field", [ls.bots[(i + j) % k] for j in range(ls.field)])
    return out


def pairwise(bots: Sequence[str], standings: Sequence[int]) -> list[tuple[str, str]]:
    """(winner bot, loser bot) for every two cars of different bots in one race's standings."""
    order = [bots[p] for p in standings]
    return [(order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order))
            if order[i] != order[j]]


def bradley_terry(names: Sequence[str], games: Mapping[tuple[str, str], float],
                  prior: float = 0.5, iterations: int = 200) -> dict[str, float]:
    """Ratings on the Elo scale (mean 1500) fitted to counts of (winner, loser) results."""
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [[0.0] * k for _ in range(k)]
    for (w, lo), c in games.items():
        wins[idx[w]][idx[lo]] += c
    met = [[i != j and (wins[i][j] + wins[j][i]) > 0 for j in range(k)] for i in range(k)]
    for i in range(k):
        for j in range(k):
            if met[i][j]:
                wins[i][j] += prior
    p = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            won = sum(wins[i])
            den = sum((wins[i][j] + wins[j][i]) / (p[i] + p[j]) for j in range(k) if met[i][j])
            new.append(won / den if den > 0 and won > 0 else p[i])
        g = math.exp(sum(math.log(x) for x in new) / k)
        step = max(abs(a / g - b) for a, b in zip(new, p, strict=True))
        p = [x / g for x in new]
        if step < 1e-10:
            break
    return {n: 1500.0 + 400.0 * math.log10(p[idx[n]]) for n in names}


def rate(ls: LadderSpec, races: Sequence[Race], results: Sequence[Any]) -> dict[str, Any]:
    """The ladder report: ratings with bootstrap intervals, 1v1 results per pair, field wins."""
    names = list(dict.fromkeys(ls.bots))
    per_race = [Counter(pairwise(r.bots, r.standings)) for r in results]
    ratings = bradley_terry(names, sum(per_race, Counter()))
    rng = random.Random(ls.seed)
    draws: dict[str, list[float]] = {n: [] for n in names}
    n = len(per_race)
    for _ in range(BOOTSTRAP if n else 0):
        sample: Counter[tuple[str, str]] = Counter()
        for _i in range(n):
            sample.update(per_race[rng.randrange(n)])
        for name, v in bradley_terry(names, sample, iterations=100).items():
            draws[name].append(v)

    def pct(xs: list[float], q: float) -> float:
        if not xs:
            return 0.0
        xs = sorted(xs)
        return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]

    pair_rows = []
    for a, b in itertools.combinations(names, 2):
        if ratings[b] > ratings[a]:  # each row from the side of the higher-rated bot
            a, b = b, a
        got = [res for race, res in zip(races, results, strict=True)
               if race.kind == "1v1" and set(race.spec.bots) == {a, b}]
        if got:
            wins = sum(res.bots[res.standings[0]] == a for res in got)
            pair_rows.append({"bot": a, "against": b, **Rate(a, wins, len(got)).as_dict()})
    field_res = [res for race, res in zip(races, results, strict=True) if race.kind == "field"]
    field_rows = []
    for name in names:
        cars = sum(res.bots.count(name) for res in field_res)
        wins = sum(res.bots[res.standings[0]] == name for res in field_res)
        if cars:
            field_rows.append({"bot": name, "cars": cars, **Rate(name, wins, len(field_res)).as_dict()})
    table = sorted(names, key=lambda x: -ratings[x])
    return {
        "pack": ls.pack, "track": ls.track, "bots": names, "seed": ls.seed, "laps": ls.laps,
        "options": dict(ls.options), "setup": dict(ls.setup), "races_per_pairing": ls.races,
        "field": ls.field, "races": len(results),
        "ratings": [{"rank": i + 1, "bot": b, "rating": round(ratings[b], 1),
                     "low": round(pct(draws[b], 0.025), 1), "high": round(pct(draws[b], 0.975), 1)}
                    for i, b in enumerate(table)],
        "pairs": pair_rows,
        "fields": {"races": len(field_res), "cars": ls.field, "win_rate_by_bot": field_rows},
        "mean_rounds": round(sum(r.rounds for r in results) / len(results), 2) if results else 0.0,
    }


def run_ladder(ls: LadderSpec, jobs: int = 1, progress: Progress | None = None) -> dict[str, Any]:
    """Play the ladder's races in `jobs` processes (engine/play/batch.py) and rate the bots."""
    from slipstream.engine.play.batch import run_many

    races = schedule(ls)
    results = run_many([r.spec for r in races], jobs, progress=progress)
    return rate(ls, races, results)


def format_ladder(rep: dict[str, Any]) -> str:
    """The ladder report as text: the ratings table, the 1v1 results and the field wins."""
    w = max([16, *(len(r["bot"]) for r in rep["ratings"])])  # an external bot's name is long
    lines = [f"ladder on {rep['track']}: {rep['races']} races ({rep['races_per_pairing']} per pairing"
             + (f", mixed fields of {rep['field']} cars" if rep["field"] else "") + ")",
             f"rank  {'bot':<{w}}  rating   95% interval"]
    for r in rep["ratings"]:
        lines.append(f"{r['rank']:>4}  {r['bot']:<{w}} {r['rating']:7.1f}   [{r['low']:.1f}, {r['high']:.1f}]")
    if rep["pairs"]:
        lines.append("one against one (wins of the first bot, 95% interval):")
        for p in rep["pairs"]:
            lines.append(f"  {p['bot']:<{w}} vs {p['against']:<{w}} {100 * p['rate']:5.1f}%  "
                         f"[{100 * p['low']:5.1f}%, {100 * p['high']:5.1f}%]  ({p['wins']}/{p['n']})")
    f = rep["fields"]
    if f["races"]:
        lines.append(f"mixed fields of {f['cars']} cars ({f['races']} races), wins by bot:")
        for r in f["win_rate_by_bot"]:
            lines.append(f"  {r['bot']:<{w}} {100 * r['rate']:5.1f}%  [{100 * r['low']:5.1f}%, "
                         f"{100 * r['high']:5.1f}%]  ({r['wins']}/{r['n']}, {r['cars']} cars)")
    lines.append(f"mean rounds per race: {rep['mean_rounds']}")
    return "\n".join(lines)
