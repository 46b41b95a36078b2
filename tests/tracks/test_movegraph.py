"""Movement geometry (DESIGN §5) on tiny tracks written inline."""

import networkx as nx

from slipstream.engine.core.yamlsource import load_text
from slipstream.engine.tracks.checks import TrackAnalysis
from slipstream.engine.tracks.movegraph import ahead_of_cell, move_graph, segments_ahead, successors
from slipstream.engine.tracks.track import parse_track


def track(*lanes: str, grid: str = "[]"):
    text = "slipstream: track/1\nid: t\nlanes: %d\nlayout:\n" % len(lanes)
    text += "".join(f'  - "{ln}"\n' for ln in lanes) + f"grid: {grid}\n"
    loaded = load_text(text, "t.yaml")
    t, diags = parse_track(loaded.data, loaded.source)
    assert t is not None, diags
    return t


def names(t, idxs):
    return [t.spaces[i].name for i in idxs]


def test_ahead_is_next_space_in_lane_from_any_segment_of_the_space():
    t = track("3 4x3 5")
    assert names(t, ahead_of_cell(t, 0, 1)) == ["0:4"]
    assert names(t, ahead_of_cell(t, 0, 3)) == ["0:4"]


def test_ahead_includes_the_diagonal_space_containing_the_next_segment():
    t = track("3 4x3 5", "6x2 3x2 4")
    # from 0:1 (segment 1): lane 1 space containing segment 2 is 1:2
    assert names(t, ahead_of_cell(t, 0, 1)) == ["0:4", "1:2"]
    # from the rear segment 3 of 0:1: the diagonal is the space containing 4, i.e. 1:4
    assert names(t, ahead_of_cell(t, 0, 3)) == ["0:4", "1:4"]


def test_nothing_moves_across_two_lanes_or_backwards():
    t = track("3x4", "4x4", "5 6x3")
    assert names(t, ahead_of_cell(t, 0, 0)) == ["0:0", "1:0"]  # one space per lane: wraps to itself
    assert "2:0" not in names(t, ahead_of_cell(t, 0, 0))


def test_finish_line_wraps_to_segment_zero():
    t = track("3 4x2", "5x2 6")
    assert names(t, ahead_of_cell(t, 0, 2)) == ["0:0", "1:0"]


def test_missing_lane_has_no_direct_ahead():
    t = track("3 4 - 5", "6 6 6 6")
    assert names(t, ahead_of_cell(t, 0, 1)) == ["1:2"]


def test_only_segments_ahead_of_the_origin_take_the_cube():
    t = track("3 3 3 3 3 3", "4x6")
    target = t.cells[1][3]
    # origin 0:2: in the long lane-1 space only segments 3..5 are ahead, front-most first
    assert segments_ahead(t, 0, 2, target) == [5, 4, 3]


def test_space_graph_edges_union_the_cells_of_the_space():
    t = track("3 4x3 5", "6x2 3x2 4")
    g = move_graph(t)
    assert set(g.successors(t.cells[0][1])) == {t.cells[0][4], t.cells[1][2], t.cells[1][4]}
    assert nx.number_of_edges(g) == sum(len(s) for s in successors(t))


def test_weaving_graph_has_cell_nodes():
    t = track("3 4x3 5", "6x2 3x2 4")
    g = move_graph(t, weaving=True)
    assert g.number_of_nodes() == 2 * 5
    # from cell (0, 1) a cube may go to any segment of 1:2 ahead of segment 1
    assert {(1, 2), (1, 3)} <= set(g.successors((0, 1)))
    assert (1, 1) not in set(g.successors((0, 1)))


def test_lap_cycle_found_through_the_finish():
    t = track("3 4x2 5x3 6x4", grid="[{lane: 0, segment: 9, money: 10}]")
    assert TrackAnalysis(t).has_lap_cycle()


def test_progress_and_grid_progress():
    t = track("3 4x2 5x3 6x4")
    assert t.progress(2, 3) == 23
    from slipstream.engine.tracks.track import GridSlot

    assert t.grid_progress(GridSlot(0, 9, 10)) == -1
