"""Exports (PNG, SVG, tiled PDF) and screenshots of the editor to look at after a run."""

from __future__ import annotations

import re

import pytest
from helpers import BUNDLED, click_cell
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog

from slipstream.editor.track import printing
from slipstream.engine.editing.document import TrackDocument

from .conftest import SHOTS


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_screenshot_of_the_editor_with_each_bundled_track(window, qtbot, path):
    window.open_path(path, ask=False)
    click_cell(qtbot, window, 1, 12)  # show a selection too
    qtbot.wait(20)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / f"editor-{path.stem}.png"
    assert window.grab().save(str(shot))
    image = QImage(str(shot))
    assert image.width() >= 1200
    # the canvas shows the track: dark and light space fills, not only the green verge
    canvas = window.view.viewport().grab().toImage()
    colours = {canvas.pixelColor(x, y).name() for x in range(0, canvas.width(), 7)
               for y in range(0, canvas.height(), 7)}
    assert {"#202225", "#f6f5ef", "#3f7d3a"} <= colours


def test_png_and_svg_exports(window, monkeypatch, tmp_path):
    window.open_path(BUNDLED[0], ask=False)
    png, svg = tmp_path / "t.png", tmp_path / "t.svg"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(png), ""))
    window.act_png.trigger()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(svg), ""))
    window.act_svg.trigger()
    assert QImage(str(png)).width() == 2000
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") and text.count("<polygon") >= len(window.doc.track.spaces)


def test_printable_pdf_tiles_the_track_over_pages_with_overlap(tmp_path):
    track = TrackDocument.open(BUNDLED[1]).track
    out = tmp_path / "print.pdf"
    plan = printing.export_pdf(track, out, paper="A4", mm_per_lane=30, overlap=12)
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
    assert pages == plan.pages > 1
    assert plan.pages < plan.rows * plan.cols  # pages that would show only verge are skipped
    # at 30 mm per lane the picture spans the plan: tiles cover it with the overlap
    sx, sy = plan.step
    w_mm = plan.picture.width() / plan.units_per_mm
    assert (plan.cols - 1) * sx < w_mm <= (plan.cols - 1) * sx + plan.printable[0] + 1e-6
    # neighbouring tiles overlap by exactly the overlap, in drawing units
    a, b = plan.tile(0, 0), plan.tile(0, 1)
    assert abs((a.right() - b.left()) - plan.overlap * plan.units_per_mm) < 1e-6
    letter = printing.export_pdf(track, tmp_path / "letter.pdf", paper="Letter", mm_per_lane=15)
    assert letter.pages < plan.pages
    SHOTS.mkdir(parents=True, exist_ok=True)
    for r, c in (plan.tiles[0], plan.tiles[len(plan.tiles) // 2]):
        image = printing.page_image(track, r, c, dpi=90)
        assert image.save(str(SHOTS / f"pdf-page-r{r + 1}c{c + 1}.png"))
