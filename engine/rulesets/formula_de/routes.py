"""The squares a car drives through on a move, for a face that animates it square by square.

The rules need only the destination (every route of k steps passes the same segments, moves.py);
a face wants one route to draw: walking back from the destination through the squares reachable
in one step fewer, keeping to the lane where it can.
"""

from __future__ import annotations

from typing import Any

from slipstream.engine.tracks.movegraph import successors

Cell = tuple[int, int]


def route_of(game: Any, key: str) -> list[Cell]:
    """(lane, segment) of every square the car of the pending `move` decision passes if `key`
    is taken, its square first; [] for another decision or option."""
    d, t = game.pending, game.turn
    if d is None or d.kind != "move" or t is None or key not in t.targets:
        return []
    target = t.targets[key]
    car = game.cars[t.car]
    spaces = game.track.spaces
    layers = game.layers(car, t.roll)
    succ = successors(game.track)
    path = [target.node]
    for j in range(min(target.steps, len(layers)) - 1, -1, -1):
        nxt = path[-1]
        lane = spaces[nxt].lane
        back = [n for n in layers[j] if nxt in succ[n]]
        if not back:
            path = [target.node, car.node]
            break
        path.append(min(back, key=lambda n: (n != car.node if j == 0 else 0, abs(spaces[n].lane - lane), n)))
    path.reverse()
    return [(spaces[n].lane, spaces[n].first) for n in path]
