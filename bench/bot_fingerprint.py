#!/usr/bin/env python3
"""A fingerprint of the bots' choices: sha256 over the logs of seeded mixed races and seasons.

    .venv/bin/python bench/bot_fingerprint.py [--races 150] [--seasons 6] [--hands 4]
                                              [--per-race] [--baseline REV]

Plays `--races` seeded races of the base pack (both bundled tracks, every card set in turn,
drivers dealt in every other race, seats mixing greedy, random and lookahead:2 bots),
`--seasons` seasons (sponsors between races) and, for every action card and driver of the
pack, `--hands` seeded positions where the greedy bots hold that card (and a driver) in hand
and play three rounds from there (races alone rarely let a greedy bot own the cards it never
buys). Prints one sha256 over all their log lines, header included. Run it on two revisions,
or give `--baseline REV` to run it on the engine at REV too (a temporary `git worktree`): the
same digest means the bots made the same choices (issue 17: the greedy bot values cards from
their effect data and must choose exactly as before on the printed cards). `--per-race`
prints a digest per race too, to find the first one that differs.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

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


def hand_games(seeds: int):  # type: ignore[no-untyped-def]
    """(label, game, bots) of the hand positions: every action card x `seeds` seeds."""
    from slipstream.engine.rulesets.automobiles.bots import GreedyBot
    from slipstream.engine.rulesets.automobiles.game import position_game
    from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack

    pack = load_pack_cached("")
    track = pack.tracks["first-oval"]
    drivers = sorted(pack.drivers)
    cards = sorted(c.id for c in pack.cards.values() if c.colour in ("yellow", "red", "purple", "blue", "green"))
    for ci, cid in enumerate(cards):
        card = pack.card(cid)
        rs = ruleset_from_pack(pack, None, {card.colour: cid})
        col = card.colour
        for seed in range(1, seeds + 1):
            players = []
            for i in range(3):
                slot = track.grid[i]
                players.append({
                    "car": {"lane": slot.lane, "segment": slot.segment},
                    "driver": drivers[(ci + seed + i) % len(drivers)],
                    "active": {col: 1 + (i == 0), "gear-3": 1, "gear-4": 1, "gear-5": seed % 2,
                               "gear-6": i % 2, "wear": (seed + i) % 3},
                    "discard": {"wear": 2, "gear-3": 2, "gear-5": 1, col: 1},
                    "bag": {"gear-3": 3, "gear-4": 2, "gear-5": 1, col: 1, "wear": 1}})
            g = position_game(rs, track, players, turn=(seed + ci) % 3, start="turn", seed=seed)
            yield f"{cid}/{seed}", g, [GreedyBot(seed * 10 + i) for i in range(3)]


def play_hand(g, bots, rounds: int = 3) -> None:  # type: ignore[no-untyped-def]
    stop = g.race.round + rounds
    n = 0
    while g.pending is not None and g.race.round < stop and n < 20_000:
        d = g.pending
        g.apply(bots[d.player].choose(g, d))
        n += 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=150)
    ap.add_argument("--seasons", type=int, default=6)
    ap.add_argument("--hands", type=int, default=4)
    ap.add_argument("--per-race", action="store_true")
    ap.add_argument("--baseline", metavar="REV", help="also run on the engine at git revision REV")
    args = ap.parse_args()
    if args.baseline:
        return compare(args)
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
    for label, g, bots in hand_games(args.hands):
        play_hand(g, bots)
        text = "\n".join(dumps(x) for x in g.log)
        total.update(text.encode())
        if args.per_race:
            print(f"hand {label}: {hashlib.sha256(text.encode()).hexdigest()[:16]}")
    print(f"{args.races} races + {args.seasons} seasons + {args.hands} hands a card: {total.hexdigest()}")
    return 0


def compare(args: argparse.Namespace) -> int:
    """Run this script on this checkout and on the engine at `args.baseline`; compare digests."""
    here = Path(__file__).resolve().parent.parent
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-fingerprint-"))
    wt = tmp / "baseline"
    argv = [sys.executable, str(Path(__file__).resolve()), "--races", str(args.races), "--seasons",
            str(args.seasons), "--hands", str(args.hands)] + (["--per-race"] if args.per_race else [])
    try:
        subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", "-q", str(wt), args.baseline],
                       check=True)
        out = {}
        for side, root in (("baseline", wt), ("this", here)):
            pkg = tmp / f"shim-{side}" / "slipstream"
            pkg.mkdir(parents=True)
            for part in ("engine", "schemas", "content"):
                (pkg / part).symlink_to(root / part, target_is_directory=True)
            env = {**os.environ, "PYTHONPATH": str(pkg.parent), "SLIPSTREAM_CACHE_DIR": tempfile.mkdtemp()}
            done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=pkg.parent)
            if done.returncode != 0:
                raise SystemExit(f"{side} failed:\n{done.stderr[-2000:]}")
            out[side] = done.stdout.strip().splitlines()
            print(f"{side:>8} ({args.baseline if side == 'baseline' else 'this checkout'}): {out[side][-1]}")
        same = out["baseline"] == out["this"]
        print("identical" if same else "DIFFERENT")
        if not same and args.per_race:
            for a, b in zip(out["baseline"], out["this"], strict=False):
                if a != b:
                    print(f"first difference: {a} | {b}")
                    break
        return 0 if same else 1
    finally:
        subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(wt)], check=False)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
