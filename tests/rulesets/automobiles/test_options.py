"""Rule options of the pack's rules file (RULES §8) switch behaviour without code."""

from __future__ import annotations

from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.rules import (
    basic_ruleset,
    ruleset_from_pack,
    unsupported_options,
)

from .tiny import game, play, track, zone

LANES = ("3 4x3 5x2 6 3x2 4 3 3", "4 3 3 5x2 3 6 4x2 3 3 3")


def test_strict_play_refuses_a_cube_whose_selection_is_impossible() -> None:
    pack = base_pack()
    tr = track(*LANES)
    players = [{"car": {"lane": 0, "segment": 0}, "active": {"red": 1}, "bag": {"gear-3": 7}},
               {"car": {"lane": 1, "segment": 10}, "bag": {"gear-3": 7}}]
    lax = ruleset_from_pack(pack, None, {"red": "camber-toe"})
    assert "play red" in game(tr, players, rules=lax).pending.keys()  # type: ignore[union-attr]
    strict = lax.with_options({"strict_play": True})
    assert "play red" not in game(tr, players, rules=strict).pending.keys()  # type: ignore[union-attr]
    players[0]["active"] = {"red": 1, "gear-3": 1}
    assert "play red" in game(tr, players, rules=strict).pending.keys()  # type: ignore[union-attr]


def test_gains_to_discard() -> None:
    rs = basic_ruleset({"red": ([{"gain_wear": 2}], 3, 1)}, gains_to="discard")
    g = game(track(*LANES), [{"car": {"lane": 0, "segment": 0}, "active": {"red": 1}},
                             {"car": {"lane": 1, "segment": 10}}], rules=rs)
    play(g, "play red")
    assert zone(g, 0, "discard") == {"wear": 2} and zone(g, 0, "used") == {"red": 1}


def test_limited_wear_stock_caps_the_gain() -> None:
    rs = basic_ruleset({"red": ([{"gain_wear": 3}], 3, 1)}, unlimited_wear=False)
    g = game(track(*LANES), [{"car": {"lane": 0, "segment": 0}, "active": {"red": 1}},
                             {"car": {"lane": 1, "segment": 10}}], rules=rs, stock={"wear": 1})
    play(g, "play red")
    assert zone(g, 0, "used") == {"red": 1, "wear": 1}
    assert g.race.stock[g.rules.wear] == 0


def test_occupancy_per_space_and_unlimited() -> None:
    tr = track(*LANES)
    players = [{"car": {"lane": 0, "segment": 0}, "active": {"gear-4": 1}, "bag": {"gear-3": 7}},
               {"car": {"lane": 0, "segment": 3}, "bag": {"gear-3": 7}}]
    g = game(tr, players, rules=basic_ruleset(occupancy="space"))
    play(g, "play gear-4")
    assert g.race.turn is not None and g.race.turn.placements == []  # the space holds a car
    g2 = game(tr, players, rules=basic_ruleset(occupancy="unlimited"))
    play(g2, "play gear-4")
    assert g2.race.turn is not None and (g2.race.turn.placements[0].segment) == 3


def test_turn_order_by_position_resorts_every_round() -> None:
    tr = track(*LANES)
    players = [{"car": {"lane": 1, "segment": 0}, "bag": {"gear-3": 7}},
               {"car": {"lane": 0, "segment": 4}, "bag": {"gear-3": 7}}]
    fixed = game(tr, players, start="turn")
    play(fixed, "standard", "end", "end", "standard", "end", "end")
    assert fixed.pending is not None and fixed.pending.player == 0
    pos = game(tr, players, start="turn", rules=basic_ruleset(turn_order="position"))
    play(pos, "standard", "end", "end", "standard", "end", "end")
    assert pos.pending is not None and pos.pending.player == 1  # the leader plays first now


def test_drivers_in_single_races_start_with_a_driver_draft() -> None:
    pack = base_pack()
    rs = ruleset_from_pack(pack).with_options({"drivers_in_single_races": True})
    g = Game(rs, pack.tracks["first-oval"], [Seat("A"), Seat("B")], seed=3)
    assert g.pending is not None and g.pending.kind == "driver"
    first = g.pending.player
    chosen = g.pending.options[0].key
    g.apply(chosen)
    assert g.pending is not None and g.pending.kind == "driver" and g.pending.player != first
    assert chosen not in g.pending.keys()  # each driver is held by one player
    g.apply(g.pending.options[0].key)
    assert all(p.driver is not None for p in g.race.players)
    off = Game(ruleset_from_pack(pack), pack.tracks["first-oval"], [Seat("A"), Seat("B")], seed=3)
    assert off.pending is not None and off.pending.kind == "purchase"


def test_unimplemented_option_values_are_reported() -> None:
    rs = basic_ruleset(full_spaces="pass")
    assert unsupported_options(rs.options) == ["full_spaces='pass'"]
    assert unsupported_options(basic_ruleset().options) == []


def test_without_the_placement_chain_a_cube_may_start_from_the_car_again() -> None:
    tr = track(*LANES)
    players = [{"car": {"lane": 0, "segment": 0}, "active": {"gear-4": 1, "gear-3": 1}, "bag": {"gear-3": 7}},
               {"car": {"lane": 1, "segment": 10}, "bag": {"gear-3": 7}}]
    chain = game(tr, players)
    play(chain, "play gear-4", "play gear-3")
    # from the cube on 0:3 no white space is ahead: the white cube stays off the track
    assert [(p.lane, p.segment) for p in chain.race.turn.placements] == [(0, 3)]  # type: ignore[union-attr]
    free = game(tr, players, rules=basic_ruleset(placement_chain=False))
    play(free, "play gear-4", "play gear-3")
    # white 1:1 is ahead of the car, so it may take the cube; the car ends there
    assert [(p.lane, p.segment) for p in free.race.turn.placements] == [(0, 3), (1, 1)]  # type: ignore[union-attr]
    play(free, "end", "end")
    assert (free.race.players[0].car.lane, free.race.players[0].car.segment) == (1, 1)


def test_the_round_cap_ends_the_race_after_max_rounds() -> None:
    pack = base_pack()
    rs = ruleset_from_pack(pack).with_options({"max_rounds": 3})
    g = Game(rs, pack.tracks["first-oval"], [Seat("A"), Seat("B")], seed=5, record=False)
    while g.pending is not None:
        g.apply(g.pending.options[-1].key)  # the last option: end every phase, never finish
    assert g.race.over and g.race.capped and not g.race.final_round
    assert g.race.round == 3 and g.race.stats["turns"] == [3, 3]
