"""Issue 31: a whole number written `2.0` is the whole number 2 in every file, as the schemas'
`integer` (JSON Schema's) has it: scenarios and data files that `validate` passes run with it
and race the same, instead of a TypeError in a runner (Automobiles cards and cubes, every
ruleset's scenarios)."""

from __future__ import annotations

import shutil
from pathlib import Path

import helpers
import pytest
import yaml
from helpers import CONTENT


def floats(x):
    """Every whole number of `x` written as N.0 (booleans kept)."""
    if isinstance(x, bool):
        return x
    if isinstance(x, int):
        return float(x)
    if isinstance(x, dict):
        return {k: floats(v) for k, v in x.items()}
    if isinstance(x, list):
        return [floats(v) for v in x]
    return x


def run(*args: str) -> tuple[int, str]:
    return helpers.run(*args, catch=False)  # an escaped exception fails the test


def test_the_smallest_case_a_scripted_roll_and_a_board_size_written_as_floats(tmp_path: Path):
    pack = tmp_path / "fd"
    shutil.copytree(CONTENT / "formula-de", pack, ignore=shutil.ignore_patterns("tests"))
    (pack / "tests").mkdir()
    (pack / "tests" / "w.yaml").write_text(
        "slipstream: fd-scenario/1\nid: w\ncovers: [rule:basic-wear]\ntrack: {lanes: 3.0, squares: 40.0}\n"
        "options: {wear_model: basic}\ncars: [{}]\ndice: {black: [2.0]}\nexpect:\n  cars: [{wear: {pool: 18.0}}]\n",
        encoding="utf-8")
    assert run("validate", "--no-cache", str(pack))[0] == 0
    code, out = run("test", str(pack))
    assert code == 0 and "1 passed, 0 failed, 0 malformed" in out, out


@pytest.mark.parametrize("name", ["base", "formula-de", "speed-hazard"])
def test_every_bundled_scenario_rewritten_with_float_whole_numbers_still_passes(tmp_path: Path, name: str):
    pack = tmp_path / name
    shutil.copytree(CONTENT / name, pack)
    files = sorted((pack / "tests").rglob("*.yaml"))
    for f in files:
        f.write_text(yaml.safe_dump(floats(yaml.safe_load(f.read_text(encoding="utf-8"))), sort_keys=False),
                     encoding="utf-8")
    code, out = run("validate", "--no-cache", str(pack))
    assert code == 0, out
    code, out = run("test", str(pack))
    assert code == 0, out
    assert f"{len(files)} passed, 0 failed, 0 malformed" in out


@pytest.mark.parametrize("name", ["base", "formula-de", "speed-hazard"])
def test_every_data_file_rewritten_with_float_whole_numbers_races_the_same(tmp_path: Path, name: str):
    pack = tmp_path / name
    shutil.copytree(CONTENT / name, pack, ignore=shutil.ignore_patterns("tests"))
    for f in sorted(pack.rglob("*.yaml")):
        if f.name != "pack.yaml":
            f.write_text(yaml.safe_dump(floats(yaml.safe_load(f.read_text(encoding="utf-8"))), sort_keys=False),
                         encoding="utf-8")
    code, out = run("validate", "--no-cache", str(pack))
    assert code == 0, out
    race = ["--laps", "1", "--seed", "5", "--bots", "greedy,random", "--format", "json"]
    code, floated = run("race", str(pack), *race)
    assert code == 0, floated
    assert floated == run("race", str(CONTENT / name), *race)[1]
