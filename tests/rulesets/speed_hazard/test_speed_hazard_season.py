"""Speed-and-hazard championships (`slipstream season content/speed-hazard`), from the shared
machinery of engine/play/seasons.py: points by place (pack data, house default), ties broken by
count-back then the last race, wrecks scoring none, season logs that replay."""

from __future__ import annotations

import json
import random
from pathlib import Path

from helpers import ROOT, run

from slipstream.engine.play.protocol import SeasonPlan
from slipstream.engine.play.racelog import replay_lines
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.play.registry import for_pack, get
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


def test_a_championship_is_its_races_played_as_single_races_with_their_points():
    rs, _ = for_pack(PACK)
    bots = ("greedy", "random", "greedy", "random")
    res = rs.seasons.run(SeasonPlan(PACK, ("redline-loop", "redline-loop"), 111, bots, 1))
    totals = [0] * 4
    for k, rr in enumerate(res.races):
        single = run_race(RaceSpec(PACK, "redline-loop", 111 * 1000 + k + 1, bots, 1))
        assert rr.standings == single.standings and rr.grid == single.grid
        wrecks = {single.names.index(n) for n in single.result["wrecks"]}
        assert set(rr.out) == wrecks
        for place, p in enumerate(single.standings):
            totals[p] += 0 if p in wrecks else HOUSE_POINTS[place]
    assert any(rr.out for rr in res.races), "the seed was chosen for a wreck"
    assert res.points == totals


def test_the_golden_season_log_replays_identically(monkeypatch):
    """Written from the repository root by `slipstream season content/speed-hazard --players 4
    --bots greedy,random --laps 1 --option season_races=2 --seed 111 --log DIR`; regenerate it
    so when the rules or the pack change on purpose."""
    monkeypatch.chdir(ROOT)  # the header names the pack by its path from the repository root
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["t"] == "season" and head["ruleset"] == "speed-hazard"
    rep = replay_lines(lines)
    assert rep.identical, f"{rep.message} at line {rep.line}"


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


def test_broken_season_logs_end_in_a_report_never_a_traceback():
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    rng = random.Random(29)
    values = [None, True, -1, 10**30, "x", [], {}, [1, 2], 1.5, "P1"]
    mutants = []
    for _ in range(20):
        ls = list(lines)
        i = rng.randrange(len(ls))
        how = rng.randrange(4)
        if how == 0:
            del ls[i]
        elif how == 1:
            ls[i] = ls[i][: rng.randrange(len(ls[i]))]
        elif how == 2:
            ls.insert(i, ls[rng.randrange(len(ls))])
        else:
            obj = json.loads(ls[i])
            obj[rng.choice(sorted(obj))] = rng.choice(values)
            ls[i] = json.dumps(obj, sort_keys=True, separators=(",", ":"))
        mutants.append(ls)
    head = json.loads(lines[0])
    for key in ("tracks", "seats", "season_options", "options", "laps", "seed", "digest"):
        mutants.append([json.dumps({**head, key: rng.choice(values)})] + lines[1:])
    i = next(i for i, s in enumerate(lines) if '"t":"season-race"' in s)
    bad = list(lines)
    bad[i] = bad[i].replace('"P4":0', '"P4":1')
    mutants.append(bad)
    for ls in mutants:
        rep = replay_lines(ls)
        if ls != lines:
            assert not rep.identical and rep.line >= 1 and rep.message
    assert replay_lines(bad).line == i + 1


def test_slipstream_season_runs_a_speed_hazard_championship_and_its_log_replays(tmp_path):
    code, out = run("season", PACK, "--bots", "greedy,random", "--players", "3", "--laps", "1", "--seed", "5",
                    "--option", "season_races=2", "--log", str(tmp_path))
    assert code == 0, out
    assert "Championship of 2 races (redline-loop, redline-loop)" in out and "points 10-6-4-3-2-1" in out
    assert run("replay", str(tmp_path / "season-5.jsonl")) == (0, "identical\n")
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
