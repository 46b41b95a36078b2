"""Every Automobiles bot by name, as `--bots` names them: `random`, `greedy`, `lookahead[:N]`."""

from __future__ import annotations

from slipstream.engine.rulesets.automobiles.bots import BOTS, Bot
from slipstream.engine.rulesets.automobiles.lookahead import make_lookahead

NAMES = ("random", "greedy", "lookahead")


def make_bot(name: str, seed: int) -> Bot:
    """The bot `name` (`NAME` or `NAME:SETTING`) with its own generator seeded by `seed`."""
    base, _, arg = name.partition(":")
    if base == "lookahead":
        return make_lookahead(seed, arg)
    if base in BOTS:
        if arg:
            raise ValueError(f"bot {base!r} takes no setting (got {name!r})")
        return BOTS[base](seed)
    raise ValueError(f"unknown bot {name!r}; known: {', '.join(NAMES)}")
