"""Formula Dé-style championships (`slipstream season content/formula-de`) and the per-corner
batch statistics of `slipstream race content/formula-de --races N`. What the championships of
every points-by-place ruleset share (races as single races, the season command, the golden
season log and its broken copies) is in tests/rulesets/test_shared_season.py and
test_shared_golden.py."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from helpers import run

from slipstream.engine.play.racelog import replay_lines
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.play.registry import for_pack
from slipstream.engine.play.seasons import (
    RaceRecord,
    SeasonSpec,
    race_points,
    season_standings,
)
from slipstream.engine.play.seasons import run_season as play_season
from slipstream.engine.rulesets.formula_de.seasons import CHAMPIONSHIP


def run_season(ruleset, spec):
    return play_season(ruleset, CHAMPIONSHIP, spec)

ROOT = Path(__file__).resolve().parents[3]
PACK = str(ROOT / "content" / "formula-de")
BOTS = ("greedy", "greedy", "random")


def rs():
    return for_pack(PACK)[0]


def test_house_points_go_by_place_and_an_eliminated_car_scores_none():
    table = [10, 8, 6, 5, 4, 3, 2, 1]
    assert race_points(table, [2, 0, 1], {}, False) == [8, 6, 10]
    assert race_points(table, [2, 0, 1], {1: "overshoot"}, False) == [8, 0, 10]
    assert race_points(table, [2, 0, 1], {1: "overshoot"}, True) == [8, 6, 10]
    assert race_points("players_minus_place", [2, 0, 1], {}, False) == [2, 1, 3]
    assert race_points([5], [0, 1], {}, False) == [5, 0]  # places beyond the list score 0


def _rec(order: list[int]) -> RaceRecord:
    return RaceRecord("t", 1, list(order), list(order), {}, [0] * len(order), 1, False)


def test_a_points_tie_goes_to_more_wins_then_more_second_places_then_the_last_race():
    # P0 and P1 both 20: P1 has a win, P0 none -> P1 ahead
    races = [_rec([1, 2, 0]), _rec([2, 0, 1]), _rec([2, 0, 1])]
    assert season_standings([20, 20, 30], races)[:2] == [2, 1]
    # equal wins, P0 has more second places
    races = [_rec([0, 1, 2]), _rec([1, 0, 2]), _rec([2, 0, 1])]
    assert season_standings([18, 18, 6], races)[:2] == [0, 1]
    # same places in every count: the better place in the last race
    races = [_rec([0, 1]), _rec([1, 0])]
    assert season_standings([18, 18], races) == [1, 0]


def test_a_season_log_replays_identically_and_a_changed_total_is_found_on_its_line():
    res = run_season(rs(), SeasonSpec(PACK, ("tilleuls", "tilleuls"), 2, BOTS, laps=1,
                                      season_options=(("season_points", [5, 3, 1]),)))
    lines = res.lines
    assert json.loads(lines[0])["t"] == "season" and json.loads(lines[-1])["t"] == "season-result"
    assert replay_lines(lines).identical
    again = run_season(rs(), SeasonSpec(PACK, ("tilleuls", "tilleuls"), 2, BOTS, laps=1,
                                        season_options=(("season_points", [5, 3, 1]),)))
    assert again.lines == lines
    i = next(i for i, s in enumerate(lines) if '"t":"season-race"' in s)
    bad = list(lines)
    bad[i] = bad[i].replace('"race":1', '"race":7')
    rep = replay_lines(bad)
    assert not rep.identical and rep.line == i + 1
    d = next(i for i, s in enumerate(lines) if '"t":"decision"' in s and i > 3)
    bad = list(lines)
    bad[d] = json.dumps({"t": "decision", "p": 0, "kind": "gear", "choice": "gear 9"})
    rep = replay_lines(bad)
    assert not rep.identical and rep.line == d + 1 and "rejected" in rep.message
    rep = replay_lines(lines[:-1])
    assert not rep.identical and "season result" in rep.message


def test_slipstream_season_gives_a_formula_de_championship_in_json():
    # in text, with its log replayed: tests/rulesets/test_shared_season.py
    code, out = run("season", PACK, "--bots", "greedy,random", "--players", "3", "--laps", "1", "--seed", "5",
                    "--option", "season_races=2", "--format", "json")
    data = json.loads(out)
    assert [r["race"] for r in data["races"]] == [1, 2]
    assert sum(s["points"] for s in data["standings"]) == sum(sum(r["points"].values()) for r in data["races"])


def test_several_championships_give_champion_rates_by_grid_slot_and_bot():
    code, out = run("season", PACK, "--bots", "greedy,random", "--players", "2", "--laps", "1", "--seed", "1",
                    "--seasons", "3", "--option", "season_races=1", "--format", "json")
    assert code == 0, out
    s = json.loads(out)
    assert s["seasons"] == 3
    assert sum(r["wins"] for r in s["champion_by_bot"]) == 3
    assert sum(r["wins"] for r in s["champion_by_slot"]) == 3
    assert {r["label"] for r in s["race_wins_by_bot"]} == {"greedy", "random"}


def test_automobiles_season_flags_are_a_usage_error_on_a_formula_de_pack():
    code, out = run("season", PACK, "--set", "x")
    assert code == 2 and "Automobiles seasons" in out and "Traceback" not in out


def test_batch_statistics_per_corner_are_the_counts_of_the_races_logs():
    ruleset = rs()
    results = [run_race(RaceSpec(PACK, "tilleuls", s, ("greedy", "random", "random", "greedy"), 1))
               for s in range(1, 5)]
    stops: Counter[int] = Counter()
    over: Counter[int] = Counter()
    missed: Counter[int] = Counter()
    for r in results:
        for e in r.log:
            if e.get("ev") == "stop":
                stops[e["corner"]] += 1
            elif e.get("ev") == "overshoot":
                over[e["corner"]] += 1
                missed[e["corner"]] += e["required"] - e["made"]
    s = ruleset.stats.summarise(results)
    assert sum(over.values()) > 0 and sum(missed.values()) > 0
    by = {c["index"]: c for c in s["corners"]}
    for i in by:
        assert (by[i]["stops"], by[i]["overshoots"], by[i]["stops_missed"]) == (stops[i], over[i], missed[i])
    heat = ruleset.stats.heat(s)
    assert heat["Stops made per race"] == {f"corner:{i}": round(stops[i] / 4, 4) for i in by}
    assert heat["Stops missed per race"] == {f"corner:{i}": round(missed[i] / 4, 4) for i in by}
    text = ruleset.stats.format_summary(s)
    assert "stops missed by corner:" in text and "win rate by grid slot" in text


def test_race_batch_json_has_the_per_corner_figures():
    code, out = run("race", PACK, "--races", "3", "--laps", "1", "--format", "json")
    assert code == 0, out
    s = json.loads(out[out.index("{"):])
    assert {"finish_rate", "eliminations_by_cause", "overshoots_by_corner", "stops_missed_by_corner",
            "corners", "win_rate_by_slot"} <= set(s)
    assert len(s["corners"]) == 8
