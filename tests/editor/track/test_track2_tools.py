"""The track/2 tools on the canvas (pytest-qt): corners by dragging, links by two clicks, the pit
lane by entry and exit clicks, boxes, the Corners & pit dock, and what the canvas draws."""

from __future__ import annotations

from dataclasses import replace

from helpers import click_cell
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QSpinBox

from slipstream.engine.editing.document import TrackDocument
from slipstream.engine.tracks.overlays import BOX_INK, PIT_FILL

from .conftest import ROOT, SHOTS
from .helpers import click_tool

TILLEULS = ROOT / "content" / "tracks-v2" / "tilleuls.yaml"
REDLINE = ROOT / "content" / "tracks-v2" / "redline-loop.yaml"


def cell_pos(w, lane: int, seg: int) -> QPoint:
    return w.view.mapFromScene(w.scene.cell_centre(lane, seg))


def drag_cells(qtbot, w, lane: int, first: int, last: int) -> None:
    vp = w.view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=cell_pos(w, lane, first))
    for seg in range(first + 1, last + 1):
        qtbot.mouseMove(vp, cell_pos(w, lane, seg))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=cell_pos(w, lane, last))


def click_pit_square(qtbot, w, s: int) -> None:
    x, y = w.track2_layers.place.point(s + 0.5)
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton, pos=w.view.mapFromScene(QPointF(x, y)))


def test_the_formula_de_circuit_built_on_the_canvas_saves_as_the_bundled_file(make_window, qtbot, tmp_path):
    w = make_window()
    original = TrackDocument.open(TILLEULS)
    bare = replace(original.state, data={k: v for k, v in original.data.items()
                                         if k not in ("corners", "links", "pit")})
    start = tmp_path / "tilleuls.yaml"
    start.write_text(bare.text(), encoding="utf-8")
    w.open_path(start, ask=False)
    w.docks["track2"].raise_()

    click_tool(qtbot, w, "corner")
    table = w.track2_panel.table
    for i, corner in enumerate(original.data["corners"]):
        drag_cells(qtbot, w, 1, corner["from"], corner["to"])
        assert w.doc.data["corners"][i]["from"] == corner["from"], corner
        assert w.doc.data["corners"][i]["to"] == corner["to"], corner
        assert w.track2_panel.current_corner() == i  # the new corner is picked in the dock
        table.item(i, 0).setText(corner["name"])
        table.item(i, 3).setText(str(corner["stops"]))
        if corner.get("chicane"):
            table.item(i, 5).setCheckState(Qt.CheckState.Checked)
    assert len(w.track2_layers.corner_paths) == 8  # the canvas draws every corner zone

    click_tool(qtbot, w, "link")
    for link in original.data["links"]:
        (a_lane, a_seg), (b_lane, b_seg) = (tuple(int(x) for x in c.split(":")) for c in link["remove"])
        click_cell(qtbot, w, a_lane, a_seg)
        click_cell(qtbot, w, b_lane, b_seg)
    assert w.doc.data["links"] == original.data["links"]
    assert len(w.track2_layers.link_items) == 6  # each removed move drawn as a crossed arrow

    click_tool(qtbot, w, "pit")
    w.track2_panel.findChild(QSpinBox, "pit-length").setValue(14)
    click_cell(qtbot, w, 2, 114)
    click_cell(qtbot, w, 2, 12)
    assert len(w.track2_layers.pit_items) == 14  # the canvas draws the pit squares
    entry_speed = w.track2_panel.findChild(QSpinBox, "pit-entry-speed")
    entry_speed.setValue(20)
    assert w.doc.data["pit"]["entries"] == [{"from": "2:114", "speed": 20}]
    entry_speed.setValue(0)  # "—": no limit (the bundled circuit has none)
    click_tool(qtbot, w, "box")
    for box in original.data["pit"]["boxes"]:
        click_pit_square(qtbot, w, box)

    assert w.doc.diagnostics == []
    assert w.status_counts.text() == "0 errors, 0 warnings"
    target = tmp_path / "built.yaml"
    w.doc.save(target)
    assert target.read_text(encoding="utf-8") == TILLEULS.read_text(encoding="utf-8")
    assert TrackDocument.open(target).data == w.doc.data
    # every step undoes (one per gesture and field), back to the bare circuit
    while w.undo_stack.canUndo():
        w.undo_stack.undo()
    assert w.doc.data == bare.data


def test_a_drag_backwards_marks_the_same_corner_and_a_click_picks_it(window, qtbot):
    w = window
    w.open_path(REDLINE, ask=False)
    click_tool(qtbot, w, "corner")
    before = list(w.doc.data["corners"])
    drag_cells(qtbot, w, 0, 12, 12)  # a click outside every corner: a one-segment corner
    assert {"name": "Corner 7", "from": 12, "to": 12} in w.doc.data["corners"]
    vp = w.view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=cell_pos(w, 1, 20))
    qtbot.mouseMove(vp, cell_pos(w, 1, 18))
    qtbot.mouseMove(vp, cell_pos(w, 1, 16))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=cell_pos(w, 1, 16))
    assert {"name": "Corner 8", "from": 16, "to": 20} in w.doc.data["corners"]
    assert w.undo_stack.count() == 2
    # the corners stay in lap order: the two new ones come first, the Needle is now the 4th
    assert [c["from"] for c in w.doc.data["corners"]][:4] == [12, 16, 24, 44]
    click_cell(qtbot, w, 2, 46)  # inside the Needle: picks it, no edit
    assert w.track2_panel.current_corner() == 3 and w.undo_stack.count() == 2
    w.track2_panel.lane_spins[2].setValue(70)
    assert w.doc.data["corners"][3]["lane_speeds"] == [40, 50, 70]
    # a space's own limit: select it, then set it in the dock
    click_tool(qtbot, w, "select")
    click_cell(qtbot, w, 0, 47)
    space = w.track2_panel.findChild(QSpinBox, "space-speed")
    assert space.isEnabled() and w.track2_panel.space_label.text() == "Space 0:47"
    space.setValue(30)
    assert w.doc.data["corners"][3]["space_speeds"] == {"0:47": 30}
    click_cell(qtbot, w, 0, 60)  # outside every corner: nothing to set
    assert not space.isEnabled()
    for _ in range(4):
        w.undo_stack.undo()
    assert w.doc.data["corners"] == before


def test_a_corner_range_that_is_not_a_number_is_refused_and_shown_again(window, qtbot):
    w = window
    w.open_path(TILLEULS, ask=False)
    item = w.track2_panel.table.item(1, 1)
    item.setText("soon")
    assert w.undo_stack.count() == 0 and w.track2_panel.table.item(1, 1).text() == "30"
    w.track2_panel.table.item(1, 1).setText("29")
    assert w.doc.data["corners"][1]["from"] == 29 and w.undo_stack.count() == 1


def test_random_track2_edits_through_the_qt_stack_and_the_canvas_follows(window):
    import random

    from editing.test_track2_commands import random_v2_command

    from slipstream.editor.undo import seal

    w = window
    w.open_path(REDLINE, ask=False)
    original = w.doc.state
    rng = random.Random(11)
    for _ in range(60):
        w.push(random_v2_command(rng, w.doc))
        seal(w.undo_stack)  # each edit its own step (as after each gesture)
    final = w.doc.state
    steps = w.undo_stack.index()
    assert steps > 30

    def shown() -> tuple[int, int]:
        track = w.doc.track
        n = track.segments
        corners = sum(1 for c in track.corners if 0 <= c.first < n and 0 <= c.last < n)
        pit = track.pit.segments if track.pit is not None and w.track2_layers.place is not None else 0
        return corners, pit

    def drawn() -> tuple[int, int]:
        return len(w.track2_layers.corner_paths), len(w.track2_layers.pit_items)

    assert drawn() == shown()
    for _ in range(steps):
        w.undo_stack.undo()
    assert w.doc.state == original and drawn() == shown()
    for _ in range(steps):
        w.undo_stack.redo()
    assert w.doc.state == final and drawn() == shown()


def test_escape_drops_the_first_click_of_a_link(window, qtbot):
    w = window
    w.open_path(TILLEULS, ask=False)
    click_tool(qtbot, w, "link")
    click_cell(qtbot, w, 1, 10)
    assert w.track2_tools.pending is not None and "1:10 chosen" in w.statusBar().currentMessage()
    qtbot.keyClick(w.view, Qt.Key.Key_Escape)
    assert w.track2_tools.pending is None
    click_cell(qtbot, w, 0, 10)
    click_cell(qtbot, w, 2, 12)
    assert w.doc.data["links"][0] == {"add": ["0:10", "2:12"]}


def test_plain_painting_by_drag_is_one_step_and_makes_the_file_track2(window, qtbot):
    w = window
    w.open_path(ROOT / "content" / "base" / "tracks" / "first-oval.yaml", ask=False)
    click_tool(qtbot, w, "plain")
    vp = w.view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=cell_pos(w, 0, 2))
    for seg in (3, 4, 5):
        qtbot.mouseMove(vp, cell_pos(w, 0, seg))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=cell_pos(w, 0, 5))
    assert w.undo_stack.count() == 1
    track = w.doc.track
    assert w.doc.data["slipstream"] == "track/2"
    assert all(track.space_at(0, s).colour == 0 for s in range(2, 6))
    w.undo_stack.undo()
    assert w.doc.data["slipstream"] == "track/1"


def test_screenshots_of_both_v2_tracks_show_corners_and_the_pit_lane(window, qtbot):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for path in (TILLEULS, REDLINE):
        window.open_path(path, ask=False)
        window.docks["track2"].raise_()
        click_tool(qtbot, window, "corner")
        qtbot.wait(20)
        assert window.grab().save(str(SHOTS / f"editor-v2-{path.stem}.png"))
        canvas = window.view.viewport().grab().toImage()
        colours = {canvas.pixelColor(x, y).name() for x in range(0, canvas.width(), 2)
                   for y in range(0, canvas.height(), 2)}
        assert PIT_FILL in colours and "#ffffff" in colours
        if path == TILLEULS:
            assert BOX_INK in colours
        assert len(window.track2_layers.corner_paths) == len(window.doc.track.corners)
