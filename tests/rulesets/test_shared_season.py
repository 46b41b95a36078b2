"""Championships of the Formula Dé-style and speed-and-hazard rulesets, through the shared
points-by-place machinery of engine/play/seasons.py: a championship is its races played as
single races with their points, and `slipstream season` runs one whose log replays. What is
each ruleset's own (its season options, eliminated or wrecked cars, batch figures) is tested
in its folder."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from helpers import run

from slipstream.engine.play.protocol import SeasonPlan
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.play.registry import for_pack
from slipstream.engine.play.seasons import race_seed
from slipstream.engine.rulesets.speed_hazard.seasons import HOUSE_POINTS

from .shared import FD, SH, Ruleset


@dataclass(frozen=True)
class Case:
    rs: Ruleset
    track: str  # the track of every race
    seed: int
    bots: tuple[str, ...]
    out: str  # where a race result names the cars out of it, which score no points
    points: tuple[int, ...]  # the house points by place
    a_car_out: bool  # the seed was chosen for a car out of a race
    text: str  # what `slipstream season` says of this ruleset's championship


CASES = [Case(FD, "tilleuls", 4, ("greedy", "greedy", "random"), "out", (10, 8, 6), False,
              "championship standings"),
         Case(SH, "redline-loop", 111, ("greedy", "random", "greedy", "random"), "wrecks", HOUSE_POINTS, True,
              "points 10-6-4-3-2-1")]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.rs.id)
def test_a_championship_is_its_races_played_as_single_races_with_their_points(case: Case) -> None:
    pack = str(case.rs.pack)
    rs, _ = for_pack(pack)
    res = rs.seasons.run(SeasonPlan(pack, (case.track, case.track), case.seed, case.bots, 1))
    totals = [0] * len(case.bots)
    for k, rr in enumerate(res.races):
        assert race_seed(case.seed, k) == case.seed * 1000 + k + 1
        single = run_race(RaceSpec(pack, case.track, race_seed(case.seed, k), case.bots, 1))
        assert rr.standings == single.standings and rr.grid == single.grid
        out = {single.names.index(n) for n in single.result[case.out]}
        assert set(rr.out) == out
        for place, p in enumerate(single.standings):
            totals[p] += 0 if p in out else case.points[place]
    if case.a_car_out:
        assert any(rr.out for rr in res.races), "the seed was chosen for a car out of a race"
    assert res.points == totals
    assert [res.points[p] for p in res.standings] == sorted(totals, reverse=True)
    assert res.grid == res.races[0].grid


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.rs.id)
def test_slipstream_season_runs_a_championship_and_its_log_replays(case: Case, tmp_path) -> None:
    code, out = run("season", str(case.rs.pack), "--bots", "greedy,random", "--players", "3", "--laps", "1",
                    "--seed", "5", "--option", "season_races=2", "--log", str(tmp_path))
    assert code == 0, out
    assert f"Championship of 2 races ({case.track}, {case.track})" in out and case.text in out
    assert run("replay", str(tmp_path / "season-5.jsonl")) == (0, "identical\n")
