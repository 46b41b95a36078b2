"""Picture exports that need Qt: SVG text to PNG, a track to its printable PDF."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QByteArray, QRectF, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402


def _app() -> QGuiApplication:
    app = QGuiApplication.instance()
    return app if app is not None else QGuiApplication([])  # type: ignore[return-value]


def svg_to_png(svg: str, path: str | Path, width: int = 1600) -> None:
    """Rasterise SVG text to a PNG file of the given width (height keeps the aspect)."""
    _app()
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize()
    height = max(1, round(width * size.height() / max(1, size.width())))
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, 0, width, height))
    painter.end()
    tmp = Path(path).with_suffix(".tmp.png")
    if not image.save(str(tmp), "PNG"):
        raise OSError(f"cannot write {path}")
    os.replace(tmp, path)


def track_pdf(track: Any, path: str | Path) -> None:
    """The printable PDF of editor/printing.py (A4, 30 mm a lane), without a window."""
    _app()
    from .printing import export_pdf

    export_pdf(track, path)
