"""Bots of the Formula Dé-style ruleset: `random` (any legal option), `greedy` (the best
rated destination and gear of scoring.py) and `lookahead` (lookahead.py, which plays greedy's
best destinations out on copies of the race).
"""

from __future__ import annotations

import random
from typing import Any

from slipstream.engine.play.decisions import Decision
from slipstream.engine.rulesets.formula_de.lookahead import make_lookahead
from slipstream.engine.rulesets.formula_de.scoring import (
    Scorer,
    gear_values,
    pit_choice,
)


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, d: Decision) -> str:
        return self.rng.choice(d.keys())


class GreedyBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        # the ratings of the last decision, and the game and what of its car and the other cars
        # they were worked out for: a gear choice's serve the move after it when the shift cost
        # nothing (the ratings never read the gear)
        self.last: Scorer | None = None
        self.last_game: Any = None
        self.last_key: tuple[int, int, int, int, int, tuple[int, ...], tuple[tuple[int, int], ...]] | None = None

    def choose(self, game: Any, d: Decision) -> str:
        car = game.cars[game.turn.car]  # the player's car whose turn it is
        if d.kind == "pit" or (d.kind == "gear" and car.pit >= 0):
            return pit_choice(game, car, d)
        if d.kind == "move":
            t = game.turn
            sc = self._scorer(game, car)
            return max(d.keys(), key=lambda k: sc.score(t.targets[k], car.gear))
        if not car.started:
            return d.keys()[0]
        values = gear_values(game, car, d.keys(), 0.0, self._scorer(game, car))  # only the best gear's matters
        return max(values, key=values.__getitem__)

    def _scorer(self, game: Any, car: Any) -> Scorer:
        occ = game.occupied(car.seat)
        key = (car.seat, car.node, car.corner, car.stops, car.tyre_toll, tuple(car.wear.values()),
               tuple(occ.items()))
        if self.last is not None and self.last_game is game and self.last_key == key:
            return self.last
        sc = Scorer(game, car, occ)
        self.last, self.last_game, self.last_key = sc, game, key
        return sc


def make_bot(name: str, seed: int) -> Any:
    """The bot called `name` (`random`, `greedy`, `lookahead` or `lookahead:N`); ValueError for
    a setting the bot does not take."""
    base, _, setting = name.partition(":")
    if base == "lookahead":
        return make_lookahead(name, seed)
    if setting:
        raise ValueError(f"the {base} bot takes no setting ({name!r})")
    return GreedyBot(seed) if name == "greedy" else RandomBot(seed)
