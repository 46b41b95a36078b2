"""Heat maps keyed by corner or space (`Ruleset.heat`, engine/play/protocol.py): coloured zones
over a track drawing with their values, a colour legend, and the pane of the batch report that
picks a map and can lay it over the editor's track canvas.

A map is {key: value} with keys `corner:INDEX` (the corner's zone, every lane) or
`space:LANE:SEGMENT` (one space, by its name); keys the track does not have are left out.
Nothing here names a ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGraphicsItem,
    QGraphicsPixmapItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from slipstream.engine.tracks.drawing import Point, TrackDrawing
from slipstream.engine.tracks.track import PIT_LANE, Track

from ..track.canvas import BACKGROUND, band

# white -> yellow -> orange -> red -> dark red: readable on grey track colours (heat maps and the batch report)
SCALE = ("#fffde0", "#ffe066", "#ffa533", "#f0502a", "#a8001a")
TRACK_FILL = QColor("#c3c7cd")
Z_HEAT = 10.0  # above the track's own items, below race cars and targets


def colour_at(f: float) -> QColor:
    f = max(0.0, min(1.0, f))
    pos = f * (len(SCALE) - 1)
    i = min(int(pos), len(SCALE) - 2)
    a, b = QColor(SCALE[i]), QColor(SCALE[i + 1])
    t = pos - i
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t, a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t)


def zone(d: TrackDrawing, track: Track, key: str) -> tuple[list[Point], Point, str] | None:
    """The outline, the label point and the name of what `key` names on `track` (None: nothing)."""
    kind, _, rest = key.partition(":")
    n = track.segments
    if kind == "corner":
        try:
            i = int(rest)
        except ValueError:
            return None
        c = next((c for c in track.corners if c.index == i), None)
        if c is None or not (0 <= c.first < n):
            return None
        end = c.first + c.length(n)
        inner = band(d, 0, c.first, end)
        outer = band(d, track.lanes - 1, c.first, end)
        k = len(inner) // 2
        mid = d.point((track.lanes - 1) / 2, c.first + c.length(n) / 2)
        return inner[:k] + outer[k:], mid, c.name or f"corner {i + 1}"
    if kind == "space":
        sp = track.space_named(rest)
        if sp is None:
            return None
        return (band(d, sp.lane, sp.first, sp.first + sp.length),
                d.point(sp.lane, sp.first + sp.length / 2), f"space {sp.name}")
    return None


def value_text(v: float) -> str:
    """A map value as written on its zone: two decimals below 1, one from 1 on."""
    return f"{v:.2f}" if abs(v) < 1 else f"{v:.1f}"


class HeatOverlay:
    """The zones of one map on a scene (the report's own view or the editor's track canvas)."""

    def __init__(self, scene: QGraphicsScene) -> None:
        self.scene = scene
        self.items: list[Any] = []
        self.shown: dict[str, float] = {}  # key -> value of the zones drawn now

    def clear(self) -> None:
        for item in self.items:
            if item.scene() is self.scene:
                self.scene.removeItem(item)
        self.items = []
        self.shown = {}

    def show(self, track: Track, d: TrackDrawing, values: Mapping[str, float], title: str = "") -> float:
        """Draw every zone of `values` coloured by value (0 palest, the largest darkest) with its
        value written on it and a corner's name above its value; with `title` (what the map
        counts, with its unit), a legend too: the colour scale from 0 to the largest value.
        Returns the largest value."""
        self.clear()
        top = max([float(v) for v in values.values()] + [0.0])
        font = QFont("DejaVu Sans")
        font.setPixelSize(max(8, round(d.lane_width * 0.55)))
        font.setBold(True)
        small = QFont("DejaVu Sans")
        small.setPixelSize(max(7, round(d.lane_width * 0.4)))
        for key, v in values.items():
            z = zone(d, track, key)
            if z is None:
                continue
            outline, mid, name = z
            fill = colour_at(float(v) / top if top > 0 else 0.0)
            fill.setAlphaF(0.85)
            poly = self.scene.addPolygon(QPolygonF([QPointF(x, y) for x, y in outline]),
                                         QPen(QColor("#5a0010"), 2.0), QBrush(fill))
            poly.setZValue(Z_HEAT)
            poly.setToolTip(f"{name}: {float(v):.3g}")
            label = QGraphicsSimpleTextItem(value_text(float(v)))
            label.setFont(font)
            label.setBrush(QColor("#ffffff" if top > 0 and v / top > 0.6 else "#111111"))
            r = label.boundingRect()
            label.setPos(mid[0] - r.width() / 2, mid[1] - r.height() / 2)
            label.setZValue(Z_HEAT + 0.1)
            self.scene.addItem(label)
            self.items += [poly, label]
            if key.startswith("corner:"):
                tag = QGraphicsSimpleTextItem(name)
                tag.setFont(small)
                tag.setBrush(label.brush())
                t = tag.boundingRect()
                tag.setPos(mid[0] - t.width() / 2, mid[1] - r.height() / 2 - t.height())
                tag.setZValue(Z_HEAT + 0.1)
                self.scene.addItem(tag)
                self.items.append(tag)
            self.shown[key] = float(v)
        if title:
            self._legend(d, title, top)
        return top

    def _legend(self, d: TrackDrawing, title: str, top: float) -> None:
        """The colour scale at the top left of the track, at screen size whatever the zoom: what
        the map counts (its title, with its unit) and the values its ends stand for."""
        x0, y0, _x1, _y1 = d.bounds
        bar = QGraphicsPixmapItem(legend_pixmap(top, 200, 12))
        bar.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        text = QGraphicsSimpleTextItem(f"{title}\n0 … {top:.3g} (pale … dark red)")
        font = QFont("DejaVu Sans")
        font.setPixelSize(12)
        text.setFont(font)
        text.setBrush(QColor("#ffffff"))
        text.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        back = QGraphicsRectItem(QRectF(-6, -4, max(212, text.boundingRect().width() + 12),
                                        text.boundingRect().height() + 24))
        back.setBrush(QColor(0, 0, 0, 170))
        back.setPen(QPen(Qt.PenStyle.NoPen))
        back.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        m = d.lane_width
        for item in (back, text, bar):
            item.setPos(x0 - m, y0 - m)
            item.setZValue(Z_HEAT + 0.2)
            self.scene.addItem(item)
            self.items.append(item)
        bar.setOffset(0, text.boundingRect().height() + 4)


def track_scene(track: Track) -> tuple[QGraphicsScene, TrackDrawing]:
    """A plain scene of the track (spaces in one grey, the finish line) to lay a map over."""
    d = TrackDrawing(track)
    scene = QGraphicsScene()
    scene.setBackgroundBrush(BACKGROUND)
    pen = QPen(QColor("#555a60"), 0.8)
    for sp in track.spaces:
        if sp.lane == PIT_LANE:
            continue  # the pit lane is not drawn here
        scene.addPolygon(QPolygonF([QPointF(x, y) for x, y in band(d, sp.lane, sp.first, sp.first + sp.length)]),
                         pen, QBrush(TRACK_FILL))
    a, b = d.cross_line(0)
    scene.addLine(a[0], a[1], b[0], b[1], QPen(QColor("#000000"), 4.0))
    x0, y0, x1, y1 = d.bounds
    m = d.lane_width
    scene.setSceneRect(QRectF(x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m))
    return scene, d


def map_image(track: Track, values: Mapping[str, float], title: str, width: int = 900) -> QImage:
    """One map with its title and legend, as an image (the report's HTML export)."""
    scene, d = track_scene(track)
    top = HeatOverlay(scene).show(track, d, values)
    img, p = titled_image(scene, title, width)
    p.drawPixmap(10, 26, legend_pixmap(top, 220))
    p.drawText(QRectF(240, 22, 400, 20), Qt.AlignmentFlag.AlignLeft, f"0 … {top:.3g}")
    p.end()
    return img


def titled_image(scene: Any, title: str, width: int) -> tuple[QImage, QPainter]:
    """The scene drawn `width` wide under a 46-pixel band with `title` in it; the painter is
    left open for the caller's legend (it ends it)."""
    r = scene.sceneRect()
    h = round(width * r.height() / r.width())
    legend = 46
    img = QImage(width, h + legend, QImage.Format.Format_ARGB32)
    img.fill(BACKGROUND)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.render(p, QRectF(0, legend, width, h), r)
    font = QFont("DejaVu Sans")
    font.setPixelSize(14)
    p.setFont(font)
    p.setPen(QColor("#ffffff"))
    p.drawText(QRectF(10, 4, width - 20, 20), Qt.AlignmentFlag.AlignLeft, title)
    return img, p


def legend_pixmap(top: float, width: int = 200, height: int = 12) -> QPixmap:
    img = QImage(width, height, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    for k in range(width):
        p.fillRect(QRectF(k, 0, 1.2, height), colour_at(k / (width - 1)))
    p.setPen(QColor("#333333"))
    p.drawRect(0, 0, width - 1, height - 1)
    p.end()
    return QPixmap.fromImage(img)


class MapPane(QWidget):
    """The batch report's maps by corner or space: a choice of map, the track with the map's
    zones, a legend; optionally the same map on the editor's track canvas."""

    def __init__(self) -> None:
        super().__init__()
        self.maps: dict[str, dict[str, float]] = {}
        self.track: Track | None = None
        self.box = QComboBox()
        self.box.setObjectName("report-corner-map")
        self.box.currentIndexChanged.connect(lambda _i: self._draw())
        self.view = QGraphicsView()
        self.view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.view.setMinimumSize(360, 260)
        self.overlay: HeatOverlay | None = None
        self.bar = QLabel()
        self.legend = QLabel()
        self.legend.setWordWrap(True)
        self.on_canvas = QCheckBox("Show on the track canvas")
        self.on_canvas.setObjectName("report-map-on-canvas")
        self.on_canvas.toggled.connect(lambda _on: self._draw_canvas())
        # the editor's track canvas (a TrackScene with `track` and `drawing`), set by the dock
        self.canvas_scene: Any = None
        self.canvas_overlay: HeatOverlay | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(QLabel("Map:"))
        row.addWidget(self.box, 1)
        row.addWidget(self.on_canvas)
        lay.addLayout(row)
        lay.addWidget(self.view, 1)
        leg = QHBoxLayout()
        leg.addWidget(self.bar)
        leg.addWidget(self.legend, 1)
        lay.addLayout(leg)
        self._scene: QGraphicsScene | None = None

    def show_maps(self, track: Track, maps: Mapping[str, Mapping[str, float]]) -> None:
        """Offer these maps for `track` (hidden when there are none)."""
        self.track = track
        self.maps = {k: dict(v) for k, v in maps.items()}
        current = self.box.currentText()
        self.box.blockSignals(True)
        self.box.clear()
        for title in self.maps:
            self.box.addItem(title)
        if current in self.maps:
            self.box.setCurrentText(current)
        self.box.blockSignals(False)
        self.setVisible(bool(self.maps))
        self._scene = None
        self._draw()

    def current(self) -> dict[str, float]:
        return self.maps.get(self.box.currentText(), {})

    def _draw(self) -> None:
        if self.track is None or not self.maps:
            self.view.setScene(None)
            self._clear_canvas()
            return
        if self._scene is None:
            self._scene, self._drawing = track_scene(self.track)
            self.overlay = HeatOverlay(self._scene)
        assert self.overlay is not None
        top = self.overlay.show(self.track, self._drawing, self.current())
        self.view.setScene(self._scene)
        self.view.fitInView(self._scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        self.bar.setPixmap(legend_pixmap(top))
        self.legend.setText(f"{self.box.currentText()}: pale = 0, dark red = {top:.3g}")
        self._draw_canvas()

    def _clear_canvas(self) -> None:
        if self.canvas_overlay is not None:
            self.canvas_overlay.clear()

    def _draw_canvas(self) -> None:
        """The chosen map on the editor's track canvas while the box is ticked."""
        sc = self.canvas_scene
        if sc is None:
            return
        if self.canvas_overlay is None or self.canvas_overlay.scene is not sc:
            self.canvas_overlay = HeatOverlay(sc)
        if not self.on_canvas.isChecked() or not self.maps or sc.track is None or sc.drawing is None:
            self.canvas_overlay.clear()
            return
        self.canvas_overlay.show(sc.track, sc.drawing, self.current(), self.box.currentText())

    def resizeEvent(self, event) -> None:  # noqa: ANN001, N802 - Qt API
        super().resizeEvent(event)
        if self._scene is not None and self.view.scene() is not None:
            self.view.fitInView(self._scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
