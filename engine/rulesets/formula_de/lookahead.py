"""The look-ahead bot of the Formula Dé-style ruleset (`lookahead`, `lookahead:N`).

An expectimax over the car's own next roll, two turns deep, played out on copies of the
game (`game.rollout`, which records nothing): for a gear it averages over the faces of that
gear's die; for each face (or for the roll already made, when it chooses where to stop) it
plays the N destinations greedy rates best on a copy of the game, so the rules themselves
count the stops, overshoots, spins and finishes, and rates what follows: the squares gained,
the wear spent (dearer as a category runs low) and greedy's expected score of the car's next
turn from there. The copies roll their dice with the bot's own seeded generator (one for
every copy: they are played one after another), never with the race's, so the bot cannot
see the race's dice and decides the same for the same seed.
"""

from __future__ import annotations

import random
from typing import Any

from slipstream.engine.play.decisions import Decision
from slipstream.engine.rulesets.formula_de import rules
from slipstream.engine.rulesets.formula_de.game import Car, FormulaDeGame
from slipstream.engine.rulesets.formula_de.scoring import (
    OUT,
    WEAR,
    Scorer,
    gear_figures,
    gear_values,
    pit_choice,
)

DEFAULT_BUDGET = 3  # destinations played out per roll
FINISH = 30.0  # worth of crossing the line this turn, beyond the squares
HOPELESS = 20.0  # a gear greedy rates this far below its best is not played out
MARGIN = 1e-6  # far more than a rounding of the ratings, far less than any step between them


def budget_of(name: str) -> int:
    """The N of `lookahead:N` (DEFAULT_BUDGET for `lookahead`); ValueError when not 1-50."""
    _, _, setting = name.partition(":")
    if not setting:
        return DEFAULT_BUDGET
    if not setting.isdigit() or not 1 <= int(setting) <= 50:
        raise ValueError(f"lookahead budget {setting!r}: give a whole number of destinations from 1 to 50 "
                         "(lookahead:N)")
    return int(setting)


class LookaheadBot:
    def __init__(self, seed: int, budget: int = DEFAULT_BUDGET) -> None:
        self.dice = random.Random(seed)
        self.budget = budget
        # the copies played out, filled again for each branch (`FormulaDeGame.rollout`): a
        # gear's and, from it, a destination's
        self.branch: FormulaDeGame | None = None
        self.leaf: FormulaDeGame | None = None

    def choose(self, game: Any, d: Decision) -> str:
        car = game.cars[d.player]
        if d.kind == "pit" or (d.kind == "gear" and car.pit >= 0):
            return pit_choice(game, car, d)  # greedy's rule: the pit lane is not played out
        if d.kind == "move":
            return self._move(game, car, d)
        if not car.started or len(d.keys()) == 1:
            return d.keys()[0]
        return self._gear(game, car, d)

    # --- the two decisions --------------------------------------------------------------------

    def _move(self, game: FormulaDeGame, car: Car, d: Decision) -> str:
        t = game.turn
        assert t is not None
        sc = Scorer(game, car, game.occupied(car.seat))
        ranked = sorted(d.keys(), key=lambda k: -sc.score(t.targets[k], car.gear))
        best, best_v = ranked[0], float("-inf")
        for key in ranked[: self.budget]:
            sim = self.leaf = game.rollout(self.dice, self.leaf)
            v = self._after(sim, car, key, best_v)
            if v > best_v:
                best, best_v = key, v
        return best

    def _gear(self, game: FormulaDeGame, car: Car, d: Decision) -> str:
        greedy = gear_values(game, car, d.keys(), HOPELESS)  # a hopeless gear's figure is not needed
        best, best_v = max(greedy, key=greedy.__getitem__), float("-inf")
        for key in d.keys():
            if greedy[key] < greedy[best] - HOPELESS:
                continue
            shifted = self.branch = game.rollout(self.dice, self.branch)
            shifted.apply(key)  # pays the downshift; the roll it made is replaced below
            t = shifted.turn
            if t is None or t.car != car.seat or t.phase != "move":
                v = self._rate(shifted, car)  # eliminated by the shift
            else:
                g = shifted.cars[car.seat].gear
                faces = game.tables.gears[g - 1]
                total = 0.0
                me = shifted.cars[car.seat]
                layers = shifted.layers(me, max(faces))
                sc = Scorer(shifted, me, shifted.occupied(me.seat))  # the same for every roll
                for roll in sorted(set(faces)):
                    total += faces.count(roll) * self._roll_value(shifted, car, g, roll, layers, sc)
                v = total / len(faces)
            if v > best_v:
                best, best_v = key, v
        return best

    # --- playing out on copies ----------------------------------------------------------------

    def _roll_value(self, shifted: FormulaDeGame, car: Car, gear: int, roll: int,
                    layers: list[list[int]], sc: Scorer) -> float:
        """The best of the top destinations for `roll` in `gear` (the gear chosen in `shifted`;
        `layers` those of the gear's highest roll, `sc` greedy's ratings in `shifted`)."""
        me = shifted.cars[car.seat]
        targets = shifted.targets(me, roll, layers)
        ranked = sorted(targets, key=lambda k: -sc.score(targets[k], gear))
        best = float("-inf")
        for key in ranked[: self.budget]:
            sim = self.leaf = shifted.rollout(self.dice, self.leaf)
            t = sim.turn
            assert t is not None
            # the roll this branch of the expectimax stands for, as the rules would have made it
            t.roll, t.targets = roll, dict(targets)
            t.strained = rules.engine_strained(gear, roll, sim.tables.gears[gear - 1])
            best = max(best, self._after(sim, car, key, best))
        return best

    def _after(self, sim: FormulaDeGame, car: Car, key: str, floor: float = float("-inf")) -> float:
        """Stop on `key` in `sim` and rate it (`_rate`; `floor` as there)."""
        sim.apply(key)
        return self._rate(sim, car, floor)

    def _rate(self, sim: FormulaDeGame, before: Car, floor: float = float("-inf")) -> float:
        """What the turn gave the car: squares, less its wear (dearer when few points are
        left), plus greedy's expected score of its next turn; out is OUT, finishing a bonus.
        The caller keeps only a rating above `floor` (the best so far): when greedy's score
        of the next turn is sure to leave it below (by more than a rounding), that score is
        not worked out and the rating is -inf. Playing out draws dice, rating never does,
        so the dice of every later copy are the same either way."""
        me = sim.cars[before.seat]
        if me.out:
            return OUT
        value = float(me.progress - before.progress)
        if me.finished:
            return value + FINISH
        for k, left in me.wear.items():
            spent = before.wear[k] - left
            if spent > 0:
                value -= WEAR * spent * (1.0 + 1.0 / (left + 1))
        gears = sim.gears(me.seat)
        if gears:
            value += max(gear_figures(sim, me, gears, 0.0, floor - value - MARGIN))
        return value


def make_lookahead(name: str, seed: int) -> LookaheadBot:
    return LookaheadBot(seed, budget_of(name))
