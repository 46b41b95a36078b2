"""`validate --skip-untagged`: other tools' YAML given by name is skipped (F002), ours is still checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main

TRACK = Path(__file__).resolve().parents[2] / "content" / "base" / "tracks" / "first-oval.yaml"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {
        "workflow": tmp_path / "ci.yml",
        "mkdocs": tmp_path / "mkdocs.yml",
        "broken-track": tmp_path / "broken.yaml",
    }
    out["workflow"].write_text("on: [push]\njobs: {a: {runs-on: x}}\n", encoding="utf-8")
    out["mkdocs"].write_text("site_name: x\nicon: !!python/name:material.icons\n", encoding="utf-8")
    out["broken-track"].write_text(TRACK.read_text(encoding="utf-8").replace("laps: 3", "laps: 0", 1),
                                   encoding="utf-8")
    return out


def validate(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["validate", "--no-cache", *args])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, r.output


def test_untagged_yaml_given_by_name_is_an_error_without_the_flag(files: dict[str, Path]) -> None:
    code, out = validate(str(files["workflow"]))
    assert code == 1 and "F003" in out


@pytest.mark.parametrize("strict", [[], ["--strict"]])
def test_with_the_flag_it_is_skipped_with_a_warning(files: dict[str, Path], strict: list[str]) -> None:
    code, out = validate("--skip-untagged", *strict, str(files["workflow"]), str(files["mkdocs"]), str(TRACK))
    assert code == 0, out
    assert f"{files['workflow']}:1:1: warning F002 skipped" in out
    assert f"{files['mkdocs']}:1:1: warning F002 skipped" in out  # not parsed: its tag is not safe YAML
    assert "3 files checked, 0 errors" in out


def test_with_the_flag_a_broken_slipstream_file_still_fails(files: dict[str, Path]) -> None:
    code, out = validate("--skip-untagged", str(files["workflow"]), str(files["broken-track"]))
    assert code == 1 and f"{files['broken-track']}:" in out and " error " in out


def test_a_folder_skips_other_tools_yaml_even_when_it_does_not_parse(files: dict[str, Path],
                                                                     tmp_path: Path) -> None:
    files["broken-track"].unlink()
    code, out = validate(str(tmp_path))
    assert code == 0, out
    assert out.count("F002") == 2
