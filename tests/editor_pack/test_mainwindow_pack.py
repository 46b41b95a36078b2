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
