"""Issue 31: a Formula Dé scenario whose scripted black rolls run out during the grid roll is a
clean FAIL naming its `dice:` line, as when they run out later (it was a DiceOut traceback)."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner
from helpers import CONTENT

from slipstream.cli.main import main


def test_black_rolls_running_out_in_the_grid_roll_fail_the_scenario(tmp_path: Path):
    pack = tmp_path / "fd"
    shutil.copytree(CONTENT / "formula-de", pack, ignore=shutil.ignore_patterns("tests"))
    (pack / "tests").mkdir()
    (pack / "tests" / "short.yaml").write_text(
        "slipstream: fd-scenario/1\nid: short\ncovers: [rule:basic-wear]\ntrack: {lanes: 3, squares: 40}\n"
        "cars: [{}, {}]\ndice: {black: [2]}\nexpect:\n  cars: [{}]\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["test", str(pack)], catch_exceptions=False)
    assert res.exit_code == 1, res.output
    assert "FAIL short" in res.output
    assert "line 6: the script ran out of black rolls during the grid roll" in res.output
    assert "0 passed, 1 failed, 0 malformed" in res.output
