"""Seasons: carried collections and stock, grids, points, drivers, the draft and sponsors, logs."""

from __future__ import annotations

import json
from functools import cache

import pytest

from slipstream.engine.rulesets.automobiles.bots import make_bot
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.draft import Draft, bracket_for, draw_pool, effect_score
from slipstream.engine.rulesets.automobiles.game import Seat
from slipstream.engine.rulesets.automobiles.racesetup import _ruleset
from slipstream.engine.rulesets.automobiles.season import (
    Season,
    SeasonConfig,
    next_grid,
    play_season,
    season_config,
    season_standings,
)
from slipstream.engine.rulesets.automobiles.seasonrun import (
    SeasonResult,
    SeasonSpec,
    replay_season_lines,
    run_season,
)
from slipstream.engine.rulesets.automobiles.state import BAG

TRACKS = ("first-oval", "road-course", "first-oval")


@cache
def season_result(seed: int = 11, drivers: bool = True, grid: str = "winner_pole") -> SeasonResult:
    spec = SeasonSpec("", TRACKS, seed, ("greedy", "greedy", "greedy", "random"), laps=1,
                      season_options=(("drivers", drivers), ("season_grid", grid)))
    return run_season(spec)


def lines_of(res: SeasonResult) -> list[dict]:
    return [json.loads(x) for x in res.lines]


# ------------------------------------------------------------------ plain rules


def test_points_table_from_the_pack_and_configurable() -> None:
    cfg = season_config(base_pack())
    assert cfg.points == "players_minus_place"
    assert [cfg.points_for(p, 4) for p in (1, 2, 3, 4)] == [4, 3, 2, 1]
    house = season_config(base_pack(), {"season_points": [10, 6, 4]})
    assert [house.points_for(p, 4) for p in (1, 2, 3, 4)] == [10, 6, 4, 0]
    with pytest.raises(ValueError):
        season_config(base_pack(), {"season_grid": "sideways"})


def test_standings_tie_break_is_the_last_race() -> None:
    assert season_standings([5, 7, 7, 3], [0, 2, 1, 3]) == [2, 1, 0, 3]
    assert season_standings([5, 7, 7, 3], [1, 0, 3, 2]) == [1, 2, 0, 3]


def test_next_grid_winner_pole_or_reverse() -> None:
    assert next_grid([2, 0, 3, 1], "winner_pole") == [2, 0, 3, 1]
    assert next_grid([2, 0, 3, 1], "reverse") == [1, 3, 0, 2]


def test_brackets() -> None:
    assert [bracket_for(p, 4) for p in (1, 2, 3, 4)] == ["first", "middle", "middle", "last"]
    assert [bracket_for(p, 2) for p in (1, 2)] == ["first", "last"]


def test_draw_pool_takes_from_the_deck_and_runs_short() -> None:
    deck = ["a1", "b1", "c1"]
    assert draw_pool(deck, 2) == ["a1", "b1"] and deck == ["c1"]
    assert draw_pool(deck, 5) == ["c1"] and deck == []
    assert draw_pool(deck, 5) == []


def test_draft_keep_then_discard_and_rejections() -> None:
    d = Draft(["b1", "c1"], [1, 0], ["a1", "d1"])
    assert d.pending is not None and d.pending.player == 1
    assert d.apply("take zz") is not None
    assert d.apply("keep") is None
    assert d.pending.kind == "draft_discard"
    assert d.apply("discard c1") is None
    assert d.pending.player == 0 and d.pending.keys() == ["take b1", "keep"]
    d.apply("take b1")
    assert d.over and d.held == ["b1", "d1"] and sorted(d.left_out) == ["a1", "c1"]
    assert d.apply("keep").code == "race-over"


def test_sponsor_scores_grow_with_the_numbers() -> None:
    rs = _ruleset("", "", ())
    for fam in "abcdef":
        for br in ("first", "middle", "last"):
            if (fam, br) == ("e", "last"):
                continue  # E3's last bracket has no extra (RULES §7.2): not stronger than E2's
            s = [effect_score(rs.sponsor(f"{fam}{lv}").effects[br], wear_owned=6) for lv in (1, 2, 3)]
            assert s[0] <= s[1] <= s[2], (fam, br, s)


# ------------------------------------------------------------------ a whole season


def test_a_season_runs_three_races_with_points_and_conserved_supply() -> None:
    res = season_result()
    assert len(res.races) == 3 and len(res.drafts) == 2
    for r in res.races:
        assert sorted(r.finish) == [0, 1, 2, 3]
    totals = [sum(r.points[p] for r in res.races) for p in range(4)]
    assert totals == res.points
    assert res.standings == season_standings(res.points, res.races[-1].finish)
    assert len(res.supply) == 4  # at the start of each race and at the end
    assert all(s == res.supply[0] for s in res.supply)


def test_later_grids_follow_the_finishing_order() -> None:
    res = season_result()
    assert res.races[0].grid == res.first_grid
    for prev, cur in zip(res.races, res.races[1:], strict=False):
        assert cur.grid == prev.finish
    rev = season_result(grid="reverse")
    for prev, cur in zip(rev.races, rev.races[1:], strict=False):
        assert cur.grid == list(reversed(prev.finish))


def test_grid_purchase_only_before_race_one() -> None:
    kinds = {}
    for e in lines_of(season_result()):
        if e.get("t") == "decision" and "race" in e:
            kinds.setdefault(e["race"], set()).add(e["kind"])
    assert "purchase" in kinds[1]
    assert "purchase" not in kinds[2] and "purchase" not in kinds[3]


def test_collections_carry_over_into_the_bag() -> None:
    """Race r+1 starts with the collection race r ended with, changed only by the sponsor."""
    lines = lines_of(season_result())
    heads = [e for e in lines if e.get("t") == "race"]
    assert heads[0]["bags"][0] == {"gear-3": 5, "gear-4": 2, "yellow": 5}
    # race 2's bags differ from the starting bag: cubes bought in race 1 stayed
    assert any(sum(b.values()) > 12 for b in heads[1]["bags"])


def test_stock_is_not_refilled_between_races() -> None:
    rs = _ruleset("", "", ())
    seats = [Seat(f"P{i + 1}", "greedy") for i in range(3)]
    s = Season(rs, [base_pack().tracks["first-oval"]] * 3, seats, seed=3, laps=1)
    bots = [make_bot("greedy", i) for i in range(3)]
    start_stock = s.stock[:]
    while s.stage != "draft":
        d = s.pending
        assert s.game is not None
        s.apply(bots[d.player].choose(s.game, d))
    after_race_1 = s.stock[:]
    assert after_race_1 != start_stock  # cubes were bought in race 1
    assert sum(after_race_1) < sum(start_stock) or after_race_1[rs.wear] != start_stock[rs.wear]
    # every player's whole collection is in the bag between races
    for pl in s.game.race.players:
        assert sum(sum(z) for z in pl.zones) == sum(pl.zones[BAG])
    play_season(s, bots)
    assert s.over and len(s.races) == 3


def test_drivers_dealt_players_plus_one_and_kept() -> None:
    lines = lines_of(season_result())
    deal = next(e for e in lines if e.get("ev") == "driver_deal")
    assert len(deal["drivers"]) == 5
    picks = [e for e in lines if e.get("t") == "decision" and e.get("stage") == "drivers"]
    assert len(picks) == 4
    assert [e["p"] for e in picks] == season_result().first_grid  # race-1 turn order
    chosen = season_result().drivers
    assert len(set(chosen)) == 4 and set(chosen) <= set(deal["drivers"])
    for head in (e for e in lines if e.get("t") == "race"):
        assert head["drivers"] == chosen
    assert season_result(drivers=False).drivers == [None] * 4


def test_draft_order_and_sponsor_brackets() -> None:
    res = season_result()
    for d, race in zip(res.drafts, res.races, strict=False):
        assert d.order == race.finish
        assert len(d.pool) == 5
        first = next(e for e in d.events if e["ev"] in ("draft_take", "draft_keep"))
        assert first["p"] == race.finish[0]
        held_after = {p: s for p, s, _ in d.applied}
        assert [p for p, _, _ in d.applied] == [p for p in race.finish if p in held_after]
        for p, _sid, br in d.applied:
            assert br == bracket_for(race.finish.index(p) + 1, 4)
    # sponsors applied after draft k are held in race k + 1
    for k, d in enumerate(res.drafts):
        for p, sid, _ in d.applied:
            assert res.races[k + 1].sponsors[p] == sid


def test_sponsor_effects_change_the_collection_carried_into_the_next_race() -> None:
    lines = lines_of(season_result())
    done = [(i, e) for i, e in enumerate(lines) if e.get("ev") == "sponsor_done"]
    assert len(done) == 8  # 4 holders x 2 drafts
    assert any(e["removed"] for _, e in done) and any(e["gained"] for _, e in done)
    results = [(i, e) for i, e in enumerate(lines) if e.get("t") == "result"]
    heads = [(i, e) for i, e in enumerate(lines) if e.get("t") == "race"]
    for r in (1, 2):
        after = [dict(b) for b in results[r - 1][1]["owned"]]
        for e in (e for i, e in done if results[r - 1][0] < i < heads[r][0]):
            for kid, n in e["removed"].items():
                after[e["p"]][kid] -= n
            for kid, n in e["gained"].items():
                after[e["p"]][kid] = after[e["p"]].get(kid, 0) + n
        assert [{k: v for k, v in b.items() if v} for b in after] == heads[r][1]["bags"]
    # sponsor decisions are tagged with the race they follow
    assert any(e.get("t") == "decision" and e.get("after_race") == 1 for e in lines)


def test_a_stronger_sponsor_bracket_changes_more() -> None:
    """The same holder and collection: the doubled D3 gains twice the cubes of the base D3."""
    from slipstream.engine.rulesets.automobiles.racesetup import _ruleset as rules_of

    gained = {}
    for pack in ("", "tests/rulesets/automobiles/season/packs/strong-d3"):
        rs = rules_of(pack, "", ())
        seats = [Seat("P1", "greedy"), Seat("P2", "greedy")]
        s = Season(rs, [base_pack().tracks["first-oval"]] * 3, seats, seed=5, laps=1)
        s.deck = ["d3"]  # a pool of one: the race-1 winner takes it (first bracket)
        bots = [make_bot("greedy", i) for i in range(2)]
        play_season(s, bots)
        first = next(c for c in s.sponsor_changes if c[2] == "d3")
        gained[pack] = sum(first[4].values())
    assert gained[""] >= 1 and gained["tests/rulesets/automobiles/season/packs/strong-d3"] == 2 * gained[""]


# ------------------------------------------------------------------ logs and replay


def test_same_seed_same_log_and_replay_identical() -> None:
    spec = SeasonSpec("", TRACKS, 11, ("greedy", "greedy", "greedy", "random"), laps=1,
                      season_options=(("drivers", True), ("season_grid", "winner_pole")))
    again = run_season(spec)
    assert again.lines == season_result().lines
    assert replay_season_lines(again.lines).identical


def test_replay_reports_a_changed_decision_or_line() -> None:
    lines = list(season_result().lines)
    i = next(i for i, ln in enumerate(lines) if json.loads(ln).get("stage") == "draft")
    bad = json.loads(lines[i])
    bad["choice"] = "take nothing"
    rep = replay_season_lines(lines[:i] + [json.dumps(bad)] + lines[i + 1:])
    assert not rep.identical and rep.line == i + 1 and "rejected" in rep.message
    j = next(i for i, ln in enumerate(lines) if json.loads(ln).get("t") == "result")
    res = json.loads(lines[j])
    res["points"] = [0, 0, 0, 0]
    rep = replay_season_lines(lines[:j] + [json.dumps(res, sort_keys=True, separators=(",", ":"))] + lines[j + 1:])
    assert not rep.identical and rep.line == j + 1


def test_racelog_replay_dispatches_season_logs() -> None:
    from slipstream.engine.rulesets.automobiles.racelog import replay_lines

    assert replay_lines(list(season_result().lines)).identical


def test_season_config_defaults() -> None:
    assert SeasonConfig().points_for(1, 5) == 5
