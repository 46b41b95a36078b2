"""Where a car can go with its roll ("A turn", step 3, and the overshoot rules).

On a track of plain squares every step, forward or diagonally forward along the move graph
(with the track's links), advances exactly one segment, so the squares a route of k steps
passes and the corners it leaves depend on k alone; only the lanes differ between routes. A
car leaving a corner with too few stops keeps to the lane of the first square past its end.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Generic, TypeVar

from slipstream.engine.tracks.corners import corner_at
from slipstream.engine.tracks.movegraph import successors
from slipstream.engine.tracks.track import Corner, Track

T = TypeVar("T")


class ByTrack(Generic[T]):
    """A table derived from a track, made once per track and kept by its identity for a few
    tracks (as `movegraph.ByIdentity`). The race's modules read theirs at every decision: as a
    class of a compiled module (build_support/slipstream_accel.py) the look-up stays a native
    call, where an interpreted cache's call costs about what it saves."""

    def __init__(self, fn: Callable[[Track], T], size: int = 8) -> None:
        self.fn = fn
        self.size = size
        self.items: dict[int, tuple[Track, T]] = {}

    def get(self, track: Track) -> T:
        hit = self.items.get(id(track))
        if hit is not None and hit[0] is track:
            return hit[1]
        value = self.fn(track)
        if len(self.items) >= self.size:
            self.items.pop(next(iter(self.items)))
        self.items[id(track)] = (track, value)
        return value


@dataclass(frozen=True, slots=True)
class Exit:
    """A corner left during a move: how many stops it needed and had, and the squares driven
    past its end by the end of the move."""

    corner: int
    required: int
    made: int
    past: int


def required_stops(c: Corner) -> int:
    return c.stops if c.stops is not None else 1


def _corner_ends_(track: Track) -> list[Corner | None]:
    """Per segment: the corner whose last segment it is, else None."""
    out: list[Corner | None] = []
    for seg in range(track.segments):
        c = corner_at(track, seg)
        out.append(c if c is not None and c.last == seg else None)
    return out


_corner_ends = ByTrack(_corner_ends_)
_successors = ByTrack(successors)  # movegraph's own, looked up in its cache once per track
_lanes = ByTrack(lambda track: [sp.lane for sp in track.spaces])  # per square (an attribute of an interpreted class)


def exits(track: Track, start: int, steps: int, corner: int, stops: int) -> list[Exit]:
    """The corners a move of `steps` squares from segment `start` leaves with too few stops.
    `corner`/`stops` are the corner the car stands in and the stops it made there."""
    n = track.segments
    ends = _corner_ends.get(track)
    out: list[Exit] = []
    for j in range(steps):
        c = ends[(start + j) % n]
        if c is None:
            continue
        made = stops if c.index == corner else 0
        need = required_stops(c)
        if made < need:
            out.append(Exit(c.index, need, made, steps - j))
    return out


# per step of a move, each state a car can be in (square, flag) -> the states it came from:
# the routes of a move (routes.py), filled only when asked for
Trail = list[dict[tuple[int, bool], list[tuple[int, bool]]]]


# the states (square, locked) a move can be in after each step (`reach`'s frontiers): tuples,
# which the cyclic garbage collector stops tracking, since tables keep them for good
Frontier = tuple[tuple[int, bool], ...]
Frontiers = list[Frontier]


def reach(track: Track, node: int, roll: int, occupied: Collection[int], lock_after: Collection[int],
          trail: Trail | None = None, frontiers: Frontiers | None = None) -> list[list[int]]:
    """Per number of steps k (0..roll) the squares (space indices) a car on `node` can end on,
    never passing or ending on an `occupied` square. After step j in `lock_after` (the step that
    first leaves an under-stopped corner) the car keeps to its lane. The list stops at the
    last k with a square. `trail` (when given) gets, per step, each state (square, locked) and
    the states it was reached from; `frontiers` (when given) the states after each step k, from
    k = 0 on (for `reach_from`)."""
    if frontiers is not None:
        frontiers.append(((node, False),))
    return _spread(track, [[node]], ((node, False),), 1, roll, occupied, lock_after, trail, frontiers)


def reach_from(track: Track, layers: list[list[int]], frontiers: Frontiers, k0: int, roll: int,
               occupied: Collection[int], lock_after: Collection[int]) -> list[list[int]]:
    """`reach` of the same square, roll and locks with `occupied` squares none of which is
    reached in fewer than `k0` steps (k0 >= 1), from a `reach` without them (its `layers` and
    `frontiers`, of this roll or a larger one): up to step k0 - 1 the moves are the same, so
    the steps are taken from there on only."""
    return _spread(track, layers[:k0], frontiers[k0 - 1], k0, roll, occupied, lock_after, None, None)


def _spread(track: Track, layers: list[list[int]], frontier: Collection[tuple[int, bool]], k0: int, roll: int,
            occupied: Collection[int], lock_after: Collection[int], trail: Trail | None,
            frontiers: Frontiers | None) -> list[list[int]]:
    """`reach`'s steps k0..roll from the states `frontier` after step k0 - 1 (`layers` those
    of steps 0..k0 - 1)."""
    succ = _successors.get(track)
    lanes = _lanes.get(track)
    by_lane = lanes.__getitem__
    for k in range(k0, roll + 1):
        nxt: set[tuple[int, bool]] = set()
        back: dict[tuple[int, bool], list[tuple[int, bool]]] = {}
        lock = k in lock_after
        for at, locked in frontier:
            lane = lanes[at]
            for to in succ[at]:
                if to in occupied or (locked and lanes[to] != lane):
                    continue
                st = (to, locked or lock)
                nxt.add(st)
                if trail is not None:
                    back.setdefault(st, []).append((at, locked))
        if not nxt:
            break
        frontier = nxt
        if trail is not None:
            trail.append(back)
        if frontiers is not None:
            frontiers.append(tuple(nxt))
        layers.append(sorted({at for at, _ in nxt}, key=by_lane))
    return layers


def reach_swerving(track: Track, node: int, roll: int, occupied: Collection[int], most: int = -1,
                   trail: Trail | None = None) -> list[list[int]]:
    """`reach` for a flying start: besides the usual steps, one step of the move may swerve
    across two lanes, to the square two lanes over one segment ahead, even past a car in the
    lane between (the swerve is how the car gets round the cars ahead; see Readings). With
    `most` >= 0 every square of the move stays at most that many lanes from the start lane.
    `trail` as for `reach`, the flag of a state being whether the car has swerved."""
    succ = _successors.get(track)
    spaces = track.spaces
    home = spaces[node].lane
    layers: list[list[int]] = [[node]]
    frontier: set[tuple[int, bool]] = {(node, False)}
    for _ in range(roll):
        nxt: set[tuple[int, bool]] = set()
        back: dict[tuple[int, bool], list[tuple[int, bool]]] = {}
        for at, swerved in frontier:
            steps = [(to, swerved) for to in succ[at] if to not in occupied]
            if not swerved:
                sp = spaces[at]
                for side in (-1, 1):
                    far = track.space_at(sp.lane + 2 * side, sp.last + 1)
                    if far is not None and far.index not in occupied:
                        steps.append((far.index, True))
            for st in steps:
                if most >= 0 and abs(spaces[st[0]].lane - home) > most:
                    continue
                nxt.add(st)
                if trail is not None:
                    back.setdefault(st, []).append((at, swerved))
        if not nxt:
            break
        frontier = nxt
        if trail is not None:
            trail.append(back)
        layers.append(sorted({at for at, _ in nxt}, key=lambda i: spaces[i].lane))
    return layers
