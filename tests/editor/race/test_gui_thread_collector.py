"""While a race worker thread runs, Python's cyclic collector runs on the GUI thread only
(editor/race/raceworker.py `GuiThreadCollector`): a collection in the worker thread would free
Qt objects of closed windows off their thread, and the GUI thread could crash (a fresh
clone's CI run lost a pytest worker so, in the GUI thread's event loop, while a heat-map batch
ran in the dock's worker)."""

from __future__ import annotations

import gc
import threading

import pytest

pytest.importorskip("PySide6")


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_no_collection_runs_in_a_worker_thread_and_the_gui_thread_collects_meanwhile(qtbot):
    from slipstream.editor.race.raceworker import (
        BatchWorker,
        GuiThreadCollector,
        WatchWorker,
        _Worker,
    )

    assert issubclass(WatchWorker, _Worker) and issubclass(BatchWorker, _Worker)
    seen: list[int] = []  # the thread of every collection

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(threading.get_ident())

    class Busy(_Worker):
        def run(self) -> None:
            self.ident = threading.get_ident()
            self.enabled = gc.isenabled()
            import time
            end = time.monotonic() + 0.8
            while time.monotonic() < end:  # garbage cycles, far past every threshold
                for _ in range(2000):
                    _Cycle()

    assert gc.isenabled()
    gc.callbacks.append(note)
    try:
        worker = Busy()
        with qtbot.waitSignal(worker.finished, timeout=30_000):
            worker.start()
        qtbot.waitUntil(lambda: GuiThreadCollector.of().holds == 0, timeout=5_000)
    finally:
        gc.callbacks.remove(note)
    main = threading.get_ident()
    assert not worker.enabled  # automatic collection was off while it ran
    assert worker.ident not in seen and seen and set(seen) == {main}  # the timer collected
    assert gc.isenabled()  # and is back on once the last worker ended
    # started again: one hold and one release again, not two
    with qtbot.waitSignal(worker.finished, timeout=30_000):
        worker.start()
    qtbot.waitUntil(lambda: GuiThreadCollector.of().holds == 0, timeout=5_000)
    assert gc.isenabled() and not GuiThreadCollector.of().timer.isActive()


def test_collection_left_off_by_someone_else_stays_off(qtbot):
    from slipstream.editor.race.raceworker import GuiThreadCollector

    c = GuiThreadCollector.of()
    gc.disable()
    try:
        c.hold()
        c.hold()
        c.release()
        assert not gc.isenabled() and c.timer.isActive()
        c.release()
        c.release()  # one too many is ignored
        assert c.holds == 0 and not gc.isenabled() and not c.timer.isActive()
    finally:
        gc.enable()
