"""RULES §3-§4 on tiny inline tracks: placement, occupancy, weaving, drafting, momentum, wear."""

from __future__ import annotations

from slipstream.engine.rulesets.automobiles.rules import basic_ruleset

from .tiny import cell, game, play, track, zone

#        seg: 0 1 2 3 4 5 6 7 8 9 10 11
LANE0 = "3 4x3 5x2 6 3x2 4 3 3"
LANE1 = "4 3 3 5x2 3 6 4x2 3 3 3"


def two_cars(p1: tuple[int, int], p2: tuple[int, int], active: dict[str, int], **kw):  # type: ignore[no-untyped-def]
    tr = track(LANE0, LANE1)
    players = [
        {"car": {"lane": p1[0], "segment": p1[1]}, "active": active, "bag": {"gear-3": 7}},
        {"car": {"lane": p2[0], "segment": p2[1]}, "bag": {"gear-3": 7}},
    ]
    return game(tr, players, rules=basic_ruleset(**kw))


def test_gear_cube_takes_the_front_most_free_segment() -> None:
    g = two_cars((0, 0), (1, 10), {"gear-4": 1})
    play(g, "play gear-4")  # the only light-grey target is auto-taken
    assert g.race.turn is not None
    pl = g.race.turn.placements[-1]
    assert (pl.lane, pl.segment) == (0, 3)
    play(g, "end", "end")
    assert cell(g, 0) == (0, 3)


def test_occupied_front_segment_pushes_the_cube_back() -> None:
    g = two_cars((0, 0), (0, 3), {"gear-4": 1})
    play(g, "play gear-4")
    assert g.race.turn is not None
    assert (g.race.turn.placements[-1].lane, g.race.turn.placements[-1].segment) == (0, 2)


def test_full_space_cannot_be_entered() -> None:
    # lane 1 segment 1 is a one-segment white space holding a car: no white target left.
    g = two_cars((0, 0), (1, 1), {"gear-3": 1})
    play(g, "play gear-3")
    assert g.race.turn is not None and g.race.turn.placements == []
    assert zone(g, 0, "used") == {"gear-3": 1}


def test_weaving_offers_every_free_segment_ahead() -> None:
    g = two_cars((0, 0), (1, 10), {"gear-4": 1}, weaving=True)
    play(g, "play gear-4")
    assert g.pending is not None
    assert sorted(g.pending.keys()) == ["to 0:1", "to 0:2", "to 0:3"]
    play(g, "to 0:1")
    # From the rear segment 1 the diagonal white space at lane 1 segment 2 is reachable.
    g2 = two_cars((0, 1), (1, 10), {"gear-3": 1}, weaving=True)
    play(g2, "play gear-3")
    assert g2.race.turn is not None and (g2.race.turn.placements[-1].lane,
                                         g2.race.turn.placements[-1].segment) == (1, 2)


def test_placement_chain_starts_from_the_last_placed_cube() -> None:
    g = two_cars((0, 0), (1, 10), {"gear-4": 1, "gear-5": 1})
    play(g, "play gear-4", "play gear-5")
    # from the cube on 0:3 both dark-grey spaces ahead are offered, not those ahead of the car
    assert g.pending is not None and sorted(g.pending.keys()) == ["to 0:5", "to 1:4"]
    play(g, "to 0:5")
    assert g.race.turn is not None
    assert [(p.lane, p.segment) for p in g.race.turn.placements] == [(0, 3), (0, 5)]
    play(g, "end", "end")
    assert cell(g, 0) == (0, 5)


def test_wear_by_darkest_colour_entered() -> None:
    g = two_cars((0, 0), (1, 10), {"gear-4": 1, "gear-5": 1})
    play(g, "play gear-4", "play gear-5", "to 0:5", "end", "end")
    # darkest entered: dark grey -> 3 wear (cleaned up into the discard pile at the End phase)
    assert zone(g, 0, "discard").get("wear") == 3


def test_drafting_cancels_movement_wear_next_segment() -> None:
    # the car ends at 0:5 (dark grey); another car stands on 0:6 -> drafting, no wear.
    g = two_cars((0, 0), (0, 6), {"gear-4": 1, "gear-5": 1})
    play(g, "play gear-4", "play gear-5", "to 0:5", "end", "end")
    assert "wear" not in zone(g, 0, "discard")
    assert g.race.stats["drafts"][0] == 1


def test_drafting_counts_a_car_anywhere_in_the_next_space() -> None:
    # car ends on 0:3 (last segment of its light-grey space); another car on 0:5, the rear
    # of the next space is free -> still drafting under the default reading.
    g = two_cars((0, 0), (0, 5), {"gear-4": 1})
    play(g, "play gear-4", "end", "end")
    assert "wear" not in zone(g, 0, "discard")
    g2 = two_cars((0, 0), (0, 5), {"gear-4": 1}, drafting="segment")
    play(g2, "play gear-4", "end", "end")
    assert zone(g2, 0, "discard").get("wear") == 2


def test_diagonal_car_is_not_drafting() -> None:
    g = two_cars((0, 0), (1, 4), {"gear-4": 1})
    play(g, "play gear-4", "end", "end")
    assert zone(g, 0, "discard").get("wear") == 2


def test_momentum_slides_cars_forward_in_their_space() -> None:
    # P2 sits on 0:2 behind nobody; P1 leaves... P2 is already front-most free? 0:3 is free,
    # so after any move P2 slides to 0:3.
    g = two_cars((1, 0), (0, 2), {"gear-3": 1})
    play(g, "play gear-3", "end", "end")
    assert cell(g, 1) == (0, 3)
    g2 = two_cars((1, 0), (0, 2), {"gear-3": 1}, momentum="none")
    play(g2, "play gear-3", "end", "end")
    assert cell(g2, 1) == (0, 2)


def test_pit_stop_removes_active_wear() -> None:
    tr = track(LANE0, LANE1)
    players = [{"car": {"lane": 0, "segment": 0}, "active": {"wear": 3, "gear-3": 2},
                "bag": {"gear-4": 7}},
               {"car": {"lane": 1, "segment": 10}, "bag": {"gear-3": 7}}]
    g = game(tr, players, start="turn")
    stock_wear = g.race.stock[g.rules.wear]
    play(g, "pit")
    assert g.race.stock[g.rules.wear] == stock_wear + 3
    assert zone(g, 0, "discard") == {"gear-3": 2}
    assert zone(g, 0, "active") == {"gear-4": 7}
    assert cell(g, 0) == (0, 0)


def test_bag_refills_in_the_middle_of_the_draw() -> None:
    tr = track(LANE0, LANE1)
    players = [{"car": {"lane": 0, "segment": 0}, "active": {"gear-3": 1},
                "bag": {"gear-6": 3}, "discard": {"gear-4": 10}},
               {"car": {"lane": 1, "segment": 10}, "bag": {"gear-3": 7}}]
    g = game(tr, players)
    play(g, "end", "end")
    # 3 black first, then the bag is refilled from the discard (10 light grey + the white)
    assert zone(g, 0, "active").get("gear-6") == 3
    assert sum(zone(g, 0, "active").values()) == 7
    assert sum(zone(g, 0, "bag").values()) == 7  # 11 refilled, 4 of them drawn
    assert zone(g, 0, "discard") == {}


def test_limited_supply_blocks_buying() -> None:
    tr = track(LANE0, LANE1)
    players = [{"car": {"lane": 0, "segment": 0}, "active": {"gear-6": 5}, "bag": {"gear-3": 7}},
               {"car": {"lane": 1, "segment": 10}, "bag": {"gear-3": 7}}]
    g = game(tr, players, stock={"gear-6": 1, "gear-5": 0})
    play(g, "end")
    assert g.pending is not None and "buy gear-6" in g.pending.keys()
    assert "buy gear-5" not in g.pending.keys()
    play(g, "buy gear-6")
    assert "buy gear-6" not in g.pending.keys()


def test_race_ends_after_the_round_and_ties_go_to_the_inner_lane() -> None:
    tr = track(LANE0, LANE1, laps=1)
    # P1 crosses the line on its turn; P2 still gets its turn in the same round.
    players = [{"car": {"lane": 0, "segment": 11}, "active": {"gear-3": 1}, "bag": {"gear-3": 7}},
               {"car": {"lane": 1, "segment": 11}, "active": {"gear-4": 1}, "bag": {"gear-3": 7}}]
    g = game(tr, players)
    play(g, "play gear-3", "end", "end")
    assert g.race.final_round and not g.race.over
    assert cell(g, 0) == (0, 0) and g.race.players[0].car.lap == 1
    play(g, "standard", "play gear-4", "end", "end")
    assert g.over
    # both at distance 12 (lap 1, segment 0): the inner lane wins the tie
    assert cell(g, 1) == (1, 0)
    assert g.standings() == [0, 1]


def test_a_lapped_car_is_behind_the_lead_lap() -> None:
    tr = track(LANE0, LANE1, laps=3)
    players = [{"car": {"lane": 0, "segment": 2, "lap": 1}, "bag": {"gear-3": 7}},
               {"car": {"lane": 1, "segment": 9, "lap": 0}, "bag": {"gear-3": 7}}]
    g = game(tr, players)
    assert g.standings() == [0, 1]


def test_rejected_option_has_a_structured_reason() -> None:
    g = two_cars((0, 0), (1, 10), {"gear-4": 1})
    r = g.apply("play gear-6")
    assert r is not None and r.code == "not-an-option" and "play gear-4" in r.legal
