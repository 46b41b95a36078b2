"""A printable PDF of a track at a chosen scale, tiled over A4 or Letter pages.

The track is the SVG of engine/tracks/render.py, so print, canvas and SVG agree. Neighbouring pages
overlap; the overlap band is marked with dashed lines and the same registration crosses appear
on both pages, so the sheets can be laid over each other and taped for play-testing. A page
draws only the parts of the SVG whose boxes reach it (`Picture`), so a long track costs about
one drawing of its spaces in all, not one per page.
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
from slipstream.engine.tracks.render import Box, svg_pieces
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


class Picture:
    """The print SVG of a track as pieces with boxes (engine/tracks/render.py `svg_pieces`):
    renderers of the whole picture or of the pieces that reach one page."""

    PAD = 6.0  # drawing units a stroke or highlight may reach beyond a piece's box

    def __init__(self, track: Track) -> None:
        from slipstream.engine.tracks.pitdrawing import place_pit

        pieces = svg_pieces(track, title=False, margin=10.0)
        # on paper: no green verge (ink), and segment numbers in dark grey instead of white
        self.pieces = [(p.box, _paper(p.text) if p.box is None else p.text) for p in pieces]
        self.space_boxes: list[Box] = [p.box for p in pieces if p.kind == "space" and p.box is not None]
        pit = place_pit(TrackDrawing(track))  # track/2: the pit lane is printed too
        if pit is not None:
            self.space_boxes += [_poly_box(pit.space_polygon(sp)) for sp in pit.pit.spaces]
        self.everywhere = [i for i, (b, _) in enumerate(self.pieces) if b is None]
        # the root element's viewBox, read without parsing the whole picture
        head = QSvgRenderer(QByteArray((self.pieces[0][1] + "</svg>").encode("utf-8")))
        self.box = head.viewBoxF()

    def renderer(self, rect: QRectF | None = None) -> QSvgRenderer:
        """A renderer of the pieces that reach `rect` (None: the whole picture)."""
        if rect is None:
            return QSvgRenderer(QByteArray("\n".join(t for _, t in self.pieces).encode("utf-8")))
        x0, y0, x1, y1 = rect.left() - self.PAD, rect.top() - self.PAD, rect.right() + self.PAD, rect.bottom() + self.PAD
        return self._render([i for i, (b, _) in enumerate(self.pieces)
                             if b is None or (b[0] <= x1 and b[2] >= x0 and b[1] <= y1 and b[3] >= y0)])

    def by_tile(self, p: PrintPlan) -> dict[tuple[int, int], list[int]]:
        """For every tile of `p`, the pieces with a box that may reach it (each piece looks
        only at the few tiles around it)."""
        out: dict[tuple[int, int], list[int]] = {}
        for i, (b, _) in enumerate(self.pieces):
            if b is None:
                continue
            r_lo, r_hi, c_lo, c_hi = _tile_range(p, (b[0] - self.PAD, b[1] - self.PAD, b[2] + self.PAD, b[3] + self.PAD))
            for r in range(r_lo, r_hi + 1):
                for c in range(c_lo, c_hi + 1):
                    out.setdefault((r, c), []).append(i)
        return out

    def page_renderer(self, tiles: dict[tuple[int, int], list[int]], row: int, col: int) -> QSvgRenderer:
        """The renderer of one page from `by_tile`: the pieces without a box and those of the tile."""
        return self._render(sorted(self.everywhere + tiles.get((row, col), [])))

    def _render(self, keep: list[int]) -> QSvgRenderer:
        return QSvgRenderer(QByteArray("\n".join(self.pieces[i][1] for i in keep).encode("utf-8")))


def plan(track: Track, picture: Picture | QSvgRenderer, paper: str = "A4", mm_per_lane: float = 30.0,
         overlap: float = 12.0, landscape: bool | None = None) -> PrintPlan:
    """Choose the tiling; with landscape=None the orientation that needs fewer pages wins."""
    box = picture.box if isinstance(picture, Picture) else picture.viewBoxF()
    lane_width = TrackDrawing(track).lane_width  # the width drawn (the default for a geometry it cannot draw)
    upm = lane_width / mm_per_lane
    width_mm, height_mm = box.width() / upm, box.height() / upm

    boxes = picture.space_boxes if isinstance(picture, Picture) else _space_boxes(track)

    def make(land: bool) -> PrintPlan:
        p = PrintPlan(paper, land, mm_per_lane, overlap, box, upm, 1, 1)
        sx, sy = p.step
        pw, ph = p.printable
        cols = max(1, math.ceil((width_mm - pw) / sx) + 1 if width_mm > pw else 1)
        rows = max(1, math.ceil((height_mm - ph) / sy) + 1 if height_mm > ph else 1)
        p = PrintPlan(paper, land, mm_per_lane, overlap, box, upm, cols, rows)
        # pages that would show only verge are left out
        return PrintPlan(paper, land, mm_per_lane, overlap, box, upm, cols, rows, _tiles_reached(p, boxes))

    if landscape is not None:
        return make(landscape)
    a, b = make(False), make(True)
    return a if a.pages <= b.pages else b


def _tiles_reached(p: PrintPlan, boxes: list[Box]) -> tuple[tuple[int, int], ...]:
    """(row, col) of the tiles that some box reaches, in page order: each box looks only at the
    few tiles around it (tile k starts at k steps and is a printable width wide)."""
    hit: set[tuple[int, int]] = set()
    for box in boxes:
        r_lo, r_hi, c_lo, c_hi = _tile_range(p, box)
        x0, y0, x1, y1 = box
        rect = QRectF(x0, y0, x1 - x0, y1 - y0)
        for r in range(r_lo, r_hi + 1):
            for c in range(c_lo, c_hi + 1):
                if (r, c) not in hit and p.tile(r, c).intersects(rect):
                    hit.add((r, c))
    return tuple(sorted(hit))


def _tile_range(p: PrintPlan, box: Box) -> tuple[int, int, int, int]:
    """First and last row, first and last column of the tiles `box` may reach (tile k starts
    k steps from the picture's corner and is one printable width or height long)."""
    sx, sy = (v * p.units_per_mm for v in p.step)
    pw, ph = (v * p.units_per_mm for v in p.printable)
    ox, oy = p.picture.x(), p.picture.y()
    x0, y0, x1, y1 = box
    return (max(0, math.floor((y0 - oy - ph) / sy)), min(p.rows - 1, math.floor((y1 - oy) / sy)),
            max(0, math.floor((x0 - ox - pw) / sx)), min(p.cols - 1, math.floor((x1 - ox) / sx)))


def _space_boxes(track: Track) -> list[Box]:
    from slipstream.engine.tracks.pitdrawing import place_pit

    d = TrackDrawing(track)
    polys = [d.space_polygon(sp) for sp in track.spaces]
    pit = place_pit(d)  # track/2: the pit lane is printed too
    if pit is not None:
        polys += [pit.space_polygon(sp) for sp in pit.pit.spaces]
    return [_poly_box(poly) for poly in polys]


def _poly_box(poly: list[tuple[float, float]]) -> Box:
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


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
    # the overlap bands that cross this page are those of its own tile and its neighbours
    xs = [target.left() + (k * sx - col * sx + p.printable[0] - p.overlap / 2) * px_per_mm
          for k in range(max(0, col - 1), min(p.cols - 1, col + 2))]
    ys = [target.top() + (k * sy - row * sy + p.printable[1] - p.overlap / 2) * px_per_mm
          for k in range(max(0, row - 1), min(p.rows - 1, row + 2))]
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


def _paper(text: str) -> str:
    """An SVG piece as printed: white instead of the green verge, segment numbers dark grey."""
    text = text.replace('fill="#3f7d3a"', 'fill="#ffffff"', 1)
    return re.sub(r'(<g id="labels"[^>]*?)fill="#fff"', r'\1fill="#555555"', text, count=1)


def export_pdf(track: Track, path: str | Path, paper: str = "A4", mm_per_lane: float = 30.0,
               overlap: float = 12.0, landscape: bool | None = None) -> PrintPlan:
    """Write the tiled PDF; returns the plan (pages, orientation)."""
    picture = Picture(track)
    p = plan(track, picture, paper, mm_per_lane, overlap, landscape)
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
    tiles = picture.by_tile(p)
    try:
        for k, (r, c) in enumerate(p.tiles):
            if k:
                writer.newPage()
            paint_page(painter, picture.page_renderer(tiles, r, c), p, r, c, px_per_mm, track.name)
    finally:
        painter.end()
    tmp.replace(path)
    return p


def page_image(track: Track, row: int = 0, col: int = 0, dpi: float = 60.0, paper: str = "A4",
               mm_per_lane: float = 30.0, overlap: float = 12.0,
               landscape: bool | None = None) -> QImage:
    """One page as an image, drawn by the same code as the PDF (for previews and tests)."""
    picture = Picture(track)
    p = plan(track, picture, paper, mm_per_lane, overlap, landscape)
    px_per_mm = dpi / 25.4
    w, h = p.page_size
    image = QImage(round(w * px_per_mm), round(h * px_per_mm), QImage.Format.Format_RGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    paint_page(painter, picture.renderer(p.tile(row, col)), p, row, col, px_per_mm, track.name)
    painter.end()
    return image
