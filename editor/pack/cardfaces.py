"""Card faces of any ruleset as players see them: colour band, name, kind, numbers and text.

`CardFace` (engine/play/protocol.py) is the plain content of one face, which the ruleset's
`authoring` capability makes from a card's YAML data or from a loaded card; `paint_card`
draws it into any rectangle with QPainter, so the same drawing serves the preview widget,
PNG export (`card_png`) and the printable sheet (`cards_pdf`: poker-size cards, 3 x 3 per A4
page, with cut marks). The strip under the band shows the face's `figures` (e.g. a card's
number, km/h and copies; a card's cost, value and wear when it has no figures); a
ruleset's pack panels may paint their own strip instead (`StripPainter`, see panels.py), e.g. a
cost coin, money marks and wear cubes. Nothing here names a ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPainterPath,
    QPdfWriter,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from slipstream.engine.play.protocol import CardFace

CARD_MM = (63.0, 88.0)  # poker size

# paints the strip of numbers under the band: (painter, card rectangle, top of the strip, face)
StripPainter = Callable[[QPainter, QRectF, float, CardFace], None]


def _ink_on(bg: QColor) -> QColor:
    lum = 0.299 * bg.redF() + 0.587 * bg.greenF() + 0.114 * bg.blueF()
    return QColor("#111111") if lum > 0.6 else QColor("#ffffff")


def face_figures(face: CardFace) -> list[tuple[str, str]]:
    """The numbers a face shows: its `figures`, else its cost, value and wear."""
    if face.figures:
        return list(face.figures)
    out = []
    if face.cost is not None and face.buyable:
        out.append(("cost", str(face.cost)))
    if face.value is not None:
        out.append(("value", str(face.value)))
    if face.wear:
        out.append(("wear", str(face.wear)))
    return out


def paint_figures(p: QPainter, rect: QRectF, top: float, face: CardFace) -> None:
    """The strip of numbers under the band: each figure large, its label small below it, in
    cells of equal width (the text shrinks until it fits its cell)."""
    figs = face_figures(face)
    if not figs:
        return
    u = rect.width() / 63.0
    left, width = rect.left() + 4 * u, rect.width() - 8 * u
    cell = width / len(figs)
    label = QFont("DejaVu Sans")
    label.setPixelSize(max(1, int(2.6 * u)))
    for i, (name, value) in enumerate(figs):
        box = QRectF(left + i * cell, top, cell, 10 * u)
        size = 4.6 * u
        num = QFont("DejaVu Sans")
        num.setBold(True)
        while True:
            num.setPixelSize(max(1, int(size)))
            p.setFont(num)
            if p.fontMetrics().horizontalAdvance(value) <= cell - 1 * u or size < 2.4 * u:
                break
            size *= 0.9
        p.setPen(QColor(face.colour_hex).darker(140))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, value)
        p.setFont(label)
        p.setPen(QColor("#444444"))
        p.drawText(QRectF(box.left(), box.bottom() + 0.3 * u, cell, 3.5 * u), Qt.AlignmentFlag.AlignCenter, name)


def paint_card(p: QPainter, rect: QRectF, face: CardFace, strip: StripPainter | None = None) -> None:
    """Draw one card face filling `rect` (any size; proportions of a 63 x 88 mm card). The
    strip under the band shows the face's figures, or what `strip` (a ruleset's panel) paints."""
    u = rect.width() / 63.0  # one millimetre of the card
    p.save()
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    outline = QPainterPath()
    outline.addRoundedRect(rect, 3 * u, 3 * u)
    p.fillPath(outline, QColor("#fbfaf6"))
    p.setClipPath(outline)

    colour = QColor(face.colour_hex)
    band = QRectF(rect.left(), rect.top(), rect.width(), 17 * u)
    p.fillRect(band, colour)
    ink = _ink_on(colour)
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(1, int(5.2 * u)))
    font.setBold(True)
    p.setFont(font)
    p.setPen(ink)
    name_rect = band.adjusted(4 * u, 2 * u, -4 * u, -6.5 * u)
    p.drawText(name_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
               p.fontMetrics().elidedText(face.name, Qt.TextElideMode.ElideRight, int(name_rect.width())))
    small = QFont("DejaVu Sans")
    small.setPixelSize(max(1, int(3.0 * u)))
    p.setFont(small)
    p.drawText(band.adjusted(4 * u, 10.5 * u, -4 * u, -1.5 * u),
               Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, face.kind_name)

    strip_y = band.bottom() + 2.5 * u
    (strip or paint_figures)(p, rect, strip_y, face)

    # rules text
    body = QRectF(rect.left() + 4.5 * u, strip_y + 16 * u, rect.width() - 9 * u,
                  rect.bottom() - (strip_y + 16 * u) - 7 * u)
    p.setPen(QPen(QColor("#d8d4c8"), 0.3 * u))
    p.drawLine(QPointF(body.left(), body.top() - 1.5 * u), QPointF(body.right(), body.top() - 1.5 * u))
    text_font = QFont("DejaVu Serif")
    size = 3.4 * u
    flags = int(Qt.TextFlag.TextWordWrap) | int(Qt.AlignmentFlag.AlignLeft) | int(Qt.AlignmentFlag.AlignTop)
    while True:  # shrink long texts until they fit
        text_font.setPixelSize(max(1, int(size)))
        p.setFont(text_font)
        need = p.fontMetrics().boundingRect(body.toRect(), flags, face.text)
        if need.height() <= body.height() or size < 2.0 * u:
            break
        size *= 0.92
    p.setPen(QColor("#1d1d1d"))
    p.drawText(body, flags, face.text)

    # footer: id
    label = QFont("DejaVu Sans")
    label.setPixelSize(max(1, int(2.6 * u)))
    p.setFont(label)
    p.setPen(QColor("#8a8a8a"))
    p.drawText(QRectF(rect.left() + 4 * u, rect.bottom() - 6 * u, rect.width() - 8 * u, 4 * u),
               Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, face.ident)
    p.setClipping(False)
    p.setPen(QPen(QColor("#555555"), 0.4 * u))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPath(outline)
    p.restore()


def card_image(face: CardFace, width: int = 630, strip: StripPainter | None = None) -> QImage:
    """The face as an image `width` pixels wide (transparent outside the rounded corners)."""
    height = round(width * CARD_MM[1] / CARD_MM[0])
    img = QImage(width, height, QImage.Format.Format_ARGB32)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    paint_card(p, QRectF(0.5, 0.5, width - 1, height - 1), face, strip)
    p.end()
    return img


def card_png(face: CardFace, path: str | Path, width: int = 630, strip: StripPainter | None = None) -> Path:
    """Write the face as a PNG."""
    path = Path(path)
    if not card_image(face, width, strip).save(str(path), "PNG"):  # type: ignore[call-overload]  # the stub wants bytes; PySide6 takes only str
        raise OSError(f"cannot write {path}")
    return path


PER_PAGE = 9


def sheet_pages(faces: list[CardFace]) -> int:
    return max(1, (len(faces) + PER_PAGE - 1) // PER_PAGE)


def paint_sheet_page(p: QPainter, mm: float, faces: list[CardFace], page: int, title: str = "",
                     strip: StripPainter | None = None) -> None:
    """Page `page` of the printable sheet on an A4 surface of `mm` device units per millimetre."""
    cols, rows = 3, 3
    w, h = CARD_MM[0] * mm, CARD_MM[1] * mm
    left = (210 * mm - cols * w) / 2
    top = (297 * mm - rows * h) / 2 + 3 * mm
    pages = sheet_pages(faces)
    if title:
        f = QFont("DejaVu Sans")
        f.setPixelSize(max(1, int(4 * mm)))
        p.setFont(f)
        p.setPen(QColor("#333333"))
        p.drawText(QRectF(left, 6 * mm, cols * w, 8 * mm), Qt.AlignmentFlag.AlignLeft,
                   f"{title}  ·  page {page + 1} of {pages}")
    chunk = faces[page * PER_PAGE:(page + 1) * PER_PAGE]
    for i, face in enumerate(chunk):
        r = QRectF(left + (i % cols) * w, top + (i // cols) * h, w, h)
        paint_card(p, r.adjusted(1 * mm, 1 * mm, -1 * mm, -1 * mm), face, strip)
    _cut_marks(p, left, top, w, h, cols, rows, mm)


def cards_pdf(faces: Iterable[CardFace], path: str | Path, title: str = "",
              strip: StripPainter | None = None) -> int:
    """A printable A4 sheet: poker-size cards, 3 x 3 per page, with cut marks. Returns pages."""
    faces = list(faces)
    path = Path(path)
    writer = QPdfWriter(str(path))
    writer.setResolution(300)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(0, 0, 0, 0)))
    writer.setTitle(title or "Slipstream cards")
    pages = sheet_pages(faces)
    p = QPainter(writer)
    for page in range(pages):
        if page:
            writer.newPage()
        paint_sheet_page(p, 300 / 25.4, faces, page, title, strip)
    p.end()
    return pages


def sheet_image(faces: list[CardFace], page: int = 0, dpi: int = 100, title: str = "",
                strip: StripPainter | None = None) -> QImage:
    """One page of the printable sheet as an image (what the PDF page shows)."""
    mm = dpi / 25.4
    img = QImage(round(210 * mm), round(297 * mm), QImage.Format.Format_RGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    paint_sheet_page(p, mm, faces, page, title, strip)
    p.end()
    return img


def _cut_marks(p: QPainter, left: float, top: float, w: float, h: float, cols: int, rows: int,
               mm: float) -> None:
    p.setPen(QPen(QColor("#777777"), 0.2 * mm))
    for c in range(cols + 1):
        x = left + c * w
        p.drawLine(QPointF(x, top - 5 * mm), QPointF(x, top - 1.5 * mm))
        p.drawLine(QPointF(x, top + rows * h + 1.5 * mm), QPointF(x, top + rows * h + 5 * mm))
    for r in range(rows + 1):
        y = top + r * h
        p.drawLine(QPointF(left - 5 * mm, y), QPointF(left - 1.5 * mm, y))
        p.drawLine(QPointF(left + cols * w + 1.5 * mm, y), QPointF(left + cols * w + 5 * mm, y))


class CardPreview(QWidget):
    """Shows one card face, scaled to the widget."""

    def __init__(self) -> None:
        super().__init__()
        self.face: CardFace | None = None
        self.strip: StripPainter | None = None  # the pack's ruleset's own strip (None: figures)
        self.setObjectName("card-preview")
        self.setMinimumSize(QSize(189, 264))
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(252, 352)

    def show_face(self, face: CardFace | None, strip: StripPainter | None = None) -> None:
        if face != self.face or strip is not self.strip:
            self.face = face
            self.strip = strip
            self.update()

    def paintEvent(self, _event: object) -> None:  # noqa: N802
        p = QPainter(self)
        if self.face is None:
            p.setPen(QColor("#888888"))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "Select a card to see it")
            p.end()
            return
        avail = QSizeF(self.width() - 12, self.height() - 12)
        scale = min(avail.width() / CARD_MM[0], avail.height() / CARD_MM[1])
        w, h = CARD_MM[0] * scale, CARD_MM[1] * scale
        rect = QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h)
        paint_card(p, rect, self.face, self.strip)
        p.end()
