#!/usr/bin/env python3
"""What the Automobiles look-ahead bot costs: races per CPU second against greedy races.

    .venv/bin/python bench/lookahead.py [--races N] [--budget B]

On the oval, one against one and with three greedy rivals, the same seeds are raced with
greedy bots only and with one `lookahead:B` seat, in the same run, so the ratio says what the
rollouts cost (CPU time of this process: stable on a busy machine). Also prints the rollouts
per race and the look-ahead seat's wins.
"""

from __future__ import annotations

import argparse
import time

from slipstream.engine.rulesets.automobiles.bots import play_out
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.roster import make_bot
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack


def races(bots: tuple[str, ...], n: int) -> tuple[float, int, int]:
    """(races per CPU second, rollouts, wins of seat 0) over seeds 0..n-1."""
    pack = base_pack()
    rules = ruleset_from_pack(pack)
    start = time.process_time()
    rollouts = wins = 0
    for seed in range(n):
        g = Game(rules, pack.tracks["first-oval"], [Seat(f"P{i + 1}") for i in range(len(bots))],
                 seed=seed, record=False)
        players = [make_bot(b, seed * 1009 + i) for i, b in enumerate(bots)]
        play_out(g, players)
        rollouts += getattr(players[0], "rollouts", 0)
        wins += g.standings()[0] == 0
    return n / (time.process_time() - start), rollouts, wins


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--races", type=int, default=20)
    ap.add_argument("--budget", type=int, default=24)
    args = ap.parse_args()
    look = f"lookahead:{args.budget}"
    races(("greedy", "greedy"), 1)  # load the pack, warm the caches
    for rivals in (1, 3):
        base, _, _ = races(("greedy",) * (1 + rivals), args.races)
        speed, rollouts, wins = races((look,) + ("greedy",) * rivals, args.races)
        print(f"{look} + {rivals} greedy: {speed:.2f} races per CPU second "
              f"({speed / base:.3f} of all-greedy races at {base:.1f}/s); "
              f"{rollouts / args.races:.0f} rollouts a race; won {wins}/{args.races}")


if __name__ == "__main__":
    main()
