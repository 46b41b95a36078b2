#!/usr/bin/env python3
"""A sha256 fingerprint of many seeded Automobiles races, to show a speed change plays the same.

    .venv/bin/python bench/race_fingerprint.py [--races N] [--replay] [--jobs J]

Race i has its own mix, drawn from `random.Random(i)`: track, 2-5 seats of random / greedy
bots (a few look-ahead seats at a small budget), drivers or none, a card set, 1 or 2 laps and
a rule option or two. The fingerprint hashes every race's log lines (header included), its
result line and its statistics; equal fingerprints before and after a change mean the same
bytes. `--replay` also replays every log and fails on the first one that does not replay.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.racelog import log_lines, replay_lines
from slipstream.engine.rulesets.automobiles.runner import RaceSpec, run_many

OPTION_MIX = (("weaving", True), ("momentum", "none"), ("turn_order", "position"),
              ("occupancy", "space"), ("occupancy", "unlimited"), ("drafting", "segment"),
              ("drafting", "space"), ("placement_chain", False), ("positions_count_laps", False),
              ("refill_on_any_draw", False), ("gains_to", "discard"), ("strict_play", True),
              ("wear_card_playable", False), ("unlimited_wear", False))


def specs(races: int) -> list[RaceSpec]:
    pack = base_pack()
    tracks = sorted(pack.tracks)
    sets = sorted(pack.card_sets)
    drivers = sorted(pack.drivers)
    out = []
    for i in range(races):
        r = random.Random(i)
        n = r.randint(2, 5)
        bots = [r.choice(("greedy", "greedy", "random")) for _ in range(n)]
        if i % 25 == 7:
            bots[0] = "lookahead:2"
        drv: tuple[str | None, ...] = tuple(r.sample(drivers, n)) if r.random() < 0.4 else ()
        opts = dict(r.sample(OPTION_MIX, r.randint(0, 2)))
        out.append(RaceSpec("", r.choice(tracks), i, tuple(bots), r.choice(sets),
                            r.choice((1, 1, 2)), tuple(sorted(opts.items())), drv))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--races", type=int, default=160)
    ap.add_argument("--replay", action="store_true", help="also replay every log")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    h = hashlib.sha256()
    results = run_many(specs(args.races), args.jobs)
    lines_total = 0
    for res in results:
        lines = log_lines(res.header, res.log, res.result)
        lines_total += len(lines)
        for line in lines:
            h.update(line.encode())
            h.update(b"\n")
        h.update(json.dumps(res.stats, sort_keys=True).encode())
        if args.replay:
            rep = replay_lines(lines)
            if not rep.identical:
                sys.exit(f"race {res.spec.seed}: replay differs: {rep.message}")
    print(f"{args.races} races, {lines_total} log lines: sha256 {h.hexdigest()}"
          + ("; every log replays identically" if args.replay else ""))


if __name__ == "__main__":
    main()
