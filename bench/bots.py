#!/usr/bin/env python3
"""Every ruleset's greedy and look-ahead bots against a baseline revision: races per CPU second,
µs per decision and the cost of copying a game state.

    .venv/bin/python bench/bots.py [--baseline d3adda9] [--rounds 3] [--races 10] [--look-races 6]
                                   [--seats 4] [--rivals 1] [--budget N] [--ruleset all|ID[,ID]]
                                   [--pure] [--installed PYTHON[,PYTHON]] [--compiled-baseline]

For every ruleset with a bundled pack, on the first track of that pack, the same seeds on
every side:
- greedy: `--races` races of `--seats` greedy bots (the ruleset's limits allowing); races per
  CPU second and µs per decision (the bots' share of the race time, per decision);
- look-ahead: `--look-races` races of one look-ahead seat (`lookahead`, the ruleset's own
  budget, or `lookahead:N` with `--budget N`) against `--rivals` greedy bots; races per CPU
  second and µs per decision of the look-ahead seat alone;
- copy: µs per `copy()` of the game (the protocol's copy, on which the look-ahead bots play
  their rollouts), its log left out as the bots leave it out, at every position of two greedy
  races.

The baseline revision is checked out into a temporary `git worktree` (bench/checkouts.py, as
bench/fingerprint.py does) and every side runs every ruleset in a fresh process importing its
own engine, `--rounds` times, alternating the order: each figure is the median of the rounds, and each
ratio, how many times faster than the baseline (races: this/baseline; µs: baseline/this), the
median of the rounds' ratios with their spread (lowest-highest). This checkout runs with its
compiled accelerator when it has a current one (the first lines say which); `--pure` runs it
forced pure (SLIPSTREAM_PURE=1). `--installed PYTHON` measures an installed Slipstream (the
Python of its virtual environment) instead of this checkout, and the same install forced pure,
both against the baseline; a second PYTHON (`--installed A,B`) is a third side. The baseline runs
pure unless `--compiled-baseline` builds its own accelerator first (its wheel, as `pip install`
builds it, unpacked into the temporary worktree's build/accel/): compiled against compiled is
the fair ratio for a compiled side. Figures are CPU time of the measuring process: steadier
than wall time on a busy machine, but only ratios of the same run compare.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from checkouts import HERE, CheckoutError, compile_checkout, median, revision, run_json, temp_dir

RULESETS = ("automobiles", "formula-de", "speed-hazard")
ROWS = (("greedy", "races", "greedy races/s"), ("greedy", "us", "greedy µs/decision"),
        ("lookahead", "races", "look-ahead races/s"), ("lookahead", "us", "look-ahead µs/decision"),
        ("copy", "us", "copy µs"))


def play(rs: Any, pack: Any, track: Any, bots: tuple[str, ...], seeds: range, timed: set[int]) -> dict[str, float]:
    """Races of `bots` on `seeds`: races per CPU second, decisions per race, and µs per decision
    of the seats in `timed` (their wall-clock share of the CPU time)."""
    from slipstream.engine.play.races import bot_seed, seats_of

    clock = time.perf_counter
    decisions = timed_decisions = 0
    in_timed = wall = 0.0
    t0 = time.process_time()
    for seed in seeds:
        g = rs.new_game(pack, track, seats_of(bots), seed, {}, None, {}, False)
        players = [rs.make_bot(b, bot_seed(seed, i)) for i, b in enumerate(bots)]
        w0 = clock()
        while (d := g.pending) is not None:
            if d.player in timed:
                b0 = clock()
                key = players[d.player].choose(g, d)
                in_timed += clock() - b0
                timed_decisions += 1
            else:
                key = players[d.player].choose(g, d)
            g.apply(key)
            decisions += 1
        wall += clock() - w0
    dt = time.process_time() - t0
    n = len(seeds)
    return {"races": n / dt, "decisions": decisions / n,
            "us": 1e6 * dt * (in_timed / wall) / max(1, timed_decisions)}


def bare_copy(g: Any) -> Any:
    """`g.copy()` of the game without its log (a look-ahead bot's rollouts log nothing)."""
    log, g.log = g.log, []
    try:
        return g.copy()
    finally:
        g.log = log


def copy_cost(rs: Any, pack: Any, track: Any, seats: int, races: int = 2, reps: int = 3) -> dict[str, float]:
    """µs per `copy()` of the game, its log left out, at every position of `races` greedy races
    (each position copied `reps` times; the positions are kept as such copies, copied again)."""
    from slipstream.engine.play.races import bot_seed, seats_of

    bots = ("greedy",) * seats
    positions = []
    for seed in range(10**6, 10**6 + races):
        g = rs.new_game(pack, track, seats_of(bots), seed, {}, None, {}, False)
        players = [rs.make_bot(b, bot_seed(seed, i)) for i, b in enumerate(bots)]
        while (d := g.pending) is not None:
            positions.append(bare_copy(g))
            g.apply(players[d.player].choose(g, d))
    t0 = time.process_time()
    for p in positions:
        for _ in range(reps):
            bare_copy(p)
    return {"us": 1e6 * (time.process_time() - t0) / (reps * len(positions)), "positions": len(positions)}


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure of this process's engine (a side of the comparison)."""
    from slipstream.engine.packs.loader import bundled_packs
    from slipstream.engine.play import registry

    try:  # the compiled accelerator of this side, if it has one
        from slipstream.engine.core.accel import status

        accel = status().line()
    except ImportError:
        accel = "no compiled accelerator in this revision"
    packs: dict[str, tuple[str, Any]] = {}
    for pid, folder in sorted(bundled_packs().items()):
        path = "" if pid == "base" else str(folder)
        loaded = registry.load_pack(path)
        packs.setdefault(loaded.ruleset, (path, loaded))
    out: dict[str, Any] = {"accel": accel, "rulesets": {}}
    for rid in args.rulesets:
        if rid not in registry.ids() or rid not in packs:
            out["rulesets"][rid] = {"note": "not in this revision (or no bundled pack)"}
            continue
        rs = registry.get(rid)
        pack = packs[rid][1]
        tid = sorted(pack.tracks)[0]
        track = pack.tracks[tid]
        lo, hi = rs.players
        seats = max(lo, min(args.seats, hi))
        look = f"lookahead:{args.budget}" if args.budget is not None else "lookahead"
        look_field = (look,) + ("greedy",) * max(lo - 1, min(args.rivals, hi - 1))
        play(rs, pack, track, ("greedy",) * seats, range(10**6, 10**6 + 1), set())  # tables built, untimed
        out["rulesets"][rid] = {
            "track": tid,
            "fields": {"greedy": f"{seats} greedy", "lookahead": f"{look} + {len(look_field) - 1} greedy"},
            "greedy": play(rs, pack, track, ("greedy",) * seats, range(args.races), set(range(seats))),
            "lookahead": play(rs, pack, track, look_field, range(args.look_races), {0}),
            "copy": copy_cost(rs, pack, track, seats)}
    return out


def worker_argv(args: argparse.Namespace, rid: str) -> list[str]:
    return ["--worker", "--races", str(args.races), "--look-races", str(args.look_races), "--seats", str(args.seats),
            "--rivals", str(args.rivals), "--ruleset", rid] + \
        (["--budget", str(args.budget)] if args.budget is not None else [])


def compare(args: argparse.Namespace) -> int:
    """The sides against the baseline, `--rounds` alternating rounds, and the report."""
    script = Path(__file__).resolve()
    with temp_dir("slipstream-bots-") as tmp:
        try:
            with revision(args.baseline, tmp) as wt:
                if args.compiled_baseline:
                    print(f"building {args.baseline}'s accelerator (its wheel, as pip builds it) ...",
                          file=sys.stderr, flush=True)
                    print(f"  {args.baseline}: {compile_checkout(wt, tmp)}", file=sys.stderr, flush=True)
                sides: dict[str, dict[str, Any]] = {args.baseline: {"root": wt}}
                if args.installed:
                    pys = args.pythons
                    sides["installed"] = {"python": pys[0]}
                    sides["installed, pure"] = {"python": pys[0], "env": {"SLIPSTREAM_PURE": "1"}}
                    for i, py in enumerate(pys[1:]):
                        sides[f"install {i + 2}"] = {"python": py}
                else:
                    sides["this"] = {"root": HERE, "env": {"SLIPSTREAM_PURE": "1"} if args.pure else {}}
                runs: dict[str, list[dict[str, Any]]] = {s: [] for s in sides}
                for r in range(args.rounds):
                    for side in list(sides) if r % 2 == 0 else list(reversed(sides)):
                        how = sides[side]
                        # a fresh process for every ruleset, as a race or a ladder has: what one
                        # ruleset leaves alive (its pack, tables, caches) would slow the next's
                        # cyclic collections, and by how much would depend on the order
                        got: dict[str, Any] = {"rulesets": {}}
                        for rid in args.rulesets:
                            one = run_json(script, worker_argv(args, rid), tmp, side, root=how.get("root"),
                                           python=how.get("python", sys.executable), env=how.get("env"))
                            got["accel"] = one["accel"]
                            got["rulesets"].update(one["rulesets"])
                        runs[side].append(got)
        except CheckoutError as e:
            print(f"cannot check out or build {args.baseline}: {e}", file=sys.stderr)
            return 2
    report(args, sides, runs)
    return 0


def report(args: argparse.Namespace, sides: dict[str, Any], runs: dict[str, list[dict[str, Any]]]) -> None:
    base = args.baseline
    others = [s for s in sides if s != base]
    print(f"bots against {base}: {args.races} greedy and {args.look_races} look-ahead races a ruleset, "
          f"the same seeds, {args.rounds} alternating rounds (medians; ratio = times faster than {base}, "
          "median [lowest-highest] of the rounds), CPU time:")
    for side in sides:
        where = f" ({sides[side]['python']})" if "python" in sides[side] else ""
        print(f"  {side}{where}: {runs[side][0]['accel']}")
    head = f"  {'ruleset':<13} {'figure':<23} {base:>10} " + " ".join(f"{s:>10} {'ratio':>19}" for s in others)
    print(head)
    for rid in args.rulesets:
        got = runs[others[0]][0]["rulesets"][rid]
        if "note" in got:
            print(f"  {rid:<13} {got['note']}")
            continue
        print(f"  {rid:<13} track {got['track']}; {got['fields']['greedy']}; {got['fields']['lookahead']}")
        old = [x["rulesets"][rid] for x in runs[base]]
        if any("note" in x for x in old):
            print(f"  {'':<13} {old[0]['note']} at {base}")
            continue
        for part, key, label in ROWS:
            a = [x[part][key] for x in old]
            line = f"  {'':<13} {label:<23} {figure(median(a))} "
            for side in others:
                b = [x["rulesets"][rid][part][key] for x in runs[side]]
                ratios = [(y / x if key == "races" else x / y) for x, y in zip(a, b, strict=True)]
                spread = f"x{median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}]"
                line += f"{figure(median(b))} {spread:>19} "
            print(line.rstrip())


def figure(v: float) -> str:
    """`v` in 10 characters with three or more significant digits."""
    return f"{v:10.0f}" if v >= 100 else f"{v:10.1f}" if v >= 10 else f"{v:10.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--baseline", metavar="REV", default="d3adda9",
                    help="the revision to compare with (default d3adda9, the start of issue 36)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--races", type=int, default=10, help="greedy races a ruleset and round (default 10)")
    ap.add_argument("--look-races", type=int, default=6,
                    help="look-ahead races a ruleset and round (default 6: two were a tenth of a CPU second installed)")
    ap.add_argument("--seats", type=int, default=4, help="greedy bots in a greedy race (default 4)")
    ap.add_argument("--rivals", type=int, default=1, help="greedy rivals of the look-ahead seat (default 1)")
    ap.add_argument("--budget", type=int, help="lookahead:N for every ruleset (default: plain `lookahead`)")
    ap.add_argument("--ruleset", default="all", metavar="ID[,ID]",
                    help=f"only these rulesets ({', '.join(RULESETS)}; default all)")
    ap.add_argument("--pure", action="store_true", help="this checkout without its compiled accelerator")
    ap.add_argument("--compiled-baseline", action="store_true",
                    help="build the baseline revision's own compiled accelerator first (its wheel, about a "
                         "minute) and measure the baseline with it; otherwise the baseline runs pure")
    ap.add_argument("--installed", metavar="PYTHON[,PYTHON]",
                    help="measure an installed Slipstream and it forced pure instead of this checkout")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if min(args.races, args.look_races, args.seats, args.rivals, args.rounds) < 1:
        ap.error("--races, --look-races, --seats, --rivals and --rounds must be >= 1")
    if args.budget is not None and args.budget < 1:
        ap.error("--budget must be >= 1")
    if args.pure and args.installed:
        ap.error("--pure is for this checkout; --installed measures an install forced pure anyway")
    args.rulesets = list(RULESETS) if args.ruleset == "all" else [x.strip() for x in args.ruleset.split(",") if x.strip()]
    unknown = [x for x in args.rulesets if x not in RULESETS]
    if unknown or not args.rulesets:
        ap.error(f"--ruleset: unknown {', '.join(unknown) or 'empty'} (rulesets: {', '.join(RULESETS)}, or all)")
    args.pythons = []
    for py in (args.installed or "").split(",") if args.installed else []:
        found = shutil.which(py) if os.sep not in py else (py if os.access(py, os.X_OK) else None)
        if not found:
            ap.error(f"--installed: no Python {py!r}")
        args.pythons.append(os.path.abspath(found))
    if args.worker:
        print(json.dumps(measure(args)))
        return 0
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
