"""Files: open/save byte for byte, invalid files, recent files, unsaved changes, autosave."""

from __future__ import annotations

import pytest
from helpers import BUNDLED, click_cell
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from slipstream.editor.track import recovery

from .helpers import key


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_open_and_save_a_bundled_track_reproduces_the_bytes(window, qtbot, bundled_copy, path):
    copy = bundled_copy(path.name)
    window.open_path(copy, ask=False)
    assert window.doc.diagnostics == []
    window.doc.saved = None  # force a real write although nothing changed
    key(qtbot, window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not window.doc.dirty
    assert copy.read_bytes() == path.read_bytes()


def test_an_invalid_track_opens_with_its_diagnostics(window, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BUNDLED[0].read_text(encoding="utf-8").replace('  - "6x4 6x4', '  - "6x4 6x4 3', 1),
                   encoding="utf-8")
    assert window.open_path(bad, ask=False)
    codes = [d.code for d in window.doc.diagnostics]
    assert "T102" in codes
    assert window.problems.tree.topLevelItemCount() == len(codes)
    assert window.status_counts.text().startswith("1 error")
    assert window.doc.track is None and not window.scene.spaces
    assert "cannot be drawn" in window._empty_hint.text()


def test_unreadable_yaml_opens_as_text_and_can_be_repaired_in_the_yaml_dock(window, qtbot, tmp_path):
    bad = tmp_path / "broken.yaml"
    good = BUNDLED[0].read_text(encoding="utf-8")
    bad.write_text(good.replace("laps: 3", "laps: [3"), encoding="utf-8")
    assert window.open_path(bad, ask=False)
    assert [d.code for d in window.doc.diagnostics] == ["Y001"]
    assert window.source.edit.toPlainText() == bad.read_text(encoding="utf-8")
    window.docks["source"].raise_()
    window.source.edit.setPlainText(good)
    qtbot.mouseClick(window.source.apply_button, Qt.MouseButton.LeftButton)
    assert window.doc.track is not None and window.doc.diagnostics == []
    assert len(window.scene.spaces) == len(window.doc.track.spaces)


def test_recent_files_remember_opened_and_saved_tracks(make_window, bundled_copy):
    w = make_window()
    a, b = bundled_copy(BUNDLED[0].name), bundled_copy(BUNDLED[1].name)
    w.open_path(a, ask=False)
    w.open_path(b, ask=False)
    assert w.recent_files()[:2] == [str(b.resolve()), str(a.resolve())]
    w2 = make_window()  # same settings file: the list survives
    actions = w2.recent_menu.actions()
    assert [act.text() for act in actions][:2] == [str(b.resolve()), str(a.resolve())]
    actions[1].trigger()
    assert w2.doc.path == a


def test_unsaved_changes_prompt_can_cancel_discard_or_save(window, qtbot, monkeypatch, bundled_copy):
    path = bundled_copy(BUNDLED[0].name)
    window.open_path(path, ask=False)
    click_cell(qtbot, window, 0, 3)
    key(qtbot, window.view, Qt.Key.Key_5)
    assert window.doc.dirty
    answers = []

    def ask(answer):
        def question(*args, **kwargs):
            answers.append(args[2])
            return answer
        monkeypatch.setattr(QMessageBox, "question", question)

    ask(QMessageBox.StandardButton.Cancel)
    window.new_empty()
    assert window.doc.path == path and window.doc.dirty and len(answers) == 1
    ask(QMessageBox.StandardButton.Save)
    window.new_empty()
    assert window.doc.path is None  # the new document replaced the saved one
    assert path.read_bytes() != BUNDLED[0].read_bytes()
    window.open_path(path, ask=False)
    click_cell(qtbot, window, 0, 3)
    key(qtbot, window.view, Qt.Key.Key_6)
    ask(QMessageBox.StandardButton.Discard)
    assert window.close()
    assert "has unsaved changes" in answers[-1]


def test_autosave_writes_a_recovery_file_and_the_next_start_offers_it(make_window, qtbot, monkeypatch,
                                                                      bundled_copy):
    path = bundled_copy(BUNDLED[1].name)
    w = make_window()
    w.open_path(path, ask=False)
    assert w.autosave() is None  # nothing unsaved, nothing written
    click_cell(qtbot, w, 2, 7)
    key(qtbot, w.view, Qt.Key.Key_4)
    rec = w.autosave()
    assert rec is not None and rec.exists()
    edited = w.doc.state
    found = recovery.pending(w.recovery_dir)
    assert [r.original for r in found] == [path]
    # "crash": the window goes away without its close handler; the recovery file stays
    w.recovery_file = None
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    w2 = make_window()
    assert w2.offer_recovery()
    assert w2.doc.path == path and w2.doc.dirty
    assert w2.doc.state.data == edited.data
    # saving clears the recovery file
    w2.save()
    assert recovery.pending(w2.recovery_dir) == []
    assert path.read_text(encoding="utf-8") == edited.text()


def test_saving_an_untitled_track_asks_for_a_name(window, qtbot, monkeypatch, tmp_path):
    window.new_from_template("oval")
    assert window.doc.dirty and window.doc.path is None
    target = tmp_path / "oval"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.act_save.trigger()
    assert (tmp_path / "oval.yaml").exists() and not window.doc.dirty
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_failed_save_keeps_the_work_open_and_says_why(window, qtbot, monkeypatch, tmp_path):
    window.new_from_template("oval")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be", encoding="utf-8")
    messages = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: messages.append(a[2]))
    assert not window._save_to(blocker / "oval.yaml")
    assert window.doc.dirty and window.doc.path is None and window.doc.track is not None
    assert messages and "Your changes are still open" in messages[0]
