"""The track canvas: a QGraphicsScene drawn from engine/tracks/drawing.py, and its view.

Scene coordinates are the drawing coordinates of TrackDrawing (the SVG uses the same), so the
canvas, the SVG and the PDF agree. One polygon item per space; an edit that keeps the lap's
shape only recolours, adds or removes the items of the spaces it touched.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsPolygonItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
)

from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.tracks.drawing import Point, TrackDrawing
from slipstream.engine.tracks.pitdrawing import label_lane, place_pit
from slipstream.engine.tracks.render import FILL, INK
from slipstream.engine.tracks.track import NO_SPACE, Space, Track

BACKGROUND = QColor("#3f7d3a")
SELECT = QColor("#ff2d95")
ERROR = QColor("#e01b24")
WARNING = QColor("#f5a300")

Cell = tuple[int, int]
# label sizes as a share of the lane width: a fitted track of the bundled size (64 segments,
# 3 lanes) is drawn at about 0.7 pixel a unit, where these give 12-13 px letters
SEGMENT_LABEL = 0.45
GRID_LABEL = 0.36
# spaces and their ticks take z values in [0, LAYERS), by segment; every overlay lies above
LAYERS = 1.0
TICK_STRETCHES = 16


@dataclass(frozen=True, slots=True)
class Selection:
    """Selected cells: one lane, segments first..last (inclusive, in lap order)."""

    lane: int
    first: int
    last: int

    @property
    def cell(self) -> Cell:
        return (self.lane, self.first)


def band(d: TrackDrawing, lane: int, first: float, end: float) -> list[Point]:
    """TrackDrawing.band with a bisect over the path vertices (same points, faster)."""
    t0, t1 = d.segment_t(first), d.segment_t(end)
    cum = d.cumulative
    ts = [t0]
    i = bisect.bisect_right(cum, t0 + 1e-9)
    while i < len(cum) - 1 and cum[i] < t1 - 1e-9:
        ts.append(cum[i])
        i += 1
    ts.append(t1)
    o = d.offset(lane)
    hw = d.lane_width / 2
    inner, outer = [], []
    for t in ts:
        p, n = d.at(t)
        inner.append((p[0] + n[0] * (o + hw), p[1] + n[1] * (o + hw)))
        outer.append((p[0] + n[0] * (o - hw), p[1] + n[1] * (o - hw)))
    return inner + outer[::-1]


def cell_at(d: TrackDrawing, x: float, y: float) -> Cell | None:
    """The cell (lane, segment) under a drawing position, or None off the track."""
    pts = d.path
    best = None
    for i in range(len(pts)):
        a, b = pts[i], pts[(i + 1) % len(pts)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ll = dx * dx + dy * dy
        f = 0.0 if ll == 0 else max(0.0, min(1.0, ((x - a[0]) * dx + (y - a[1]) * dy) / ll))
        px, py = a[0] + dx * f, a[1] + dy * f
        dist = math.hypot(x - px, y - py)
        if best is None or dist < best[0]:
            best = (dist, i, f, px, py)
    if best is None:
        return None
    _, i, f, px, py = best
    seg_len = d.cumulative[i + 1] - d.cumulative[i]
    t = d.cumulative[i] + f * seg_len
    _, normal = d.at(t if f > 1e-6 else t + 1e-6)
    offset = (x - px) * normal[0] + (y - py) * normal[1]
    track = d.track
    lane = round((track.lanes - 1) / 2 - offset / d.lane_width)
    if not 0 <= lane < track.lanes or abs(((track.lanes - 1) / 2 - lane) * d.lane_width - offset) > d.lane_width * 0.5:
        return None
    seg = int(t / d.length * track.segments) % track.segments
    return lane, seg


def _poly(points: list[Point]) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in points])


class SpaceItem(QGraphicsPolygonItem):
    def __init__(self, poly: QPolygonF, space: Space) -> None:
        super().__init__(poly)
        self.space = space
        self.setPen(_SPACE_PEN)
        self.setBrush(_BRUSHES[space.colour])


_SPACE_PEN = QPen(QColor("#111111"), 1.2)
_SPACE_PEN.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
_BRUSHES = {c: QBrush(QColor(v)) for c, v in FILL.items()}


class TrackScene(QGraphicsScene):
    """Draws a Track; `show_track` updates the drawing with as little work as possible."""

    def __init__(self) -> None:
        super().__init__()
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.setBackgroundBrush(BACKGROUND)
        self.track: Track | None = None
        self.drawing: TrackDrawing | None = None
        self._shape_key: object = None
        self.spaces: dict[tuple[int, int, int], SpaceItem] = {}
        self._ticks: list[QGraphicsItem] = []  # redrawn when spaces change
        self._static: list[QGraphicsItem] = []  # finish line, numbers: redrawn with the shape
        self._cross: dict[tuple[int, int], tuple[Point, Point]] = {}  # tick lines of the shape
        self._grid_items: list[QGraphicsItem] = []
        self._marks: QGraphicsPathItem | None = None
        self._warn_marks: QGraphicsPathItem | None = None
        self._select: QGraphicsPathItem | None = None
        self._handles: list[QGraphicsEllipseItem] = []
        self._centerline: QGraphicsPathItem | None = None
        self.show_handles = False
        self.track_rect = QRectF()
        self.control_points: list[tuple[float, float]] = []

    # --- whole track ---------------------------------------------------------------------
    def show_track(self, track: Track | None, control_points: list[tuple[float, float]]) -> bool:
        """Show a track; True when the whole drawing was rebuilt (a new shape)."""
        old = self.track
        self.track = track
        self.control_points = control_points
        if track is None:
            self._clear_all()
            self.drawing = None
            self._shape_key = None
            return False
        key = (track.segments, track.lanes, track.geometry)
        rebuilt = key != self._shape_key
        if rebuilt:
            self._clear_all()
            self._shape_key = key
            self.drawing = TrackDrawing(track)
            for sp in track.spaces:
                self._add_space(sp)
            self._draw_ticks()
            self._draw_static()
            self._draw_grid()
            x0, y0, x1, y1 = self.drawing.bounds
            m = self.drawing.lane_width * 2
            self.track_rect = QRectF(x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m)
            # room around the track so that the view can pan and zoom at its edges
            r = self.track_rect
            self.setSceneRect(r.adjusted(-r.width(), -r.height(), r.width(), r.height()))
        else:
            assert self.drawing is not None
            self.drawing.track = track  # same shape: only the spaces and the grid differ
            if old is None or old.spaces != track.spaces:
                self._update_spaces(track)
                self._draw_ticks()
            if old is None or old.grid != track.grid:
                self._draw_grid()
        self._draw_handles()
        return rebuilt

    def _clear_all(self) -> None:
        """Remove the items this scene drew; items others added (the race overlay) stay."""
        mine: list[QGraphicsItem | None] = [*self.spaces.values(), *self._ticks, *self._static,
                                            *self._grid_items, *self._handles, self._marks,
                                            self._warn_marks, self._select, self._centerline]
        for item in mine:
            if item is not None and item.scene() is self:
                self.removeItem(item)
        self.spaces.clear()
        self._ticks.clear()
        self._static.clear()
        self._cross = {}
        self._grid_items.clear()
        self._marks = self._warn_marks = self._select = None
        self._handles.clear()
        self._centerline = None

    def _layer(self, segment: float) -> float:
        """Z value of what lies at `segment`: later in the lap is drawn higher, so where a track
        crosses itself (a figure of eight) the later branch passes over as one bridge."""
        n = self.track.segments if self.track is not None else 1
        return LAYERS * segment / max(1, n)

    def _add_space(self, sp: Space) -> None:
        assert self.drawing is not None
        item = SpaceItem(_poly(band(self.drawing, sp.lane, sp.first, sp.first + sp.length)), sp)
        item.setZValue(self._layer(sp.first))
        self.addItem(item)
        self.spaces[(sp.lane, sp.first, sp.length)] = item

    def _update_spaces(self, track: Track) -> None:
        wanted = {(sp.lane, sp.first, sp.length): sp for sp in track.spaces}
        for key in [k for k in self.spaces if k not in wanted]:
            self.removeItem(self.spaces.pop(key))
        for key, sp in wanted.items():
            item = self.spaces.get(key)
            if item is None:
                self._add_space(sp)
            else:
                if item.space.colour != sp.colour:
                    item.setBrush(_BRUSHES[sp.colour])
                item.space = sp

    def _draw_ticks(self) -> None:
        """Segment ticks inside multi-segment spaces: one path per ink colour."""
        for item in self._ticks:
            self.removeItem(item)
        self._ticks.clear()
        d, t = self.drawing, self.track
        assert d is not None and t is not None
        cache = self._cross
        # one path per ink and stretch of the lap, just above the spaces of its stretch, so that
        # the ticks of a branch passing under another stay hidden under it
        stretches = TICK_STRETCHES
        paths: dict[tuple[str, int], QPainterPath] = {}
        for sp in t.spaces:
            for s in range(sp.first + 1, sp.first + sp.length):
                k = min(stretches - 1, sp.first * stretches // max(1, t.segments))
                path = paths.setdefault((INK[sp.colour], k), QPainterPath())
                line = cache.get((sp.lane, s))
                if line is None:
                    line = cache[(sp.lane, s)] = d.cross_line(s, sp.lane)
                path.moveTo(*line[0])
                path.lineTo(*line[1])
        for (ink, k), path in paths.items():
            c = QColor(ink)
            c.setAlphaF(0.55)
            pen = QPen(c, 1.0, Qt.PenStyle.DashLine)
            item = QGraphicsPathItem(path)
            item.setPen(pen)
            item.setZValue(LAYERS * (k + 1) / stretches - 1e-6)
            self.addItem(item)
            self._ticks.append(item)

    def _draw_static(self) -> None:
        """The finish line and the segment numbers: they change only with the shape."""
        d, t = self.drawing, self.track
        assert d is not None and t is not None
        # finish line: a chequered band across all lanes at segment 0
        per_lane, rows = 3, 2
        frac = 0.18 / rows
        black, white = QPainterPath(), QPainterPath()
        for r in range(rows):
            for k in range(t.lanes * per_lane):
                lp = k / per_lane - 0.5
                quad = [d.point(lp, r * frac), d.point(lp + 1 / per_lane, r * frac),
                        d.point(lp + 1 / per_lane, (r + 1) * frac), d.point(lp, (r + 1) * frac)]
                (black if (k + r) % 2 else white).addPolygon(_poly(quad))
        for path, colour in ((white, "#ffffff"), (black, "#000000")):
            item = QGraphicsPathItem(path)
            item.setPen(Qt.PenStyle.NoPen)
            item.setBrush(QColor(colour))
            item.setZValue(1.5)
            self.addItem(item)
            self._static.append(item)
        # segment numbers along the outside, big enough to read when the whole track is fitted
        font = QFont("DejaVu Sans")
        font.setPixelSize(max(9, round(d.lane_width * SEGMENT_LABEL)))
        font.setBold(True)
        step = max(1, round(t.segments / 24 / 5) * 5) if t.segments > 24 else 1
        pit = place_pit(d)
        for s in range(0, t.segments, step):  # beyond an outside pit lane where it runs
            x, y = d.point(label_lane(d, s + 0.5, t.lanes - 0.5 + 0.6, pit), s + 0.5)
            label = QGraphicsSimpleTextItem(str(s))
            label.setFont(font)
            label.setBrush(QColor("#ffffff"))
            bounds = label.boundingRect()  # (not `r`: the loop above counts rows with it)
            label.setPos(x - bounds.width() / 2, y - bounds.height() / 2)
            label.setZValue(1)
            self.addItem(label)
            self._static.append(label)

    def _draw_grid(self) -> None:
        for item in self._grid_items:
            self.removeItem(item)
        self._grid_items.clear()
        d, t = self.drawing, self.track
        assert d is not None and t is not None
        lw = d.lane_width
        font = QFont("DejaVu Sans")
        font.setPixelSize(max(8, round(lw * GRID_LABEL)))
        font.setBold(True)
        # grid money is a track/1 feature; a track/2 grid shows it only where it sets some
        show_money = getattr(t, "version", 1) < 2 or any(slot.money for slot in t.grid)
        for i, slot in enumerate(t.grid):
            if not (0 <= slot.lane < t.lanes and 0 <= slot.segment < t.segments):
                continue
            sp = t.space_at(slot.lane, slot.segment)
            ink = QColor(INK[sp.colour] if sp else "#000000")
            c = d.point(slot.lane, slot.segment + 0.5)
            ang = math.degrees(d.direction(slot.segment + 0.5))
            path = QPainterPath()
            path.addRoundedRect(QRectF(-lw * 0.45, -lw * 0.42, lw * 0.9, lw * 0.84), 3, 3)
            box = QGraphicsPathItem(path)
            box.setPen(QPen(ink, 1.5))
            box.setTransform(QTransform().translate(c[0], c[1]).rotate(ang))
            box.setZValue(4)
            self.addItem(box)
            self._grid_items.append(box)
            texts = (f"P{i + 1}", f"${slot.money}") if show_money else (f"P{i + 1}",)
            for k, text in enumerate(texts):
                label = QGraphicsSimpleTextItem(text)  # top-level items: no parent/child ownership
                label.setFont(font)
                label.setBrush(ink)
                r = label.boundingRect()
                label.setTransform(QTransform().translate(c[0], c[1]).rotate(ang).translate(
                    -r.width() / 2, -r.height() + k * r.height() * 0.92 + lw * 0.03))
                label.setZValue(4)
                self.addItem(label)
                self._grid_items.append(label)

    # --- overlays ------------------------------------------------------------------------
    def _outline(self, names: set[str]) -> QPainterPath:
        path = QPainterPath()
        if self.track is None or self.drawing is None:
            return path
        for name in names:
            sp = self.track.space_named(name)
            if sp is not None:
                item = self.spaces.get((sp.lane, sp.first, sp.length))
                if item is not None:
                    path.addPolygon(item.polygon())
                    path.closeSubpath()
        return path

    def show_problems(self, diags: list[Diagnostic]) -> None:
        """Outline the spaces named by diagnostics: errors red, warnings amber."""
        errors = {n for d in diags if d.is_error for n in d.spaces}
        warnings = {n for d in diags if not d.is_error for n in d.spaces} - errors
        for attr, names, colour, z in (("_marks", errors, ERROR, 2.2), ("_warn_marks", warnings, WARNING, 2.1)):
            item = getattr(self, attr)
            if item is None:
                item = QGraphicsPathItem()
                pen = QPen(colour, 3.0)
                pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
                item.setPen(pen)
                fill = QColor(colour)
                fill.setAlphaF(0.25)
                item.setBrush(fill)
                item.setZValue(z)
                self.addItem(item)
                setattr(self, attr, item)
            item.setPath(self._outline(names))

    def show_selection(self, sel: Selection | None) -> None:
        if self._select is None:
            self._select = QGraphicsPathItem()
            pen = QPen(SELECT, 4.0)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            self._select.setPen(pen)
            self._select.setZValue(3)
            self.addItem(self._select)
        path = QPainterPath()
        d, t = self.drawing, self.track
        if sel is not None and d is not None and t is not None and 0 <= sel.lane < t.lanes:
            # the spaces touched, then the selected segments
            touched = {t.cells[sel.lane][s] for s in _lap_range(sel.first, sel.last, t.segments)}
            for idx in sorted(touched - {NO_SPACE}):
                sp = t.spaces[idx]
                item = self.spaces.get((sp.lane, sp.first, sp.length))
                if item is not None:
                    path.addPolygon(item.polygon())
                    path.closeSubpath()
            end = sel.last + 1 if sel.last >= sel.first else sel.last + 1 + t.segments
            path.addPolygon(_poly(band(d, sel.lane, sel.first, end)))
            path.closeSubpath()
        self._select.setPath(path)

    # --- centreline handles --------------------------------------------------------------
    def set_show_handles(self, on: bool) -> None:
        self.show_handles = on
        self._draw_handles()

    def _draw_handles(self) -> None:
        for h in self._handles:
            self.removeItem(h)
        self._handles.clear()
        if self._centerline is not None:
            self.removeItem(self._centerline)
            self._centerline = None
        if not self.show_handles or self.drawing is None:
            return
        path = QPainterPath()
        pts = self.drawing.path
        path.addPolygon(_poly([*pts, pts[0]]))
        self._centerline = QGraphicsPathItem(path)
        self._centerline.setPen(QPen(QColor("#00b7ff"), 2.0, Qt.PenStyle.DashLine))
        self._centerline.setZValue(5)
        self.addItem(self._centerline)
        r = self.drawing.lane_width * 0.22
        for i, (x, y) in enumerate(self.control_points):
            h = QGraphicsEllipseItem(-r, -r, 2 * r, 2 * r)
            h.setPos(x, y)
            h.setBrush(QColor("#00b7ff") if i else QColor("#ffffff"))
            h.setPen(QPen(QColor("#003a66"), 1.5))
            h.setZValue(6)
            h.setData(0, i)
            self.addItem(h)
            self._handles.append(h)

    def handle_at(self, pos: QPointF, tolerance: float) -> int | None:
        best = None
        for i, (x, y) in enumerate(self.control_points):
            dist = math.hypot(pos.x() - x, pos.y() - y)
            if dist <= tolerance and (best is None or dist < best[0]):
                best = (dist, i)
        return None if best is None else best[1]

    def cell_at(self, pos: QPointF) -> Cell | None:
        """The cell under `pos`; where the track crosses itself, the cell drawn on top."""
        if self.drawing is None:
            return None
        found = cell_at(self.drawing, pos.x(), pos.y())
        top = next((i for i in self.items(pos) if isinstance(i, SpaceItem)), None)
        if top is None or (found is not None and found[0] == top.space.lane
                           and top.space.first <= found[1] < top.space.first + top.space.length):
            return found
        sp = top.space
        for seg in range(sp.first, sp.first + sp.length):
            if _poly(band(self.drawing, sp.lane, seg, seg + 1)).containsPoint(pos, Qt.FillRule.OddEvenFill):
                return sp.lane, seg % self.drawing.track.segments
        return found

    def cell_centre(self, lane: int, segment: int) -> QPointF:
        assert self.drawing is not None
        x, y = self.drawing.point(lane, segment + 0.5)
        return QPointF(x, y)


def _lap_range(first: int, last: int, n: int) -> list[int]:
    if last >= first:
        return list(range(first, last + 1))
    return list(range(first, n)) + list(range(0, last + 1))


class TrackView(QGraphicsView):
    """Zoom to the cursor with the wheel, pan with the middle button (or Space + drag), fit."""

    cellClicked = Signal(int, int, object)  # lane, segment, Qt.KeyboardModifiers
    cellDragged = Signal(int, int)
    cellReleased = Signal()  # the end of a click or drag over cells: one gesture
    backgroundClicked = Signal()
    pointDragged = Signal(int, float, float)
    pointReleased = Signal()
    pointInserted = Signal(int, float, float)
    pointDeleted = Signal(int)

    def __init__(self, scene: TrackScene) -> None:
        super().__init__(scene)
        self.track_scene = scene
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, True)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        # pan with the middle button or Space + drag; the bars would only take room
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setBackgroundBrush(BACKGROUND)
        self.tool = "select"
        self._pan: QPointF | None = None
        self._space_down = False
        self._drag_point: int | None = None
        self._drag_cell: Cell | None = None
        self.auto_fit = True
        self.on_key: Callable[[QKeyEvent], bool] | None = None

    # --- zoom and pan ----------------------------------------------------------------------
    def zoom(self, factor: float) -> None:
        self.auto_fit = False
        scale = self.transform().m11()
        factor = max(0.02 / scale, min(factor, 40.0 / scale))
        self.scale(factor, factor)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt API
        steps = event.angleDelta().y() / 120
        self.zoom_at(event.position().toPoint(), 1.2 ** steps)

    def zoom_at(self, pos: QPoint, factor: float) -> None:
        """Zoom keeping the scene point under viewport position `pos` where it is."""
        before = self.mapToScene(pos)
        anchor = self.transformationAnchor()
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.zoom(factor)
        self.setTransformationAnchor(anchor)
        delta = self.mapFromScene(before) - pos
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + delta.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + delta.y())

    def resizeEvent(self, event) -> None:  # noqa: ANN001, N802
        super().resizeEvent(event)
        if self.auto_fit:
            self.fit()

    def fit(self, auto: bool = True) -> None:
        """Show the whole track; it stays fitted on resize until the user zooms."""
        self.auto_fit = auto
        rect = self.track_scene.track_rect
        if rect.isValid():
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)

    def centre_on_cell(self, lane: int, segment: int) -> None:
        if self.track_scene.drawing is not None:
            self.centerOn(self.track_scene.cell_centre(lane, segment))

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self.setFocus(Qt.FocusReason.MouseFocusReason)  # keys 3-6 and arrows act on the canvas
        if event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton and self._space_down
        ):
            self._pan = event.position()
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        pos = self.mapToScene(event.position().toPoint())
        if self.tool == "centreline":
            self._press_centreline(event, pos)
            return
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        cell = self.track_scene.cell_at(pos)
        if cell is None:
            self.backgroundClicked.emit()
            return
        self._drag_cell = cell
        self.cellClicked.emit(cell[0], cell[1], event.modifiers())

    def _press_centreline(self, event: QMouseEvent, pos: QPointF) -> None:
        tol = 8 / max(1e-6, self.transform().m11())
        idx = self.track_scene.handle_at(pos, tol)
        if event.button() == Qt.MouseButton.RightButton and idx is not None:
            self.pointDeleted.emit(idx)
        elif event.button() == Qt.MouseButton.LeftButton and idx is not None:
            self._drag_point = idx

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self.tool != "centreline":
            return super().mouseDoubleClickEvent(event)
        pos = self.mapToScene(event.position().toPoint())
        pts = self.track_scene.control_points
        if len(pts) < 2:
            return
        # insert after the control point whose edge passes nearest
        best = min(range(len(pts)), key=lambda i: _dist_to_edge(pos, pts[i], pts[(i + 1) % len(pts)]))
        self.pointInserted.emit(best + 1, pos.x(), pos.y())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._pan is not None:
            delta = event.position() - self._pan
            self._pan = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - round(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - round(delta.y()))
            return
        pos = self.mapToScene(event.position().toPoint())
        if self._drag_point is not None:
            self.pointDragged.emit(self._drag_point, pos.x(), pos.y())
            return
        if self._drag_cell is not None and event.buttons() & Qt.MouseButton.LeftButton:
            cell = self.track_scene.cell_at(pos)
            if cell is not None and cell != self._drag_cell:
                self._drag_cell = cell
                self.cellDragged.emit(cell[0], cell[1])
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._pan is not None:
            self._pan = None
            self.unsetCursor()
            return
        if self._drag_point is not None:
            self._drag_point = None
            self.pointReleased.emit()
            return
        if self._drag_cell is not None:
            self._drag_cell = None
            self.cellReleased.emit()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = True
            return
        if self.on_key is not None and self.on_key(event):
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = False
            return
        super().keyReleaseEvent(event)


def _dist_to_edge(p: QPointF, a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    ll = dx * dx + dy * dy
    f = 0.0 if ll == 0 else max(0.0, min(1.0, ((p.x() - a[0]) * dx + (p.y() - a[1]) * dy) / ll))
    return math.hypot(p.x() - a[0] - dx * f, p.y() - a[1] - dy * f)
