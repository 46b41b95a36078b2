#!/usr/bin/env python3
"""Race speed: greedy races per second on each bundled track, growth with players and track
length, and the speed-up of parallel jobs.

    .venv/bin/python bench/race.py [--races N]

Single-core figures use CPU time of this process (stable on a busy machine); the jobs
comparison uses wall time. Ratios are against baselines measured in the same run.
"""

from __future__ import annotations

import argparse
import time

from slipstream.engine.core.yamlsource import SourceMap
from slipstream.engine.rulesets.automobiles.bots import GreedyBot, play_out
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack
from slipstream.engine.rulesets.automobiles.runner import RaceSpec, run_many
from slipstream.engine.tracks.track import Track, parse_track

TARGET = 10.0  # four-greedy races per CPU second on the oval


def races_per_cpu_second(rules, track: Track, players: int, races: int,  # type: ignore[no-untyped-def]
                         laps: int | None = None) -> tuple[float, float]:
    t0 = time.process_time()
    rounds = 0
    for seed in range(races):
        g = Game(rules, track, [Seat(f"P{i + 1}", "greedy") for i in range(players)], seed=seed,
                 laps=laps, record=False)
        play_out(g, [GreedyBot(seed * 10 + i) for i in range(players)])
        rounds += g.race.round
    dt = time.process_time() - t0
    return races / dt, rounds / races


def stretched(track: Track, times: int) -> Track:
    """The same track with its lap repeated `times` times (`times`× the segments)."""
    from slipstream.engine.tracks.track import layout_string

    n = track.segments
    layout = [" ".join([layout_string(track, lane)] * times) for lane in range(track.lanes)]
    grid = [{"lane": g.lane, "segment": g.segment + (times - 1) * n, "money": g.money} for g in track.grid]
    data = {"id": f"{track.id}-x{times}", "laps": track.laps, "lanes": track.lanes, "layout": layout, "grid": grid}
    out, diags = parse_track(data, SourceMap("bench"))
    assert out is not None, diags
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=20, help="races per measurement (default 20)")
    args = ap.parse_args()
    n = args.races
    pack = base_pack()
    rules = ruleset_from_pack(pack)
    print(f"card set {rules.card_set}, {n} races per figure, greedy bots")
    print("\n4 greedy bots per bundled track (races per CPU second):")
    base = None
    for tid, track in pack.tracks.items():
        rate, rounds = races_per_cpu_second(rules, track, 4, n)
        base = base or rate
        mark = "" if tid != "first-oval" else f"   target >= {TARGET:.0f}: {'met' if rate >= TARGET else 'NOT met'}"
        print(f"  {tid:<14} {track.segments:>4} segments  {rate:6.1f} races/s  ({rounds:.1f} rounds/race){mark}")

    oval = pack.tracks["first-oval"]
    print("\ntime per race by players on first-oval (ratio to 2 players):")
    t2 = None
    for players in (2, 3, 4, 5):
        rate, rounds = races_per_cpu_second(rules, oval, players, n)
        per = 1 / rate
        t2 = t2 or per
        print(f"  {players} players  {1000 * per:7.1f} ms/race  x{per / t2:4.2f}  ({rounds:.1f} rounds)")

    print("\ntime per race by track length, 4 players, 1 lap (ratio to 1x):")
    t1 = None
    for times in (1, 2, 4):
        tr = stretched(oval, times)
        rate, rounds = races_per_cpu_second(rules, tr, 4, max(4, n // times), laps=1)
        per = 1 / rate
        t1 = t1 or per
        print(f"  {times}x ({tr.segments} segments)  {1000 * per:7.1f} ms/race  x{per / t1:4.2f}  ({rounds:.1f} rounds)")

    print("\nparallel jobs (wall time, 4 greedy bots, first-oval):")
    specs = [RaceSpec("", "first-oval", s, ("greedy",) * 4, record=False) for s in range(2 * n)]
    walls = {}
    for jobs in (1, 2):
        t0 = time.perf_counter()
        run_many(specs, jobs)
        walls[jobs] = time.perf_counter() - t0
        print(f"  --jobs {jobs}: {len(specs) / walls[jobs]:6.1f} races/s")
    print(f"  speed-up of --jobs 2: x{walls[1] / walls[2]:.2f}")


if __name__ == "__main__":
    main()
