"""Tracing a board: a backdrop image under the canvas (open, move, scale, rotate, opacity, lock;
undoable), kept in the file as a reference, and an imported circuit lying exactly over its scan."""

from __future__ import annotations

import math

from helpers import invoke
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from tracks.imports import synth

from slipstream.engine.tracks.backdrop import backdrop_of

from .conftest import SHOTS
from .helpers import click_tool


def scan(path, o: synth.Oval) -> None:
    """A 'board scan' of our synthetic oval: a grey road with a dot at every space's centre."""
    img = QImage(1200, 800, QImage.Format.Format_RGB32)
    img.fill(QColor("#d8d2c4"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(QPen(QColor("#555"), 2))
    p.setBrush(QColor("#1a1a1a"))
    for s in o.spaces + o.pit:
        p.drawEllipse(QPointF(s.x, s.y), 9, 9)
    p.end()
    assert img.save(str(path))


def imported(tmp_path):
    o = synth.oval(3)
    (tmp_path / "scans").mkdir()
    scan(tmp_path / "scans" / "board.png", o)
    (tmp_path / "scans" / "oval.dat").write_text(synth.gp_online(o), encoding="utf-8")
    out = tmp_path / "oval.yaml"
    res = invoke("import", str(tmp_path / "scans" / "oval.dat"), "-o", str(out))
    assert res.exit_code == 0, res.output
    assert "backdrop: scans/board.png" in res.output
    return o, out


def test_an_imported_circuit_opens_over_its_board_image(window, qtbot, tmp_path):
    o, out = imported(tmp_path)
    assert window.open_path(out, ask=False)
    item = window.backdrop_layer.item
    assert item is not None and item.pixmap().width() == 1200
    assert item.opacity() == 0.5 and item.zValue() < 0
    # the image's pixel (x, y) is the drawing's (x, y): a space's centre lies on its dot
    first = o.lane(1)[3]
    mapped = item.mapToScene(QPointF(first.x, first.y))
    assert (mapped.x(), mapped.y()) == (first.x, first.y)
    window.docks["backdrop"].raise_()
    qtbot.wait(50)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "backdrop-imported-oval.png"))


def test_the_dock_moves_scales_rotates_fades_and_locks_the_image_and_each_change_undoes(window, qtbot, tmp_path):
    _, out = imported(tmp_path)
    window.open_path(out, ask=False)
    panel = window.backdrop_panel
    panel.x_box.setValue(25)
    window.seal()
    panel.scale_box.setValue(2)
    window.seal()
    panel.rotation_box.setValue(90)
    window.seal()
    panel.opacity_slider.setValue(80)
    window.seal()
    b = backdrop_of(window.doc.data)
    assert (b.x, b.scale, b.rotation, b.opacity) == (25, 2, 90, 0.8)
    item = window.backdrop_layer.item
    p = item.mapToScene(QPointF(10, 0))
    assert math.isclose(p.x(), 25, abs_tol=1e-6) and math.isclose(p.y(), 20, abs_tol=1e-6)
    assert item.opacity() == 0.8
    panel.locked_box.setChecked(True)
    assert not panel.x_box.isEnabled()
    for _ in range(5):
        window.undo_stack.undo()
    b = backdrop_of(window.doc.data)
    assert (b.x, b.scale, b.rotation, b.opacity, b.locked) == (0, 1, 0, 0.5, False)
    window.save()
    assert "backdrop: {image: scans/board.png}" in out.read_text(encoding="utf-8")


def test_the_backdrop_tool_drags_the_image_in_one_undo_step_unless_locked(window, qtbot, tmp_path):
    _, out = imported(tmp_path)
    window.open_path(out, ask=False)
    click_tool(qtbot, window, "backdrop")
    vp = window.view.viewport()
    start = QPoint(300, 300)
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=start)
    for dx in (10, 20, 40):
        qtbot.mouseMove(vp, start + QPoint(dx, 0))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=start + QPoint(40, 0))
    moved = backdrop_of(window.doc.data)
    want = window.view.mapToScene(start + QPoint(40, 0)).x() - window.view.mapToScene(start).x()
    assert math.isclose(moved.x, want, abs_tol=0.2) and moved.y == 0
    window.undo_stack.undo()
    assert backdrop_of(window.doc.data).x == 0  # the whole drag was one step
    window.backdrop_panel.locked_box.setChecked(True)
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(vp, start + QPoint(40, 0))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=start + QPoint(40, 0))
    assert backdrop_of(window.doc.data).x == 0


def test_opening_an_image_needs_a_saved_track_and_keeps_a_relative_path(window, qtbot, tmp_path):
    img = tmp_path / "pics" / "scan.png"
    img.parent.mkdir()
    scan(img, synth.oval(2))
    window.new_from_template("oval", "formula-de")  # a track/2 that was never saved
    window.backdrop_panel.set_image(img)
    assert backdrop_of(window.doc.data) is None  # untitled: nothing to be relative to
    _, out = imported(tmp_path)
    window.open_path(out, ask=False)
    window.backdrop_panel.set_image(img)
    assert backdrop_of(window.doc.data).image == "pics/scan.png"
    window.undo_stack.undo()
    assert backdrop_of(window.doc.data).image == "scans/board.png"
