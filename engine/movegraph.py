"""Movement geometry (DESIGN §5, normative): which spaces lie ahead of a cell.

From an origin cell (l, s) the spaces ahead are the next space after the origin's own space in
lane l, and the space in lane l-1 or l+1 that contains segment s+1. `ahead_of_space` unions
that over every segment of a space; the move graph has one edge per "ahead" relation.

The checks walk `successors` (plain lists, one per space) because building a networkx graph of
a 100k-segment track costs seconds; `move_graph` builds the same edges as a networkx DiGraph
for tools and tests (`tests/test_movegraph.py` checks that both agree).
"""

from __future__ import annotations

from functools import cache

import networkx as nx

from .track import NO_SPACE, Space, Track


def ahead_of_cell(track: Track, lane: int, segment: int) -> list[int]:
    """Indices of the spaces ahead of cell (lane, segment), direct one first."""
    n = track.segments
    out: list[int] = []
    own = track.cells[lane][segment]
    if own != NO_SPACE:
        nxt = track.cells[lane][(track.spaces[own].last + 1) % n]
        if nxt != NO_SPACE:
            out.append(nxt)
    s1 = (segment + 1) % n
    for other in (lane - 1, lane + 1):
        if 0 <= other < track.lanes:
            idx = track.cells[other][s1]
            if idx != NO_SPACE and idx not in out:
                out.append(idx)
    return out


def ahead_of_space(track: Track, space: Space) -> list[int]:
    """Union of the spaces ahead of any cell of `space` (the space-graph edges)."""
    n = track.segments
    cells = track.cells
    out: list[int] = []
    nxt = cells[space.lane][(space.last + 1) % n]
    if nxt != NO_SPACE:
        out.append(nxt)
    for other in (space.lane - 1, space.lane + 1):
        if not 0 <= other < track.lanes:
            continue
        row = cells[other]
        seg = space.first + 1
        end = space.last + 1  # inclusive: s+1 for the last segment s
        while seg <= end:
            s = seg % n
            idx = row[s]
            if idx == NO_SPACE:
                seg += 1
                continue
            if idx not in out:
                out.append(idx)
            # jump to the end of that space
            seg += track.spaces[idx].last - s + 1
    return out


def successors(track: Track) -> list[list[int]]:
    """Adjacency lists of the space move graph, indexed by space index."""
    return _successors_cached(track)


@cache
def _successors_cached(track: Track) -> list[list[int]]:
    return [ahead_of_space(track, sp) for sp in track.spaces]


def crosses_finish(track: Track, src: int, dst: int) -> bool:
    """True when stepping from space `src` to `dst` crosses the finish line forward."""
    a, b = track.spaces[src], track.spaces[dst]
    return b.first < a.first or (b.first == 0 and a.last == track.segments - 1)


def move_graph(track: Track, weaving: bool = False) -> nx.DiGraph:
    """The networkx move graph: space nodes, or (lane, segment) cell nodes with weaving."""
    g = nx.DiGraph(track=track.id, weaving=weaving)
    if not weaving:
        g.add_nodes_from(
            (sp.index, {"name": sp.name, "lane": sp.lane, "colour": sp.colour}) for sp in track.spaces
        )
        for i, succ in enumerate(successors(track)):
            g.add_edges_from((i, j) for j in succ)
        return g
    for sp in track.spaces:
        for s in sp.segments():
            g.add_node((sp.lane, s), space=sp.index)
    for sp in track.spaces:
        for s in sp.segments():
            for idx in ahead_of_cell(track, sp.lane, s):
                for t in segments_ahead(track, sp.lane, s, idx):
                    g.add_edge((sp.lane, s), (track.spaces[idx].lane, t))
    return g


def segments_ahead(track: Track, lane: int, segment: int, target: int) -> list[int]:
    """Segments of space `target` that lie ahead of origin (lane, segment), front-most first.

    Without weaving a cube takes the front-most free one of these; with weaving, any free one.
    """
    sp = track.spaces[target]
    if sp.lane == lane or segment == track.segments - 1:
        segs = sp.segments()
    else:
        segs = range(max(sp.first, segment + 1), sp.last + 1)
    return list(reversed(segs))
