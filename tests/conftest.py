import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# pytest-xdist's workers are started with COLUMNS=80 and LINES=24: without them a worker sees
# the terminal a serial run sees (none: commands fall back to their own widths, e.g. the
# 100 columns of `slipstream cards`), so a test passes the same on every core as on one
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)
# `slipstream validate` keeps pack results in a cache folder: the tests get their own.
if "SLIPSTREAM_CACHE_DIR" not in os.environ:
    os.environ["SLIPSTREAM_CACHE_DIR"] = tempfile.mkdtemp(prefix="slipstream-test-cache-")
    atexit.register(shutil.rmtree, os.environ["SLIPSTREAM_CACHE_DIR"], True)

# The toy ruleset of tests/toyruleset.py is installed for the whole test session (worker
# processes and CLI subprocesses find it through the same variables).
os.environ.setdefault("SLIPSTREAM_RULESETS", "toy=toyruleset:RULESET")
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(Path(__file__).resolve().parent), os.environ.get("PYTHONPATH", "")) if p)

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))

# tests/helpers.py holds what many tests share; ROOT and CONTENT stay importable from here for
# tests written before it (`from conftest import ROOT`)
from helpers import CONTENT, ROOT  # noqa: E402, F401


@pytest.fixture
def base_copy(tmp_path: Path) -> Path:
    """A copy of content/base that a test may edit and save (content/base itself never)."""
    dst = tmp_path / "base"
    shutil.copytree(CONTENT / "base", dst, ignore=shutil.ignore_patterns("__pycache__"))
    return dst


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch):
    """A modal dialog blocks an offscreen test forever: fail at once instead, unless the test
    answers it itself (by patching the same function after this fixture)."""
    try:
        from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox
    except ImportError:  # a headless install (no gui extra) opens no dialogs
        return

    def refuse(*args, **kwargs):
        raise AssertionError(f"unexpected modal dialog in a test: {args[1:3]}")

    for name in ("question", "warning", "critical", "information"):
        monkeypatch.setattr(QMessageBox, name, refuse)
    for name in ("getOpenFileName", "getSaveFileName", "getExistingDirectory"):
        monkeypatch.setattr(QFileDialog, name, refuse)
    for name in ("getText", "getInt", "getDouble", "getItem"):
        monkeypatch.setattr(QInputDialog, name, refuse)
