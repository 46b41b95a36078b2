#!/usr/bin/env python3
"""Batch races from the editor's Test race dock: time on N cores and event-loop stalls.

Opens the editor offscreen on the bundled oval, runs a batch from the dock (the same click a
designer makes) and, measured in the same run: the time of the batch, the baseline of the
same races one after another in this process without the GUI (ratio = speed-up), and the
longest gap between ticks of a 20 ms timer on the GUI thread during the batch (the UI is
responsive when that stays well under a few hundred ms). Checks the report's win-rate table
against `stats.summarise` over `play.races.run_race` for the same seeds.

    .venv/bin/python bench/race_batch.py [--races 1000] [--jobs 2] [--baseline 100]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--races", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--baseline", type=int, default=100,
                    help="races run serially without the GUI for the baseline (scaled up)")
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QElapsedTimer, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from slipstream.editor.mainwindow import MainWindow
    from slipstream.editor.race.raceworker import ResultCache
    from slipstream.engine.play.batch import run_many
    from slipstream.engine.play.races import RaceSpec, run_race
    from slipstream.engine.rulesets.automobiles.stats import summarise

    tmp = Path(tempfile.mkdtemp())
    w = MainWindow(settings=QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat),
                   recovery_dir=tmp / "rec", autosave_ms=3_600_000)
    panel = w.race_panel
    panel.cache = ResultCache(None)
    w.show()
    w.open_path(ROOT / "content" / "base" / "tracks" / "first-oval.yaml", ask=False)
    panel.races.setMinimum(1)
    panel.races.setValue(args.races)
    panel.jobs.setMaximum(max(args.jobs, panel.jobs.maximum()))
    panel.jobs.setValue(args.jobs)
    panel.seed.setValue(args.seed)
    bots = panel.settings().bots

    # baselines, measured before and after the batch (the machine's load may change):
    # the same races serially without the GUI, and the engine's own runner on as many jobs
    n = min(args.baseline, args.races)

    def baselines() -> tuple[float, float, list]:
        t0 = time.perf_counter()
        res = [run_race(RaceSpec("", "first-oval", args.seed + i, bots, record=False)) for i in range(n)]
        serial = (time.perf_counter() - t0) * args.races / n
        t0 = time.perf_counter()
        run_many([RaceSpec("", "first-oval", args.seed + i, bots, record=False) for i in range(n)], args.jobs)
        many = (time.perf_counter() - t0) * args.races / n
        return serial, many, res

    serial1, many1, base = baselines()

    clock = QElapsedTimer()
    clock.start()
    gaps: list[int] = []
    last = [clock.elapsed()]

    def tick() -> None:
        now = clock.elapsed()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(20)
    t0 = time.perf_counter()
    panel.run_batch()
    while panel.worker is not None:
        app.processEvents()
        time.sleep(0.002)
    elapsed = time.perf_counter() - t0
    timer.stop()
    serial2, many2, _ = baselines()
    serial, many = (serial1 + serial2) / 2, (many1 + many2) / 2
    data = panel.report.data
    assert data is not None and not data.cancelled
    check = summarise(base + [run_race(RaceSpec("", "first-oval", args.seed + i, bots, record=False))
                              for i in range(n, args.races)]) if args.races <= 2000 else None
    same = check is None or (check["win_rate_by_slot"] == data.summary["win_rate_by_slot"]
                             and check["win_rate_by_bot"] == data.summary["win_rate_by_bot"])
    gaps.sort()
    print(f"{args.races} races on first-oval, {args.jobs} processes, from the editor dock")
    print(f"  batch:    {elapsed:7.1f} s  ({args.races / elapsed:.1f} races/s)")
    print(f"  baseline: {serial:7.1f} s  serial, no GUI (from {n} races, before and after): "
          f"speed-up {serial / elapsed:.2f}x")
    print(f"  baseline: {many:7.1f} s  engine play.batch.run_many, {args.jobs} jobs, no GUI: "
          f"batch takes {elapsed / many:.2f}x its time")
    print(f"  GUI timer ticks: {len(gaps)}, median gap {gaps[len(gaps) // 2]} ms, "
          f"longest gap {gaps[-1]} ms")
    print(f"  win-rate tables equal to run_race + summarise: {same if check is not None else 'not checked'}")
    for r in data.summary["win_rate_by_slot"]:
        print(f"    {r['label']}: {100 * r['rate']:.1f}% [{100 * r['low']:.1f}%, {100 * r['high']:.1f}%]")
    w.doc.saved = w.doc.state
    w.close()
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
