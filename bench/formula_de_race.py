#!/usr/bin/env python3
"""Formula Dé-style race speed: six-car 2-lap races per CPU second on the bundled circuit.

    .venv/bin/python bench/formula_de_race.py [--races N] [--baseline REV] [--rounds R]

Greedy races are measured against random-bot races of the same seeds in the same run (the
rules engine alone, with bots that think nothing), so that ratio says what the greedy bot's
look at every roll costs. With `--baseline REV` the greedy races are also played by the code
at git revision REV (checked out into a temporary worktree, imported from there, on this
checkout's pack and the same seeds), each side in a fresh process, alternating R rounds:
the ratio this/baseline, and whether both played the same races (same standings, a check
that the bot's choices did not change). CPU time of each process: stable on a busy machine.
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

from slipstream.engine.play.races import RaceSpec
from slipstream.engine.rulesets.formula_de.ruleset import RULESET

ROOT = Path(__file__).resolve().parent.parent
PACK = str(ROOT / "content" / "formula-de")
TARGET = 10.0  # six-greedy 2-lap races per CPU second (issue 14)


def per_cpu_second(bot: str, races: int) -> float:
    start = time.process_time()
    for seed in range(races):
        RULESET.run_race(RaceSpec(pack=PACK, track="tilleuls", seed=seed, bots=(bot,) * 6, laps=2, record=False))
    return races / (time.process_time() - start)


# Runs in a fresh process against either checkout (the API of the first Formula Dé version).
_WORKER = r"""
import hashlib, json, sys, time
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.rulesets.formula_de.ruleset import RULESET
pack, races = sys.argv[1], int(sys.argv[2])
spec = lambda s: RaceSpec(pack=pack, track="tilleuls", seed=s, bots=("greedy",) * 6, laps=2, record=False)
RULESET.run_race(spec(races))  # load the pack, warm the caches
t0 = time.process_time()
results = [RULESET.run_race(spec(s)) for s in range(races)]
rate = races / (time.process_time() - t0)
digest = hashlib.sha256(json.dumps([[r.standings, r.rounds] for r in results]).encode()).hexdigest()
print(json.dumps({"rate": rate, "digest": digest}))
"""


def _shim(root: Path, into: Path) -> Path:
    """A folder whose `slipstream` package maps onto the checkout at `root` (no install)."""
    pkg = into / "slipstream"
    pkg.mkdir(parents=True)
    for part, folder in (("engine", "engine"), ("schemas", "schemas"), ("content", "content")):
        (pkg / part).symlink_to(root / folder, target_is_directory=True)
    return into


def _measure(path_dir: Path, races: int) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(path_dir), "SLIPSTREAM_CACHE_DIR": tempfile.mkdtemp()}
    done = subprocess.run([sys.executable, "-c", _WORKER, PACK, str(races)], capture_output=True, text=True,
                          env=env, cwd=path_dir)
    if done.returncode != 0:
        raise SystemExit(f"benchmark worker failed:\n{done.stderr[-2000:]}")
    out: dict[str, object] = json.loads(done.stdout)
    return out


def compare_with(rev: str, races: int, rounds: int) -> None:
    """This checkout against the code at `rev`, alternating `rounds` times (median ratio)."""
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-bench-"))
    wt = tmp / "baseline"
    try:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(wt), rev], check=True)
        paths = {"baseline": _shim(wt, tmp / "shim-baseline"), "this": _shim(ROOT, tmp / "shim-this")}
        runs: dict[str, list[dict[str, object]]] = {"baseline": [], "this": []}
        for r in range(rounds):
            for side in (("baseline", "this") if r % 2 == 0 else ("this", "baseline")):
                runs[side].append(_measure(paths[side], races))
        rate = {k: sorted(float(str(x["rate"])) for x in v)[rounds // 2] for k, v in runs.items()}
        same = runs["baseline"][0]["digest"] == runs["this"][0]["digest"]
        print(f"greedy against {rev} ({races} races, {rounds} alternating rounds, median): "
              f"baseline {rate['baseline']:.2f}/s, this {rate['this']:.2f}/s, "
              f"ratio x{rate['this'] / rate['baseline']:.2f}; same races: {'yes' if same else 'NO'}")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(wt)], check=False)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--races", type=int, default=20, help="races per measurement (default 20)")
    ap.add_argument("--baseline", metavar="REV", help="also compare greedy races with the code at git revision REV")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds with --baseline (default 3)")
    args = ap.parse_args()
    per_cpu_second("random", 1)  # load the pack and warm the caches
    rnd = per_cpu_second("random", args.races)
    greedy = per_cpu_second("greedy", args.races)
    print(f"random: {rnd:.2f} races per CPU second")
    print(f"greedy: {greedy:.2f} races per CPU second ({greedy / rnd:.3f} of random; "
          f"target {TARGET:g}: {greedy / TARGET:.2f} of it, {'met' if greedy >= TARGET else 'NOT met'})")
    if args.baseline:
        compare_with(args.baseline, args.races, args.rounds)


if __name__ == "__main__":
    main()
