"""The wear stock of a season (RULES §1.3, option `unlimited_wear`): unlimited by default, or the
supply of cubes.yaml, carried from race to race like every other stock."""

from __future__ import annotations

from slipstream.engine.rulesets.automobiles.bots import make_bot
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import UNLIMITED_WEAR, Seat
from slipstream.engine.rulesets.automobiles.racesetup import _ruleset
from slipstream.engine.rulesets.automobiles.season import Season


def _first_race(unlimited: bool) -> Season:
    rs = _ruleset("", "", ()).with_options({"unlimited_wear": unlimited})
    seats = [Seat(f"P{i + 1}", "greedy") for i in range(3)]
    s = Season(rs, [base_pack().tracks["first-oval"]] * 2, seats, seed=3, laps=1)
    bots = [make_bot("greedy", i) for i in range(3)]
    while s.stage != "draft":
        d = s.pending
        assert d is not None and s.game is not None
        s.apply(bots[d.player].choose(s.game, d))
    return s


def test_unlimited_wear_is_left_out_of_the_season_stock() -> None:
    s = _first_race(unlimited=True)
    wear = s.rules.wear
    assert s.races[0].supply[wear] >= UNLIMITED_WEAR
    assert "wear" not in s.races[0].stock_left
    assert sum(row[wear] for row in s.owned) > 0  # wear was gained in race 1


def test_limited_wear_is_the_supply_and_carries_over() -> None:
    s = _first_race(unlimited=False)
    wear = s.rules.wear
    supply = next(k.supply for k in s.rules.kinds if k.index == wear)
    assert supply == 80
    owned = sum(row[wear] for row in s.owned)
    assert owned > 0
    # what the players gained came out of the 80: the rest is the stock left and carried over
    assert s.races[0].stock_left["wear"] == supply - owned == s.stock[wear]
