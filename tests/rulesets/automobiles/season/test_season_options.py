"""Season options of the pack's rules file (RULES §8.8, §8.19) that change the races after
the first: a grid purchase before every race, and sponsor drafts by level."""

from __future__ import annotations

import json
from functools import cache

from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.seasonrun import SeasonResult, SeasonSpec, run_season

TRACKS = ("first-oval", "road-course", "first-oval")


@cache
def season(**options: bool) -> SeasonResult:
    spec = SeasonSpec("", TRACKS, 11, ("greedy", "greedy", "greedy", "random"), laps=1,
                      season_options=tuple(options.items()))
    return run_season(spec)


def _purchase_races(res: SeasonResult) -> set[int]:
    return {e["race"] for e in map(json.loads, res.lines)
            if e.get("t") == "decision" and e.get("kind") == "purchase" and "race" in e}


def test_season_grid_purchase_buys_before_every_race() -> None:
    assert _purchase_races(season(season_grid_purchase=True)) == {1, 2, 3}
    assert _purchase_races(season(season_grid_purchase=False)) == {1}


def test_sponsor_level_by_draft_offers_one_level_per_draft() -> None:
    levels = {s.id: s.level for s in base_pack().sponsors.values()}
    by_draft = season(sponsor_level_by_draft=True).drafts
    assert [sorted({levels[s] for s in d.pool}) for d in by_draft] == [[1], [2]]
    mixed = season(sponsor_level_by_draft=False).drafts
    assert any(len({levels[s] for s in d.pool}) > 1 for d in mixed)
