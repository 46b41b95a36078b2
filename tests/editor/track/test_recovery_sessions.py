"""Saves and autosave edge cases: a read-only file is refused, the FILE argument wins over other
documents' recovery files, and two editors on one file keep separate recovery files."""

from __future__ import annotations

import os
import subprocess
import sys

from helpers import BUNDLED, click_cell
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from slipstream.editor import app as editor_app
from slipstream.editor.track import recovery

from .helpers import key


def edit(qtbot, w) -> None:
    w.activateWindow()  # keys go to the active window
    qtbot.waitUntil(w.isActiveWindow, timeout=2000)
    click_cell(qtbot, w, 2, 7)
    key(qtbot, w.view, Qt.Key.Key_4)
    assert w.doc.dirty


def yes(monkeypatch) -> list[str]:
    asked: list[str] = []

    def answer(*a, **k):
        asked.append(a[2])
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    return asked


def test_two_editors_on_one_file_keep_two_recovery_files(make_window, qtbot, bundled_copy):
    path = bundled_copy(BUNDLED[1].name)
    a, b = make_window(), make_window()
    for w in (a, b):
        w.open_path(path, ask=False)
        edit(qtbot, w)
    ra, rb = a.autosave(), b.autosave()
    assert ra is not None and rb is not None and ra != rb
    assert {r.file for r in recovery.pending(a.recovery_dir)} == {ra, rb}
    # the first editor saves: its recovery file goes, the other editor's unsaved work stays safe
    assert a.save()
    assert not ra.exists() and rb.exists()
    assert [r.file for r in recovery.pending(b.recovery_dir)] == [rb]


def test_an_autosave_rewrites_a_recovery_file_that_was_taken_away(make_window, qtbot, bundled_copy):
    w = make_window()
    w.open_path(bundled_copy(BUNDLED[1].name), ask=False)
    edit(qtbot, w)
    rec = w.autosave()
    assert rec is not None
    rec.unlink()  # e.g. restored and removed by another editor
    again = w.autosave()
    assert again is not None and again.exists()


def test_a_file_argument_is_not_replaced_by_another_documents_recovery(make_window, qtbot, monkeypatch,
                                                                     bundled_copy):
    other, mine = bundled_copy(BUNDLED[0].name), bundled_copy(BUNDLED[1].name)
    crashed = make_window()
    crashed.open_path(other, ask=False)
    edit(qtbot, crashed)
    left = crashed.autosave()
    crashed.recovery_file = None  # "crash": the recovery file stays behind
    asked = yes(monkeypatch)
    opened = []

    def fake_window():
        w = make_window()
        opened.append(w)
        return w

    monkeypatch.setattr(editor_app, "MainWindow", fake_window)
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)
    assert editor_app.run(mine) == 0
    w = opened[0]
    assert w.doc.path == mine and not w.doc.dirty  # FILE opened, nothing else restored in its place
    assert asked == [] and left is not None and left.exists()  # the other work is kept for later
    # started without FILE, the editor offers the other document's work
    w2 = make_window()
    assert w2.offer_recovery() and w2.doc.path == other and asked


def test_a_file_argument_gets_its_own_recovery_back(make_window, qtbot, monkeypatch, bundled_copy):
    path = bundled_copy(BUNDLED[1].name)
    crashed = make_window()
    crashed.open_path(path, ask=False)
    edit(qtbot, crashed)
    edited = crashed.doc.state.data
    crashed.autosave()
    crashed.recovery_file = None
    yes(monkeypatch)
    w = make_window()
    assert w.offer_recovery(path)
    assert w.doc.path == path and w.doc.dirty and w.doc.state.data == edited


def test_a_live_editor_in_another_process_is_not_offered(tmp_path):
    folder = tmp_path / "recovery"
    folder.mkdir()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = folder / recovery.recovery_name(tmp_path / "a.yaml", f"{child.pid}-1")
        live.write_text(f"{recovery.MARK}{tmp_path / 'a.yaml'}\nx: 1\n", encoding="utf-8")
        assert recovery.pending(folder) == []
    finally:
        child.kill()
        child.wait()
    assert [r.file for r in recovery.pending(folder)] == [live]  # its editor is gone now
    assert recovery.owner_pid(live) == child.pid and os.getpid() != child.pid


def test_saving_over_a_read_only_file_says_so_and_keeps_the_work(make_window, qtbot, monkeypatch, bundled_copy):
    path = bundled_copy(BUNDLED[1].name)
    w = make_window()
    w.open_path(path, ask=False)
    edit(qtbot, w)
    before = path.read_bytes()
    path.chmod(0o444)
    messages = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: messages.append(a[2]))
    assert not w.save()
    assert w.doc.dirty and path.read_bytes() == before
    assert messages and "is read-only" in messages[0] and "Your changes are still open" in messages[0]
