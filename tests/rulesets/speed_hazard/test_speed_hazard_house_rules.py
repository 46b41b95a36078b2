"""House rules in a speed-and-hazard pack (`speed-hazard-rules/1`, tests/rulesets/speed_hazard/
packs/house-rules): races and scenarios read them, and `--option` overrides them (the pack
validates, its scenarios and race logs: tests/rulesets/test_shared_races.py)."""

from __future__ import annotations

from pathlib import Path

from slipstream.engine.play.races import seats_of
from slipstream.engine.play.registry import for_pack

PACK = str(Path(__file__).parent / "packs" / "house-rules")


def test_a_race_deals_the_u_turn_card_by_the_house_rules_unless_an_option_says_no():
    rs, pack = for_pack(PACK)
    track = pack.tracks["redline-loop"]
    assert rs.new_game(pack, track, seats_of(("greedy", "greedy")), 1, {}).o_uturn is True
    assert rs.new_game(pack, track, seats_of(("greedy", "greedy")), 1, {"u_turn": False}).o_uturn is False
