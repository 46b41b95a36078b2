"""Bots of the Formula Dé-style ruleset: `random` (any legal option), `greedy` (the best
rated destination and gear of scoring.py) and `lookahead` (lookahead.py, which plays greedy's
best destinations out on copies of the race).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from slipstream.engine.play.decisions import Decision
from slipstream.engine.rulesets.formula_de.lookahead import make_lookahead
from slipstream.engine.rulesets.formula_de.scoring import Scorer, gear_values, split_choice

if TYPE_CHECKING:
    from slipstream.engine.rulesets.formula_de.game import Car, FormulaDeGame


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, d: Decision) -> str:
        return self.rng.choice(d.keys())


class GreedyBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, d: Decision) -> str:
        car = game.cars[game.turn.car]  # the player's car whose turn it is
        if d.kind == "pit" or (d.kind == "gear" and car.pit >= 0):
            return _pit_choice(game, car, d)
        if d.kind == "split":
            return split_choice(game, car, d)
        if d.kind == "move":
            t = game.turn
            sc = Scorer(game, car, game.occupied(car.seat))
            return max(d.keys(), key=lambda k: sc.score(t.targets[k], car.gear))
        if not car.started:
            return d.keys()[0]
        values = gear_values(game, car, d.keys())
        return max(values, key=values.__getitem__)


def _pit_choice(game: FormulaDeGame, car: Car, d: Decision) -> str:
    """Greedy in the pit lane: enter it when the box gives back at least half the race's tyre
    points (never below 2); inside it, the highest gear up to 4th (the box stops the car anyway)."""
    if d.kind == "pit":
        full = game.race_wear()["tyres"]
        gain = car.tyres_lost if game.pool else full - game.points(car, "tyres")
        return "pit" if gain >= max(2, full // 2) else "stay out"
    gears = [int(k.split()[1]) for k in d.keys()]
    return f"gear {max((g for g in gears if g <= 4), default=min(gears))}"


def make_bot(name: str, seed: int) -> Any:
    """The bot called `name` (`random`, `greedy`, `lookahead` or `lookahead:N`); ValueError for
    a setting the bot does not take."""
    base, _, setting = name.partition(":")
    if base == "lookahead":
        return make_lookahead(name, seed)
    if setting:
        raise ValueError(f"the {base} bot takes no setting ({name!r})")
    return GreedyBot(seed) if name == "greedy" else RandomBot(seed)
