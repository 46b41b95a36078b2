"""The Automobiles panels of the pack editor, registered by the ruleset (`Ruleset.panels`,
face `editor-pack`): the effect editor for the effect lists of its schemas (effecteditor.py)
and the numbers strip of its card faces (a cost coin, the value as money marks, wear cubes).
The pack view and forms.py reach this module only through the registry.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen

from slipstream.engine.play.protocol import CardFace

from ...forms import Field, Schema, Schemas
from ...pack.panels import PackPanels
from .effecteditor import EffectListField, EffectStepField, is_def

MONEY_YELLOW = QColor("#e0a800")


class EffectFields:
    """The effect editor for an effect list or one step of schemas/effect.schema.json."""

    def takes(self, s: Schemas, schema: Schema) -> bool:
        return is_def(s, schema, "effect_list") or is_def(s, schema, "effect")

    def make(self, s: Schemas, schema: Schema, base: str, value: Any) -> Field:
        if is_def(s, schema, "effect_list"):
            return EffectListField(s, value)
        return EffectStepField(s, value)


def paint_money_strip(p: QPainter, rect: QRectF, strip_y: float, face: CardFace) -> None:
    """Cost coin (top left of the strip under the band), value as yellow $ marks, wear cubes."""
    u = rect.width() / 63.0
    label = QFont("DejaVu Sans")
    label.setPixelSize(max(1, int(2.6 * u)))
    num = QFont("DejaVu Sans")
    num.setPixelSize(max(1, int(4.6 * u)))
    num.setBold(True)
    coin = QRectF(rect.left() + 4 * u, strip_y, 10 * u, 10 * u)
    p.setPen(QPen(QColor("#6b5200"), 0.5 * u))
    p.setBrush(QColor("#f5d76e") if face.buyable else QColor("#dddddd"))
    p.drawEllipse(coin)
    p.setFont(num)
    p.setPen(QColor("#3a2c00"))
    p.drawText(coin, Qt.AlignmentFlag.AlignCenter, "–" if face.cost is None or not face.buyable else str(face.cost))
    p.setFont(label)
    p.setPen(QColor("#444444"))
    p.drawText(QRectF(coin.left() - 2 * u, coin.bottom() + 0.3 * u, coin.width() + 4 * u, 3.5 * u),
               Qt.AlignmentFlag.AlignCenter, "cost")

    x = coin.right() + 4 * u
    p.setFont(num)
    p.setPen(MONEY_YELLOW)
    value = face.value or 0
    dollars = "$" * min(value, 6) if value else "0"
    p.drawText(QRectF(x, strip_y, 20 * u, 10 * u), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
               dollars)
    p.setFont(label)
    p.setPen(QColor("#444444"))
    p.drawText(QRectF(x, strip_y + 10.3 * u, 20 * u, 3.5 * u), Qt.AlignmentFlag.AlignLeft, "value")

    wear_right = rect.right() - 4 * u
    cube = 3.6 * u
    n = face.wear
    wear_colour = QColor(face.wear_hex)
    p.setPen(QPen(wear_colour.darker(220), 0.3 * u))
    p.setBrush(wear_colour)
    if n is None:
        box = QRectF(wear_right - cube, strip_y + 3 * u, cube, cube)
        p.drawRect(box)
        p.setFont(label)
        p.setPen(wear_colour.darker(220))
        p.drawText(QRectF(box.left() - 5 * u, box.top(), 4.5 * u, cube), Qt.AlignmentFlag.AlignRight, "x")
    else:
        for i in range(min(n, 5)):
            box = QRectF(wear_right - (i + 1) * (cube + 1 * u) + 1 * u, strip_y + 3 * u, cube, cube)
            p.drawRect(box)
    if n != 0:
        p.setFont(label)
        p.setPen(QColor("#444444"))
        p.drawText(QRectF(wear_right - 20 * u, strip_y + 10.3 * u, 20 * u, 3.5 * u),
                   Qt.AlignmentFlag.AlignRight, "wear")


PACK_PANELS = PackPanels(fields=(EffectFields(),), strip=paint_money_strip)
