"""The squares around a car on a speed-and-hazard board: where it may step, which cars it may
ram, and whether a ram target can be reached this turn (docs/rules/speed-hazard.md).

Nodes are those of engine/tracks/movegraph.py `full_successors`: the main squares first, then
the pit road's squares. A car driving against the direction (after a U-turn) steps to the
squares of which its own is a successor.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from slipstream.engine.tracks.movegraph import ByIdentity, full_successors
from slipstream.engine.tracks.track import Track


def _graphs_(track: Track) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """(forward steps over main squares and pit entries, backward steps over main squares,
    forward steps over main squares only)."""
    full = full_successors(track)
    m = len(track.spaces)
    fwd = [list(full[i]) for i in range(m)]
    main = [[j for j in row if j < m] for row in fwd]
    back: list[list[int]] = [[] for _ in range(m)]
    for i, row in enumerate(main):
        for j in row:
            back[j].append(i)
    return fwd, back, main


graphs = ByIdentity(_graphs_)


def _cells_(track: Track) -> tuple[list[list[int]], list[list[int]], list[list[int]], list[list[int]],
                                   list[list[int]]]:
    """Per main square the squares directly ahead, diagonally ahead, directly behind and
    diagonally behind (by segment and lane, as the board shows them), and level beside."""
    n = track.segments
    out: tuple[list[list[int]], ...] = ([], [], [], [], [])
    for sp in track.spaces:
        ln, s = sp.lane, sp.first
        def at(lane: int, seg: int) -> list[int]:
            x = track.space_at(lane, seg % n) if 0 <= lane < track.lanes else None
            return [x.index] if x is not None else []
        out[0].append(at(ln, s + 1))
        out[1].append(at(ln - 1, s + 1) + at(ln + 1, s + 1))
        out[2].append(at(ln, s - 1))
        out[3].append(at(ln - 1, s - 1) + at(ln + 1, s - 1))
        out[4].append(at(ln - 1, s) + at(ln + 1, s))
    return out[0], out[1], out[2], out[3], out[4]


cells = ByIdentity(_cells_)


def ram_targets(track: Track, node: int, reversed_: bool, beside: bool,
                cars: Mapping[int, int]) -> list[tuple[int, str]]:
    """(target node, side | rear) of the running cars (`cars`: node -> seat) a car on `node`
    may ram: diagonally ahead (side) or directly ahead (rear), never behind; level beside only
    with the option `ram_beside` (Readings 3). Head-on is decided by the caller."""
    ahead, diag, behind, diag_b, level = cells(track)
    direct, side = (behind[node], diag_b[node]) if reversed_ else (ahead[node], diag[node])
    out = [(x, "rear") for x in direct if x in cars]
    out += [(x, "side") for x in side if x in cars]
    if beside:
        out += [(x, "side") for x in level[node] if x in cars]
    return out


def reach_ram(track: Track, node: int, steps: int, reversed_: bool, beside: bool,
              blocked: Collection[int], cars: Mapping[int, int]) -> bool:
    """Can a car on `node` driving up to `steps` squares over free squares stand, at some point
    of its move, where it may ram one of `cars` (Readings 8)?"""
    return reach_ram_on(board(track), node, steps, reversed_, beside, blocked, cars)


def reach_ram_on(b: Board, node: int, steps: int, reversed_: bool, beside: bool,
                 blocked: Collection[int], cars: Mapping[int, int]) -> bool:
    """`reach_ram` over the track's board `b`."""
    succ = b.back if reversed_ else b.main
    near = [b.behind, b.diag_b] if reversed_ else [b.ahead, b.diag]
    if beside:
        near.append(b.level)
    # the squares a ram could hit from any square within `steps` of `node` on the empty track,
    # a bit each: the move below only takes squares out of that, so no car there, no ram
    key = (node, steps, reversed_, beside)
    region = b.ram_regions.get(key)
    if region is None:
        if len(b.ram_regions) >= 50_000:
            b.ram_regions.clear()
        region = b.ram_regions[key] = _ram_region(succ, near, node, steps)
    for y in cars:
        if region >> y & 1:
            break
    else:
        return False
    layer = {node}
    for k in range(steps + 1):
        for x in layer:
            for rows in near:
                for y in rows[x]:
                    if y in cars:
                        return True
        if k == steps:
            break
        nxt: set[int] = set()
        for x in layer:
            for y in succ[x]:
                if y not in blocked:
                    nxt.add(y)
        if not nxt:
            return False
        layer = nxt
    return False


def _ram_region(succ: list[list[int]], near: list[list[list[int]]], node: int, steps: int) -> int:
    """`reach_ram_on`'s squares to ram from, over every square within `steps` of `node` with
    no square blocked, as bits of an int (an int, not a set: the board keeps many, and the
    cyclic garbage collector does not walk ints)."""
    region = 0
    layer = {node}
    for k in range(steps + 1):
        for x in layer:
            for rows in near:
                for y in rows[x]:
                    region |= 1 << y
        if k == steps:
            break
        nxt: set[int] = set()
        for x in layer:
            for y in succ[x]:
                nxt.add(y)
        if not nxt:
            break
        layer = nxt
    return region


class Board:
    """Per main square what the rules ask again and again, computed once per track: segment,
    lane, name, curve index (-1 on a straight), speed limit (-1 without), and the steps."""

    def __init__(self, track: Track) -> None:
        sp = track.spaces
        self.seg = [s.first for s in sp]
        self.lane = [s.lane for s in sp]
        self.name = [s.name for s in sp]
        from slipstream.engine.tracks.corners import corner_at, speed_limit

        cs = [corner_at(track, s.first) for s in sp]
        self.corner = [c.index if c is not None else -1 for c in cs]
        lims = [speed_limit(track, s.lane, s.first) for s in sp]
        self.limit = [v if v is not None else -1 for v in lims]
        self.fwd, self.back, self.main = graphs(track)
        self.ahead, self.diag, self.behind, self.diag_b, self.level = cells(track)
        self.by_name = {s.name: s.index for s in sp}
        self.to_key = [f"to {s.name}" for s in sp]  # a step's option key and text, per square
        self.to_text = [f"step to {s.name}" for s in sp]
        # greedy.speed_value's results on this track: per square and what else they read of
        # the car (greedy.speed_values), speed -> worth
        self.values: dict[tuple[int, int, bool, bool, int, str], dict[int, float]] = {}
        # `reach_ram_on`'s regions (`_ram_region`) per (square, steps, reversed, beside)
        self.ram_regions: dict[tuple[int, int, bool, bool], int] = {}


board = ByIdentity(Board)
