"""Fixtures for the test-race dock: an editor window on a bundled track, with the race docks."""

from __future__ import annotations

import pytest
from helpers import ROOT, TRACKS

# Screenshots land here (git-ignored) so that a person can look at them after a test run.
SHOTS = ROOT / "out" / "editor-race"


@pytest.fixture
def race_window(qtbot, tmp_path):
    """A main window showing first-oval.yaml, with the Test race dock (own settings and cache)."""
    pytest.importorskip("PySide6")
    from PySide6.QtCore import QSettings

    from slipstream.editor.mainwindow import MainWindow
    from slipstream.editor.race.racedock import install
    from slipstream.editor.race.raceworker import ResultCache

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, recovery_dir=tmp_path / "recovery", autosave_ms=3_600_000)
    # closed here rather than by qtbot: pytest-qt closes its widgets before fixtures end, and a
    # test that leaves an edited track would then wait forever on the unsaved-changes prompt
    if not hasattr(w, "race_panel"):
        install(w)
    w.race_panel.cache = ResultCache(tmp_path / "race-cache")
    w.resize(1500, 950)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(TRACKS / "first-oval.yaml", ask=False)
    w.docks["race"].show()
    w.docks["race"].raise_()
    yield w
    w.race_panel.shutdown()
    w.doc.saved = w.doc.state
    w.close()
    w.deleteLater()
