"""The canvas: hit testing, problems linked to spaces, zoom to cursor, fit, big tracks."""

from __future__ import annotations

import random

from helpers import BUNDLED, click_cell
from PySide6.QtCore import QPoint, QPointF, Qt

from slipstream.editor.track.canvas import band, cell_at
from slipstream.engine.editing import commands as c
from slipstream.engine.editing.document import TrackDocument
from slipstream.engine.tracks.drawing import TrackDrawing


def test_every_cell_centre_maps_back_to_its_cell():
    for path in BUNDLED:
        track = TrackDocument.open(path).track
        d = TrackDrawing(track)
        for lane in range(track.lanes):
            for seg in range(track.segments):
                assert cell_at(d, *d.point(lane, seg + 0.5)) == (lane, seg)


def test_canvas_polygons_are_the_svg_polygons():
    track = TrackDocument.open(BUNDLED[1]).track
    d = TrackDrawing(track)
    for sp in track.spaces[::7]:
        ours = band(d, sp.lane, sp.first, sp.first + sp.length)
        theirs = d.space_polygon(sp)
        assert len(ours) == len(theirs)
        assert all(abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6 for a, b in zip(ours, theirs, strict=True))


def test_clicking_a_diagnostic_selects_and_centres_its_space(window, qtbot):
    w = window
    w.open_path(BUNDLED[0], ask=False)
    # cut every lane over segments 30-33: the spaces before the cut become dead ends
    for lane in range(3):
        w.push(c.SetLanePresent(lane, 30, 33, False))
    diags = w.doc.diagnostics
    assert any(d.is_error and d.spaces for d in diags)
    assert w.scene._marks.path().elementCount() > 0  # problem spaces are outlined on the canvas
    assert w.status_counts.text().split()[0] != "0"
    tree = w.problems.tree
    row = next(i for i, d in enumerate(w.problems.diagnostics) if d.spaces)
    item = tree.topLevelItem(row)
    w.view.zoom(3.0)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(item).center())
    name = w.problems.diagnostics[row].spaces[0]
    sp = w.doc.track.space_named(name)
    assert w.selection.lane == sp.lane and w.selection.first == sp.first
    centre = w.view.mapToScene(w.view.viewport().rect().center())
    target = w.scene.cell_centre(sp.lane, sp.first)
    assert abs(centre.x() - target.x()) < 30 and abs(centre.y() - target.y()) < 30


def test_wheel_zoom_keeps_the_point_under_the_cursor_and_fit_shows_all(window, qtbot):
    w = window
    w.open_path(BUNDLED[1], ask=False)
    view = w.view
    vp = view.viewport()
    cursor = QPoint(vp.width() // 3, vp.height() // 2)
    before = view.mapToScene(cursor)
    scale = view.transform().m11()
    from PySide6.QtGui import QWheelEvent

    event = QWheelEvent(QPointF(cursor), QPointF(vp.mapToGlobal(cursor)), QPoint(0, 0), QPoint(0, 240),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    view.wheelEvent(event)
    assert view.transform().m11() > scale * 1.4
    after = view.mapToScene(cursor)
    assert abs(after.x() - before.x()) < 3 and abs(after.y() - before.y()) < 3
    # pan with the middle button
    h = view.horizontalScrollBar().value()
    qtbot.mousePress(vp, Qt.MouseButton.MiddleButton, pos=cursor)
    qtbot.mouseMove(vp, cursor + QPoint(-120, 0))
    qtbot.mouseRelease(vp, Qt.MouseButton.MiddleButton, pos=cursor + QPoint(-120, 0))
    assert view.horizontalScrollBar().value() > h
    w.act_fit = next(a for a in w.actions() if a.objectName() == "fit")
    w.act_fit.trigger()
    shown = view.mapToScene(vp.rect()).boundingRect()
    assert shown.contains(w.scene.track_rect.adjusted(2, 2, -2, -2))


def test_selection_highlight_and_status_follow_clicks(window, qtbot):
    w = window
    w.open_path(BUNDLED[0], ask=False)
    click_cell(qtbot, w, 2, 10)
    assert w.selection.cell == (2, 10)
    assert not w.scene._select.path().isEmpty()
    assert "cell 2:10" in w.status_where.text()
    click_cell(qtbot, w, 2, 14, Qt.KeyboardModifier.ShiftModifier)
    assert (w.selection.first, w.selection.last) == (10, 14)


def test_a_5000_space_track_builds_and_recolours_in_place(window):
    rng = random.Random(3)
    n = 1700
    lanes = [" ".join(str(rng.choice((3, 4, 5, 6))) for _ in range(n)) for _ in range(3)]
    data = {"slipstream": "track/1", "id": "huge", "name": "Huge", "laps": 1, "lanes": 3, "layout": lanes,
            "grid": [{"lane": k % 3, "segment": n - 1 - k // 3, "money": 10 + k} for k in range(5)]}
    w = window
    w.new_from_template("oval")
    w.push(c.ReplaceData(data))
    assert len(w.scene.spaces) == 5100
    item = w.scene.spaces[(1, 100, 1)]
    colour = w.doc.track.space_at(1, 100).colour
    w.push(c.Paint(1, 100, 3 if colour != 3 else 4))
    assert w.scene.spaces[(1, 100, 1)] is item  # the same item, recoloured
    assert item.brush().color().name() == ('#f6f5ef' if colour != 3 else '#c2c4c6')
    image = w.view.grab()
    assert not image.isNull()


def test_a_new_shape_redraws_only_the_tracks_own_items(window):
    from PySide6.QtWidgets import QGraphicsEllipseItem

    w = window
    w.open_path(BUNDLED[0], ask=False)
    other = QGraphicsEllipseItem(0, 0, 10, 10)  # e.g. a car of the race overlay
    w.scene.addItem(other)
    w.push(c.SetLaneCount(4))  # a new shape: every space item is rebuilt
    assert other.scene() is w.scene
    assert len(w.scene.spaces) == len(w.doc.track.spaces)


def test_segment_and_grid_labels_are_readable_at_fit_zoom(window, qtbot):
    from PySide6.QtWidgets import QGraphicsSimpleTextItem

    w = window
    w.open_path(BUNDLED[0], ask=False)
    w.view.fit()
    scale = w.view.transform().m11()
    numbers = [i for i in w.scene._static if isinstance(i, QGraphicsSimpleTextItem)]
    grid = [i for i in w.scene._grid_items if isinstance(i, QGraphicsSimpleTextItem)]
    assert numbers and grid
    # pixel height of the letters on screen (a font's pixel size is its letter height)
    assert min(i.font().pixelSize() * scale for i in numbers) >= 11
    assert min(i.font().pixelSize() * scale for i in grid) >= 8.5
    # and the grid labels still fit inside their slot's box
    lw = w.scene.drawing.lane_width
    assert all(i.boundingRect().width() <= lw * 0.9 for i in grid)


def test_the_figure_of_eight_crossing_is_a_bridge_of_the_later_branch(window, qtbot):
    from PySide6.QtCore import QPointF, QRectF

    from slipstream.editor.track.canvas import SpaceItem

    w = window
    w.new_from_template("figure-eight")
    n = w.doc.track.segments
    centre = QPointF(0, 0)  # the lemniscate crosses itself at the origin
    under = [i for i in w.scene.items(centre) if isinstance(i, SpaceItem)]
    firsts = sorted({i.space.first for i in under})
    assert len(under) >= 2 and firsts[-1] - firsts[0] > n // 4  # two branches lie there
    top = under[0]  # items() lists the topmost first
    assert top.space.first == firsts[-1]  # the later branch passes over
    # every space of the later branch near the crossing is drawn over every one of the earlier
    for dx in (-30, 0, 30):
        for dy in (-30, 0, 30):
            here = [i for i in w.scene.items(QPointF(dx, dy)) if isinstance(i, SpaceItem)]
            if len({i.space.first * 4 // n for i in here}) > 1:
                assert here[0].space.first == max(i.space.first for i in here)
    # no dashed tick of the branch below is drawn over the bridge
    near = [t for t in w.scene._ticks if t.path().intersects(QRectF(-20, -20, 40, 40))]
    assert near
    for t in near:  # below the bridge, or the bridge's own ticks (its stretch of the lap)
        assert t.zValue() < top.zValue() or t.zValue() - top.zValue() <= 1 / 16
    assert any(t.zValue() < top.zValue() for t in near)  # the lower branch's ticks are there
    # a click at the crossing picks the cell drawn on top
    lane, seg = w.scene.cell_at(centre)
    assert top.space.lane == lane and top.space.first <= seg < top.space.first + top.space.length
    w.doc.saved = w.doc.state


def _grid_texts(w):
    from PySide6.QtWidgets import QGraphicsSimpleTextItem

    return [i.text() for i in w.scene._grid_items if isinstance(i, QGraphicsSimpleTextItem)]


def test_grid_money_is_drawn_only_where_the_track_has_some(window):
    from pathlib import Path

    w = window
    w.open_path(BUNDLED[0], ask=False)  # track/1: every slot has its money
    texts = _grid_texts(w)
    assert any(t.startswith("$") for t in texts) and "P1" in texts
    v2 = Path(__file__).resolve().parents[3] / "content" / "tracks-v2" / "tilleuls.yaml"
    w.open_path(v2, ask=False)  # a Formula Dé-style grid has no money: no "$0" labels
    texts = _grid_texts(w)
    assert "P1" in texts and not any(t.startswith("$") for t in texts)
