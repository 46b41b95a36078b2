"""Segment numbers are drawn clear of an outside pit lane: where the pit lane runs beside the
track (with a segment of room at each end for its ramps) a number moves beyond it, elsewhere
it stays beside the outermost lane (engine/tracks/pitdrawing.py `label_lane`)."""

from __future__ import annotations

import math

from helpers import CONTENT

from slipstream.engine.tracks.drawing import TrackDrawing
from slipstream.engine.tracks.load import load_track
from slipstream.engine.tracks.pitdrawing import label_lane, place_pit


def test_numbers_beside_the_pit_lane_move_beyond_it():
    track = load_track(CONTENT / "tracks-v2" / "tilleuls.yaml").track
    assert track is not None and track.pit is not None and track.pit.side != "inside"
    d = TrackDrawing(track)
    pit = place_pit(d)
    assert pit is not None
    usual = track.lanes - 0.5 + 0.6
    outer_edge = pit.lane_pos + 0.5
    moved = []
    for s in range(track.segments):
        lane = label_lane(d, s + 0.5, usual, pit)
        into = (s + 0.5 - pit.start) % track.segments
        if into <= pit.span or into >= track.segments - 0.5:  # the pit lane is drawn here
            assert lane > outer_edge, s
            # the number's centre is as far from the pit lane as elsewhere from the track
            assert math.isclose(lane - outer_edge, usual - (track.lanes - 0.5))
        if lane != usual:
            moved.append(s)
    assert moved and len(moved) < track.segments / 2  # only along the pit lane
    # a track without a pit lane keeps its numbers where they were
    oval = load_track(CONTENT / "base" / "tracks" / "first-oval.yaml").track
    assert label_lane(TrackDrawing(oval), 3.5, usual) == usual
