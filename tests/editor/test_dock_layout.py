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
