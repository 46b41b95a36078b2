"""Issue 31: a file in a pack's tests/ tagged with a data kind (gears/1, car-setup/1, cards/1...)
is an F003 error saying tests/ holds rule scenarios, whether the file or its pack is validated;
validating the file alone used to load its pack again and again (RecursionError)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import CONTENT

from slipstream.cli.main import main


@pytest.mark.parametrize("pack, tag", [("formula-de", "gears/1"), ("formula-de", "wear/1"),
                                       ("speed-hazard", "car-setup/1"), ("base", "cards/1"),
                                       ("formula-de", "track/1")])
def test_a_data_file_in_tests_is_an_error_not_a_recursion(tmp_path: Path, pack: str, tag: str):
    root = tmp_path / pack
    shutil.copytree(CONTENT / pack, root)
    (root / "tests" / "x.yaml").write_text(f"slipstream: {tag}\n", encoding="utf-8")
    for target in (root / "tests" / "x.yaml", root):
        res = CliRunner().invoke(main, ["validate", "--no-cache", str(target)], catch_exceptions=False)
        assert res.exit_code == 1, res.output
        assert f"x.yaml:1:13: error F003 a {tag} file in tests/: tests/ holds rule scenarios" in res.output
        assert res.output.count(" error ") == 1, res.output


def test_a_valid_data_file_copied_into_tests_is_refused_too(tmp_path: Path):
    root = tmp_path / "fd"
    shutil.copytree(CONTENT / "formula-de", root)
    shutil.copy(root / "gears.yaml", root / "tests" / "gears-copy.yaml")
    res = CliRunner().invoke(main, ["validate", "--no-cache", str(root)], catch_exceptions=False)
    assert res.exit_code == 1 and "F003 a gears/1 file in tests/" in res.output
