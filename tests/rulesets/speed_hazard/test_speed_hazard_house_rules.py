"""House rules in a speed-and-hazard pack (`speed-hazard-rules/1`, tests/rulesets/speed_hazard/
packs/house-rules): races and scenarios read them, and `--option` overrides them."""

from __future__ import annotations

from pathlib import Path

from helpers import run

from slipstream.engine.play.races import seats_of
from slipstream.engine.play.registry import for_pack

PACK = str(Path(__file__).parent / "packs" / "house-rules")


def test_the_pack_validates_and_its_scenarios_play_by_its_house_rules():
    assert run("validate", PACK)[0] == 0
    code, out = run("test", PACK)
    assert code == 0 and "1 passed, 0 failed" in out, out


def test_a_race_deals_the_u_turn_card_by_the_house_rules_unless_an_option_says_no(tmp_path):
    rs, pack = for_pack(PACK)
    track = pack.tracks["redline-loop"]
    assert rs.new_game(pack, track, seats_of(("greedy", "greedy")), 1, {}).o_uturn is True
    assert rs.new_game(pack, track, seats_of(("greedy", "greedy")), 1, {"u_turn": False}).o_uturn is False
    code, out = run("race", PACK, "--bots", "greedy,random", "--seed", "4", "--log", str(tmp_path))
    assert code == 0, out
    assert run("replay", str(tmp_path / "race-4.jsonl")) == (0, "identical\n")
