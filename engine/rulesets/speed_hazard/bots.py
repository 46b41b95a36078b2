"""Bots of the speed-and-hazard ruleset: `random` (any legal option), `greedy` and
`lookahead:N` (Monte Carlo rollouts over game.fork(), N per option: lookahead.py)."""

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
    """The bot called `name` (`random`, `greedy`, `lookahead` or `lookahead:N`, N rollouts per
    option from 1 to 1000, default 8); ValueError for another name or a setting the bot does
    not take."""
    base, colon, setting = name.partition(":")
    if base == "lookahead":
        from slipstream.engine.rulesets.speed_hazard.lookahead import LookaheadBot, parse

        if colon and not (setting.isdigit() and 1 <= int(setting) <= 1000):
            raise ValueError(f"lookahead rollouts {setting!r}: give a whole number from 1 to 1000 (lookahead:N)")
        return LookaheadBot(seed, parse(name) or 8)
    if base not in ("greedy", "random"):
        raise ValueError(f"unknown bot {name!r}; bots: random, greedy, lookahead:N")
    if colon:
        raise ValueError(f"the {base} bot takes no setting ({name!r})")
    if name == "greedy":
        from slipstream.engine.rulesets.speed_hazard.greedy import GreedyBot

        return GreedyBot(seed)
    return RandomBot(seed)
