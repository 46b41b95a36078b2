"""The registry's cached pack load collects and freezes the heap only on the main thread: a full
collection on another thread (the editor's race workers load packs) would free the GUI's
unreachable Qt objects off the thread that owns them."""

from __future__ import annotations

import gc
import threading

from helpers import CONTENT

from slipstream.engine.play import registry


def test_a_pack_loaded_off_the_main_thread_does_not_collect_there(monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append(threading.current_thread().name) or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    load = registry.load_pack.__wrapped__  # the uncached load
    worker = threading.Thread(target=load, args=(str(CONTENT / "formula-de"),), name="race worker")
    worker.start()
    worker.join()
    assert calls == []
    load(str(CONTENT / "formula-de"))
    assert calls == [threading.main_thread().name, "freeze"]
