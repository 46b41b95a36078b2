#!/usr/bin/env python3
"""Sweep overhead: the same races through local worker processes and a Dask LocalCluster.

    .venv/bin/python bench/sweep.py [--races 2000] [--jobs 2]

Runs a sweep of 2 variants (option weaving true/false) with RACES races in all, once through
`--jobs` local processes and once through a Dask LocalCluster of as many single-threaded
workers, each in a fresh store, checks that both give the same results, and prints the wall
time of each and the overhead ratio Dask / local (goal <= 1.2).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(args: list[str]) -> tuple[float, dict]:
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "slipstream", "sweep", *args, "--format", "json"],
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:] or done.stdout[-2000:])
    data = json.loads(done.stdout)
    data.pop("store")
    return wall, data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=2000, help="races in all (default 2000)")
    ap.add_argument("--jobs", type=int, default=2, help="local processes = Dask workers (default 2)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds of both (default 3)")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-bench-sweep-"))
    common = ["--vary", "option:weaving=true,false", "--races", str(a.races // 2), "--jobs", str(a.jobs),
              "--bots", "greedy,greedy", "--laps", "1", "--chunk", "25"]
    locals_, dasks = [], []
    results = []
    for r in range(a.rounds):  # alternate, so a busy moment of a shared machine hits both
        order = ("local", "dask") if r % 2 == 0 else ("dask", "local")
        for side in order:
            extra = ["--scheduler", "local"] if side == "dask" else []
            wall, data = run([*common, "--db", str(tmp / f"{side}-{r}.sqlite"), *extra])
            (dasks if side == "dask" else locals_).append(wall)
            results.append(data)
    local, dask = sorted(locals_)[len(locals_) // 2], sorted(dasks)[len(dasks) // 2]
    print(f"{a.races} races (2 variants x {a.races // 2}), 2 greedy bots, 1 lap, {a.jobs} workers, "
          f"{a.rounds} alternating rounds (medians)")
    print(f"  local processes:    {local:7.1f} s  ({a.races / local:6.1f} races/s)  all: "
          + ", ".join(f"{w:.1f}" for w in locals_))
    print(f"  Dask LocalCluster:  {dask:7.1f} s  ({a.races / dask:6.1f} races/s)  all: "
          + ", ".join(f"{w:.1f}" for w in dasks) + "  (cluster start-up included)")
    print(f"  overhead Dask / local: x{dask / local:.2f}  (goal <= 1.2)")
    print(f"  identical results: {'yes' if all(d == results[0] for d in results) else 'NO'}")

if __name__ == "__main__":
    main()
