#!/usr/bin/env python3
"""What the Automobiles look-ahead bot costs: races per CPU second against greedy races.

    .venv/bin/python bench/lookahead.py [--races N] [--budget B] [--against DIR] [--rounds R]

On the oval, one against one and with three greedy rivals, the same seeds are raced with
greedy bots only and with one `lookahead:B` seat, in the same run, so the ratio says what the
rollouts cost (CPU time of this process: stable on a busy machine). Also prints the CPU time
per searched decision, the rollouts per race and the look-ahead seat's wins.

`--against DIR` measures another checkout too (e.g. `git worktree add /tmp/base REV`, with
`python3 dev.py build` run there for its compiled accelerator; SLIPSTREAM_PURE=1 in the
environment makes both sides pure Python): each side plays in a fresh process importing its
own checkout, the two alternate `--rounds` times (default 3), and each round prints both
sides' figures and the speed-ups of this checkout over DIR (the same seeds must give the same
rollouts and wins on both sides for the comparison to hold: it says so when they do not).
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

import checkouts  # bench/checkouts.py (bench/ is on the path of a script run from it)


def races(bots: tuple[str, ...], n: int) -> dict[str, Any]:
    """Races per CPU second, the look-ahead seat's rollouts, wins and CPU seconds spent in its
    searched decisions, over seeds 0..n-1."""
    from slipstream.engine.rulesets.automobiles.bots import play_out
    from slipstream.engine.rulesets.automobiles.content import base_pack
    from slipstream.engine.rulesets.automobiles.game import Game, Seat
    from slipstream.engine.rulesets.automobiles.lookahead import LookaheadBot
    from slipstream.engine.rulesets.automobiles.roster import make_bot
    from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack

    pack = base_pack()
    rules = ruleset_from_pack(pack)
    searched = [0, 0.0]

    class Timed(LookaheadBot):  # the look-ahead seat, its searches timed (a compiled bot allows it)
        def search(self, g: Any, d: Any) -> str:
            t = time.process_time()
            try:
                return super().search(g, d)
            finally:
                searched[0] += 1
                searched[1] += time.process_time() - t

    start = time.process_time()
    rollouts = wins = 0
    for seed in range(n):
        g = Game(rules, pack.tracks["first-oval"], [Seat(f"P{i + 1}") for i in range(len(bots))],
                 seed=seed, record=False)
        players = [Timed(seed * 1009 + i, int(b.partition(":")[2] or LookaheadBot.DEFAULT_BUDGET))
                   if b.startswith("lookahead") else make_bot(b, seed * 1009 + i)
                   for i, b in enumerate(bots)]
        play_out(g, players)
        rollouts += getattr(players[0], "rollouts", 0)
        wins += g.standings()[0] == 0
    cpu = time.process_time() - start
    return {"speed": n / cpu, "rollouts": rollouts, "wins": wins, "decisions": searched[0],
            "search_cpu": searched[1]}


def measure(n: int, budget: int) -> dict[str, Any]:
    """Both fields (one and three greedy rivals): the greedy and the look-ahead figures."""
    from slipstream.engine.core import accel

    look = f"lookahead:{budget}"
    races(("greedy", "greedy"), 1)  # load the pack, warm the caches
    out: dict[str, Any] = {"accel": accel.status().state}
    for rivals in (1, 3):
        out[str(rivals)] = {"greedy": races(("greedy",) * (1 + rivals), n),
                            "look": races((look,) + ("greedy",) * rivals, n)}
    return out


def describe(res: dict[str, Any], budget: int, n: int) -> list[str]:
    lines = []
    for rivals in ("1", "3"):
        base, look = res[rivals]["greedy"], res[rivals]["look"]
        ms = 1000 * look["search_cpu"] / max(1, look["decisions"])
        lines.append(f"lookahead:{budget} + {rivals} greedy: {look['speed']:.2f} races per CPU second "
                     f"({look['speed'] / base['speed']:.3f} of all-greedy races at {base['speed']:.1f}/s); "
                     f"{ms:.1f} ms CPU per searched decision; {look['rollouts'] / n:.0f} rollouts a "
                     f"race; won {look['wins']}/{n}")
    return lines


def run_side(root: Path, tmp: Path, name: str, args: argparse.Namespace) -> dict[str, Any]:
    shim = tmp / f"shim-{name}"
    if not shim.exists():
        checkouts.shim(root.resolve(), shim)
    env = {**os.environ, "PYTHONPATH": str(shim)}
    argv = [sys.executable, str(Path(__file__).resolve()), "--worker", "--races", str(args.races),
            "--budget", str(args.budget)]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=shim)
    if done.returncode != 0:
        raise SystemExit(f"bench ({name}) failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--races", type=int, default=20)
    ap.add_argument("--budget", type=int, default=24)
    ap.add_argument("--against", metavar="DIR", help="also measure the checkout in DIR, alternating")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of each side with --against (default 3)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.races < 1 or args.budget < 0 or args.rounds < 1:
        ap.error("--races and --rounds must be >= 1, --budget >= 0")
    if args.worker:
        print(json.dumps(measure(args.races, args.budget)))
        return 0
    if not args.against:
        for line in describe(measure(args.races, args.budget), args.budget, args.races):
            print(line)
        return 0
    other = Path(args.against)
    if not (other / "engine").is_dir():
        print(f"{args.against} is not a checkout (no engine/ folder in it)", file=sys.stderr)
        return 2
    here = Path(__file__).resolve().parent.parent
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-lookahead-bench-"))
    try:
        for r in range(1, args.rounds + 1):
            theirs = run_side(other, tmp, "baseline", args)
            mine = run_side(here, tmp, "this", args)
            print(f"round {r}: baseline {args.against} (accelerator {theirs['accel']})")
            for line in describe(theirs, args.budget, args.races):
                print("  " + line)
            print(f"round {r}: this checkout (accelerator {mine['accel']})")
            for line in describe(mine, args.budget, args.races):
                print("  " + line)
            for rivals in ("1", "3"):
                a, b = mine[rivals]["look"], theirs[rivals]["look"]
                same = (a["rollouts"], a["wins"], a["decisions"]) == (b["rollouts"], b["wins"], b["decisions"])
                per = (b["search_cpu"] / max(1, b["decisions"])) / max(1e-9, a["search_cpu"] / max(1, a["decisions"]))
                print(f"round {r}: {rivals} greedy: look-ahead races x{a['speed'] / b['speed']:.2f} per CPU "
                      f"second, searched decisions x{per:.2f}, greedy races "
                      f"x{mine[rivals]['greedy']['speed'] / theirs[rivals]['greedy']['speed']:.2f}"
                      + ("" if same else "  (NOT the same rollouts and wins: the searches differ)"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
