"""File > Open Pack… in the track editor: the pack opens in its own window, tracks in the canvas."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")


@pytest.fixture
def main_window(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from slipstream.editor.mainwindow import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, recovery_dir=tmp_path / "recovery", autosave_ms=3_600_000)
    qtbot.addWidget(w, before_close_func=lambda win: setattr(win.doc, "saved", win.doc.state))
    return w


def test_open_pack_menu_opens_the_pack_and_its_tracks_open_in_the_canvas(main_window, qtbot, base_copy):
    names = {a.objectName() for a in main_window.findChildren(type(main_window.actions()[0]))}
    assert "open-pack" in names
    win = main_window.open_pack(base_copy)
    qtbot.addWidget(win)
    assert main_window.pack_windows == [win]
    assert win.doc.root == base_copy
    item = win._find_tree(lambda t: t[0] == "track")
    win._tree_activated(item)
    assert main_window.doc.path == base_copy / item.data(0, 0x0100)[1]
    assert main_window.doc.track is not None


def test_a_track_saved_in_the_canvas_is_reloaded_in_the_open_pack_window(main_window, qtbot, base_copy):
    from slipstream.engine.editing import commands as c

    win = main_window.open_pack(base_copy)
    qtbot.addWidget(win, before_close_func=lambda w: setattr(w.doc, "saved", w.doc.state))
    rel = "tracks/first-oval.yaml"
    win.select(("track", rel))
    before = win.doc.state.file(rel).data
    main_window.open_path(base_copy / rel, ask=False)
    main_window.push(c.SetProperty("name", "Renamed Oval"))
    assert main_window.save()
    assert win.doc.state.file(rel).data["name"] == "Renamed Oval"
    assert not win.doc.dirty  # the pack window follows the disk: nothing to save
    assert "Renamed Oval" in win.yaml.edit.toPlainText()
    assert win.doc.state.file(rel).data != before

    # a file with unsaved edits in the pack window is not overwritten behind the user's back
    from slipstream.engine.editing.packdoc import SetValue

    win.push(SetValue(rel, ("laps",), 7))
    main_window.push(c.SetProperty("name", "Second Name"))
    assert main_window.save()
    assert win.doc.state.file(rel).data["laps"] == 7
    assert win.doc.state.file(rel).data["name"] == "Renamed Oval"
    assert "unsaved edits" in win.statusBar().currentMessage()


def test_files_are_deleted_from_the_pack_editor_with_undo(main_window, qtbot, base_copy):
    win = main_window.open_pack(base_copy)
    qtbot.addWidget(win, before_close_func=lambda w: setattr(w.doc, "saved", w.doc.state))
    rel = "tracks/road-course.yaml"
    assert (base_copy / rel).is_file()
    win.select(("track", rel))
    act = next(a for a in win.actions() if a.objectName() == "delete-file")
    act.trigger()
    assert win.doc.state.file(rel) is None and win.doc.dirty
    assert win._find_tree(lambda t: t == ("track", rel)) is None
    win.undo_stack.undo()
    assert win.doc.state.file(rel) is not None and not win.doc.dirty
    win.undo_stack.redo()
    assert (base_copy / rel).is_file()  # only a save deletes it
    assert win.save()
    assert not (base_copy / rel).exists() and not win.doc.dirty
    # the manifest is never deleted
    win.select(("file", "pack.yaml"))
    assert not win.delete_selected_file()
    assert (base_copy / "pack.yaml").is_file()
