#!/usr/bin/env python3
"""One sha256 over the logs of seeded races and seasons of every ruleset, here or against a revision.

    .venv/bin/python bench/fingerprint.py [--ruleset all|ID[,ID]] [--races 150] [--mixed 300]
                                          [--searched 12] [--seasons 6] [--hands 4] [--other-races 80]
                                          [--other-searched 6] [--other-seasons 3] [--replay]
                                          [--jobs J] [--per-log]
                                          [--baseline REV]

A speed change to a bot or to the engine, or content re-expressed as data, must leave every
choice and every log line as it was. The fingerprint hashes, header and result lines included:

Automobiles (the base pack)
- `--races` seeded races: both bundled tracks, every card set in turn, drivers dealt in every
  other race, seats mixing greedy, random and look-ahead:2 bots;
- `--mixed` races each with its own mix drawn from `random.Random(i)`: track, 2-5 seats, drivers
  given or none, a card set, 1 or 2 laps and zero to two rule options (weaving, momentum, turn
  order, occupancy, drafting, ...), their statistics hashed too;
- `--searched` races whose look-ahead seat searches with a full budget (`lookahead`, or
  `lookahead:12`), 2-4 seats, drivers in every other race, zero to two rule options: the
  other races' look-ahead:2 gives each option one rollout, and some of the search's shortcuts
  start at three;
- `--seasons` seasons (sponsors and their decisions between races; 3 and 4 seats in turn);
- for every action card of the pack, `--hands` seeded positions where the greedy bots hold that
  card and a driver in hand and play three rounds from there (races alone rarely let a greedy
  bot own the cards it never buys).

Formula Dé and speed-hazard (their bundled packs, content/formula-de and content/speed-hazard)
- `--other-races` races of each, race i drawn from `random.Random("<id> i")`: a bundled track,
  2-5 seats of greedy and random bots, the track's laps or one, zero to two of the ruleset's
  rule options (two cars a player, basic wear, ram beside, U-turn, ...), their statistics hashed
  too; one race in eight has a look-ahead seat with a small budget (Formula Dé lookahead:1 or
  :2, speed-hazard lookahead:4, the smallest it lists) and fewer seats, to stay quick;
- `--other-searched` races of each whose look-ahead seat searches with the ruleset's own full
  budget (plain `lookahead`), race i drawn from `random.Random("<id> searched i")`: a bundled
  track, one lap, 2-3 seats, zero to two rule options (the small budgets above leave out the
  search's shortcuts that need several options or rollouts to compare);
- `--other-seasons` championships of each over its circuits (2-4 seats, season options in turn).

`--ruleset` keeps only the named rulesets (comma-separated; default all). `--replay` also
replays every race log and the other rulesets' season logs, and fails on the first that does
not replay identically; `--jobs J` plays the races in J processes (same bytes). `--per-log`
prints a digest per log. With more than one ruleset a digest per ruleset follows the total.
With `--baseline REV` the same logs are played by the engine at git revision REV too (checked
out into a temporary `git worktree`, each side in a fresh process importing its own checkout,
so uncommitted work counts): it prints both digests and `identical`, or `DIFFERENT`, how many
logs differ (by ruleset) and the first one (by label), and exits 1 on a difference. The script
only goes through what every revision since d3adda9 has (RaceSpec, run_many, the registry,
`Championships.run`), so that it plays the old checkout too; the other rulesets' packs are
named by folder relative to the bundled content, so that the logs' headers match across
checkouts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from checkouts import HERE, CheckoutError, revision, run_json, temp_dir

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

# The other bundled rulesets: (ruleset id, pack id) and their rule options to draw from. Their
# look-ahead seats get a small budget (lookahead:1 or 2), in one race of LOOKAHEAD_EVERY.
RULESETS = ("automobiles", "formula-de", "speed-hazard")
PACKS = {"formula-de": "formula-de", "speed-hazard": "speed-hazard"}
RULE_MIX = {
    "formula-de": (("cars_per_player", 2), ("collision_diagonal", False), ("downshift_needs_points", False),
                   ("flying_start_swerve", "each-step"), ("pit_entry_max_gear", 4), ("stall_first_gear", False),
                   ("tyre_limit_counts", "all"), ("wear_model", "basic")),
    "speed-hazard": (("check_leaving_curve", True), ("ram_beside", True), ("nitrous_until", "curve"),
                     ("curve_accel_hazards", "over"), ("sabotage_start_square", False), ("pit_wall_slide", False),
                     ("all_pit_entries", True), ("u_turn", True), ("u_turn_lanes", "skid-any-lane"),
                     ("reverse_laps", "unchanged")),
}
SEASON_MIX = (("season_points", "players_minus_place"), ("season_eliminated_score", True))
LOOKAHEAD_EVERY = 8
# The look-ahead seat of a race of k seats: LOOKAHEAD[id][k - 2] (k up to its length + 1). The
# smallest budgets the ruleset lists, so that a log replays (speed-hazard names lookahead:4,
# :8 and :16 only; its look-ahead races have two seats and one lap to stay quick).
LOOKAHEAD = {"formula-de": ("lookahead:2", "lookahead:1"), "speed-hazard": ("lookahead:4",)}


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


def base_choices() -> tuple[list[str], list[str], list[str]]:
    """The base pack's tracks, card sets and drivers, sorted (what the drawn races pick from)."""
    from slipstream.engine.play.registry import load_pack

    pack = load_pack("")
    return sorted(pack.tracks), sorted(pack.card_sets), sorted(pack.drivers)


def mixed_specs(n: int) -> list[Any]:
    """The option mix: race i drawn from random.Random(i)."""
    from slipstream.engine.play.races import RaceSpec, parse_setup

    tracks, sets, drivers = base_choices()
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


def searched_specs(n: int) -> list[Any]:
    """Look-ahead seats searching as in play (the default budget, or 12): race i drawn from
    random.Random(f"searched {i}"), 2-4 seats, a card set, drivers in every other race, zero
    to two rule options. (The other races' look-ahead:2 tries one rollout an option, too few
    for the work shared between the rollouts of an option, which needs three.)"""
    from slipstream.engine.play.races import RaceSpec, parse_setup

    tracks, sets, drivers = base_choices()
    out = []
    for i in range(n):
        r = random.Random(f"searched {i}")
        k = r.randint(2, 4)
        bots = ["lookahead" if i % 2 else "lookahead:12"] + [r.choice(("greedy", "greedy", "random"))
                                                             for _ in range(k - 1)]
        r.shuffle(bots)
        drv: tuple[str | None, ...] = tuple(r.sample(drivers, k)) if i % 2 == 0 else ()
        opts = dict(r.sample(OPTION_MIX, r.randint(0, 2)))
        out.append(RaceSpec("", r.choice(tracks), i, tuple(bots), 1, tuple(sorted(opts.items())),
                            parse_setup({"card_set": r.choice(sets), "drivers": drv})))
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


def ruleset_specs(rid: str, n: int) -> list[Any]:
    """`n` races of ruleset `rid` on its bundled pack, race i drawn from random.Random: a track,
    2-5 seats of greedy and random bots (a look-ahead seat in one race of LOOKAHEAD_EVERY, with
    fewer seats), 1 lap or the track's, zero to two rule options."""
    from slipstream.engine.play.races import RaceSpec
    from slipstream.engine.play.registry import load_pack

    tracks = sorted(load_pack(PACKS[rid]).tracks)
    out = []
    for i in range(n):
        r = random.Random(f"{rid} {i}")
        look = LOOKAHEAD[rid] if i % LOOKAHEAD_EVERY == 3 else ()
        k = r.randint(2, len(look) + 1) if look else r.randint(2, 5)
        bots = [r.choice(("greedy", "greedy", "random")) for _ in range(k)]
        if look:
            bots[r.randrange(k)] = look[k - 2]
        opts = dict(r.sample(RULE_MIX[rid], r.randint(0, 2)))
        laps = 1 if look and len(look) == 1 else r.choice((None, None, 1))
        out.append(RaceSpec(PACKS[rid], r.choice(tracks), i + 1, tuple(bots), laps, tuple(sorted(opts.items()))))
    return out


def ruleset_searched(rid: str, n: int) -> list[Any]:
    """`n` races of ruleset `rid` on its bundled pack with a look-ahead seat of the ruleset's
    default budget: race i drawn from random.Random, a track, one lap, 2-3 seats (the others
    greedy or random), zero to two rule options."""
    from slipstream.engine.play.races import RaceSpec
    from slipstream.engine.play.registry import load_pack

    tracks = sorted(load_pack(PACKS[rid]).tracks)
    out = []
    for i in range(n):
        r = random.Random(f"{rid} searched {i}")
        k = r.randint(2, 3)
        bots = ["lookahead"] + [r.choice(("greedy", "greedy", "random")) for _ in range(k - 1)]
        r.shuffle(bots)
        opts = dict(r.sample(RULE_MIX[rid], r.randint(0, 2)))
        out.append(RaceSpec(PACKS[rid], r.choice(tracks), i + 1, tuple(bots), 1, tuple(sorted(opts.items()))))
    return out


def ruleset_seasons(rid: str, n: int) -> list[Any]:
    """`n` seasons of ruleset `rid` on its bundled pack (its own circuits in turn), 2-4 greedy and
    random seats, every other one with a season option."""
    from slipstream.engine.play.protocol import SeasonPlan
    from slipstream.engine.play.registry import for_pack

    rs, pack = for_pack(PACKS[rid])
    assert rs.seasons is not None
    tracks = tuple(rs.seasons.tracks(pack, {}))
    out = []
    for seed in range(1, n + 1):
        bots = ("greedy", "random", "greedy", "greedy")[: 2 + seed % 3]
        opts = (SEASON_MIX[seed % len(SEASON_MIX)],) if seed % 2 else ()
        out.append(SeasonPlan(PACKS[rid], tracks, seed, bots, options=opts, ruleset=rid))
    return out


def play_hand(g: Any, bots: list[Any], rounds: int = 3) -> None:
    stop = g.race.round + rounds
    n = 0
    while g.pending is not None and g.race.round < stop and n < 20_000:
        d = g.pending
        g.apply(bots[d.player].choose(g, d))
        n += 1


def fingerprint(args: argparse.Namespace) -> dict[str, Any]:
    """Play everything in this process: {"labels", "digests", "lines", "replay_failure"}."""
    from slipstream.engine.play.racelog import dumps

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

    def replayed(label: str, ok: bool, message: str) -> None:
        nonlocal failure
        if not ok and failure is None:
            failure = f"{label}: replay differs: {message}"

    if "automobiles" in args.rulesets:
        from slipstream.engine.rulesets.automobiles.racelog import replay_lines
        from slipstream.engine.rulesets.automobiles.seasonrun import run_season

        for family, specs in (("race", race_specs(args.races)), ("mixed", mixed_specs(args.mixed)),
                              ("searched", searched_specs(args.searched))):
            for label, lines, res in _played(family, specs, args.jobs):
                add(label, lines, json.dumps(res.stats, sort_keys=True).encode() if family == "mixed" else b"")
                if args.replay and failure is None:
                    rep = replay_lines(lines)
                    replayed(label, rep.identical, rep.message)
        for sspec in season_specs(args.seasons):
            add(f"season {sspec.seed}", list(run_season(sspec).lines))
        for label, g, bots in hand_games(args.hands):
            play_hand(g, bots)
            add(label, [dumps(x) for x in g.log])
    others = [rid for rid in RULESETS if rid in args.rulesets and rid in PACKS]
    if others:
        # The bundled packs by a folder name relative to their common folder, so that the logs'
        # headers (`pack_path`) read the same in every checkout.
        from slipstream.engine.packs.loader import bundled_root
        from slipstream.engine.play.registry import get

        back = os.getcwd()
        os.chdir(bundled_root())
        try:
            for rid in others:
                rs = get(rid)
                for family, specs in ((rid, ruleset_specs(rid, args.other_races)),
                                      (f"{rid} searched", ruleset_searched(rid, args.other_searched))):
                    for label, lines, res in _played(family, specs, args.jobs):
                        add(label, lines, json.dumps(res.stats, sort_keys=True).encode())
                        if args.replay and failure is None:
                            rep = rs.replay(lines)
                            replayed(label, rep.identical, rep.message)
                assert rs.seasons is not None
                for plan in ruleset_seasons(rid, args.other_seasons):
                    lines = list(rs.seasons.run(plan).lines)
                    add(f"{rid} season {plan.seed}", lines)
                    if args.replay and failure is None:
                        rep = rs.seasons.replay(lines)
                        replayed(f"{rid} season {plan.seed}", rep.identical, rep.message)
        finally:
            os.chdir(back)
    return {"labels": labels, "digests": digests, "lines": n_lines, "replay_failure": failure}


def _played(family: str, specs: list[Any], jobs: int) -> Iterator[tuple[str, list[str], Any]]:
    """(label, log lines with header and result, result) of each race of `specs`."""
    from slipstream.engine.play.batch import run_many
    from slipstream.engine.play.racelog import log_lines

    for spec, res in zip(specs, run_many(specs, jobs), strict=True):
        yield f"{family} {spec.seed}", log_lines(res.header, res.log, res.result), res


def total_of(out: dict[str, Any]) -> str:
    total = hashlib.sha256()
    for d in out["digests"]:
        total.update(bytes.fromhex(d))
    return total.hexdigest()


def what(args: argparse.Namespace) -> str:
    parts = []
    if "automobiles" in args.rulesets:
        parts.append(f"automobiles: {args.races} races + {args.mixed} mixed + {args.searched} searched + "
                     f"{args.seasons} seasons + {args.hands} hands a card")
    parts += [f"{rid}: {args.other_races} races + {args.other_searched} searched + {args.other_seasons} seasons"
              for rid in RULESETS if rid in args.rulesets and rid in PACKS]
    return "; ".join(parts)


def ruleset_of(label: str) -> str:
    """The ruleset a log's label belongs to (the other rulesets' labels start with their id)."""
    first = label.split(" ", 1)[0]
    return first if first in PACKS else "automobiles"


def run_side(root: Path, args: argparse.Namespace, tmp: Path, name: str) -> dict[str, Any]:
    """The fingerprint of the checkout at `root`, played by this script in a fresh process."""
    argv = ["--worker", "--races", str(args.races), "--mixed", str(args.mixed), "--searched", str(args.searched),
            "--seasons", str(args.seasons),
            "--hands", str(args.hands), "--other-races", str(args.other_races),
            "--other-searched", str(args.other_searched),
            "--other-seasons", str(args.other_seasons), "--ruleset", ",".join(args.rulesets),
            "--jobs", str(args.jobs)] + (["--replay"] if args.replay else [])
    result: dict[str, Any] = run_json(Path(__file__).resolve(), argv, tmp, name, root=root)
    return result


def report(name: str, out: dict[str, Any], args: argparse.Namespace) -> int:
    if args.per_log:
        for label, d in zip(out["labels"], out["digests"], strict=True):
            print(f"{name}: {label}: {d[:16]}")
    print(f"{name}: {total_of(out)}  ({what(args)}; {out['lines']} log lines)"
          + ("; every log replays identically" if args.replay and not out["replay_failure"] else ""))
    if len(args.rulesets) > 1:
        for rid in args.rulesets:
            mine = [d for label, d in zip(out["labels"], out["digests"], strict=True) if ruleset_of(label) == rid]
            print(f"  {rid}: {total_of({'digests': mine})}  ({len(mine)} logs)")
    if out["replay_failure"]:
        print(f"{name}: {out['replay_failure']}")
        return 1
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--races", type=int, default=150, help="races of the bot mix (default 150)")
    ap.add_argument("--mixed", type=int, default=300, help="races of the option mix (default 300)")
    ap.add_argument("--searched", type=int, default=12,
                    help="races with a look-ahead seat of a full budget (default 12)")
    ap.add_argument("--seasons", type=int, default=6, help="seasons (default 6)")
    ap.add_argument("--hands", type=int, default=4, help="seeded hand positions per action card (default 4)")
    ap.add_argument("--other-races", type=int, default=80,
                    help="races of each other ruleset, Formula Dé and speed-hazard (default 80)")
    ap.add_argument("--other-searched", type=int, default=6,
                    help="races of each other ruleset with a look-ahead seat of a full budget (default 6)")
    ap.add_argument("--other-seasons", type=int, default=3, help="seasons of each other ruleset (default 3)")
    ap.add_argument("--ruleset", default="all", metavar="ID[,ID]",
                    help=f"only these rulesets ({', '.join(RULESETS)}; default all)")
    ap.add_argument("--replay", action="store_true", help="also replay every race and season log")
    ap.add_argument("--jobs", type=int, default=1, help="processes for the races (default 1)")
    ap.add_argument("--per-log", action="store_true", help="print a digest per log")
    ap.add_argument("--baseline", metavar="REV", help="also play them at git revision REV and compare")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if min(args.races, args.mixed, args.searched, args.seasons, args.hands, args.other_races,
           args.other_searched, args.other_seasons) < 0 \
            or args.jobs < 1:
        ap.error("counts must be >= 0 and --jobs >= 1")
    args.rulesets = list(RULESETS) if args.ruleset == "all" else [x.strip() for x in args.ruleset.split(",")]
    unknown = [x for x in args.rulesets if x not in RULESETS]
    if unknown or not args.rulesets:
        ap.error(f"--ruleset: unknown {', '.join(unknown) or 'empty'} (rulesets: {', '.join(RULESETS)}, or all)")
    args.rulesets = [x for x in RULESETS if x in args.rulesets]
    if args.worker:
        print(json.dumps(fingerprint(args)))
        return 0
    if not args.baseline:
        return report("this checkout", fingerprint(args), args)
    with temp_dir("slipstream-fingerprint-") as tmp:
        try:
            with revision(args.baseline, tmp) as wt:
                mine = run_side(HERE, args, tmp, "this")
                theirs = run_side(wt, args, tmp, "baseline")
        except CheckoutError as e:
            print(f"cannot check out {args.baseline}: {e}", file=sys.stderr)
            return 2
    bad = report("this checkout", mine, args) | report(f"{args.baseline}", theirs, args)
    a, b = mine["digests"], theirs["digests"]
    if a == b:
        print("identical")
        return bad
    if mine["labels"] != theirs["labels"]:
        print(f"DIFFERENT: {len(a)} logs here, {len(b)} at {args.baseline} (the packs differ)")
        return 1
    differ = [label for label, x, y in zip(mine["labels"], a, b, strict=True) if x != y]
    by = {rid: sum(ruleset_of(x) == rid for x in differ) for rid in args.rulesets}
    where = ", ".join(f"{rid} {n}" for rid, n in by.items() if n)
    print(f"DIFFERENT: {len(differ)} of {len(a)} logs differ ({where}), the first is {differ[0]}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
