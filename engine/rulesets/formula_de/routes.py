"""The squares a car drives through on a move: for a face that animates it square by square,
and for the rule scenarios' `route` expectation (docs/formula-de-scenarios.md).

The rules need only the destination (every route of k steps passes the same segments, moves.py),
but the squares between must be a route the rules allow: never through a car, in one lane once
the car has left a corner short of its stops, within the flying start's swerve. The route is
worked out on the states of the move (moves.py `trail`), walking back from the destination and
keeping to the lane of the square after where it can (a lane change comes as early as the rules
allow), so it is always one the rules allow, and the same each time.
"""

from __future__ import annotations

from typing import Any

from slipstream.engine.rulesets.formula_de.moves import Trail, exits, reach, reach_swerving

Cell = tuple[int, int]


def route_of(game: Any, key: str) -> list[Cell]:
    """(lane, segment) of every square the car of the pending `move` decision passes if `key`
    is taken, its square first; [] for another decision or option."""
    d, t = game.pending, game.turn
    if d is None or d.kind != "move" or t is None or key not in t.targets:
        return []
    target = t.targets[key]
    car = game.cars[t.car]
    track = game.track
    spaces = track.spaces
    trail: Trail = []
    occupied = game.occupied(t.car)
    if t.flying:
        reach_swerving(track, car.node, t.roll, occupied, game.swerve_lanes(car), trail)
    else:
        start = spaces[car.node].first
        lock = {t.roll - e.past + 1 for e in exits(track, start, t.roll, car.corner, car.stops)}
        reach(track, car.node, t.roll, occupied, lock, trail)
    steps = min(target.steps, len(trail))
    ends = [s for s in trail[steps - 1] if s[0] == target.node] if steps else []
    if not ends:  # no step driven
        return [(spaces[car.node].lane, spaces[car.node].first)]
    state = min(ends)
    path = [state[0]]
    for j in range(steps - 1, -1, -1):
        lane = spaces[state[0]].lane
        if j == 0:
            path.append(car.node)
            break
        # keep to the lane of the square after, then the lowest state (the same each time)
        state = min(trail[j][state], key=lambda s: (abs(spaces[s[0]].lane - lane), s))
        path.append(state[0])
    path.reverse()
    return [(spaces[n].lane, spaces[n].first) for n in path]
