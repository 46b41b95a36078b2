"""The right-hand column: the tall Test race panel does not squeeze the Grid table."""

from __future__ import annotations


def test_grid_table_gets_the_room_the_track_form_does_not_need(window, qtbot) -> None:
    from PySide6.QtWidgets import QDockWidget

    track, grid = window.docks["track"], window.docks["grid"]
    race = window.findChild(QDockWidget, "dock-race")
    assert race is not None and not track.visibleRegion().isEmpty()
    # the Track form is short: the Grid dock below it gets more than its minimum height
    qtbot.waitUntil(lambda: grid.height() > grid.minimumSizeHint().height() + 100, timeout=2000)
    assert track.height() < grid.height()
    # bringing the Test race tab to the front gives the race panel the larger share
    race.raise_()
    qtbot.waitUntil(lambda: race.height() > track.height() + 50, timeout=2000)
    assert race.height() > grid.height()
    # and back
    track.raise_()
    qtbot.waitUntil(lambda: track.height() < grid.height(), timeout=2000)



def _dock_tab_bars(window):
    from PySide6.QtWidgets import QTabBar

    return [b for b in window.findChildren(QTabBar) if b.parent() is window and b.isVisible()]


def test_no_stray_tab_bar_sits_behind_the_canvas(qtbot, tmp_path) -> None:
    from helpers import BUNDLED
    from PySide6.QtCore import QRect, QSettings
    from PySide6.QtWidgets import QApplication

    from slipstream.editor.mainwindow import MainWindow

    # the first frames, before the event loop has run (Qt deletes the stray bar later, but
    # until then it is drawn: the first paint, a screenshot, a slow start)
    window = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                        recovery_dir=tmp_path / "recovery", autosave_ms=3_600_000)
    qtbot.addWidget(window)
    window.show()
    window.open_path(BUNDLED[0], ask=False)
    for step in (lambda: None, window.docks["history"].raise_, window.docks["race"].raise_,
                 lambda: window.resize(1000, 700)):
        step()
        QApplication.processEvents()
        canvas = window.centralWidget()
        central = QRect(canvas.mapTo(window, canvas.rect().topLeft()), canvas.size())
        bars = _dock_tab_bars(window)
        tabs = [tuple(b.tabText(i) for i in range(b.count())) for b in bars]
        assert sorted(tabs) == sorted({*tabs}), tabs  # each tab group has one bar
        assert {("Grid", "History", "Corners and pit", "Backdrop"), ("Track", "Test race")} <= set(tabs), tabs
        for b in bars:
            where = QRect(b.mapTo(window, b.rect().topLeft()), b.size())
            assert not where.intersects(central), (tabs, where, central)
    window.doc.saved = window.doc.state
