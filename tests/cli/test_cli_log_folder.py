"""Issue 31: `race` and `season` (Automobiles and other rulesets) refuse a --log path that cannot
be a folder with a usage error naming --log, before racing (NotADirectoryError /
FileExistsError tracebacks before)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import CONTENT

from slipstream.cli.main import main

FD = str(CONTENT / "formula-de")


@pytest.mark.parametrize("command", [["race"], ["season"], ["season", FD]])
@pytest.mark.parametrize("where, why", [("f/sub", "a part of the path is a file"),
                                        (os.devnull, "it is there and not a folder")])
def test_a_log_path_that_cannot_be_a_folder_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            command: list[str], where: str, why: str):
    monkeypatch.chdir(tmp_path)
    Path("f").write_text("mine\n")
    res = CliRunner().invoke(main, [*command, "--laps", "1", "--log", where], catch_exceptions=False)
    assert res.exit_code == 2, res.output
    assert "Invalid value for --log" in res.output and why in res.output
    assert Path("f").read_text() == "mine\n"


def test_a_log_folder_is_made_with_its_parents(tmp_path: Path):
    res = CliRunner().invoke(main, ["race", "--laps", "1", "--seed", "3", "--log", str(tmp_path / "a" / "b")],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert (tmp_path / "a" / "b" / "race-3.jsonl").is_file()
