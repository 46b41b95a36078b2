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


# Test files that take tens of seconds (a fresh clone's `--durations`), started before the rest,
# the heaviest first: with `dev.py test`'s `--dist worksteal`, a worker that runs out takes the
# other's queued tests, so the two end together instead of one waiting out a long test dealt at
# the end. Whole files, in their own order, so that their tests stay together on one worker
# (several share a module-level cache of races). Only the order changes; every test runs
# (tests/tools/test_heavy_first.py checks that each entry is a test file).
HEAVY_FIRST = (
    "tests/core/test_fuzz.py",
    "tests/cli/test_packs_cli.py",
    "tests/rulesets/automobiles/season/test_strong_sponsor.py",
    "tests/play/test_sweep.py",
    "tests/rulesets/automobiles/season/test_season_acceptance.py",
    "tests/play/test_compare.py",
    "tests/rulesets/automobiles/test_properties.py",
    "tests/tools/test_bench_scripts.py",
    "tests/rulesets/automobiles/test_replay_robust.py",
    "tests/editing/test_track2_commands.py",
    "tests/tracks/test_track2_properties.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def place(item: pytest.Item) -> int:  # the heaviest first; the rest keep their order (stable)
        return next((i for i, f in enumerate(HEAVY_FIRST) if item.nodeid.startswith(f + "::")), len(HEAVY_FIRST))

    items.sort(key=place)
