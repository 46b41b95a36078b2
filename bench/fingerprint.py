#!/usr/bin/env python3
"""One sha256 over the logs of seeded Automobiles races, seasons and hands, here or against a revision.

    .venv/bin/python bench/fingerprint.py [--races 150] [--mixed 300] [--seasons 6] [--hands 4]
                                          [--replay] [--jobs J] [--per-log] [--baseline REV]

A speed change to a bot or to the engine must leave every choice and every log line as it was.
The fingerprint hashes, header and result lines included:

- `--races` seeded races of the base pack: both bundled tracks, every card set in turn, drivers
  dealt in every other race, seats mixing greedy, random and look-ahead:2 bots;
- `--mixed` races each with its own mix drawn from `random.Random(i)`: track, 2-5 seats, drivers
  given or none, a card set, 1 or 2 laps and zero to two rule options (weaving, momentum, turn
  order, occupancy, drafting, ...), their statistics hashed too;
- `--seasons` seasons (sponsors and their decisions between races; 3 and 4 seats in turn);
- for every action card of the pack, `--hands` seeded positions where the greedy bots hold that
  card and a driver in hand and play three rounds from there (races alone rarely let a greedy
  bot own the cards it never buys).

`--replay` also replays every race log (`replay_lines`) and fails on the first that does not
replay identically; `--jobs J` plays the races in J processes (same bytes). `--per-log` prints
a digest per log. With `--baseline REV` the same logs are played by the engine at git revision
REV too (checked out into a temporary `git worktree`, each side in a fresh process importing
its own checkout, so uncommitted work counts): it prints both digests and `identical`, or
`DIFFERENT`, how many logs differ and the first one (by label), and exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

TRACKS = ("first-oval", "road-course")
SEATS = (("greedy", "greedy", "greedy", "greedy"), ("greedy", "random", "greedy"),
         ("lookahead:2", "greedy", "greedy"), ("greedy", "greedy"),
         ("random", "greedy", "lookahead:2", "greedy"))
SEASON_SEATS = (("greedy", "greedy", "random"), ("greedy", "lookahead:2", "greedy", "greedy"))
OPTION_MIX = (("weaving", True), ("momentum", "none"), ("turn_order", "position"),
              ("occupancy", "space"), ("occupancy", "unlimited"), ("drafting", "segment"),
              ("drafting", "space"), ("placement_chain", False), ("positions_count_laps", False),
              ("refill_on_any_draw", False), ("gains_to", "discard"), ("strict_play", True),
              ("wear_card_playable", False), ("unlimited_wear", False))


def race_specs(n: int) -> list[Any]:
    """The bot mix: both tracks, every card set in turn, drivers in every other race."""
    from slipstream.engine.play.races import RaceSpec, parse_setup
    from slipstream.engine.play.registry import load_pack

    sets = sorted(load_pack("").card_sets)
    out = []
    for seed in range(1, n + 1):
        opts = (("drivers_in_single_races", True),) if seed % 2 else ()
        out.append(RaceSpec("", TRACKS[seed % 2], seed, SEATS[seed % len(SEATS)], options=opts,
                            setup=parse_setup({"card_set": sets[seed % len(sets)]})))
    return out


def mixed_specs(n: int) -> list[Any]:
    """The option mix: race i drawn from random.Random(i)."""
    from slipstream.engine.play.races import RaceSpec, parse_setup
    from slipstream.engine.play.registry import load_pack

    pack = load_pack("")
    tracks = sorted(pack.tracks)
    sets = sorted(pack.card_sets)
    drivers = sorted(pack.drivers)
    out = []
    for i in range(n):
        r = random.Random(i)
        k = r.randint(2, 5)
        bots = [r.choice(("greedy", "greedy", "random")) for _ in range(k)]
        if i % 25 == 7:
            bots[0] = "lookahead:2"
        drv: tuple[str | None, ...] = tuple(r.sample(drivers, k)) if r.random() < 0.4 else ()
        opts = dict(r.sample(OPTION_MIX, r.randint(0, 2)))
        track, card_set, laps = r.choice(tracks), r.choice(sets), r.choice((1, 1, 2))
        out.append(RaceSpec("", track, i, tuple(bots), laps, tuple(sorted(opts.items())),
                            parse_setup({"card_set": card_set, "drivers": drv})))
    return out


def season_specs(n: int) -> list[Any]:
    from slipstream.engine.play.registry import load_pack
    from slipstream.engine.rulesets.automobiles.seasonrun import SeasonSpec

    sets = sorted(load_pack("").card_sets)
    return [SeasonSpec("", TRACKS, seed, SEASON_SEATS[seed % 2], card_set=sets[seed % len(sets)],
                       season_options=(("drivers", True),), keep_lines=True)
            for seed in range(1, n + 1)]


def hand_games(seeds: int) -> Iterator[tuple[str, Any, list[Any]]]:
    """(label, game, bots) of the hand positions: every action card x `seeds` seeds."""
    from slipstream.engine.play.registry import load_pack
    from slipstream.engine.rulesets.automobiles.bots import GreedyBot
    from slipstream.engine.rulesets.automobiles.game import position_game
    from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack

    pack = load_pack("")
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
            yield f"hand {cid}/{seed}", g, [GreedyBot(seed * 10 + i) for i in range(3)]


def play_hand(g: Any, bots: list[Any], rounds: int = 3) -> None:
    stop = g.race.round + rounds
    n = 0
    while g.pending is not None and g.race.round < stop and n < 20_000:
        d = g.pending
        g.apply(bots[d.player].choose(g, d))
        n += 1


def fingerprint(args: argparse.Namespace) -> dict[str, Any]:
    """Play everything in this process: {"labels", "digests", "lines", "replay_failure"}."""
    from slipstream.engine.play.batch import run_many
    from slipstream.engine.play.racelog import dumps, log_lines
    from slipstream.engine.rulesets.automobiles.racelog import replay_lines
    from slipstream.engine.rulesets.automobiles.seasonrun import run_season

    labels: list[str] = []
    digests: list[str] = []
    n_lines = 0
    failure = None

    def add(label: str, lines: list[str], extra: bytes = b"") -> None:
        nonlocal n_lines
        h = hashlib.sha256()
        for line in lines:
            h.update(line.encode())
            h.update(b"\n")
        h.update(extra)
        labels.append(label)
        digests.append(h.hexdigest())
        n_lines += len(lines)

    for family, specs in (("race", race_specs(args.races)), ("mixed", mixed_specs(args.mixed))):
        for spec, res in zip(specs, run_many(specs, args.jobs), strict=True):
            lines = log_lines(res.header, res.log, res.result)
            stats = json.dumps(res.stats, sort_keys=True).encode() if family == "mixed" else b""
            add(f"{family} {spec.seed}", lines, stats)
            if args.replay and failure is None:
                rep = replay_lines(lines)
                if not rep.identical:
                    failure = f"{family} {spec.seed}: replay differs: {rep.message}"
    for sspec in season_specs(args.seasons):
        add(f"season {sspec.seed}", list(run_season(sspec).lines))
    for label, g, bots in hand_games(args.hands):
        play_hand(g, bots)
        add(label, [dumps(x) for x in g.log])
    return {"labels": labels, "digests": digests, "lines": n_lines, "replay_failure": failure}


def total_of(out: dict[str, Any]) -> str:
    total = hashlib.sha256()
    for d in out["digests"]:
        total.update(bytes.fromhex(d))
    return total.hexdigest()


def what(args: argparse.Namespace) -> str:
    return (f"{args.races} races + {args.mixed} mixed + {args.seasons} seasons + "
            f"{args.hands} hands a card")


def _shim(root: Path, into: Path) -> Path:
    """A folder whose `slipstream` package maps onto the checkout at `root` (no install)."""
    pkg = into / "slipstream"
    pkg.mkdir(parents=True)
    for part in ("engine", "schemas", "content"):
        (pkg / part).symlink_to(root / part, target_is_directory=True)
    return into


def run_side(root: Path, args: argparse.Namespace, tmp: Path, name: str) -> dict[str, Any]:
    """The fingerprint of the checkout at `root`, played by this script in a fresh process."""
    shim = _shim(root, tmp / f"shim-{name}")
    env = {**os.environ, "PYTHONPATH": str(shim), "SLIPSTREAM_CACHE_DIR": tempfile.mkdtemp(dir=tmp)}
    argv = [sys.executable, str(Path(__file__).resolve()), "--worker", "--races", str(args.races),
            "--mixed", str(args.mixed), "--seasons", str(args.seasons), "--hands", str(args.hands),
            "--jobs", str(args.jobs)] + (["--replay"] if args.replay else [])
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=shim)
    if done.returncode != 0:
        raise SystemExit(f"fingerprint ({name}) failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def report(name: str, out: dict[str, Any], args: argparse.Namespace) -> int:
    if args.per_log:
        for label, d in zip(out["labels"], out["digests"], strict=True):
            print(f"{name}: {label}: {d[:16]}")
    print(f"{name}: {total_of(out)}  ({what(args)}; {out['lines']} log lines)"
          + ("; every race log replays identically" if args.replay and not out["replay_failure"] else ""))
    if out["replay_failure"]:
        print(f"{name}: {out['replay_failure']}")
        return 1
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--races", type=int, default=150, help="races of the bot mix (default 150)")
    ap.add_argument("--mixed", type=int, default=300, help="races of the option mix (default 300)")
    ap.add_argument("--seasons", type=int, default=6, help="seasons (default 6)")
    ap.add_argument("--hands", type=int, default=4, help="seeded hand positions per action card (default 4)")
    ap.add_argument("--replay", action="store_true", help="also replay every race log")
    ap.add_argument("--jobs", type=int, default=1, help="processes for the races (default 1)")
    ap.add_argument("--per-log", action="store_true", help="print a digest per log")
    ap.add_argument("--baseline", metavar="REV", help="also play them at git revision REV and compare")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if min(args.races, args.mixed, args.seasons, args.hands) < 0 or args.jobs < 1:
        ap.error("counts must be >= 0 and --jobs >= 1")
    if args.worker:
        print(json.dumps(fingerprint(args)))
        return 0
    if not args.baseline:
        return report("this checkout", fingerprint(args), args)
    here = Path(__file__).resolve().parent.parent
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-fingerprint-"))
    wt = tmp / "baseline"
    try:
        done = subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", "-q", str(wt), args.baseline],
                              capture_output=True, text=True)
        if done.returncode != 0:
            print(f"cannot check out {args.baseline}: {done.stderr.strip()}", file=sys.stderr)
            return 2
        mine = run_side(here, args, tmp, "this")
        theirs = run_side(wt, args, tmp, "baseline")
        bad = report("this checkout", mine, args) | report(f"{args.baseline}", theirs, args)
        a, b = mine["digests"], theirs["digests"]
        if a == b:
            print("identical")
            return bad
        if mine["labels"] != theirs["labels"]:
            print(f"DIFFERENT: {len(a)} logs here, {len(b)} at {args.baseline} (the packs differ)")
            return 1
        differ = [label for label, x, y in zip(mine["labels"], a, b, strict=True) if x != y]
        print(f"DIFFERENT: {len(differ)} of {len(a)} logs differ, the first is {differ[0]}")
        return 1
    finally:
        subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(wt)], check=False,
                       capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
