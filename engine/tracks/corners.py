"""Corner and speed-limit queries the rulesets need (DESIGN §4.1, RULES.md A.1-A.2).

Which corner a segment is in, the next corner ahead, how many squares a car stands past a
corner's exit, and the speed limit of a cell. Each lookup is O(1) after one linear pass per
track (cached; a Track is immutable).
"""

from __future__ import annotations

from slipstream.engine.tracks.movegraph import ByIdentity
from slipstream.engine.tracks.track import Corner, Track

NO_CORNER = -1


def _corner_of_segment_(track: Track) -> tuple[int, ...]:
    """Per segment the index of the corner covering it, or NO_CORNER."""
    n = track.segments
    out = [NO_CORNER] * n
    for c in track.corners:
        if 0 <= c.first < n and 0 <= c.last < n:
            for k in range(c.length(n)):
                s = (c.first + k) % n
                if out[s] == NO_CORNER:
                    out[s] = c.index
    return tuple(out)


def _next_corner_of_segment_(track: Track) -> tuple[int, ...]:
    """Per segment the index of the first corner whose entry lies strictly ahead of it."""
    n = track.segments
    entry = [NO_CORNER] * n
    for c in track.corners:
        if 0 <= c.first < n and 0 <= c.last < n and entry[c.first] == NO_CORNER:
            entry[c.first] = c.index
    if all(e == NO_CORNER for e in entry):
        return tuple(entry)
    out = [NO_CORNER] * n
    nxt = NO_CORNER
    # two passes backwards round the loop so that the wrap past the finish is covered
    for k in range(2 * n - 1, -1, -1):
        s = k % n
        if k < n:
            out[s] = nxt
        if entry[s] != NO_CORNER:
            nxt = entry[s]
    return tuple(out)


_corner_of_segment = ByIdentity(_corner_of_segment_)
_next_corner_of_segment = ByIdentity(_next_corner_of_segment_)


def corner_at(track: Track, segment: int) -> Corner | None:
    """The corner whose zone covers `segment` (all lanes), or None on a straight."""
    idx = _corner_of_segment(track)[segment % track.segments] if track.corners else NO_CORNER
    return None if idx == NO_CORNER else track.corners[idx]


def next_corner(track: Track, segment: int) -> Corner | None:
    """The next corner whose entry lies ahead of `segment` (the one after the corner a car is in)."""
    if not track.corners:
        return None
    idx = _next_corner_of_segment(track)[segment % track.segments]
    return None if idx == NO_CORNER else track.corners[idx]


def squares_past_exit(track: Track, corner: Corner, segment: int) -> int:
    """How many squares `segment` lies beyond the corner's exit (0 inside the corner)."""
    n = track.segments
    if corner.contains(segment, n):
        return 0
    return (segment - corner.last) % n


def speed_limit(track: Track, lane: int, segment: int) -> int | None:
    """The speed limit of a cell: its space's own limit, else its lane's, else the corner's."""
    corner = corner_at(track, segment)
    if corner is None:
        return None
    space = track.space_at(lane, segment)
    if space is not None and corner.space_speeds:
        for name, v in corner.space_speeds:
            if name == space.name:
                return v
    if lane < len(corner.lane_speeds) and corner.lane_speeds[lane] is not None:
        return corner.lane_speeds[lane]
    return corner.speed


def pit_entry_limit(track: Track, lane: int, segment: int) -> int | None:
    """The entry speed limit of a pit entry leaving from this cell, if there is one."""
    if track.pit is None:
        return None
    space = track.space_at(lane, segment)
    for e in track.pit.entries:
        if space is not None and e.cell == space.name:
            return e.speed
    return None
