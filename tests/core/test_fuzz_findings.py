"""Tracebacks tests/fuzzing.py found (issue 31, item 6), each from its smallest input."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("pack", "track"), [("base", "first-oval"), ("formula-de", "tilleuls"),
                                             ("speed-hazard", "redline-loop")])
def test_a_track_without_grid_slots_is_an_error_not_a_crashed_race(tmp_path: Path, pack: str, track: str) -> None:
    """`grid: []` was a warning (T108, fewer than 5 slots); the race then raised IndexError
    (Automobiles) or ZeroDivisionError (Formula Dé)."""
    root = tmp_path / pack
    shutil.copytree(ROOT / "content" / pack, root, ignore=shutil.ignore_patterns("tests"))
    path = root / "tracks" / f"{track}.yaml"
    text = re.sub(r"\ngrid:\n(  - .*\n)+", "\ngrid: []\n", path.read_text(encoding="utf-8"))
    assert "grid: []" in text
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 1 and "error T118 the grid has no slots" in r.output, r.output
    r = CliRunner().invoke(main, ["race", str(root), "--track", track, "--laps", "1", "--bots", "random,random"])
    assert r.exit_code == 1 and (r.exception is None or isinstance(r.exception, SystemExit)), r.output
    assert "T118" in r.output
