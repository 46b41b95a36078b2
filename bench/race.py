#!/usr/bin/env python3
"""Race speed against a baseline revision, per-decision cost, memory, and every ruleset.

    .venv/bin/python bench/race.py [--races N] [--rounds R] [--baseline REV] [--memory] [--more]
                                   [--no-compare] [--pure] [--installed PYTHON[,PYTHON]]
                                   [--compiled-baseline]

By default it measures this checkout against the engine at git revision REV (default 54df754,
the commit before the speed work of issue 20), checked out into a temporary `git worktree`
and imported from there, each side in a fresh process, alternating R rounds (median of each):
on both bundled Automobiles tracks, races per CPU second of 4 greedy bots and replays per CPU
second of those races' logs (`replay_lines`, which checks every line), the same seeds on both
sides (each side first plays one race on another seed, untimed, so that the tables built once
per track and ruleset are there on both), with the ratio this/baseline (1.0 = as fast) and the cost per decision (µs, bot
included for races). The `engine` row is the engine's part of those races: their time outside
the bots' `choose` (wall-clock share of the CPU time), per decision, and its speed-up. Then every ruleset of the registry: its races per CPU second on the
first track of its bundled pack (a ruleset without a bundled pack is listed as such).

`--memory` plays a 10,000-race batch (4 greedy bots, first-oval, no logs kept) in this
process and prints the resident memory after 1,000 and 10,000 races: it should not grow.
`--more` adds time per race by players and by track length and the speed-up of `--jobs 2`.

This checkout runs with its compiled accelerator when `python3 dev.py build` made a current one
(engine/core/accel.py; the first lines of the report say which); `--pure` measures it without
(SLIPSTREAM_PURE=1), so both figures come from one tool. The baseline runs pure unless
`--compiled-baseline` first builds its own accelerator (its wheel, as `pip install` builds it,
unpacked into the temporary worktree: bench/checkouts.py); a revision from before the
accelerator stays pure, and the report's first lines say what each side ran.

`--installed PYTHON` measures an installed Slipstream instead of this checkout: the Python of
a virtual environment where `pip install` put it (compiled, when the machine could), against
the same install forced pure (SLIPSTREAM_PURE=1 when it runs), each round in fresh processes
from an empty folder, alternating: every ruleset's races per CPU second on the first track of
its bundled pack, the same seeds on both sides. A second PYTHON (`--installed A,B`), e.g. an
install made with SLIPSTREAM_PURE=1, is measured as a third side.

Figures use CPU time of the measuring process (steadier on a busy machine than wall time,
but still noisy under load); only ratios of the same run compare.
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
from typing import Any

from checkouts import CheckoutError, compile_checkout
from checkouts import median as _median
from checkouts import shim as _shim

from slipstream.engine.core.yamlsource import SourceMap
from slipstream.engine.play.batch import run_many
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.rulesets.automobiles.bots import GreedyBot, play_out
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack
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


# Runs in a fresh process against either checkout (argv: races, the checkout's root).
_WORKER = r"""
import importlib.metadata, importlib.util, json, sys, time
from pathlib import Path

# The installed metadata lists this checkout's rulesets; a baseline revision may lack some.
_entry_points = importlib.metadata.entry_points


def _present(ep):
    try:
        return importlib.util.find_spec(ep.value.partition(":")[0]) is not None
    except ImportError:
        return False


def _rulesets_present(**kw):
    eps = _entry_points(**kw)
    return [ep for ep in eps if _present(ep)] if kw.get("group") == "slipstream.rulesets" else eps


importlib.metadata.entry_points = _rulesets_present
from slipstream.engine.rulesets.automobiles.bots import GreedyBot, play_out
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack
from slipstream.engine.rulesets.automobiles.racelog import log_lines, replay_lines
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import get as _get
run_race = _get("automobiles").run_race  # the race a ruleset runs (both revisions have it)
races, root = int(sys.argv[1]), Path(sys.argv[2]).resolve()
try:  # the compiled accelerator of this side, if it has one (engine/core/accel.py)
    from slipstream.engine.core.accel import status
    accel = status().line()
except ImportError:
    accel = "no compiled accelerator in this revision"
pack = base_pack()
rules = ruleset_from_pack(pack)
out = {"automobiles": {}, "rulesets": {}, "accel": accel}
for tid, track in sorted(pack.tracks.items()):
    seats = [Seat(f"P{i + 1}", "greedy") for i in range(4)]
    # one race first, on a seed outside the measured ones: the per-track and per-ruleset tables
    # are built before the clock starts, on both sides alike
    warm = Game(rules, track, seats, seed=10**6, record=False)
    play_out(warm, [GreedyBot(10**7 + i) for i in range(4)])
    t0 = time.process_time()
    decisions = 0
    in_bots = wall = 0.0  # wall time inside the bots' `choose`, and in all: the rest is the engine's
    clock = time.perf_counter
    for seed in range(races):
        g = Game(rules, track, seats, seed=seed, record=False)
        bots = [GreedyBot(seed * 10 + i) for i in range(4)]
        w0 = clock()
        while g.pending is not None:  # play_out, timing the bots
            d = g.pending
            b0 = clock()
            key = bots[d.player].choose(g, d)
            in_bots += clock() - b0
            g.apply(key)
            decisions += 1
        wall += clock() - w0
    dt = time.process_time() - t0
    logs = []
    for seed in range(max(2, races // 2)):
        res = run_race(RaceSpec("", tid, seed, ("greedy",) * 4))
        logs.append(log_lines(res.header, res.log, res.result))
    replayed = sum(1 for lines in logs for line in lines if '"t":"decision"' in line)
    t0 = time.process_time()
    for lines in logs:
        rep = replay_lines(lines)
        assert rep.identical, rep.message  # a replay that stops early would measure nothing
    dr = time.process_time() - t0
    out["automobiles"][tid] = {"races": races / dt, "race_us": 1e6 * dt / decisions,
                               "engine_us": 1e6 * dt * (1 - in_bots / wall) / decisions,
                               "replays": len(logs) / dr, "replay_us": 1e6 * dr / replayed}
# every ruleset of the registry, on the first track of its bundled pack
from slipstream.engine.packs.loader import bundled_packs
from slipstream.engine.play import registry
from slipstream.engine.play.races import RaceSpec as AnyRaceSpec
packs = {}
for pid, folder in bundled_packs().items():
    try:
        loaded = registry.load_pack("" if pid == "base" else str(folder))
    except Exception as e:  # a broken bundled pack is reported, not skipped
        packs.setdefault("?", []).append(f"{pid}: {e}")
        continue
    packs.setdefault(loaded.ruleset, []).append(("" if pid == "base" else str(folder), loaded))
for rid in registry.ids():
    try:
        rs = registry.get(rid)
    except Exception as e:
        out["rulesets"][rid] = {"note": f"not loadable: {str(e)[:80]}"}
        continue
    src = Path(sys.modules[type(rs).__module__].__file__).resolve()
    if root not in src.parents:
        out["rulesets"][rid] = {"note": "not in this checkout"}
        continue
    found = [x for x in packs.get(rid, []) if isinstance(x, tuple)]
    if not found:
        out["rulesets"][rid] = {"note": "no bundled pack"}
        continue
    path, loaded = found[0]
    tid = sorted(loaded.tracks)[0]
    bot = "greedy" if "greedy" in rs.bots else sorted(rs.bots)[0]
    n = max(rs.players[0], min(4, rs.players[1]))
    rs.run_race(AnyRaceSpec(pack=path, track=tid, seed=0, bots=(bot,) * n, record=False))  # warm up
    t0 = time.process_time()
    for seed in range(races):
        res = rs.run_race(AnyRaceSpec(pack=path, track=tid, seed=seed, bots=(bot,) * n, record=False))
    dt = time.process_time() - t0
    out["rulesets"][rid] = {"races": races / dt, "track": tid, "field": f"{n} {bot}",
                            "pack": loaded.id}
print(json.dumps(out))
"""


# Runs in a fresh process of an installed Slipstream (argv: races): every ruleset's races per
# CPU second on the first track of its bundled pack.
_INSTALLED = r"""
import json, sys, time
from slipstream.engine.core.accel import status
from slipstream.engine.packs.loader import bundled_packs
from slipstream.engine.play import registry
from slipstream.engine.play.races import RaceSpec
races = int(sys.argv[1])
out = {"accel": status().line(), "where": registry.__file__, "rulesets": {}}
packs = {}
for pid, folder in sorted(bundled_packs().items()):
    path = "" if pid == "base" else str(folder)
    packs.setdefault(registry.load_pack(path).ruleset, (path, registry.load_pack(path)))
for rid in registry.ids():
    if rid not in packs:
        continue
    rs = registry.get(rid)
    path, loaded = packs[rid]
    tid = sorted(loaded.tracks)[0]
    bot = "greedy" if "greedy" in rs.bots else sorted(rs.bots)[0]
    n = max(rs.players[0], min(4, rs.players[1]))
    rs.run_race(RaceSpec(pack=path, track=tid, seed=0, bots=(bot,) * n, record=False))  # warm up
    t0 = time.process_time()
    for seed in range(races):
        rs.run_race(RaceSpec(pack=path, track=tid, seed=seed, bots=(bot,) * n, record=False))
    dt = time.process_time() - t0
    out["rulesets"][rid] = {"races": races / dt, "track": tid, "field": f"{n} {bot}", "pack": loaded.id}
print(json.dumps(out))
"""


def compare_installed(pythons: list[str], races: int, rounds: int) -> None:
    """An installed Slipstream (the Python of its venv) against itself forced pure, and any
    other install given, alternating `rounds` times in fresh processes (median figures)."""
    sides = {"compiled": (pythons[0], True), "forced pure": (pythons[0], False)}
    for i, py in enumerate(pythons[1:]):
        sides[f"install {i + 2}"] = (py, True)
    leaks = ("PYTHONPATH", "SLIPSTREAM_RULESETS", "SLIPSTREAM_PURE", "VIRTUAL_ENV")
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    with tempfile.TemporaryDirectory() as empty:
        for r in range(rounds):
            order = list(sides) if r % 2 == 0 else list(reversed(sides))
            for side in order:
                py, own = sides[side]
                env = {k: v for k, v in os.environ.items() if k not in leaks}
                env["SLIPSTREAM_CACHE_DIR"] = tempfile.mkdtemp()
                if not own:
                    env["SLIPSTREAM_PURE"] = "1"
                done = subprocess.run([py, "-c", _INSTALLED, str(races)], capture_output=True, text=True,
                                      env=env, cwd=empty)
                if done.returncode != 0:
                    raise SystemExit(f"benchmark worker failed ({side}):\n{done.stderr[-2000:]}")
                runs[side].append(json.loads(done.stdout))
    print(f"installed: {races} races a ruleset, the same seeds, median of {rounds} alternating rounds, "
          "races per CPU second:")
    for side, got in runs.items():
        print(f"  {side:<12} {sides[side][0]}: {got[0]['accel']}")
    first = next(iter(sides))
    print(f"  {'ruleset':<13} {'track':<13} " + " ".join(f"{s:>12}" for s in sides) + "   ratio compiled/pure")
    for rid, got in runs[first][0]["rulesets"].items():
        rates = {s: _median([x["rulesets"][rid]["races"] for x in runs[s]]) for s in sides}
        ratio = rates["compiled"] / rates["forced pure"]
        print(f"  {rid:<13} {got['track']:<13} " + " ".join(f"{rates[s]:10.1f}/s" for s in sides)
              + f"   x{ratio:4.2f}  ({got['field']})")


def _measure(path_dir: Path, root: Path, races: int, pure: bool = False) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(path_dir), "SLIPSTREAM_CACHE_DIR": tempfile.mkdtemp()}
    if pure:  # this side without its compiled accelerator
        env["SLIPSTREAM_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", _WORKER, str(races), str(root)], capture_output=True,
                          text=True, env=env, cwd=path_dir)
    if done.returncode != 0:
        raise SystemExit(f"benchmark worker failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def compare_with(rev: str, races: int, rounds: int = 3, pure: bool = False, compiled_baseline: bool = False) -> None:
    """This checkout against the engine at `rev`, alternating `rounds` times (median figures);
    `pure`: this checkout without its compiled accelerator; `compiled_baseline`: `rev` with its
    own (bench/checkouts.py's compile_checkout)."""
    here = Path(__file__).resolve().parent.parent
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-bench-"))
    wt = tmp / "baseline"
    try:
        subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", "-q", str(wt), rev], check=True)
        if compiled_baseline:
            print(f"building {rev}'s accelerator (its wheel, as pip builds it) ...", flush=True)
            try:
                print(f"  {rev}: {compile_checkout(wt, tmp)}", flush=True)
            except CheckoutError as e:
                sys.exit(f"cannot build {rev}: {e}")
        sides = {"baseline": (_shim(wt, tmp / "shim-baseline"), wt), "this": (_shim(here, tmp / "shim-this"), here)}
        runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "this": []}
        for r in range(rounds):
            for side in (("baseline", "this") if r % 2 == 0 else ("this", "baseline")):
                runs[side].append(_measure(*sides[side], races, pure=pure and side == "this"))
        print(f"this checkout against {rev}: {races} races and {max(2, races // 2)} replays a track, "
              f"4 greedy bots, median of {rounds} alternating rounds, per CPU second:")
        print(f"  this checkout: {runs['this'][0].get('accel')}")
        print(f"  {rev}: {runs['baseline'][0].get('accel', 'no compiled accelerator in this revision')}")
        print(f"  {'track':<13} {'what':<8} {'baseline':>10} {'this':>10} {'ratio':>7}"
              f" {'µs/decision (baseline → this)':>32}")
        for tid in sorted(runs["this"][0]["automobiles"]):
            for what, rate, us in (("races", "races", "race_us"), ("replays", "replays", "replay_us")):
                a = _median([x["automobiles"][tid][rate] for x in runs["baseline"]])
                b = _median([x["automobiles"][tid][rate] for x in runs["this"]])
                ua = _median([x["automobiles"][tid][us] for x in runs["baseline"]])
                ub = _median([x["automobiles"][tid][us] for x in runs["this"]])
                print(f"  {tid:<13} {what:<8} {a:8.1f}/s {b:8.1f}/s  x{b / a:4.2f}"
                      f" {ua:20.1f} → {ub:5.1f}")
            # the engine's part of a race: its time outside the bots' `choose`, per decision
            ea = _median([x["automobiles"][tid]["engine_us"] for x in runs["baseline"]])
            eb = _median([x["automobiles"][tid]["engine_us"] for x in runs["this"]])
            share = _median([x["automobiles"][tid]["engine_us"] / x["automobiles"][tid]["race_us"]
                             for x in runs["this"]])
            print(f"  {tid:<13} {'engine':<8} {'(in races, bots excluded)':>21}  x{ea / eb:4.2f}"
                  f" {ea:20.1f} → {eb:5.1f}  ({100 * share:.0f}% of race time now)")
        print("\nevery ruleset of the registry (races per CPU second on its bundled pack's first track):")
        for rid, got in runs["this"][0]["rulesets"].items():
            if "note" in got:
                print(f"  {rid:<13} {got['note']}")
                continue
            b = _median([x["rulesets"][rid]["races"] for x in runs["this"]])
            base = [float(x["rulesets"].get(rid, {}).get("races") or 0.0) for x in runs["baseline"]]
            vs = (f"  baseline {_median(base):6.1f}/s  x{b / _median(base):4.2f}"
                  if all(base) else "  (not in the baseline)")
            print(f"  {rid:<13} {b:6.1f}/s  pack {got['pack']}, track {got['track']}, {got['field']}{vs}")
    finally:
        subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(wt)], check=False)
        shutil.rmtree(tmp, ignore_errors=True)


def _rss_mib() -> float:
    """Resident memory of this process now (Linux /proc; the peak elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memory_batch(total: int = 10_000, first: int = 1_000) -> None:
    """Resident memory after `first` races and every `first` races to `total` (no growth per race)."""
    from slipstream.engine.core.accel import status

    print(f"\nmemory: a {total:,}-race batch (4 greedy bots, first-oval, no logs kept), one process;"
          f" {status().line()}:")
    t0 = time.process_time()
    at_first = 0.0
    for seed in range(total):
        run_race(RaceSpec("", "first-oval", seed, ("greedy",) * 4, record=False))
        if (seed + 1) % first == 0:
            rss = _rss_mib()
            at_first = at_first or rss
            print(f"  RSS after {seed + 1:>6,} races: {rss:7.1f} MiB"
                  f"  ({time.process_time() - t0:6.0f} CPU s)", flush=True)
    end = _rss_mib()
    print(f"  growth from {first:,} to {total:,} races: {end - at_first:+.1f} MiB; "
          f"{total / (time.process_time() - t0):.1f} races per CPU second")


def main() -> None:
    import signal

    # a stopped run still removes its temporary worktree (the `finally` of compare_with)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--races", type=int, default=20, help="races per measurement (default 20)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--baseline", metavar="REV", default="54df754",
                    help="compare with the engine at git revision REV (default 54df754)")
    ap.add_argument("--memory", action="store_true", help="also the 10,000-race memory batch")
    ap.add_argument("--no-compare", action="store_true",
                    help="skip the comparison with the baseline (e.g. with --memory alone)")
    ap.add_argument("--more", action="store_true", help="also players, track length and --jobs 2")
    ap.add_argument("--pure", action="store_true",
                    help="measure this checkout without its compiled accelerator (SLIPSTREAM_PURE=1)")
    ap.add_argument("--installed", metavar="PYTHON[,PYTHON]",
                    help="measure an installed Slipstream (its venv's Python) against itself forced pure")
    ap.add_argument("--compiled-baseline", action="store_true",
                    help="build the baseline revision's own compiled accelerator first (its wheel, about a "
                         "minute); otherwise the baseline runs pure")
    args = ap.parse_args()
    n = args.races
    if args.installed:
        compare_installed(args.installed.split(","), n, args.rounds)
        return
    if not args.no_compare:
        compare_with(args.baseline, n, args.rounds, pure=args.pure, compiled_baseline=args.compiled_baseline)
    if args.memory:
        memory_batch()
    if args.more:
        more(n)


def more(n: int) -> None:
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
