"""Cells around a cell (RULES.md A.1-A.2): beside, behind and ahead for collision and blocking
checks, and a cell's counterpart across the road for U-turns. Cells are (lane, segment);
every function returns only cells where the lane exists."""

from __future__ import annotations

from slipstream.engine.tracks.track import NO_SPACE, Track

Cell = tuple[int, int]


def _exists(track: Track, lane: int, segment: int) -> bool:
    return 0 <= lane < track.lanes and track.cells[lane][segment % track.segments] != NO_SPACE


def cell_ahead(track: Track, lane: int, segment: int) -> Cell | None:
    """The cell directly ahead in the same lane (across the finish line too)."""
    s = (segment + 1) % track.segments
    return (lane, s) if _exists(track, lane, s) else None


def cell_behind(track: Track, lane: int, segment: int) -> Cell | None:
    """The cell directly behind in the same lane."""
    s = (segment - 1) % track.segments
    return (lane, s) if _exists(track, lane, s) else None


def cells_beside(track: Track, lane: int, segment: int) -> list[Cell]:
    """The cells level with this one in the neighbouring lanes, inner first."""
    s = segment % track.segments
    return [(ln, s) for ln in (lane - 1, lane + 1) if _exists(track, ln, s)]


def cells_diagonal(track: Track, lane: int, segment: int, step: int) -> list[Cell]:
    """The cells one segment ahead (`step` 1) or behind (`step` -1) in the neighbouring lanes."""
    s = (segment + step) % track.segments
    return [(ln, s) for ln in (lane - 1, lane + 1) if _exists(track, ln, s)]


def counterpart(track: Track, lane: int, segment: int) -> Cell | None:
    """The cell across the road: the same segment in the mirrored lane (inner <-> outer)."""
    other = track.lanes - 1 - lane
    return (other, segment % track.segments) if _exists(track, other, segment) else None
