"""Bots of the Formula Dé-style ruleset: `random` (any legal option) and `greedy`.

`greedy` scores a destination by the squares it gains less the wear it costs (braking, a
blocked lane, tyres lost overshooting) and a large penalty for an elimination, with a bonus
for a stop still owed in a corner and a penalty for standing too fast before a corner. Its gear
is the one whose die gives the best average score of the best destination over its faces.
"""

from __future__ import annotations

import random
from typing import Any

from slipstream.engine.play.decisions import Decision
from slipstream.engine.rulesets.formula_de import rules
from slipstream.engine.rulesets.formula_de.game import Car, FormulaDeGame, Target
from slipstream.engine.rulesets.formula_de.moves import exits, required_stops
from slipstream.engine.tracks.corners import corner_at, next_corner

OUT = -1000.0
WEAR = 2.5  # squares a wear point is worth
STOP = 4.0  # worth of a stop still owed


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, d: Decision) -> str:
        return self.rng.choice(d.keys())


def score(game: FormulaDeGame, car: Car, t: Target, gear: int, occ: dict[int, int]) -> float:
    """How good stopping on `t` is for `car` (driving in `gear` next turn; `occ` the occupied
    squares)."""
    track = game.track
    n = track.segments
    start = track.spaces[car.node].first
    wear = t.brake
    if t.absorbed:
        cost = rules.blocked_cost(t.absorbed)
        if cost is None or not rules.can_pay(game.wear_view(car), cost, game.pool):
            return OUT
        wear += sum(cost.values())
    tyres = game.points(car, "tyres")
    spare = 0 if game.pool else max(0, game.points(car, "brakes") - t.brake)  # may take a share
    ex = _exits(game, start, t.steps, car.corner, car.stops)
    owed = 0
    for e in ex:
        if rules.overshoot_eliminates(e.required, e.made):
            return OUT
        owed += e.past
    if owed:
        on_tyres = owed - min(spare, max(0, owed - (tyres - 1)))
        left, outcome = rules.tyre_loss(tyres, on_tyres)
        if outcome == "out":
            return OUT
        wear += owed + (6 if outcome == "spin" else 0)
    value = t.steps - WEAR * wear
    near = len(game.neighbours_at(t.node, car.seat, occ))
    if near:  # each neighbour: a 1-in-20 roll for it and one for us; the last body point is the car
        value -= near * (0.5 + (8.0 if game.points(car, "body") <= 1 else 1.0))
    end = track.spaces[t.node].first
    brakes = max(0, game.points(car, "brakes") - t.brake)
    c = corner_at(track, end)
    if c is not None and not ex:
        made = car.stops if c.index == car.corner else 0
        if made < required_stops(c):
            value += STOP
        owed = required_stops(c) - made - 1
        value -= _danger(game, gear, owed, (c.last - end) % n, brakes)
    ahead = next_corner(track, end)
    if ahead is not None and (c is None or ex):
        value -= _danger(game, gear, required_stops(ahead), (ahead.last - end) % n, brakes)
    return value


def _exits(game: FormulaDeGame, start: int, steps: int, corner: int, stops: int) -> list[Any]:
    key = (start, steps, corner, stops)
    hit = game.exit_cache.get(key)
    if hit is None:
        hit = game.exit_cache[key] = exits(game.track, start, steps, corner, stops)
    return hit


def _danger(game: FormulaDeGame, gear: int, turns: int, room: int, brakes: int) -> float:
    """Penalty for a car in `gear` that must make `turns` more stops within `room` squares:
    shifting down one gear a turn for free, the fewest squares it can drive may not fit."""
    if turns <= 0:
        return 0.0
    need = sum(min(game.tables.gears[max(0, gear - 1 - i)]) for i in range(1, turns + 1))
    over = need - room
    if over <= 0:
        return 0.0
    return WEAR * over + (50.0 if over > brakes else 0.0)



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
            occ = game.occupied(car.seat)
            return max(d.keys(), key=lambda k: score(game, car, t.targets[k], car.gear, occ))
        best, best_v = d.keys()[0], float("-inf")
        occ = game.occupied(car.seat)
        if not car.started:
            return d.keys()[0]
        top = max(f for k in d.keys() for f in game.tables.gears[int(k.split()[1]) - 1])
        layers = game.layers(car, top)
        for key in d.keys():
            g = int(key.split()[1])
            faces = game.tables.gears[g - 1]
            total = 0.0
            for roll in set(faces):
                ts = game.targets(car, roll, layers)
                total += faces.count(roll) * max(score(game, car, t, g, occ) for t in ts.values())
            v = total / len(faces) - WEAR * sum((rules.downshift_cost(car.gear, g) or {}).values())
            if v > best_v:
                best, best_v = key, v
        return best


def split_choice(game: FormulaDeGame, car: Car, d: Decision) -> str:
    """Keep a tyre point if the brakes can take the rest; else as much on the brakes as they hold."""
    tyres = game.points(car, "tyres")
    splits = [(int(k.split()[1]), int(k.split()[3]), k) for k in d.keys()]
    keep = [s for s in splits if s[0] < tyres]
    return max(keep)[2] if keep else min(splits)[2]


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
    return GreedyBot(seed) if name == "greedy" else RandomBot(seed)
