"""Acceptance: build a valid 3-lane track from an empty document with the mouse and keyboard."""

from __future__ import annotations

from click.testing import CliRunner
from helpers import click_cell
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from slipstream.cli.main import main

from .helpers import click_tool, key, space_colours, type_into

COLOUR_KEYS = {3: Qt.Key.Key_3, 4: Qt.Key.Key_4, 5: Qt.Key.Key_5, 6: Qt.Key.Key_6}
N = 24


def pattern(lane: int, seg: int) -> int:
    return (3, 4, 5, 6)[(seg + lane) % 4]


def test_build_a_valid_three_lane_track_using_only_the_ui(make_window, qtbot, tmp_path, monkeypatch):
    w = make_window()
    assert w.doc.track is None and not w.doc.dirty  # an empty document: no segments yet

    # Track dock: lanes, segments, id and name
    type_into(qtbot, w.track_panel.lanes, "3")
    type_into(qtbot, w.track_panel.segments, str(N))
    type_into(qtbot, w.track_panel.id_edit, "test-loop")
    type_into(qtbot, w.track_panel.name_edit, "Test Loop")
    assert w.doc.track is not None
    assert (w.doc.track.lanes, w.doc.track.segments) == (3, N)
    assert w.doc.data["id"] == "test-loop" and w.doc.data["name"] == "Test Loop"

    # lanes 0 and 1: click the first cell, then keys: colour key paints, Right moves on
    view = w.view
    for lane in (0, 1):
        click_cell(qtbot, w, lane, 0)
        assert w.selection.cell == (lane, 0)
        for seg in range(N):
            if pattern(lane, seg) != 3:
                key(qtbot, view, COLOUR_KEYS[pattern(lane, seg)])
            key(qtbot, view, Qt.Key.Key_Right)
    # lane 2 with the Paint tool: a key picks the brush, clicks paint
    click_tool(qtbot, w, "paint")
    for colour in (4, 5, 6):
        key(qtbot, view, COLOUR_KEYS[colour])
        for seg in range(N):
            if pattern(2, seg) == colour:
                click_cell(qtbot, w, 2, seg)
    track = w.doc.track
    assert [[track.space_at(lane, s).colour for s in range(N)] for lane in range(3)] == [
        [pattern(lane, s) for s in range(N)] for lane in range(3)
    ]

    # the grid: Grid tool, click five cells pole first; then price P5 in the Grid dock
    click_tool(qtbot, w, "grid")
    for lane, seg in ((0, N - 1), (1, N - 1), (2, N - 1), (0, N - 2), (1, N - 2)):
        click_cell(qtbot, w, lane, seg)
    assert [(s.lane, s.segment, s.money) for s in w.doc.track.grid] == [
        (0, 23, 10), (1, 23, 11), (2, 23, 12), (0, 22, 13), (1, 22, 14)]
    table = w.grid_panel.table
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     pos=table.visualItemRect(table.item(4, 3)).center())
    assert w.grid_panel.current() == 4
    type_into(qtbot, w.grid_panel.money, "15")
    assert w.doc.track.grid[4].money == 15

    # live validation says the track is clean
    assert w.doc.diagnostics == []
    assert w.status_counts.text() == "0 errors, 0 warnings"
    assert w.problems.summary.text().startswith("No problems")

    # save with Ctrl+S (the file dialog answers with a path)
    target = tmp_path / "test-loop.yaml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    key(qtbot, view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert target.exists() and not w.doc.dirty

    result = CliRunner().invoke(main, ["validate", str(target)])
    assert result.exit_code == 0, result.output
    assert "0 errors, 0 warnings" in result.output

    # reopen in a fresh window through File > Open (Ctrl+O): the same track is shown
    w2 = make_window()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(target), ""))
    key(qtbot, w2.view, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert w2.doc.path == target
    assert w2.doc.track == w.doc.track
    assert w2.doc.data == w.doc.data
    assert space_colours(w2) == space_colours(w)
    assert w2.grid_panel.table.rowCount() == 5
