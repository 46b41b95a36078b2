"""Speed-and-hazard championships (`slipstream season content/speed-hazard`), from the shared
machinery of engine/play/seasons.py: points by place (pack data, house default), ties broken by
count-back then the last race, wrecks scoring none. What every points-by-place ruleset's
championships share (races as single races, the season command, the golden season log and its
broken copies) is in tests/rulesets/test_shared_season.py and test_shared_golden.py."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import ROOT, run

from slipstream.engine.play.racelog import replay_lines
from slipstream.engine.play.registry import get
from slipstream.engine.rulesets.speed_hazard.seasons import HOUSE_POINTS

PACK = str(ROOT / "content" / "speed-hazard")
HOUSE = str(Path(__file__).parent / "packs" / "house-rules")
GOLDEN = Path(__file__).parent / "golden-speed-hazard-season" / "two-races-one-lap.jsonl"


def test_speed_hazard_offers_championships_with_its_season_options():
    rs = get("speed-hazard")
    specs = {s.name: s for s in rs.options if s.scope == "season"}
    assert set(specs) == {"season_races", "season_points", "season_eliminated_score"}
    assert specs["season_points"].default == list(HOUSE_POINTS)
    assert "wrecked car" in specs["season_eliminated_score"].help


def test_the_golden_season_shows_a_wreck_scoring_none_and_a_tie_broken_by_the_last_race():
    rows = [json.loads(x) for x in GOLDEN.read_text(encoding="utf-8").splitlines()]
    races = [r for r in rows if r["t"] == "result"]
    points = [r for r in rows if r["t"] == "season-race"]
    assert races[0]["wrecks"] == ["P4"] and points[0]["points"]["P4"] == 0
    end = rows[-1]
    assert end["t"] == "season-result"
    first, second = end["standings"][:2]
    # level on points, wins and second places: the better place in the last race decides
    assert end["points"][first] == end["points"][second]
    assert races[-1]["standings"].index(first) < races[-1]["standings"].index(second)
    assert sum(r["standings"][0] == first for r in races) == sum(r["standings"][0] == second for r in races)


def test_a_changed_points_line_of_the_golden_season_is_found_on_its_line():
    # the golden season log and its seeded broken copies: tests/rulesets/test_shared_golden.py
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    i = next(i for i, s in enumerate(lines) if '"t":"season-race"' in s)
    bad = list(lines)
    bad[i] = bad[i].replace('"P4":0', '"P4":1')
    rep = replay_lines(bad)
    assert not rep.identical and rep.line >= 1 and rep.message
    assert replay_lines(bad).line == i + 1


def test_several_speed_hazard_championships_give_no_finish_rate():
    # one championship in text, with its log replayed: tests/rulesets/test_shared_season.py
    code, out = run("season", PACK, "--players", "2", "--laps", "1", "--seasons", "3", "--format", "json",
                    "--option", "season_races=1")
    assert code == 0, out
    s = json.loads(out)
    assert s["seasons"] == 3 and "finish_rate" not in s and "eliminations_by_cause" in s


def test_points_per_place_are_pack_data_and_an_option_overrides_them():
    code, out = run("season", HOUSE, "--bots", "greedy,random", "--players", "3", "--laps", "1", "--seed", "5",
                    "--option", "season_races=1", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["season_options"]["season_points"] == [5, 3, 2, 1]
    assert sorted(data["races"][0]["points"].values(), reverse=True) == [5, 3, 2]
    code, out = run("season", HOUSE, "--bots", "greedy,random", "--players", "3", "--laps", "1", "--seed", "5",
                    "--option", "season_races=1", "--option", "season_points=players_minus_place", "--format", "json")
    assert sorted(json.loads(out)["races"][0]["points"].values(), reverse=True) == [3, 2, 1]


def test_sweep_seasons_runs_on_a_speed_hazard_pack(tmp_path):
    code, out = run("sweep", PACK, "--vary", "option:ram_beside=true,false", "--seasons", "2", "--laps", "1",
                    "--db", str(tmp_path / "s.sqlite"), "--format", "json")
    assert code == 0, out
    data = json.loads(out[out.index("{"):])
    assert data["unit"] == "seasons" and [v["races"] for v in data["variants"]] == [2, 2]
