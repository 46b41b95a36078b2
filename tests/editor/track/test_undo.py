"""Undo/redo in the editor: the Qt stack following the document's history, shortcuts, history view."""

from __future__ import annotations

import random

from editing.test_document import random_command
from helpers import BUNDLED, click_cell
from PySide6.QtCore import QPointF, Qt

from slipstream.engine.editing import commands as c
from slipstream.engine.editing.document import TrackDocument

from .helpers import click_tool, key


def test_long_random_sequence_undo_all_redo_all_through_the_qt_stack(make_window):
    w = make_window()
    w.open_path(BUNDLED[0], ask=False)
    original = w.doc.state
    rng = random.Random(7)
    for _ in range(60):  # the Qt-free stack gets 2 x 400 edits in test_document.py
        w.push(random_command(rng, w.doc))
    final = w.doc.state
    steps = w.undo_stack.index()
    assert steps > 40
    assert w.history.model().rowCount() == w.undo_stack.count() + 1  # "<opened>" + one row per step
    for _ in range(steps):
        w.act_undo.trigger()
    assert w.doc.state == original and not w.doc.dirty
    assert not w.act_undo.isEnabled()
    for _ in range(steps):
        w.act_redo.trigger()
    assert w.doc.state == final and w.doc.dirty
    # the canvas follows: what it shows is the final track
    track = w.doc.track
    assert {(s.lane, s.first, s.length) for s in track.spaces} == set(w.scene.spaces)


def test_ctrl_z_and_ctrl_shift_z_on_the_canvas(window, qtbot):
    w = window
    w.open_path(BUNDLED[0], ask=False)
    before = w.doc.state
    click_cell(qtbot, w, 1, 5)
    key(qtbot, w.view, Qt.Key.Key_6)
    after = w.doc.state
    assert after != before and w.windowTitle().startswith("first-oval.yaml")
    key(qtbot, w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.doc.state == before
    key(qtbot, w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert w.doc.state == after


def test_a_point_drag_is_one_undo_step_and_a_no_op_leaves_none(window, qtbot):
    w = window
    w.open_path(BUNDLED[0], ask=False)
    click_tool(qtbot, w, "centreline")
    view = w.view
    x, y = w.scene.control_points[2]
    start = view.mapFromScene(QPointF(x, y))
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    for k in range(1, 6):
        qtbot.mouseMove(view.viewport(), start + QPointF(6 * k, 4 * k).toPoint())
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=start + QPointF(30, 20).toPoint())
    assert w.undo_stack.count() == 1
    moved = w.doc.data["geometry"]["centerline"][2]
    assert moved != [x, y]
    # a second drag of the same point is a new step (the first gesture was sealed)
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(QPointF(*moved)))
    qtbot.mouseMove(view.viewport(), view.mapFromScene(QPointF(moved[0] + 40, moved[1])))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton)
    assert w.undo_stack.count() == 2
    # setting laps to what it already is changes nothing and records nothing
    w.push(c.SetProperty("laps", w.doc.data["laps"]))
    assert w.undo_stack.count() == 2


def test_centreline_points_add_and_delete_with_the_mouse(window, qtbot):
    w = window
    w.open_path(BUNDLED[0], ask=False)
    click_tool(qtbot, w, "centreline")
    n = len(w.scene.control_points)
    a, b = w.scene.control_points[0], w.scene.control_points[1]
    mid = w.view.mapFromScene(QPointF((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 + 3))
    qtbot.mouseDClick(w.view.viewport(), Qt.MouseButton.LeftButton, pos=mid)
    assert len(w.doc.data["geometry"]["centerline"]) == n + 1
    assert len(w.scene.control_points) == n + 1
    p = w.view.mapFromScene(QPointF(*w.scene.control_points[1]))
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.RightButton, pos=p)
    assert len(w.doc.data["geometry"]["centerline"]) == n
    assert w.doc.track is not None


def test_every_selection_tool_is_undoable(window, qtbot):
    w = window
    w.open_path(BUNDLED[1], ask=False)
    original = w.doc.state
    click_tool(qtbot, w, "select")
    click_cell(qtbot, w, 0, 10)
    for k in (Qt.Key.Key_K, Qt.Key.Key_M, Qt.Key.Key_5, Qt.Key.Key_N, Qt.Key.Key_R, Qt.Key.Key_L, Qt.Key.Key_G):
        before = w.undo_stack.index()
        key(qtbot, w.view, k)
        assert w.undo_stack.index() >= before
    click_cell(qtbot, w, 1, 20)
    click_cell(qtbot, w, 1, 24, Qt.KeyboardModifier.ShiftModifier)
    key(qtbot, w.view, Qt.Key.Key_N)  # narrowing over a range of segments
    assert "-x5" in w.doc.data["layout"][1]
    key(qtbot, w.view, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert w.doc.track.segments == 97
    while w.undo_stack.canUndo():
        w.undo_stack.undo()
    assert w.doc.state == original


def test_grid_dock_reorders_prices_and_removes_slots(window, qtbot):
    w = window
    w.open_path(BUNDLED[0], ask=False)
    table, panel = w.grid_panel.table, w.grid_panel
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(0, 0)).center())
    cell = (w.doc.track.grid[0].lane, w.doc.track.grid[0].segment)
    assert w.selection.cell == cell  # selecting a slot selects its cell on the canvas
    qtbot.mouseClick(panel.down_button, Qt.MouseButton.LeftButton)
    grid = w.doc.track.grid
    assert (grid[1].lane, grid[1].segment) == cell and grid[0].money == 10 and grid[1].money == 11
    assert panel.current() == 1
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert len(w.doc.track.grid) == 4
    assert any(d.code == "T108" for d in w.doc.diagnostics)  # fewer than 5 slots: a warning
    for _ in range(2):
        w.act_undo.trigger()
    assert w.doc.state.data["grid"] == TrackDocument.open(BUNDLED[0]).data["grid"]


def test_new_from_each_template_and_a_stadium_centreline_becomes_editable(window, qtbot):
    w = window
    for name in ("oval", "road-course", "figure-eight"):
        next(a for a in w.actions() if a.objectName() == f"new-{name}").trigger()
        assert w.doc.track is not None and w.doc.diagnostics == [] and w.doc.dirty
        w.doc.saved = w.doc.state
    # a track without geometry is drawn as a stadium; dragging a point writes the centreline
    w.push(c.ReplaceData({k: v for k, v in w.doc.data.items() if k != "geometry"}))
    click_tool(qtbot, w, "centreline")
    assert len(w.scene.control_points) > 3
    x, y = w.scene.control_points[5]
    start = w.view.mapFromScene(QPointF(x, y))
    qtbot.mousePress(w.view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(w.view.viewport(), start + QPointF(0, -25).toPoint())
    qtbot.mouseRelease(w.view.viewport(), Qt.MouseButton.LeftButton)
    assert "geometry" in w.doc.data and w.doc.track.geometry is not None


def test_painting_a_range_is_one_step_and_repeating_it_leaves_none(window, qtbot):
    w = window
    w.open_path(BUNDLED[0], ask=False)
    click_cell(qtbot, w, 0, 0)
    click_cell(qtbot, w, 0, 12, Qt.KeyboardModifier.ShiftModifier)
    key(qtbot, w.view, Qt.Key.Key_6)
    assert w.undo_stack.count() == 1 and w.undo_stack.text(0) == "Paint 3 spaces black"  # 2 were black
    assert w.doc.data["layout"][0].startswith("6x4 6x4 6x2 6x2 6 3 ")
    key(qtbot, w.view, Qt.Key.Key_6)
    assert w.undo_stack.count() == 1
    w.act_undo.trigger()
    assert not w.doc.dirty


def test_a_paint_stroke_by_dragging_is_one_undo_step(window, qtbot):
    w = window
    w.open_path(BUNDLED[0], ask=False)
    original = w.doc.state
    click_tool(qtbot, w, "paint")
    w.paint_selection(6)  # the brush: black
    view = w.view
    cells = [(1, s) for s in range(2, 12)]
    assert any(w.doc.track.space_at(*x).colour != 6 for x in cells)
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.mapFromScene(w.scene.cell_centre(*cells[0])))
    for cell in cells[1:]:
        qtbot.mouseMove(view.viewport(), view.mapFromScene(w.scene.cell_centre(*cell)))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton,
                       pos=view.mapFromScene(w.scene.cell_centre(*cells[-1])))
    assert all(w.doc.track.space_at(*x).colour == 6 for x in cells)
    assert w.undo_stack.count() == 1
    assert w.undo_stack.text(0).startswith("Paint stroke of ")
    painted = w.doc.state
    # a second stroke is a step of its own
    w.paint_selection(3)
    click_cell(qtbot, w, 1, 5)
    assert w.doc.track.space_at(1, 5).colour == 3 and w.undo_stack.count() == 2
    w.act_undo.trigger()
    assert w.doc.state == painted
    w.act_undo.trigger()
    assert w.doc.state == original and not w.act_undo.isEnabled()


def test_paint_strokes_merge_without_qt_until_sealed():
    doc = TrackDocument.new({"slipstream": "track/1", "id": "t", "name": "T", "laps": 1, "lanes": 1,
                             "layout": ["3 3 3 3 3 3"], "grid": [{"lane": 0, "segment": 5}]})
    stack = c.CommandStack(doc)
    for s in range(4):
        stack.push(c.PaintStroke(0, s, 6))
    assert len(stack.commands) == 1 and stack.commands[0].cells == [(0, 0), (0, 1), (0, 2), (0, 3)]
    stack.seal()
    stack.push(c.PaintStroke(0, 4, 6))
    assert len(stack.commands) == 2
    stack.undo()
    stack.undo()
    assert doc.data["layout"] == ["3 3 3 3 3 3"]


def _assert_follows(stack, history):
    """The Qt stack shows the history step for step: count, index, texts and clean index."""
    assert stack.count() == len(history) and stack.index() == history.index
    assert [stack.text(i) for i in range(stack.count())] == [history.text(i) for i in range(len(history))]
    assert stack.cleanIndex() == (-1 if history.clean_index is None else history.clean_index)
    assert stack.canUndo() == history.can_undo and stack.canRedo() == history.can_redo


def test_the_qt_stack_follows_the_documents_history_through_random_operations(qtbot, tmp_path):
    from PySide6.QtWidgets import QUndoView

    from slipstream.editor.undo import UndoStack

    doc = TrackDocument.new({"slipstream": "track/1", "id": "t", "name": "T", "laps": 1, "lanes": 1,
                             "layout": ["3 3 3 3 3 3"], "grid": [{"lane": 0, "segment": 5}]})
    other = TrackDocument.new(doc.data)
    other.history.push(c.SetProperty("name", "Other"))
    stack = UndoStack()
    view = QUndoView(stack)
    qtbot.addWidget(view)
    stack.attach(doc.history)
    h = doc.history
    rng = random.Random(5)
    for step in range(600):
        op = rng.randrange(12)
        if op <= 3:  # names and laps: merges, merges back to the start, edits that change nothing
            h.push(c.SetProperty("name", rng.choice("TAB")) if op < 2 else c.SetProperty("laps", rng.randrange(1, 3)))
        elif op == 4:
            h.push(c.PaintStroke(0, rng.randrange(6), rng.choice((3, 6))))
        elif op == 5:
            h.seal()
        elif op == 6:
            with h.macro("Paint two"):
                h.push(c.Paint(0, rng.randrange(6), rng.choice((3, 4))))
                h.push(c.Paint(0, rng.randrange(6), rng.choice((5, 6))))
        elif op == 7:
            (h.undo if rng.random() < 0.5 else h.redo)()
        elif op == 8:
            (stack.undo if rng.random() < 0.5 else stack.redo)()  # the Edit menu's actions
        elif op == 9:
            stack.setIndex(rng.randrange(stack.count() + 1))  # a click in the History view
        elif op == 10:
            doc.save(tmp_path / "t.yaml")
        else:  # another document shown and back: each keeps its own history
            stack.attach(other.history)
            _assert_follows(stack, other.history)
            assert stack.text(0) == "Set name to 'Other'"
            stack.attach(h)
        _assert_follows(stack, h)
        if step % 50 == 0:
            assert view.model().rowCount() == stack.count() + 1
    # undoing everything from the Qt side gives the first state back
    stack.setIndex(0)
    assert h.index == 0 and doc.data["layout"] == ["3 3 3 3 3 3"] and doc.data["name"] == "T"
    stack.detach()
    h.push(c.SetProperty("laps", 4))
    assert stack.count() == 0  # a detached stack follows nothing


def test_the_pack_window_and_the_track_window_keep_their_own_histories(make_window, qtbot, tmp_path):
    import shutil

    from helpers import CONTENT

    from slipstream.engine.editing.packdoc import SetValue

    w = make_window()
    w.open_path(BUNDLED[0], ask=False)
    w.push(c.SetProperty("laps", 7))
    base = tmp_path / "base"
    shutil.copytree(CONTENT / "base", base)
    win = w.open_pack(base)
    qtbot.addWidget(win, before_close_func=lambda p: setattr(p.doc, "saved", p.doc.state))
    win.push(SetValue("pack.yaml", ("name",), "Renamed"))
    win.push(SetValue("pack.yaml", ("version",), "9.9.9"))
    assert win.undo_stack.count() == 2 and w.undo_stack.count() == 1
    assert win.undo_stack.history is win.doc.history and w.undo_stack.history is w.doc.history
    w.act_undo.trigger()
    assert win.doc.history.index == 2 and w.doc.data["laps"] != 7
    # opening another track shows that track's (empty) history; the pack's stays
    w.open_path(BUNDLED[1], ask=False)
    assert w.undo_stack.count() == 0 and win.undo_stack.count() == 2
