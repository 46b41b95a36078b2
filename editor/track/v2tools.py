"""The track/2 tools of the canvas and what they draw: corners, links, the pit lane and boxes.

`Track2Layers` draws corners (zone outline, stop flag, speed limits), links that differ from
the geometry (arrows), the pit lane (squares, boxes, entry and exit arrows) and board features on the track
scene, with the engine's geometry (TrackDrawing, place_pit) so that they sit where the SVG
puts them. `Track2Tools` turns mouse input into commands for the tools:

- corner: press on a segment, drag along the track, release: a corner over those segments;
- link: click a space, then another: add (or remove) the step between them;
- pit: click the entry space, then the exit space: a pit lane of the panel's length;
- box: click a pit square to place or remove a box;
- plain: click or drag to make spaces plain squares.

It watches the canvas viewport with an event filter, so the painting code is left alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QMouseEvent, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsSimpleTextItem

from slipstream.engine.editing import v2commands as v
from slipstream.engine.editing.commands import Command
from slipstream.engine.tracks.drawing import Point, TrackDrawing
from slipstream.engine.tracks.movegraph import geometry_successors
from slipstream.engine.tracks.overlays import ADDED_INK, BOX_INK, CORNER_INK, PIT_FILL, REMOVED_INK
from slipstream.engine.tracks.pitdrawing import PitPlacement, place_pit
from slipstream.engine.tracks.track import PIT_LANE, Space, Track

from .canvas import TrackScene, TrackView

TOOLS = (
    ("corner", "Corner", "Press on a segment and drag along the track: a corner over those segments"),
    ("link", "Link", "Click a space, then another: add or remove the move between them"),
    ("pit", "Pit lane", "Click the entry space, then the exit space: a pit lane of the Corners & pit dock's length"),
    ("box", "Box", "Click a pit square to place or remove a box"),
    ("plain", "Plain", "Click or drag to make spaces plain squares (rulesets without gear colours)"),
)
TOOL_KEYS = tuple(k for k, _, _ in TOOLS)
PENDING = QColor("#00e5ff")
_WATCHED = (QEvent.Type.MouseButtonPress, QEvent.Type.MouseMove, QEvent.Type.MouseButtonRelease,
            QEvent.Type.KeyPress)


def _poly(points: list[Point]) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in points])


def zone(d: TrackDrawing, first: float, end: float) -> list[Point]:
    """Outline of all lanes from segment `first` to `end` (as the SVG's corner zones)."""
    inner = d.band(0, first, end)
    outer = d.band(d.track.lanes - 1, first, end)
    k = len(inner) // 2
    return inner[:k] + outer[k:]


def space_centre(track: Track, d: TrackDrawing, name: str) -> Point | None:
    sp = track.space_named(name)
    if sp is None or sp.lane == PIT_LANE:
        return None
    return d.point(sp.lane, sp.first + sp.length / 2)


def _arrow(path: QPainterPath, a: Point, b: Point, head: float) -> None:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    path.moveTo(*a)
    path.lineTo(*b)
    for s in (-0.45, 0.45):
        path.moveTo(*b)
        path.lineTo(b[0] - head * math.cos(ang + s), b[1] - head * math.sin(ang + s))


class Track2Layers:
    """The canvas items of corners, links and the pit lane; redrawn from the track on change."""

    def __init__(self, scene: TrackScene) -> None:
        self.scene = scene
        self.items: list[QGraphicsItem] = []
        self.preview: list[QGraphicsItem] = []
        self.corner_paths: dict[int, QPainterPath] = {}
        self.link_items: list[QGraphicsPathItem] = []  # one arrow per link that changes the graph
        self.pit_items: dict[int, QGraphicsPathItem] = {}  # pit segment -> its square
        self.place: PitPlacement | None = None
        self._key: object = None

    def _add(self, item: QGraphicsItem, z: float, into: list[QGraphicsItem] | None = None) -> None:
        item.setZValue(z)
        self.scene.addItem(item)
        (self.items if into is None else into).append(item)

    def clear(self, items: list[QGraphicsItem]) -> None:
        for item in items:
            if item.scene() is self.scene:
                self.scene.removeItem(item)
        items.clear()

    def show(self, track: Track | None) -> None:
        d = self.scene.drawing
        key = None if track is None or d is None else (
            track.segments, track.lanes, track.geometry, track.corners, track.links, track.pit, track.features,
            track.cells)  # the cells, not the spaces: a recolour leaves these layers as they are
        if key == self._key and key is not None and self.items and self.items[0].scene() is self.scene:
            return
        self._key = key
        self.clear(self.items)
        self.corner_paths.clear()
        self.link_items.clear()
        self.pit_items.clear()
        self.place = None
        if track is None or d is None or track.version < 2:
            return
        font = QFont("DejaVu Sans")
        font.setPixelSize(max(7, round(d.lane_width * 0.32)))
        font.setBold(True)
        self._corners(track, d, font)
        self._links(track, d)
        self._pit(track, d, font)
        self._features(track, d)

    def _features(self, track: Track, d: TrackDrawing) -> None:
        """Board features (a pit wall): a thick dark outline on their spaces, as in the SVG."""
        path = QPainterPath()
        for f in track.features:
            for name in f.spaces:
                sp = track.space_named(name)
                if sp is None or (sp.lane == PIT_LANE and self.place is None):
                    continue
                poly = self.place.space_polygon(sp) if sp.lane == PIT_LANE and self.place else d.space_polygon(sp)
                path.addPolygon(_poly(poly))
                path.closeSubpath()
        if not path.isEmpty():
            item = QGraphicsPathItem(path)
            pen = QPen(QColor("#2b2b2b"), max(2.0, d.lane_width * 0.12))
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            item.setPen(pen)
            item.setToolTip(", ".join(sorted({f.kind for f in track.features})))
            self._add(item, 0.8)

    def _text(self, text: str, at: Point, font: QFont, ink: str, z: float) -> None:
        label = QGraphicsSimpleTextItem(text)
        label.setFont(font)
        label.setBrush(QColor(ink))
        r = label.boundingRect()
        label.setPos(at[0] - r.width() / 2, at[1] - r.height() / 2)
        self._add(label, z)

    def _corners(self, track: Track, d: TrackDrawing, font: QFont) -> None:
        from slipstream.engine.tracks.corners import speed_limit

        n = track.segments
        fill = QColor(CORNER_INK)
        fill.setAlphaF(0.12)
        r = d.lane_width * 0.3
        for c in track.corners:
            if not (0 <= c.first < n and 0 <= c.last < n):
                continue
            path = QPainterPath()
            path.addPolygon(_poly(zone(d, c.first, c.first + c.length(n))))
            path.closeSubpath()
            item = QGraphicsPathItem(path)
            pen = QPen(QColor(CORNER_INK), 3.0, Qt.PenStyle.DashLine if c.chicane else Qt.PenStyle.SolidLine)
            item.setPen(pen)
            item.setBrush(fill)
            item.setToolTip(c.name)
            self._add(item, 2.5)
            self.corner_paths[c.index] = path
            label = (f"{c.stops}" if c.stops is not None else "") + (" C" if c.chicane else "")
            if label.strip():
                fx, fy = d.point(-0.9, c.first + 0.5)
                flag = QPainterPath()
                flag.addRect(QRectF(fx - r * 1.2, fy - r * 1.2, r * 2.4, r * 2.4))
                box = QGraphicsPathItem(flag)
                box.setBrush(QColor(CORNER_INK))
                box.setPen(QPen(QColor("#ffffff"), 1.0))
                self._add(box, 2.6)
                self._text(label.strip(), (fx, fy), font, "#ffffff", 2.7)
            spots: list[tuple[Point, int]] = []
            for lane in range(track.lanes):
                value = speed_limit(track, lane, c.first)
                if track.space_at(lane, c.first) is not None and value is not None:
                    spots.append((d.point(lane, c.first + 0.5), value))
            for name, value in c.space_speeds:
                sp = track.space_named(name)
                if sp is not None and sp.first != c.first:
                    spots.append((d.point(sp.lane, sp.first + sp.length / 2), value))
            for at, value in spots:
                self._roundel(at, value, font, r)

    def _roundel(self, at: Point, value: int, font: QFont, r: float) -> None:
        """A speed-limit sign: the value in a red-ringed white disc."""
        ring = QPainterPath()
        ring.addEllipse(QPointF(*at), r * 1.15, r * 1.15)
        item = QGraphicsPathItem(ring)
        item.setBrush(QColor("#ffffff"))
        item.setPen(QPen(QColor(CORNER_INK), r * 0.3))
        self._add(item, 4.6)
        self._text(str(value), at, font, "#000000", 4.7)

    def _links(self, track: Track, d: TrackDrawing) -> None:
        geo = geometry_successors(track)
        width = max(2.0, d.lane_width * 0.06)
        for link in track.links:
            a, b = track.space_named(link.src), track.space_named(link.dst)
            pa, pb = space_centre(track, d, link.src), space_centre(track, d, link.dst)
            if a is None or b is None or pa is None or pb is None or (b.index in geo[a.index]) == link.add:
                continue
            path = QPainterPath()
            _arrow(path, pa, pb, width * 3.5)
            if not link.add:  # a cross on a removed step
                m, s = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2), width * 2
                path.moveTo(m[0] - s, m[1] - s)
                path.lineTo(m[0] + s, m[1] + s)
                path.moveTo(m[0] - s, m[1] + s)
                path.lineTo(m[0] + s, m[1] - s)
            item = QGraphicsPathItem(path)
            item.setPen(QPen(QColor(ADDED_INK if link.add else REMOVED_INK), width))
            item.setToolTip(f"{'add' if link.add else 'remove'} {link.src} → {link.dst}")
            self._add(item, 4.5)
            self.link_items.append(item)

    def _pit(self, track: Track, d: TrackDrawing, font: QFont) -> None:
        place = place_pit(d)
        pit = track.pit
        if place is None or pit is None:
            return
        self.place = place
        boxes = {b: k for k, b in enumerate(pit.boxes)}
        pen = QPen(QColor("#111111"), 1.0)
        for sp in pit.spaces:
            for s in sp.segments():
                part = Space(sp.index, PIT_LANE, s, 1, sp.colour)
                path = QPainterPath()
                path.addPolygon(_poly(place.space_polygon(part)))
                path.closeSubpath()
                item = QGraphicsPathItem(path)
                item.setBrush(QColor(PIT_FILL))
                item.setPen(pen)
                item.setToolTip(f"pit:{s}")
                self._add(item, 0.5)
                self.pit_items[s] = item
                if s in boxes:
                    c = place.point(s + 0.5)
                    ring = QPainterPath()
                    ring.addEllipse(QPointF(*c), d.lane_width * 0.28, d.lane_width * 0.28)
                    dot = QGraphicsPathItem(ring)
                    dot.setBrush(QColor(BOX_INK))
                    dot.setPen(Qt.PenStyle.NoPen)
                    self._add(dot, 0.6)
                    self._text(str(boxes[s] + 1), c, font, "#ffffff", 0.7)
        width = max(2.0, d.lane_width * 0.07)
        for e in pit.entries:
            a = space_centre(track, d, e.cell)
            if a is not None and pit.space_at(e.to) is not None:
                self._pit_arrow(a, place.point(e.to + 0.5), e.main, width)
                if e.speed is not None:
                    self._roundel(a, e.speed, font, d.lane_width * 0.3)
        for x in pit.exits:
            b = space_centre(track, d, x.cell)
            if b is not None and pit.space_at(x.source) is not None:
                self._pit_arrow(place.point(x.source + 0.5), b, x.main, width)

    def _pit_arrow(self, a: Point, b: Point, main: bool, width: float) -> None:
        path = QPainterPath()
        _arrow(path, a, b, width * 3.5)
        item = QGraphicsPathItem(path)
        item.setPen(QPen(QColor("#f2a900" if main else "#777777"), width,
                         Qt.PenStyle.SolidLine if main else Qt.PenStyle.DashLine))
        self._add(item, 4.4)

    def pit_square_at(self, pos: QPointF) -> int | None:
        """The pit square under a scene position, or None."""
        for s, item in self.pit_items.items():
            if item.path().contains(pos):
                return s
        return None

    # --- previews while a tool is in use ----------------------------------------------------
    def show_preview(self, track: Track | None, first: int | None = None, last: int | None = None,
                     pending: Space | None = None) -> None:
        self.clear(self.preview)
        d = self.scene.drawing
        if track is None or d is None:
            return
        pen = QPen(PENDING, 3.0, Qt.PenStyle.DashLine)
        fill = QColor(PENDING)
        fill.setAlphaF(0.2)
        if first is not None and last is not None:
            n = track.segments
            path = QPainterPath()
            path.addPolygon(_poly(zone(d, first, first + (last - first) % n + 1)))
            path.closeSubpath()
            item = QGraphicsPathItem(path)
            item.setPen(pen)
            item.setBrush(fill)
            self._add(item, 3.5, self.preview)
        if pending is not None:
            path = QPainterPath()
            path.addPolygon(_poly(d.space_polygon(pending)))
            path.closeSubpath()
            item = QGraphicsPathItem(path)
            item.setPen(QPen(PENDING, 4.0))
            item.setBrush(QBrush(fill))
            self._add(item, 3.5, self.preview)


def corner_range(a: int, b: int, n: int) -> tuple[int, int]:
    """The corner a drag from segment `a` to `b` marks: forwards, or backwards when shorter."""
    return (a, b) if (b - a) % n <= n // 2 else (b, a)


class Track2Tools(QObject):
    """Mouse input of the track/2 tools on the canvas, turned into commands."""

    def __init__(self, view: TrackView, layers: Track2Layers, push: Callable[[Command], None],
                 track: Callable[[], Track | None], pit_length: Callable[[], int],
                 corner_picked: Callable[[int], None], seal: Callable[[], None],
                 status: Callable[[str], None] | None = None) -> None:
        super().__init__(view)
        self.view, self.layers, self.push, self.track = view, layers, push, track
        self.pit_length, self.corner_picked, self.seal = pit_length, corner_picked, seal
        self.status = status or (lambda _text: None)
        self.anchor: int | None = None  # corner drag: the segment pressed
        self.drag_to: int | None = None
        self.pending: Space | None = None  # link / pit: the first space clicked
        self.last_plain: tuple[int, int] | None = None
        self.viewport = view.viewport()
        self.viewport.installEventFilter(self)
        view.installEventFilter(self)  # Escape drops a half-made link or pit lane

    def active(self) -> bool:
        return self.view.tool in TOOL_KEYS

    def reset(self) -> None:
        self.anchor = self.drag_to = self.pending = self.last_plain = None
        self.layers.show_preview(None)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() not in _WATCHED:  # first: the view may be on its way out
            return False
        if event.type() == QEvent.Type.KeyPress and self.pending is not None:
            if event.key() == Qt.Key.Key_Escape:  # type: ignore[attr-defined]
                self.reset()
                self.status("")
                return True
            return False
        if event.type() == QEvent.Type.KeyPress or obj is not self.viewport or not self.active():
            return False
        assert isinstance(event, QMouseEvent)
        if event.type() == QEvent.Type.MouseButtonPress and event.button() != Qt.MouseButton.LeftButton:
            return False  # middle-button pan stays the view's
        pos = self.view.mapToScene(event.position().toPoint())
        if event.type() == QEvent.Type.MouseButtonPress:
            self.view.setFocus(Qt.FocusReason.MouseFocusReason)
            return self.press(pos)
        if event.type() == QEvent.Type.MouseMove:
            if not event.buttons() & Qt.MouseButton.LeftButton:
                return False
            return self.move(pos)
        return self.release(pos)

    def _cell(self, pos: QPointF) -> tuple[int, int] | None:
        return self.view.track_scene.cell_at(pos)

    def press(self, pos: QPointF) -> bool:
        track = self.track()
        tool = self.view.tool
        if track is None:
            return True
        if tool == "box":
            s = self.layers.pit_square_at(pos)
            if s is not None:
                self.push(v.ToggleBox(s))
            return True
        cell = self._cell(pos)
        if cell is None:
            self.reset()
            return True
        lane, seg = cell
        if tool == "corner":
            self.anchor = self.drag_to = seg
            self.layers.show_preview(track, seg, seg)
        elif tool == "plain":
            self.last_plain = cell
            self.push(v.PaintPlain(lane, seg))
        elif tool in ("link", "pit"):
            sp = track.space_at(lane, seg)
            if sp is None:
                return True
            if self.pending is None:
                self.pending = sp
                self.layers.show_preview(track, pending=sp)
                what = "the space the link leads to" if tool == "link" else "the space the pit lane rejoins"
                self.status(f"{sp.name} chosen: click {what} (Escape cancels)")
            else:
                self.status("")
                first, self.pending = self.pending, None
                self.layers.show_preview(track)
                if tool == "link":
                    self.push(v.ToggleLink(first.name, sp.name))
                else:
                    self.push(v.DrawPit(first.name, max(1, self.pit_length()), sp.name))
        return True

    def move(self, pos: QPointF) -> bool:
        cell = self._cell(pos)
        track = self.track()
        if cell is None or track is None:
            return True
        if self.view.tool == "corner" and self.anchor is not None and cell[1] != self.drag_to:
            self.drag_to = cell[1]
            self.layers.show_preview(track, *corner_range(self.anchor, cell[1], track.segments))
        elif self.view.tool == "plain" and self.last_plain is not None and cell != self.last_plain:
            self.last_plain = cell
            self.push(v.PaintPlain(*cell))
        return True

    def release(self, pos: QPointF) -> bool:
        track = self.track()
        if self.view.tool == "corner" and self.anchor is not None and track is not None:
            a, b = self.anchor, self.drag_to if self.drag_to is not None else self.anchor
            self.anchor = self.drag_to = None
            self.layers.show_preview(track)
            existing = next((c.index for c in track.corners if c.contains(a, track.segments)), None)
            if a == b and existing is not None:
                self.corner_picked(existing)  # a click on a corner picks it in the dock
            else:
                first, last = corner_range(a, b, track.segments)
                self.push(v.MarkCorner(first, last))
                after = self.track()
                if after is not None:
                    idx = next((c.index for c in after.corners if (c.first, c.last) == (first, last)), None)
                    if idx is not None:
                        self.corner_picked(idx)
        if self.view.tool == "plain":
            self.last_plain = None
            self.seal()  # a drag of plain paint is one step
        return True
