#!/usr/bin/env python3
"""A fingerprint of the bots' choices: sha256 over the logs of seeded mixed races and seasons.

    .venv/bin/python bench/bot_fingerprint.py [--races 150] [--seasons 6] [--per-race]

Plays `--races` seeded races of the base pack (both bundled tracks, every card set in turn,
drivers dealt in every other race, seats mixing greedy, random and lookahead:2 bots) and
`--seasons` short seasons (sponsors between races), and prints one sha256 over all their log
lines, header included. Run it on two revisions: the same digest means the bots made the
same choices (used for issue 17: the greedy bot values cards from their effect data and must
choose exactly as before on the printed cards). `--per-race` prints a digest per race too,
to find the first race that differs.
"""

from __future__ import annotations

import argparse
import hashlib
import sys

from slipstream.engine.play.racelog import dumps
from slipstream.engine.rulesets.automobiles.runner import RaceSpec, load_pack_cached, run_race
from slipstream.engine.rulesets.automobiles.seasonrun import SeasonSpec, run_season

TRACKS = ("first-oval", "road-course")
SEATS = (("greedy", "greedy", "greedy", "greedy"), ("greedy", "random", "greedy"),
         ("lookahead:2", "greedy", "greedy"), ("greedy", "greedy"),
         ("random", "greedy", "lookahead:2", "greedy"))


def race_specs(n: int) -> list[RaceSpec]:
    sets = sorted(load_pack_cached("").card_sets)
    out = []
    for seed in range(1, n + 1):
        opts = (("drivers_in_single_races", True),) if seed % 2 else ()
        out.append(RaceSpec("", TRACKS[seed % 2], seed, SEATS[seed % len(SEATS)],
                            card_set=sets[seed % len(sets)], options=opts))
    return out


def season_specs(n: int) -> list[SeasonSpec]:
    sets = sorted(load_pack_cached("").card_sets)
    return [SeasonSpec("", ("first-oval", "road-course"), seed, ("greedy", "greedy", "random"),
                       card_set=sets[seed % len(sets)],
                       season_options=(("drivers", True),), keep_lines=True)
            for seed in range(1, n + 1)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=150)
    ap.add_argument("--seasons", type=int, default=6)
    ap.add_argument("--per-race", action="store_true")
    args = ap.parse_args()
    total = hashlib.sha256()
    for spec in race_specs(args.races):
        r = run_race(spec)
        text = "\n".join([dumps(r.header), *(dumps(x) for x in r.log), dumps(r.result)])
        total.update(text.encode())
        if args.per_race:
            print(f"race {spec.seed}: {hashlib.sha256(text.encode()).hexdigest()[:16]}")
    for sspec in season_specs(args.seasons):
        s = run_season(sspec)
        text = "\n".join(s.lines)
        total.update(text.encode())
        if args.per_race:
            print(f"season {sspec.seed}: {hashlib.sha256(text.encode()).hexdigest()[:16]}")
    print(f"{args.races} races + {args.seasons} seasons: {total.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
