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
    STOP,
    WEAR,
    Scorer,
    _shift_wear,
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
        # the leaves of a gear choice, all played out before any is rated (`_gear`), refilled
        # from one decision to the next
        self.leaves: list[FormulaDeGame] = []

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
        """Every gear within HOPELESS of greedy's best: the average over its die's faces of the
        best of the roll's top destinations, each played out and rated (`_rate`). All the
        leaves are played out first, in that order (the dice they draw are the same as when
        each is rated as it is played), then rated, the gear likeliest best first: a gear whose
        ceiling (`_ceiling` of its leaves) is below the best figure so far cannot be chosen
        and is not rated further. The choice is the first gear in the options' order with the
        best figure, as when every gear is worked out."""
        greedy = gear_values(game, car, d.keys(), HOPELESS)  # a hopeless gear's figure is not needed
        best = max(greedy, key=greedy.__getitem__)
        used = 0  # leaves of `self.leaves` in use
        # per gear played: its key, its figure when known, and per roll the faces showing it
        # and its leaves (the games after stopping on each destination played)
        plays: list[tuple[str, float, int, list[tuple[int, list[FormulaDeGame]]]]] = []
        for key in d.keys():
            if greedy[key] < greedy[best] - HOPELESS:
                continue
            shifted = self.branch = game.rollout(self.dice, self.branch)
            shifted.apply(key)  # pays the downshift; the roll it made is replaced below
            t = shifted.turn
            if t is None or t.car != car.seat or t.phase != "move":
                plays.append((key, self._rate(shifted, car), 1, []))  # eliminated by the shift
                continue
            g = shifted.cars[car.seat].gear
            faces = game.tables.gears[g - 1]
            me = shifted.cars[car.seat]
            layers = shifted.layers(me, max(faces))
            sc = Scorer(shifted, me, shifted.occupied(me.seat))  # the same for every roll
            rolls: list[tuple[int, list[FormulaDeGame]]] = []
            for roll in sorted(set(faces)):
                targets = shifted.targets(me, roll, layers)
                ranked = sorted(targets, key=lambda k: -sc.score(targets[k], g))
                leaves: list[FormulaDeGame] = []
                for k in ranked[: self.budget]:
                    pool = self.leaves
                    sim = shifted.rollout(self.dice, pool[used] if used < len(pool) else None)
                    if used < len(pool):
                        pool[used] = sim
                    else:
                        pool.append(sim)
                    used += 1
                    st = sim.turn
                    assert st is not None
                    # the roll this branch of the expectimax stands for, as the rules would
                    # have made it (the targets shared: a turn's targets are replaced, never changed)
                    st.roll, st.targets = roll, targets
                    st.strained = rules.engine_strained(g, roll, sim.tables.gears[g - 1])
                    self._stop(sim, car, k)
                    leaves.append(sim)
                rolls.append((faces.count(roll), leaves))
            plays.append((key, float("nan"), len(faces), rolls))
        # the ceilings: per gear, and per roll of each
        tops: list[float] = []
        roll_tops: list[list[float]] = []
        for _, v, n, rolls in plays:
            if not rolls:
                tops.append(v)
                roll_tops.append([])
                continue
            per = [max(self._ceiling(sim, car) for sim in leaves) for _, leaves in rolls]
            total = 0.0
            for (count, _), top in zip(rolls, per, strict=True):
                total += count * top
            tops.append(total / n)
            roll_tops.append(per)
        figures = [float("-inf")] * len(plays)
        best_v = float("-inf")
        for i in sorted(range(len(plays)), key=lambda i: -tops[i]):
            _, v, n, rolls = plays[i]
            if not rolls:
                figures[i] = v
            else:
                if tops[i] < best_v - MARGIN:
                    continue
                v = self._figure(car, n, rolls, roll_tops[i], best_v)
                figures[i] = v
            if v > best_v:
                best_v = v
        for i, (key, _, _, _) in enumerate(plays):
            if figures[i] == best_v:
                return key
        return best

    def _figure(self, car: Car, n: int, rolls: list[tuple[int, list[FormulaDeGame]]], tops: list[float],
                floor: float) -> float:
        """A gear's figure from its leaves: per roll, the best rating of the roll's leaves (each
        rated against the best before it), averaged over the die's `n` faces; -inf as soon as
        the figure is sure to fall below `floor` (the rolls' ceilings `tops` bounding those not
        rated yet). A rating that comes back -inf (below what it was rated against) is below
        the roll's value or below what the roll needs, so the value kept is the exact best
        whenever the gear is not given up."""
        total = 0.0
        rest = 0.0  # the most the rolls not rated yet can add
        for (count, _), top in zip(rolls, tops, strict=True):
            rest += count * top
        for (count, leaves), top in zip(rolls, tops, strict=True):
            rest -= count * top
            # below `need`, this roll's value leaves the figure below the floor: a leaf is
            # rated against it too (and the gear given up when none reaches it)
            need = ((floor - MARGIN) * n - total - rest) / count
            value = float("-inf")
            for sim in leaves:
                value = max(value, self._rate(sim, car, max(value, need)))
            if value < need - MARGIN:
                return float("-inf")
            total += count * value
            if (total + rest) / n < floor - MARGIN:
                return float("-inf")
        return total / n

    # --- playing out on copies ----------------------------------------------------------------

    def _stop(self, sim: FormulaDeGame, car: Car, key: str) -> None:
        """Stop on `key` in `sim` (an overshoot's loss is the tyres', taken by the move)."""
        sim.apply(key)

    def _ceiling(self, sim: FormulaDeGame, before: Car) -> float:
        """The most `_rate` can give for `sim`: greedy's figure of a gear is at most the
        average of its die's faces plus a stop's worth, less the shift."""
        me = sim.cars[before.seat]
        if me.out:
            return OUT
        if me.finished:
            return float(me.progress - before.progress) + FINISH
        value = _driven(me, before)
        gears = sim.gears(me.seat)
        if gears:
            top = float("-inf")
            for g in gears:
                faces = sim.tables.gears[g - 1]
                top = max(top, sum(faces) / len(faces) + STOP - _shift_wear(me.gear, g))
            value += top + MARGIN
        return value

    def _after(self, sim: FormulaDeGame, car: Car, key: str, floor: float = float("-inf")) -> float:
        """Stop on `key` in `sim` and rate it (`_rate`; `floor` as there)."""
        self._stop(sim, car, key)
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
        if me.finished:
            return float(me.progress - before.progress) + FINISH
        value = _driven(me, before)
        gears = sim.gears(me.seat)
        if gears:
            value += max(gear_figures(sim, me, gears, 0.0, floor - value - MARGIN))
        return value


def make_lookahead(name: str, seed: int) -> LookaheadBot:
    return LookaheadBot(seed, budget_of(name))


def _driven(me: Car, before: Car) -> float:
    """What a turn gave a car still running: the squares it drove, less the wear it spent
    (dearer when few points are left); `_rate` and `_ceiling` start from it."""
    value = float(me.progress - before.progress)
    for k, left in me.wear.items():
        spent = before.wear[k] - left
        if spent > 0:
            value -= WEAR * spent * (1.0 + 1.0 / (left + 1))
    return value
