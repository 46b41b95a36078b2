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


def _long_track(n: int, geometry: bool):
    """A track of two lanes of `n` squares each (issue 31: the PDF of 20,000 squares took 48 s)."""
    from slipstream.engine.core.yamlsource import load_text
    from slipstream.engine.tracks.load import check_track_data

    lane = " ".join(["3"] * n)
    geo = ("geometry:\n  centerline: [[0, 220], [370, 220], [520, 0], [370, -220], [-370, -220], [-520, 0], "
           "[-370, 220]]\n  lane_width: 40\n  smooth: true\n") if geometry else ""
    loaded = load_text(f'slipstream: track/1\nid: long\nname: Long\nlaps: 1\nlanes: 2\nlayout:\n  - "{lane}"\n'
                       f'  - "{lane}"\ngrid:\n  - {{lane: 0, segment: {n - 1}, money: 10}}\n{geo}', "long.yaml")
    track, diags = check_track_data(loaded.data, loaded.source)
    assert track is not None, diags
    return track


@pytest.mark.parametrize("geometry", [True, False], ids=["drawn", "stadium"])
def test_a_page_draws_only_what_reaches_it(qapp, tmp_path, monkeypatch, geometry):
    """Every page parsed and drew the whole track: a 20,000-square track took 48 s to print.
    Now a page holds the pieces whose boxes reach it, and the pages are the same ones the
    whole picture gives (checked against every space box on every tile)."""
    import time

    track = _long_track(10_000 if geometry else 400, geometry)
    picture = printing.Picture(track)
    kept: list[int] = []
    real = printing.Picture._render

    def spy(self, keep):
        kept.append(len(keep))
        return real(self, keep)

    monkeypatch.setattr(printing.Picture, "_render", spy)
    t0 = time.process_time()
    plan = printing.export_pdf(track, tmp_path / "long.pdf")
    seconds = time.process_time() - t0
    assert len(kept) == plan.pages > 1
    boxed = sum(b is not None for b, _ in picture.pieces)
    # a piece is on the page it lies on and, at an edge, on its neighbours: about one drawing
    # of the track in all, not one per page
    assert sum(kept) - plan.pages * len(picture.everywhere) < 3 * boxed
    assert seconds < 6, seconds  # the drawn track: about 1.4 s of CPU here, 10 s before (48 s loaded)
    # the pages chosen are those a brute-force test of every space box on every tile gives
    from PySide6.QtCore import QRectF

    full = printing.plan(track, picture)
    rects = [QRectF(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in picture.space_boxes]
    brute = tuple((r, c) for r in range(full.rows) for c in range(full.cols)
                  if any(full.tile(r, c).intersects(b) for b in rects))
    assert full.tiles == brute
