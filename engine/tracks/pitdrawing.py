"""Where the pit lane lies on paper: beside the outermost lane (or inside lane 0), from just
after its first entry to just before its first exit, its squares spread evenly over that span.
The rules never read this; the SVG render and the editor draw the pit lane with it."""

from __future__ import annotations

from dataclasses import dataclass

from slipstream.engine.tracks.drawing import Point, TrackDrawing
from slipstream.engine.tracks.track import PitLane, Space


@dataclass(frozen=True, slots=True)
class PitPlacement:
    drawing: TrackDrawing
    pit: PitLane
    lane_pos: float  # fractional lane coordinate of the pit lane's centre
    start: float  # main-track segment position where pit segment 0 begins
    span: float  # main-track segments the pit lane covers

    def segment_pos(self, pit_segment: float) -> float:
        return self.start + pit_segment * self.span / max(1, self.pit.segments)

    def space_polygon(self, space: Space) -> list[Point]:
        d = self.drawing
        a, b = self.segment_pos(space.first), self.segment_pos(space.last + 1)
        return _band(d, self.lane_pos, a, b)

    def point(self, pit_segment: float) -> Point:
        return self.drawing.point(self.lane_pos, self.segment_pos(pit_segment))


def _band(d: TrackDrawing, lane_pos: float, first: float, end: float) -> list[Point]:
    ts = d._samples(d.segment_t(first), d.segment_t(end))
    o = d.offset(lane_pos)
    hw = d.lane_width / 2 * 0.9
    inner, outer = [], []
    for t in ts:
        p, n = d.at(t)
        inner.append((p[0] + n[0] * (o + hw), p[1] + n[1] * (o + hw)))
        outer.append((p[0] + n[0] * (o - hw), p[1] + n[1] * (o - hw)))
    return inner + outer[::-1]


def place_pit(d: TrackDrawing) -> PitPlacement | None:
    """The pit lane's placement, or None when the track has none (or its cells are missing)."""
    track = d.track
    pit = track.pit
    if pit is None or not pit.entries or not pit.exits:
        return None
    entry = track.space_named(pit.entries[0].cell)
    exit_ = track.space_named(pit.exits[0].cell)
    if entry is None or exit_ is None:
        return None
    n = track.segments
    start = float(entry.last + 1)
    span = float((exit_.first - (entry.last + 1)) % n) or 1.0
    lane_pos = -1.15 if pit.side == "inside" else track.lanes - 1 + 1.15
    return PitPlacement(d, pit, lane_pos, start, span)


def label_lane(d: TrackDrawing, segment: float, lane_pos: float, pit: PitPlacement | None = None) -> float:
    """The lane position at which to draw a segment number meant for `lane_pos` beside the
    outermost lane: the same, or as far beyond the pit lane where an outside pit lane (with a
    segment of room at each end, for its ramps) runs there. `pit`: `place_pit(d)`, when known."""
    pit = pit if pit is not None else place_pit(d)
    if pit is None or pit.pit.side == "inside":
        return lane_pos
    n = d.track.segments
    into = (segment - pit.start + 1.0) % n
    if into > pit.span + 2.0:
        return lane_pos
    return lane_pos + (pit.lane_pos - (d.track.lanes - 1))
