"""Movement geometry (DESIGN §5, normative): which spaces lie ahead of a cell.

From an origin cell (l, s) the spaces ahead are the next space after the origin's own space in
lane l, and the space in lane l-1 or l+1 that contains segment s+1. `ahead_of_space` unions
that over every segment of a space; the move graph has one edge per "ahead" relation.

In track/2 the track's `links` then remove or add edges (`successors`), and the pit lane adds
its own spaces after the main ones (`full_successors`, `pit_node`). With weaving the cell graph
is the geometry alone (links and the pit lane are space-level data).

The checks walk `successors` (plain lists, one per space) because building a networkx graph of
a 100k-segment track costs seconds; `move_graph` builds the same edges as a networkx DiGraph
for tools and tests (`tests/tracks/test_movegraph.py` checks that both agree).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from slipstream.engine.tracks.track import NO_SPACE, Space, Track

if TYPE_CHECKING:
    import networkx as nx

T = TypeVar("T")


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
        if 0 <= other < track.lanes:
            for idx in _diagonal(cells[other], space.first, space.last, n):
                if idx not in out:
                    out.append(idx)
    return out


def _diagonal(row: tuple[int, ...], first: int, last: int, n: int) -> list[int]:
    """Distinct spaces of a neighbouring lane containing s+1 for s in first..last."""
    cand = row[first + 1 : last + 2]
    if last + 1 == n:
        cand = (*cand, row[0])
    return [i for i in dict.fromkeys(cand) if i != NO_SPACE]


def successors(track: Track) -> list[list[int]]:
    """Adjacency lists of the space move graph, indexed by space index (track/2 `links` applied)."""
    return _successors_cached(track)


class ByIdentity(Generic[T]):
    """A small cache keyed by the Track object itself: hashing a big frozen Track walks every
    cell (tuples do not keep their hash), and the checks and rules ask for the same derived
    data many times."""

    def __init__(self, fn: Callable[[Track], T], size: int = 8) -> None:
        self.fn = fn
        self.size = size
        self.items: dict[int, tuple[Track, T]] = {}

    def __call__(self, track: Track) -> T:
        hit = self.items.get(id(track))
        if hit is not None and hit[0] is track:
            return hit[1]
        value = self.fn(track)
        if len(self.items) >= self.size:
            self.items.pop(next(iter(self.items)))
        self.items[id(track)] = (track, value)
        return value

    def cache_clear(self) -> None:
        self.items.clear()


def _with_links(track: Track) -> list[list[int]]:
    base = geometry_successors(track)
    return apply_links(track, base) if track.links else base


_successors_cached = ByIdentity(_with_links)


def apply_links(track: Track, base: list[list[int]]) -> list[list[int]]:
    """A copy of `base` with the track's links applied; links naming no space are skipped."""
    out = list(base)
    index = _main_index(track)
    for link in track.links:
        a, b = index.get(link.src), index.get(link.dst)
        if a is None or b is None:
            continue
        if link.add and b not in out[a]:
            out[a] = [*out[a], b]
        elif not link.add and b in out[a]:
            out[a] = [j for j in out[a] if j != b]
    return out


def _main_index(track: Track) -> dict[str, int]:
    names = {link.src for link in track.links} | {link.dst for link in track.links}
    out: dict[str, int] = {}
    for name in names:
        sp = track.space_named(name)
        if sp is not None and sp.lane >= 0:
            out[name] = sp.index
    return out


def geometry_successors(track: Track) -> list[list[int]]:
    """Adjacency lists of the move graph derived from the geometry alone (no links)."""
    return _geometry_cached(track)




def _geometry(track: Track) -> list[list[int]]:
    n = track.segments
    cells = track.cells
    lanes = track.lanes
    out: list[list[int]] = []
    for sp in track.spaces:
        lane, first, last = sp.lane, sp.first, sp.last
        row = cells[lane]
        nxt = row[last + 1] if last + 1 < n else row[0]
        succ = [nxt] if nxt != NO_SPACE else []
        if lane > 0:
            succ += [i for i in _diagonal(cells[lane - 1], first, last, n) if i not in succ]
        if lane + 1 < lanes:
            succ += [i for i in _diagonal(cells[lane + 1], first, last, n) if i not in succ]
        out.append(succ)
    return out


def pit_node(track: Track, pit_index: int) -> int:
    """The node number of a pit-lane space in `full_successors` (after every main space)."""
    return len(track.spaces) + pit_index


def full_successors(track: Track) -> list[list[int]]:
    """Adjacency lists over main spaces and then pit-lane spaces (`pit_node`): the main graph
    with links, plus the pit lane's own steps, its entries and its exits."""
    main = successors(track)
    pit = track.pit
    if pit is None:
        return main
    out = [list(x) for x in main]
    m = len(track.spaces)
    n_pit = pit.segments
    for sp in pit.spaces:
        nxt = sp.last + 1
        idx = pit.cells[nxt] if nxt < n_pit else NO_SPACE
        out.append([m + idx] if idx != NO_SPACE else [])
    for entry in pit.entries:
        src = track.space_named(entry.cell)
        dst = pit.space_at(entry.to)
        if src is not None and src.lane >= 0 and dst is not None and m + dst.index not in out[src.index]:
            out[src.index].append(m + dst.index)
    for ex in pit.exits:
        src_pit = pit.space_at(ex.source)
        dst_main = track.space_named(ex.cell)
        if src_pit is not None and dst_main is not None and dst_main.lane >= 0:
            row = out[m + src_pit.index]
            if dst_main.index not in row:
                row.append(dst_main.index)
    return out


def node_space(track: Track, node: int) -> Space:
    """The space of a node of `full_successors` (main space or pit-lane space)."""
    m = len(track.spaces)
    if node < m:
        return track.spaces[node]
    assert track.pit is not None
    return track.pit.spaces[node - m]


def crosses_finish(track: Track, src: int, dst: int) -> bool:
    """True when stepping from space `src` to `dst` crosses the finish line forward."""
    return track.spaces[src].last == track.segments - 1 and track.spaces[dst].first == 0


def move_graph(track: Track, weaving: bool = False) -> nx.DiGraph:
    """The networkx move graph: space nodes, or (lane, segment) cell nodes with weaving."""
    import networkx as nx  # imported here: it costs a quarter second at start-up

    # nodes: space indexes (pit spaces by pit_node), or (lane, segment) cells with weaving
    g: nx.DiGraph[int | tuple[int, int]] = nx.DiGraph(track=track.id, weaving=weaving)
    if not weaving:
        g.add_nodes_from(
            (sp.index, {"name": sp.name, "lane": sp.lane, "colour": sp.colour}) for sp in track.spaces
        )
        if track.pit is not None:
            g.add_nodes_from(
                (pit_node(track, sp.index), {"name": sp.name, "lane": sp.lane, "colour": sp.colour, "pit": True})
                for sp in track.pit.spaces
            )
        for i, succ in enumerate(full_successors(track)):
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


_geometry_cached = ByIdentity(_geometry)  # bounded: the editor makes a new Track after every edit
