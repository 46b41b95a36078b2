"""A printable PDF of a track at a chosen scale, tiled over A4 or Letter pages.

The track is the SVG of engine/tracks/render.py, so print, canvas and SVG agree. Neighbouring pages
overlap; the overlap band is marked with dashed lines and the same registration crosses appear
on both pages, so the sheets can be laid over each other and taped for play-testing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QByteArray, QMarginsF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen
from PySide6.QtSvg import QSvgRenderer

from slipstream.engine.tracks.drawing import TrackDrawing
from slipstream.engine.tracks.render import track_svg
from slipstream.engine.tracks.track import Track

PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN_MM = 10.0


@dataclass(frozen=True, slots=True)
class PrintPlan:
    """How the picture is cut into pages (all sizes in millimetres)."""

    paper: str
    landscape: bool
    mm_per_lane: float
    overlap: float
    picture: QRectF  # the SVG viewBox, drawing units
    units_per_mm: float
    cols: int
    rows: int
    tiles: tuple[tuple[int, int], ...] = ()  # (row, col) of the pages that show some track

    @property
    def page_size(self) -> tuple[float, float]:
        w, h = PAPERS[self.paper]
        return (h, w) if self.landscape else (w, h)

    @property
    def printable(self) -> tuple[float, float]:
        w, h = self.page_size
        return w - 2 * MARGIN_MM, h - 2 * MARGIN_MM

    @property
    def step(self) -> tuple[float, float]:
        w, h = self.printable
        return w - self.overlap, h - self.overlap

    @property
    def pages(self) -> int:
        return len(self.tiles)

    def page_number(self, row: int, col: int) -> int:
        return self.tiles.index((row, col)) + 1 if (row, col) in self.tiles else 0

    def tile(self, row: int, col: int) -> QRectF:
        """The part of the picture on one page, in drawing units."""
        sx, sy = self.step
        w, h = self.printable
        u = self.units_per_mm
        return QRectF(self.picture.x() + col * sx * u, self.picture.y() + row * sy * u, w * u, h * u)


def plan(track: Track, renderer: QSvgRenderer, paper: str = "A4", mm_per_lane: float = 30.0,
         overlap: float = 12.0, landscape: bool | None = None) -> PrintPlan:
    """Choose the tiling; with landscape=None the orientation that needs fewer pages wins."""
    box = renderer.viewBoxF()
    lane_width = TrackDrawing(track).lane_width  # the width drawn (the default for a geometry it cannot draw)
    upm = lane_width / mm_per_lane
    width_mm, height_mm = box.width() / upm, box.height() / upm

    boxes = _space_boxes(track)

    def make(land: bool) -> PrintPlan:
        p = PrintPlan(paper, land, mm_per_lane, overlap, box, upm, 1, 1)
        sx, sy = p.step
        pw, ph = p.printable
        cols = max(1, math.ceil((width_mm - pw) / sx) + 1 if width_mm > pw else 1)
        rows = max(1, math.ceil((height_mm - ph) / sy) + 1 if height_mm > ph else 1)
        p = PrintPlan(paper, land, mm_per_lane, overlap, box, upm, cols, rows)
        # pages that would show only verge are left out
        tiles = tuple((r, c) for r in range(rows) for c in range(cols)
                      if any(p.tile(r, c).intersects(b) for b in boxes))
        return PrintPlan(paper, land, mm_per_lane, overlap, box, upm, cols, rows, tiles)

    if landscape is not None:
        return make(landscape)
    a, b = make(False), make(True)
    return a if a.pages <= b.pages else b


def _space_boxes(track: Track) -> list[QRectF]:
    from slipstream.engine.tracks.pitdrawing import place_pit

    d = TrackDrawing(track)
    polys = [d.space_polygon(sp) for sp in track.spaces]
    pit = place_pit(d)  # track/2: the pit lane is printed too
    if pit is not None:
        polys += [pit.space_polygon(sp) for sp in pit.pit.spaces]
    out = []
    for poly in polys:
        xs, ys = [p[0] for p in poly], [p[1] for p in poly]
        out.append(QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
    return out


def paint_page(painter: QPainter, renderer: QSvgRenderer, p: PrintPlan, row: int, col: int,
               px_per_mm: float, title: str) -> None:
    """Draw one page; the painter's origin is the page's top-left corner."""
    pw, ph = p.printable
    m = MARGIN_MM * px_per_mm
    target = QRectF(m, m, pw * px_per_mm, ph * px_per_mm)
    painter.save()
    painter.setClipRect(target)
    renderer.setViewBox(p.tile(row, col))
    renderer.render(painter, target)
    painter.restore()
    renderer.setViewBox(p.picture)
    # overlap bands: what the neighbour page repeats
    ov = p.overlap * px_per_mm
    dash = QPen(QColor("#d0006f"), max(1.0, 0.3 * px_per_mm), Qt.PenStyle.DashLine)
    painter.setPen(dash)
    if col + 1 < p.cols:
        x = target.right() - ov
        painter.drawLine(QPointF(x, target.top()), QPointF(x, target.bottom()))
    if col > 0:
        x = target.left() + ov
        painter.drawLine(QPointF(x, target.top()), QPointF(x, target.bottom()))
    if row + 1 < p.rows:
        y = target.bottom() - ov
        painter.drawLine(QPointF(target.left(), y), QPointF(target.right(), y))
    if row > 0:
        y = target.top() + ov
        painter.drawLine(QPointF(target.left(), y), QPointF(target.right(), y))
    # registration crosses in the middle of every overlap band, at fixed picture positions
    solid = QPen(QColor("#d0006f"), max(1.0, 0.25 * px_per_mm))
    painter.setPen(solid)
    sx, sy = p.step
    arm = 4 * px_per_mm
    xs = [target.left() + (k * sx - col * sx + p.printable[0] - p.overlap / 2) * px_per_mm
          for k in range(p.cols - 1)]
    ys = [target.top() + (k * sy - row * sy + p.printable[1] - p.overlap / 2) * px_per_mm
          for k in range(p.rows - 1)]
    for x in xs:
        for y in [target.top() + ph * px_per_mm * f for f in (0.25, 0.5, 0.75)] + ys:
            if target.contains(QPointF(x, y)):
                _cross(painter, x, y, arm)
    for y in ys:
        for x in [target.left() + pw * px_per_mm * f for f in (0.25, 0.5, 0.75)]:
            if target.contains(QPointF(x, y)):
                _cross(painter, x, y, arm)
    # border and label
    painter.setPen(QPen(QColor("#888888"), max(1.0, 0.2 * px_per_mm)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(target)
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(6, round(3.2 * px_per_mm)))
    painter.setFont(font)
    painter.setPen(QColor("#333333"))
    label = (f"{title} · row {row + 1} of {p.rows}, column {col + 1} of {p.cols} · "
             f"page {p.page_number(row, col)} of {p.pages} · {p.mm_per_lane:g} mm per lane · "
             f"overlap {p.overlap:g} mm (dashed)")
    painter.drawText(QPointF(m, m - 2.5 * px_per_mm), label)
    # a 5 cm scale bar to check the printer kept the scale
    y = target.bottom() + 5 * px_per_mm
    painter.setPen(QPen(QColor("#333333"), max(1.0, 0.4 * px_per_mm)))
    painter.drawLine(QPointF(m, y), QPointF(m + 50 * px_per_mm, y))
    painter.drawText(QPointF(m + 52 * px_per_mm, y + 1.2 * px_per_mm), "50 mm")


def _cross(painter: QPainter, x: float, y: float, arm: float) -> None:
    painter.drawLine(QPointF(x - arm, y), QPointF(x + arm, y))
    painter.drawLine(QPointF(x, y - arm), QPointF(x, y + arm))
    painter.drawEllipse(QPointF(x, y), arm * 0.5, arm * 0.5)


def _renderer(track: Track) -> QSvgRenderer:
    svg = track_svg(track, title=False, margin=10.0)
    # on paper: no green verge (ink), and segment numbers in dark grey instead of white
    svg = svg.replace('fill="#3f7d3a"', 'fill="#ffffff"', 1)
    svg = re.sub(r'(<g id="labels"[^>]*?)fill="#fff"', r'\1fill="#555555"', svg, count=1)
    return QSvgRenderer(QByteArray(svg.encode("utf-8")))


def export_pdf(track: Track, path: str | Path, paper: str = "A4", mm_per_lane: float = 30.0,
               overlap: float = 12.0, landscape: bool | None = None) -> PrintPlan:
    """Write the tiled PDF; returns the plan (pages, orientation)."""
    renderer = _renderer(track)
    p = plan(track, renderer, paper, mm_per_lane, overlap, landscape)
    tmp = Path(path).with_name(f".{Path(path).name}.tmp")
    writer = QPdfWriter(str(tmp))
    writer.setResolution(300)
    w, h = PAPERS[paper]
    writer.setPageLayout(QPageLayout(
        QPageSize(QSizeF(w, h), QPageSize.Unit.Millimeter, paper),
        QPageLayout.Orientation.Landscape if p.landscape else QPageLayout.Orientation.Portrait,
        QMarginsF(0, 0, 0, 0),
    ))
    writer.setTitle(f"{track.name} (Slipstream print)")
    painter = QPainter(writer)
    px_per_mm = 300 / 25.4
    try:
        for k, (r, c) in enumerate(p.tiles):
            if k:
                writer.newPage()
            paint_page(painter, renderer, p, r, c, px_per_mm, track.name)
    finally:
        painter.end()
    tmp.replace(path)
    return p


def page_image(track: Track, row: int = 0, col: int = 0, dpi: float = 60.0, paper: str = "A4",
               mm_per_lane: float = 30.0, overlap: float = 12.0,
               landscape: bool | None = None) -> QImage:
    """One page as an image, drawn by the same code as the PDF (for previews and tests)."""
    renderer = _renderer(track)
    p = plan(track, renderer, paper, mm_per_lane, overlap, landscape)
    px_per_mm = dpi / 25.4
    w, h = p.page_size
    image = QImage(round(w * px_per_mm), round(h * px_per_mm), QImage.Format.Format_RGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    paint_page(painter, renderer, p, row, col, px_per_mm, track.name)
    painter.end()
    return image
