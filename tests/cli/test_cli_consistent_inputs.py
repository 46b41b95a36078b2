"""Issue 31 item 5: every command that takes a pack takes a bundled pack's id (as `validate` and
`cards` do); `test` counts malformed files, not their messages; `season --tracks` of a Formula
Dé-style championship takes track files and the counts its help states (the help says, per
installed ruleset, how many races its seasons take)."""

from __future__ import annotations

import shutil
from pathlib import Path

import helpers
import pytest
from helpers import CONTENT

from slipstream.engine.play.registry import get


def run(*args: str) -> tuple[int, str]:
    return helpers.run(*args, catch=False)  # an escaped exception fails the test


@pytest.mark.parametrize("args", [
    ["race", "formula-de", "--laps", "1"],
    ["race", "speed-hazard", "--laps", "1", "--bots", "random,random"],
    ["test", "formula-de", "-k", "brakes"],
    ["test", "base", "-k", "sponsor-f3"],
    ["ladder", "formula-de", "--races", "1", "--field", "0", "--bots", "random,greedy", "--laps", "1"],
    ["season", "formula-de", "--laps", "1", "--bots", "random,random"],
    ["season", "base", "--laps", "1", "--bots", "random,random"],
    ["sweep", "formula-de", "--races", "1", "--laps", "1", "--bots", "random,random",
     "--vary", "option:collision_diagonal=true,false", "--db", "{tmp}/s.sqlite"],
])
def test_a_bundled_pack_id_names_the_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]):
    monkeypatch.chdir(tmp_path)  # no folder of that name here
    code, out = run(*(a.format(tmp=tmp_path) for a in args))
    assert code == 0, out
    assert "is not a pack" not in out


def test_a_folder_of_that_name_wins_over_the_bundled_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "formula-de").mkdir()  # a folder without pack.yaml: the user meant it
    code, out = run("race", "formula-de", "--laps", "1")
    assert code == 1 and "formula-de is not a pack" in out


def test_test_counts_malformed_files_not_messages(tmp_path: Path):
    pack = tmp_path / "fd"
    shutil.copytree(CONTENT / "formula-de", pack)
    good = len(list((pack / "tests").glob("*.yaml")))
    (pack / "tests" / "bad.yaml").write_text("slipstream: fd-scenario/1\nid: 7\n", encoding="utf-8")  # 4 problems
    code, out = run("test", str(pack))
    assert code == 1
    assert out.count("bad.yaml:") >= 3
    assert out.rstrip().endswith(f"{good} passed, 0 failed, 1 malformed"), out
    code, out = run("test", str(pack), "--format", "github")
    assert f"{good} passed, 0 failed, 1 malformed" in out


def test_a_formula_de_championship_takes_track_files_and_1_to_20_races(tmp_path: Path):
    v2 = str(CONTENT / "tracks-v2" / "tilleuls.yaml")
    log = tmp_path / "logs"
    code, out = run("season", "formula-de", "--laps", "1", "--bots", "random,random", "--log", str(log),
                    "--tracks", f"{v2},tilleuls,tilleuls")
    assert code == 0, out
    code, out = run("replay", str(log / "season-1.jsonl"))
    assert code == 0 and "identical" in out, out
    for n in (3, 5):
        code, out = run("season", "formula-de", "--laps", "1", "--bots", "random,random",
                        "--tracks", ",".join(["tilleuls"] * n))
        assert code == 0, out
    code, out = run("season", "formula-de", "--laps", "1", "--tracks", ",".join(["tilleuls"] * 21))
    assert code == 2 and "1 to 20 races" in out
    code, out = run("season", "formula-de", "--laps", "1", "--tracks", str(CONTENT / "tracks-v2" / "redline-loop.yaml"))
    assert code == 2 and "T151" in out  # a track the ruleset cannot race: its diagnostics
    code, out = run("season", "--help")
    help_ = " ".join(out.split())
    # the counts come from each ruleset's seasons (`Championships.races`), named by the ruleset
    # (the toy ruleset of tests/toyruleset.py, registered for the tests, declares championships too)
    assert ("Automobiles: 3-5, Formula Dé-style racing: 1-20, Speed-and-hazard racing: 1-20, Toy race: 1-20 races"
            in help_)
    for rid in ("automobiles", "formula-de", "speed-hazard"):
        rs = get(rid)
        assert rs.seasons is not None
        lo, hi = rs.seasons.races
        assert f"{rs.name}: {lo}-{hi}" in help_


def test_an_automobiles_season_takes_the_counts_its_help_states():
    for n in (2, 6):
        code, out = run("season", "--tracks", ",".join(["first-oval"] * n))
        assert code == 2 and "3 to 5 races" in out, out
