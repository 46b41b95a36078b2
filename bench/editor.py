#!/usr/bin/env python3
"""Editor speed, offscreen: open + first paint, and re-validation after one recolour.

On a synthetic 2,000-space track (3 lanes, smooth centreline) it prints
  * open + first paint: reading the file, checking it, building the canvas and painting the
    view once (target < 1 s);
  * re-validation after a single recolour: the document's full check of the edited track,
    the same records `slipstream validate` gives (target < 50 ms), and the whole edit as the
    user sees it (command, checks, canvas and docks updated, view repainted);
  * fluidity on a 5,000-space track: one repaint of the whole view and one wheel-zoom step;
  * a track/2 file (bench/validate.py's synthetic v2 track, 2,000 segments): open + first paint
    with corners, links and pit lane drawn, and one Corner or Link tool edit as the user sees it.
Each figure is also given as a ratio to a baseline measured in the same run: checking the
same file in-process the way `slipstream validate` does (load_track).

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/editor.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, QPointF, QSettings, Qt  # noqa: E402
from PySide6.QtGui import QWheelEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

import slipstream.editor  # noqa: E402,F401  (applies the Qt binding workarounds first)
from slipstream.editor.mainwindow import MainWindow  # noqa: E402
from slipstream.engine.editing import commands as c  # noqa: E402
from slipstream.engine.editing.document import analyse  # noqa: E402
from slipstream.engine.tracks.load import load_track  # noqa: E402
from slipstream.engine.tracks.writer import dump_track  # noqa: E402

LEN = {3: 1, 4: 2, 5: 3, 6: 4}


def synthetic(spaces: int, lanes: int = 3, seed: int = 5) -> dict:
    """Track data with about `spaces` spaces: random gear colours in the bundled tracks' lengths."""
    rng = random.Random(seed)
    # lane 0 fixes the number of segments; the other lanes draw from the same mix of colours
    rows: list[list[tuple[int, int]]] = []
    n = 0
    first: list[tuple[int, int]] = []
    for _ in range(spaces // lanes):
        colour = rng.choice((3, 4, 5, 6))
        first.append((colour, LEN[colour]))
        n += LEN[colour]
    rows.append(first)
    for _lane in range(1, lanes):
        row, seg = [], 0
        while seg < n:
            colour = rng.choice((3, 4, 5, 6))
            k = min(LEN[colour], n - seg)
            row.append((colour, k))
            seg += k
        rows.append(row)
    layout = [" ".join(str(col) if k == 1 else f"{col}x{k}" for col, k in row) for row in rows]
    grid = [{"lane": ln, "segment": n - 1 - (i // 3) * 2, "money": 10 + i}
            for i, ln in enumerate((0, 1, 2, 0, 1))]
    scale = n * 44 / 3000  # about one lane width per segment along the loop
    pts = [[round(x * scale), round(y * scale)] for x, y in
           ((0, 220), (370, 220), (520, 110), (520, -110), (370, -220), (-370, -220),
            (-520, -110), (-520, 110), (-370, 220))]
    return {"slipstream": "track/1", "id": "bench", "name": "Bench", "laps": 3, "lanes": lanes,
            "layout": layout, "grid": grid,
            "geometry": {"centerline": pts, "lane_width": 40, "smooth": True}}


def best_of(repeat: int, fn) -> float:  # noqa: ANN001
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        path = tmpdir / "bench.yaml"
        path.write_text(dump_track(synthetic(2000)), encoding="utf-8")
        res = load_track(path)
        assert res.track is not None
        spaces = len(res.track.spaces)
        base = best_of(args.repeat, lambda: load_track(path))
        print(f"== {spaces} spaces, {res.track.segments} segments x {res.track.lanes} lanes, "
              f"{len(res.diagnostics)} diagnostics")
        print(f"baseline, in-process `slipstream validate` of the file (load_track): {base * 1e3:7.1f} ms")

        settings = QSettings(str(tmpdir / "settings.ini"), QSettings.Format.IniFormat)

        def window() -> MainWindow:
            w = MainWindow(settings=settings, recovery_dir=tmpdir / "recovery")
            w.resize(1280, 820)
            w.show()
            app.processEvents()
            return w

        opens = []
        for _ in range(args.repeat):
            w = window()
            t0 = time.perf_counter()
            w.open_path(path, ask=False)
            w.view.viewport().grab()  # paints the view once
            opens.append(time.perf_counter() - t0)
            w.doc.saved = w.doc.state
            w.close()
            w.deleteLater()
            app.processEvents()
        t_open = statistics.median(opens)
        print(f"open + first paint:                     {t_open * 1e3:7.1f} ms  "
              f"(x{t_open / base:4.1f} baseline; target < 1000 ms) {'OK' if t_open < 1 else 'SLOW'}")

        w = window()
        w.open_path(path, ask=False)
        w.view.viewport().grab()
        track = w.doc.track
        rng = random.Random(1)
        cells = [(rng.randrange(track.lanes), rng.randrange(track.segments)) for _ in range(args.repeat * 2)]
        revalidate, whole = [], []
        for lane, seg in cells:
            sp = w.doc.track.space_at(lane, seg)
            if sp is None:
                continue
            colour = 3 if sp.colour != 3 else 6
            cmd = c.Paint(lane, sp.first, colour)
            t0 = time.perf_counter()
            w.push(cmd)  # command + full checks + canvas and docks updated
            w.view.viewport().grab()
            whole.append(time.perf_counter() - t0)
            state, label = w.doc.state, w.doc.file_label
            t0 = time.perf_counter()
            an = analyse(state, label)  # the re-validation alone
            revalidate.append(time.perf_counter() - t0)
            assert an.diagnostics == w.doc.diagnostics
        t_val, t_edit = statistics.median(revalidate), statistics.median(whole)
        print(f"re-validation after one recolour:       {t_val * 1e3:7.1f} ms  "
              f"(x{t_val / base:4.2f} baseline; target < 50 ms) {'OK' if t_val < 0.05 else 'SLOW'}")
        print(f"whole edit (checks, canvas, docks, repaint): {t_edit * 1e3:5.1f} ms  (x{t_edit / base:4.2f} baseline)")
        w.doc.saved = w.doc.state
        w.close()

        big = tmpdir / "big.yaml"
        big.write_text(dump_track(synthetic(5000)), encoding="utf-8")
        w = window()
        t0 = time.perf_counter()
        w.open_path(big, ask=False)
        w.view.viewport().grab()
        t_big = time.perf_counter() - t0
        n_big = len(w.doc.track.spaces)
        paint = best_of(args.repeat, lambda: w.view.viewport().grab())
        vp = w.view.viewport()
        centre = QPoint(vp.width() // 2, vp.height() // 2)

        def wheel() -> None:
            ev = QWheelEvent(QPointF(centre), QPointF(vp.mapToGlobal(centre)), QPoint(0, 0), QPoint(0, 120),
                             Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                             Qt.ScrollPhase.NoScrollPhase, False)
            w.view.wheelEvent(ev)
            vp.grab()

        zoom = best_of(args.repeat, wheel)
        print(f"== {n_big} spaces: open + first paint {t_big * 1e3:.0f} ms; repaint of the whole view "
              f"{paint * 1e3:.1f} ms; one wheel-zoom step with repaint {zoom * 1e3:.1f} ms "
              f"(fluid: < 40 ms) {'OK' if max(paint, zoom) < 0.04 else 'SLOW'}")
        w.doc.saved = w.doc.state
        w.close()

        # track/2: corners, links and a pit lane drawn on the canvas; the v2 tools' edits
        from validate import synthetic_v2  # bench/validate.py, beside this script

        from slipstream.engine.editing import v2commands as v

        v2path = tmpdir / "v2.yaml"
        v2path.write_text(synthetic_v2(2000), encoding="utf-8")
        base2 = best_of(args.repeat, lambda: load_track(v2path))
        w = window()
        t0 = time.perf_counter()
        w.open_path(v2path, ask=False)
        w.view.viewport().grab()
        t_open2 = time.perf_counter() - t0
        t2 = w.doc.track
        edits = []
        for k in range(args.repeat * 2):
            seg = (k * 97) % t2.segments
            for cmd in (v.MarkCorner(seg, (seg + 2) % t2.segments), v.ToggleLink(f"0:{seg}", f"1:{seg + 1}")):
                t0 = time.perf_counter()
                w.push(cmd)
                w.view.viewport().grab()
                edits.append(time.perf_counter() - t0)
        t_edit2 = statistics.median(edits)
        print(f"== track/2, {t2.segments} segments x {t2.lanes} lanes, {len(t2.corners)} corners, "
              f"{len(t2.links)} links, pit lane; baseline load_track {base2 * 1e3:.1f} ms")
        print(f"open + first paint {t_open2 * 1e3:.0f} ms (x{t_open2 / base2:4.1f} baseline); "
              f"whole corner / link edit {t_edit2 * 1e3:.1f} ms (x{t_edit2 / base2:4.2f} baseline)")
        w.doc.saved = w.doc.state
        w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
