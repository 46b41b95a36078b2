#!/usr/bin/env python3
"""Race speed: greedy races per second on each bundled track, growth with players and track
length, and the speed-up of parallel jobs.

    .venv/bin/python bench/race.py [--races N] [--baseline REV]

Single-core figures use CPU time of this process (stable on a busy machine); the jobs
comparison uses wall time. Ratios are against baselines measured in the same run.

With `--baseline REV` it also measures the engine at git revision REV (checked out into a
temporary worktree, imported from there) against this checkout, on the same seeds, each
side in a fresh process, alternating several rounds: races per CPU second of 4 greedy bots on
both bundled tracks and replays per CPU second of those races' logs, with the ratio
this/baseline (1.0 = as fast).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


# Runs in a fresh process against either checkout: the import paths of before and after the
# engine's split into parts (docs/architecture.md) are both tried.
_WORKER = r"""
import json, sys, time
try:
    from slipstream.engine.rulesets.automobiles.bots import GreedyBot, play_out
    from slipstream.engine.rulesets.automobiles.content import base_pack
    from slipstream.engine.rulesets.automobiles.game import Game, Seat
    from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack
    from slipstream.engine.rulesets.automobiles.racelog import log_lines, replay_lines
    from slipstream.engine.rulesets.automobiles.runner import RaceSpec, run_race
except ImportError:
    from slipstream.engine.bots import GreedyBot, play_out
    from slipstream.engine.pack import base_pack
    from slipstream.engine.game import Game, Seat
    from slipstream.engine.ruleset import ruleset_from_pack
    from slipstream.engine.racelog import log_lines, replay_lines
    from slipstream.engine.runner import RaceSpec, run_race
races = int(sys.argv[1])
pack = base_pack()
rules = ruleset_from_pack(pack)
out = {}
for tid, track in sorted(pack.tracks.items()):
    t0 = time.process_time()
    for seed in range(races):
        g = Game(rules, track, [Seat(f"P{i + 1}", "greedy") for i in range(4)], seed=seed, record=False)
        play_out(g, [GreedyBot(seed * 10 + i) for i in range(4)])
    race_rate = races / (time.process_time() - t0)
    logs = []
    for seed in range(max(2, races // 4)):
        res = run_race(RaceSpec("", tid, seed, ("greedy",) * 4))
        logs.append(log_lines(res.header, res.log, res.result))
    t0 = time.process_time()
    for lines in logs:
        rep = replay_lines(lines)
        assert rep.identical, rep.message  # a replay that stops early would measure nothing
    replay_rate = len(logs) / (time.process_time() - t0)
    out[tid] = [race_rate, replay_rate]
print(json.dumps(out))
"""


def _shim(root: Path, into: Path) -> Path:
    """A folder whose `slipstream` package maps onto the checkout at `root` (no install)."""
    pkg = into / "slipstream"
    pkg.mkdir(parents=True)
    for part, folder in (("engine", "engine"), ("schemas", "schemas"), ("content", "content")):
        (pkg / part).symlink_to(root / folder, target_is_directory=True)
    return into


def _measure(path_dir: Path, races: int) -> dict[str, list[float]]:
    env = {**os.environ, "PYTHONPATH": str(path_dir), "SLIPSTREAM_CACHE_DIR": tempfile.mkdtemp()}
    done = subprocess.run([sys.executable, "-c", _WORKER, str(races)], capture_output=True, text=True,
                          env=env, cwd=path_dir)
    if done.returncode != 0:
        raise SystemExit(f"benchmark worker failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def compare_with(rev: str, races: int, rounds: int = 3) -> None:
    """This checkout against the engine at `rev`, alternating `rounds` times (median ratios)."""
    here = Path(__file__).resolve().parent.parent
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-bench-"))
    wt = tmp / "baseline"
    try:
        subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", "-q", str(wt), rev], check=True)
        paths = {"baseline": _shim(wt, tmp / "shim-baseline"), "this": _shim(here, tmp / "shim-this")}
        runs: dict[str, list[dict[str, list[float]]]] = {"baseline": [], "this": []}
        for r in range(rounds):
            for side in (("baseline", "this") if r % 2 == 0 else ("this", "baseline")):
                runs[side].append(_measure(paths[side], races))
        print(f"\nthis checkout against {rev} ({races} races a track, {rounds} alternating rounds, "
              "median of each; per CPU second):")
        for tid in sorted(runs["this"][0]):
            for k, what in ((0, "races  "), (1, "replays")):
                a = sorted(x[tid][k] for x in runs["baseline"])[rounds // 2]
                b = sorted(x[tid][k] for x in runs["this"])[rounds // 2]
                print(f"  {tid:<14} {what} baseline {a:7.1f}/s  this {b:7.1f}/s  ratio x{b / a:4.2f}")
    finally:
        subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(wt)], check=False)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=20, help="races per measurement (default 20)")
    ap.add_argument("--baseline", metavar="REV", help="also compare with the engine at git revision REV")
    ap.add_argument("--only-baseline", action="store_true", help="with --baseline: only the comparison")
    args = ap.parse_args()
    n = args.races
    if args.baseline:
        compare_with(args.baseline, n)
        if args.only_baseline:
            return
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
