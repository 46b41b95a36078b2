"""Small dials for the gauges a ruleset offers per seat (`Ruleset.gauges`, engine/play/protocol.py).

One row per seat in its player colour, one dial per gauge: a half-circle from 0 to the gauge's
scale, filled up to its value, with a red tick at its maximum; the part of a value past its
maximum (a speed in nitrous mode) is drawn in orange. Nothing here names a ruleset.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QWidget

Gauge = tuple[str, float, float, float]  # label, value, maximum, scale

DIAL_W, DIAL_H, LABEL_W = 92, 64, 28
FILL, OVER, TRACK, TICK = "#3cb44b", "#ff8c00", "#5a5f66", "#e6194b"


def fraction(value: float, scale: float) -> float:
    """Where `value` sits on a dial of `scale` (0..1)."""
    return max(0.0, min(1.0, value / scale)) if scale > 0 else 0.0


class GaugePanel(QWidget):
    """Every seat's gauges as rows of dials (hidden when the ruleset offers none)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("race-gauges")
        self.rows: list[list[Gauge]] = []
        self.colours: list[str] = []
        self.setVisible(False)

    def show_gauges(self, rows: Sequence[Sequence[Gauge]], colours: Sequence[str]) -> None:
        self.rows = [[(str(g[0]), float(g[1]), float(g[2]), float(g[3] if len(g) > 3 else g[2])) for g in r]
                     for r in rows]
        self.colours = list(colours)
        self.setVisible(any(self.rows))
        self.setFixedHeight(self.sizeHint().height())
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        cols = max((len(r) for r in self.rows), default=0)
        return QSize(LABEL_W + cols * DIAL_W, len(self.rows) * DIAL_H + 2)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return self.sizeHint()

    def paintEvent(self, _event) -> None:  # noqa: ANN001, N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont("DejaVu Sans")
        font.setPixelSize(10)
        p.setFont(font)
        for i, row in enumerate(self.rows):
            y = i * DIAL_H
            colour = QColor(self.colours[i] if i < len(self.colours) else "#888888")
            bold = QFont(font)
            bold.setBold(True)
            bold.setPixelSize(12)
            p.setFont(bold)
            p.setPen(colour)
            p.drawText(QRectF(0, y, LABEL_W, DIAL_H), Qt.AlignmentFlag.AlignCenter, f"P{i + 1}")
            p.setFont(font)
            for j, g in enumerate(row):
                self._dial(p, QRectF(LABEL_W + j * DIAL_W, y, DIAL_W, DIAL_H), g)
        p.end()

    def _dial(self, p: QPainter, box: QRectF, g: Gauge) -> None:
        label, value, maximum, scale = g
        r = min(box.width() / 2 - 8, box.height() - 26)
        c = QPointF(box.center().x(), box.top() + 6 + r)
        arc = QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)
        width = max(4.0, r * 0.28)
        pen = QPen(QColor(TRACK), width)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        p.setPen(pen)
        p.drawArc(arc, 0, 180 * 16)  # Qt angles: 1/16 degree, counter-clockwise from 3 o'clock
        upto = fraction(min(value, maximum), scale)
        pen.setColor(QColor(FILL))
        p.setPen(pen)
        if upto > 0:
            p.drawArc(arc, 180 * 16, -round(180 * 16 * upto))
        if value > maximum:
            over = fraction(value, scale) - upto
            pen.setColor(QColor(OVER))
            p.setPen(pen)
            p.drawArc(arc, round(180 * 16 * (1 - upto)), -round(180 * 16 * over))
        # the maximum as a red tick across the arc
        a = math.pi * (1 - fraction(maximum, scale))
        p.setPen(QPen(QColor(TICK), 2.0))
        inner, outer = r - width * 0.8, r + width * 0.8
        p.drawLine(QPointF(c.x() + inner * math.cos(a), c.y() - inner * math.sin(a)),
                   QPointF(c.x() + outer * math.cos(a), c.y() - outer * math.sin(a)))
        p.setPen(self.palette().color(self.foregroundRole()))
        text = f"{value:g}/{maximum:g}"
        p.drawText(QRectF(box.left(), c.y() - 14, box.width(), 14), Qt.AlignmentFlag.AlignCenter, text)
        p.drawText(QRectF(box.left(), c.y() + 1, box.width(), 14), Qt.AlignmentFlag.AlignCenter, label)
