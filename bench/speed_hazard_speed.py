#!/usr/bin/env python3
"""Speed-hazard bots against a baseline checkout, same run: races per CPU second and µs per
look-ahead decision, with the look-ahead's choices compared.

    .venv/bin/python bench/speed_hazard_speed.py --baseline DIR [--rounds 3] [--races 20]
                                                 [--lookahead-races 3] [--decisions 8] [--pure]

DIR is another checkout of the repository (e.g. `git worktree add /tmp/base REV`); with its own
`python3 dev.py build` (or none) it runs compiled (or pure) as this one does. Each side runs in
a fresh process importing its own checkout, the sides alternating for `--rounds` rounds; CPU
time of the measuring process. Per round and side:

- `greedy`: four greedy cars, 3-lap races on the Redline Loop, races per CPU second;
- `lookahead`: one `lookahead:4` car and three greedy ones, 1-lap races, races per CPU second;
- `decision`: µs per `lookahead:8` decision over seeded decision points of greedy races (the
  look-ahead seat's card, brake and accelerate decisions), and a digest of the choices made,
  which must be the same on both sides;
- `copy`: µs per copy of a race in its second round (`game.copy()`; `fork()` where there is one).

The ratio this/baseline is printed per round (above 1: faster) with the medians. `--pure` sets
SLIPSTREAM_PURE=1 for both sides.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from checkouts import shim  # the checkout as the package `slipstream`, as bench/bots.py does

HERE = Path(__file__).resolve().parent.parent
TRACK = "redline-loop"


def worker(args: argparse.Namespace) -> dict[str, object]:
    import hashlib
    import time

    from slipstream.engine.core import accel
    from slipstream.engine.play.races import RaceSpec, seats_of
    from slipstream.engine.play.registry import get, load_pack
    from slipstream.engine.rulesets.speed_hazard.lookahead import KINDS, LookaheadBot

    rs = get("speed-hazard")
    pack_dir = str(HERE / "content" / "speed-hazard")  # the measuring checkout's pack, both sides
    pack = load_pack(pack_dir)
    track = pack.tracks[TRACK]
    rs.run_race(RaceSpec(pack=pack_dir, track=TRACK, seed=999, bots=("greedy",) * 4, record=False))

    def rate(bots: tuple[str, ...], n: int, laps: int | None) -> float:
        start = time.process_time()
        for seed in range(n):
            rs.run_race(RaceSpec(pack=pack_dir, track=TRACK, seed=seed, bots=bots, laps=laps, record=False))
        return n / (time.process_time() - start)

    out: dict[str, object] = {"accel": accel.status().line()}
    out["greedy"] = rate(("greedy",) * 4, args.races, None)
    out["lookahead"] = rate(("lookahead:4", "greedy", "greedy", "greedy"), args.lookahead_races, 1)
    digest, cpu, n = hashlib.sha256(), 0.0, 0
    for seed in range(args.decisions):
        g = rs.new_game(pack, track, seats_of(["a", "b", "c", "d"]), seed, {}, record=False)
        bots = [rs.make_bot("greedy", seed * 10 + i) for i in range(4)]
        la, me, k = LookaheadBot(seed, 8), seed % 4, 0
        while (d := g.pending) is not None and k < 8:
            if d.player == me and d.kind in KINDS and len(d.keys()) > 1:
                start = time.process_time()
                key = la.choose(g, d)
                cpu += time.process_time() - start
                digest.update(f"{seed}:{k}:{key};".encode())
                n, k = n + 1, k + 1
            else:
                key = bots[d.player].choose(g, d)
            g.apply(key)
    out["decision_us"] = 1e6 * cpu / max(1, n)
    out["decisions"] = n
    out["choices"] = digest.hexdigest()[:16]
    g = rs.new_game(pack, track, seats_of(["a", "b", "c", "d"]), 7, {}, record=False)
    bot = rs.make_bot("greedy", 1)
    while g.pending is not None and g.rounds < 2:
        g.apply(bot.choose(g, g.pending))
    copy = getattr(g, "fork", g.copy)
    start = time.process_time()
    for _ in range(500):
        copy()
    out["copy_us"] = 1e6 * (time.process_time() - start) / 500
    return out


def side(root: Path, args: argparse.Namespace, tmp: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    if args.pure:
        env["SLIPSTREAM_PURE"] = "1"
    argv = [sys.executable, str(Path(__file__).resolve()), "--worker", "--races", str(args.races),
            "--lookahead-races", str(args.lookahead_races), "--decisions", str(args.decisions)]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp)
    if done.returncode != 0:
        raise SystemExit(f"the bench failed in {root}:\n{done.stderr[-2000:]}")
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--baseline", metavar="DIR", help="a checkout to compare with")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--races", type=int, default=20, help="greedy races a round (default 20)")
    ap.add_argument("--lookahead-races", type=int, default=3, help="look-ahead races a round (default 3)")
    ap.add_argument("--decisions", type=int, default=8, help="races whose look-ahead decisions are timed")
    ap.add_argument("--pure", action="store_true", help="SLIPSTREAM_PURE=1 on both sides")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args)))
        return 0
    if not args.baseline:
        ap.error("give --baseline DIR (a checkout, e.g. made with git worktree add)")
    base = Path(args.baseline).resolve()
    if not (base / "engine" / "rulesets" / "speed_hazard").is_dir():
        ap.error(f"{args.baseline} is not a checkout with the speed-hazard ruleset")
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-shspeed-"))
    roots = {"this": shim(HERE, tmp / "this"), "baseline": shim(base, tmp / "baseline")}
    keys = ("greedy", "lookahead", "decision_us", "copy_us")
    ratios: dict[str, list[float]] = {k: [] for k in keys}
    same = True
    for r in range(1, args.rounds + 1):
        res = {name: side(root, args, tmp) for name, root in roots.items()}
        a, b = res["this"], res["baseline"]
        if r == 1:
            print(f"this: {a['accel']}\nbaseline: {b['accel']}")
        same &= a["choices"] == b["choices"]
        line = []
        for k in keys:
            x, y = float(a[k]), float(b[k])  # type: ignore[arg-type]
            ratio = x / y if k in ("greedy", "lookahead") else y / x
            ratios[k].append(ratio)
            line.append(f"{k} {y:.1f} -> {x:.1f} (x{ratio:.2f})")
        print(f"round {r}: " + "; ".join(line) + f"; choices {a['choices']} / {b['choices']} "
              f"over {a['decisions']} decisions")
    print("median: " + "; ".join(f"{k} x{statistics.median(v):.2f}" for k, v in ratios.items())
          + ("; look-ahead choices identical" if same else "; look-ahead choices DIFFER"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
