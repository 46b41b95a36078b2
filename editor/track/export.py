"""Picture exports that need Qt: SVG text to PNG, a track to its printable PDF.

`python -m slipstream.editor.track.export TRACK OUT [--width N] [--highlight SPACE ...]` writes OUT
(.png or .pdf); `slipstream render` runs it, so the command line never imports the editor.
"""

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
    if not image.save(str(tmp), "PNG"):  # type: ignore[call-overload]  # the stub wants bytes; PySide6 takes only str
        raise OSError(f"cannot write {path}")
    os.replace(tmp, path)


def track_pdf(track: Any, path: str | Path) -> None:
    """The printable PDF of editor/track/printing.py (A4, 30 mm a lane), without a window."""
    _app()
    from .printing import export_pdf

    export_pdf(track, path)


def main(argv: list[str]) -> int:
    """Write the picture of a track file: exit 0, or 1 with the reason on stderr."""
    import argparse
    import sys

    from slipstream.engine.tracks.load import load_track
    from slipstream.engine.tracks.render import track_svg

    ap = argparse.ArgumentParser(prog="python -m slipstream.editor.track.export")
    ap.add_argument("track")
    ap.add_argument("output")
    ap.add_argument("--width", type=int, default=1600)
    ap.add_argument("--highlight", action="append", default=[])
    ap.add_argument("--svg", action="store_true", help="TRACK is an SVG file to rasterise (plots)")
    args = ap.parse_args(argv)
    if args.svg:
        try:
            svg_to_png(Path(args.track).read_text(encoding="utf-8"), args.output, args.width)
        except OSError as e:
            print(f"cannot write {args.output}: {e}", file=sys.stderr)
            return 1
        return 0
    res = load_track(args.track)
    if res.track is None:
        print(f"{args.track}: the track has errors", file=sys.stderr)
        return 1
    try:
        if args.output.lower().endswith(".pdf"):
            track_pdf(res.track, args.output)
        else:
            svg_to_png(track_svg(res.track, highlight=tuple(args.highlight)), args.output, args.width)
    except OSError as e:
        print(f"cannot write {args.output}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
