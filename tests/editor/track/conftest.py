"""Fixtures for the editor tests: a main window with its own settings and recovery folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import ROOT, TRACKS

# Screenshots land here (git-ignored) so that a person can look at them after a test run.
SHOTS = ROOT / "out" / "editor"


@pytest.fixture
def make_window(qtbot, tmp_path):
    """Build MainWindows that share one temporary settings file and recovery folder."""
    pytest.importorskip("PySide6")
    from PySide6.QtCore import QSettings

    from slipstream.editor.mainwindow import MainWindow

    made = []

    def make(**kw):
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        w = MainWindow(settings=settings, recovery_dir=tmp_path / "recovery", autosave_ms=3_600_000, **kw)
        w.resize(1280, 820)
        w.show()
        qtbot.waitExposed(w)
        w.activateWindow()  # shortcuts (keys 3-6, Ctrl+S, ...) go to the active window
        qtbot.waitUntil(w.isActiveWindow, timeout=2000)
        made.append(w)
        return w

    yield make
    for w in made:
        w.doc.saved = w.doc.state  # no unsaved-changes prompt while tearing down
        w.close()
        w.deleteLater()


@pytest.fixture
def window(make_window):
    return make_window()


@pytest.fixture
def bundled_copy(tmp_path):
    """Copy a bundled track into tmp_path so a test may save over it."""

    def copy(name: str) -> Path:
        dst = tmp_path / name
        shutil.copyfile(TRACKS / name, dst)
        return dst

    return copy
