"""Bots read the effect vocabulary, not card ids (issue 17 part B4).

The greedy bot classifies cards, driver hooks and offers by their effect data, reads the
number of `modify_turn.gear_spaces`, tells wear removal by the cube roles of the pack, and
plays races with the new forms in play without error (random, greedy and look-ahead bots).
That its choices on the printed cards stay exactly as before is shown by
bench/fingerprint.py --baseline REV (seeded logs compared byte for byte).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from slipstream.engine.core.yamlsource import SourceMap
from slipstream.engine.play.racelog import dumps
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.rulesets.automobiles import bots
from slipstream.engine.rulesets.automobiles.bots import GreedyBot
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.draft import effect_score
from slipstream.engine.rulesets.automobiles.game import position_game
from slipstream.engine.rulesets.automobiles.racelog import replay_lines
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack
from slipstream.engine.tracks.track import parse_track

FORMS = str(Path(__file__).resolve().parent / "scenarios" / "vocab-b")


def _printed_traits(effect: Any) -> set[str]:
    """The bot's classification before issue 17 (a literal `kind: wear`): the reference."""
    out = set()
    for k, v in bots._walk(effect):
        if k == "move":
            out.add("mover")
        if k == "remove":
            out.add("cleaner")
            if isinstance(v, dict) and v.get("kind") == "wear":
                out.add("wear_cleaner")
        if k == "gain_wear":
            out.add("wearing")
    return out


def test_the_data_reading_classifies_every_printed_card_as_before() -> None:
    pack = base_pack()
    seen = 0
    for cs in pack.card_sets:
        rs = ruleset_from_pack(pack, cs)
        for k in rs.kinds:
            assert bots._traits(k.effect, rs) == _printed_traits(k.effect), k.id
            seen += 1
        for d in rs.drivers:  # no printed driver's ability only costs, so the bot uses each
            for hook, eff in d.hooks.items():
                tr = bots._traits(eff, rs)
                assert not (tr and tr <= bots.COSTS_ONLY), (d.id, hook)
    assert seen >= 35


def test_wear_removal_is_told_by_the_cube_roles_not_the_id() -> None:
    rs = ruleset_from_pack(base_pack())
    assert bots._only_role(rs, {"kind": "wear"}, "wear")
    assert bots._only_role(rs, {"kinds": ["wear"]}, "wear")
    assert bots._only_role(rs, {"not_kinds": ["gears", "actions"]}, "wear")
    assert not bots._only_role(rs, {"from": "discard"}, "wear")  # any cube
    assert not bots._only_role(rs, {"kinds": "gears"}, "wear")
    assert not bots._only_role(rs, {"kinds": ["wear", "gear-3"]}, "wear")
    assert "wear_cleaner" in bots._traits([{"if": {"test": {"position": "last"}, "then": [
        {"remove": {"from": "discard", "kinds": ["wear"], "count": 2}}]}}], rs)


def test_new_forms_have_traits() -> None:
    rs = ruleset_from_pack(base_pack())
    assert "mover" in bots._traits([{"drive": {"spaces": 1, "colours": "any", "lanes": "inside"}}], rs)
    assert bots._traits([{"pay": 2}], rs) == {"payer"}
    assert "discount" in bots._traits([{"modify_turn": {"prices": [{"kinds": "gears", "change": -1}]}}], rs)
    assert "discount" not in bots._traits([{"modify_turn": {"prices": [{"kinds": "gears", "change": 2}]}}], rs)


def _track(layout: list[str]):  # type: ignore[no-untyped-def]
    track, diags = parse_track({"id": "t", "laps": 3, "layout": layout,
                                "grid": [{"lane": 0, "segment": 0, "money": 0}]}, SourceMap("t"))
    assert track is not None, diags
    return track


@pytest.mark.parametrize("spaces,reach", [(None, 1), ({"up_to": 2}, 2), (3, 3), ({"up_to": 3}, 3),
                                          ({"up_to": "all"}, GreedyBot.MAX_REACH), (0, 0)])
def test_the_gear_reach_is_the_number_of_gear_spaces(spaces: Any, reach: int) -> None:
    rs = ruleset_from_pack(base_pack())
    g = position_game(rs, _track(["3 3 3 3 3 3 3 3 3 3 3 3"]),
                      [{"car": {"lane": 0, "segment": 0}, "active": {"gear-3": 1}},
                       {"car": {"lane": 0, "segment": 11}}], start="action")
    t = g.race.turn
    assert t is not None
    t.gear_spaces = spaces
    bot = GreedyBot(1)
    assert bot.gear_reach(g, 0, t) == reach
    plan = bot.plan(g, 0)
    if reach:
        assert plan == [(rs.kind("gear-3"), f"to 0:{reach}")]  # the furthest white space in reach
    else:
        assert plan == []


def test_an_offer_or_ability_that_only_costs_is_declined() -> None:
    rs = ruleset_from_pack(base_pack())
    track = _track(["3 3 3 3 3 3 3 3 3 3 3 3"])
    for eff, want in (([{"gain_wear": 1}], "no"), ([{"gain_wear": 1}, {"pay": 1}], "no"),
                      ([{"drive": {"spaces": {"up_to": 1}, "colours": "any"}}], "yes"),
                      ([{"draw": {"up_to": 1}}], "yes")):
        g = position_game(rs, track, [{"car": {"lane": 0, "segment": 0}},
                                      {"car": {"lane": 0, "segment": 5}}], start="none")
        g.run_effects(0, [{"others": {"who": "all", "effect": eff}}])
        assert g.pending is not None and g.pending.kind == "offer"
        assert GreedyBot(1).choose(g, g.pending) == want, eff


def test_sponsor_scores_read_the_cube_kinds_as_before() -> None:
    rs = ruleset_from_pack(base_pack())
    for sp in rs.sponsors:
        for br, eff in sp.effects.items():
            for wear in (0, 3, 8):
                assert effect_score(eff, wear_owned=wear, rules=rs) == effect_score(eff, wear_owned=wear), (sp.id, br)


@pytest.mark.parametrize("card_set", ["forms-b-money", "forms-b-lanes", "forms-b-contact", "forms-b-sorting"])
@pytest.mark.parametrize("seats", [("random",) * 4, ("greedy", "greedy", "random"), ("lookahead:2", "greedy", "random")])
def test_bots_race_with_the_new_forms_in_play(card_set: str, seats: tuple[str, ...]) -> None:
    for seed in (1, 2):
        r = run_race(RaceSpec(FORMS, "first-oval", seed, seats, laps=1, setup=(("card_set", card_set),)))
        assert r.rounds >= 1 and r.decisions > 0
        lines = [dumps(r.header), *(dumps(x) for x in r.log), dumps(r.result)]
        rep = replay_lines(lines)
        assert rep.identical, rep.message


def test_a_payment_is_told_in_words() -> None:
    from slipstream.engine.rulesets.automobiles.narration import narrator_of

    r = run_race(RaceSpec(FORMS, "first-oval", 3, ("random",) * 4, laps=1, setup=(("card_set", "forms-b-money"),)))
    pays = [e for e in r.log if e.get("ev") == "pay"]
    assert pays
    text = narrator_of(r)(pays[0])
    assert text and "pays $" in text and "=" not in text
