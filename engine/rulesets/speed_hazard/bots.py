"""Bots of the speed-and-hazard ruleset: `random` (any legal option), `greedy` and
`lookahead:N` (Monte Carlo rollouts over game.copy(), N per option: lookahead.py)."""

from __future__ import annotations

import random
from typing import Any

from slipstream.engine.play.decisions import Decision


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, d: Decision) -> str:
        return self.rng.choice(d.keys())


def make_bot(name: str, seed: int) -> Any:
    if name.startswith("lookahead"):
        from slipstream.engine.rulesets.speed_hazard.lookahead import LookaheadBot, parse

        return LookaheadBot(seed, parse(name) or 8)
    if name == "greedy":
        from slipstream.engine.rulesets.speed_hazard.greedy import GreedyBot

        return GreedyBot(seed)
    return RandomBot(seed)
