"""The speed-and-hazard rules (docs/rules/speed-hazard.md), one test per rule, on small tracks
written inline, with the decks stacked and the damage dice scripted."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.speed_hazard import rules
from slipstream.engine.rulesets.speed_hazard.game import SpeedHazardGame
from slipstream.engine.rulesets.speed_hazard.greedy import GreedyBot

from ..shared import inline_track

ROOT = Path(__file__).parents[3]
PACK = ROOT / "content" / "speed-hazard"
PIT = ('pit:\n  layout: "o o o o"\n  entries:\n    - {from: "0:10", to: 0, speed: 30}\n'
       '  exits:\n    - {from: 3, to: "0:16"}\n  can_win: false\n  side: inside\n'
       'features:\n  - {kind: pit-wall, spaces: ["pit:0", "pit:1", "pit:2", "pit:3"]}\n')


def track(corners: str = "", lanes: int = 3, segments: int = 40, pit: str = ""):
    t, diags = inline_track("speed-hazard", corners, lanes, segments, laps=3, grid_rows=2, extra=pit)
    assert t is not None and not [d for d in diags if d.is_error], diags
    return t


class Dice:
    """Scripted damage dice (`faces`: the points each die shows) and shuffles that keep order."""

    def __init__(self, game: SpeedHazardGame) -> None:
        self.game, self.faces = game, []

    def randrange(self, n: int) -> int:
        return self.game.decks.setup.die.index(self.faces.pop(0))

    def shuffle(self, xs: list) -> None:
        pass


def game(t, cars: int = 2, **options) -> tuple[SpeedHazardGame, Dice]:
    g = SpeedHazardGame(t, load_pack(str(PACK)).decks, [f"P{i + 1}" for i in range(cars)], 7, 3, options)
    d = Dice(g)
    g.rng = d
    for c in g.cars:
        c.luck = 0  # no keep / redraw decisions unless a test asks for them
        put(g, c.seat, c.seat % t.lanes, 20 + c.seat // t.lanes)  # out of the way of the tests
    return g, d


def put(g: SpeedHazardGame, p: int, lane: int, segment: int, speed: int = 0, maximum: int = 140) -> None:
    c = g.cars[p]
    c.node, c.progress, c.speed, c.maximum = g.track.space_at(lane, segment).index, segment, speed, maximum
    c.free_corner = g.b.corner[c.node]  # standing in a curve: its hazards were paid


def play(g: SpeedHazardGame, p: int, card: str) -> None:
    """Give car `p` alone a turn with `card` (the other cars sit this round out)."""
    g.choosing, g.queue, g._hidden, g.turn, g._pending = [], [p], {p: card}, None, None
    g._next_car()


def stack(g: SpeedHazardGame, *ids: str) -> None:
    """Put these hazard cards on top of the hazard deck, in order."""
    idx: list[int] = []
    for h in ids:
        idx.append(next(i for i, c in enumerate(g.decks.hazards) if c.id == h and i not in idx))
    g.hazard_deck = idx + [i for i in g.hazard_deck if i not in idx]


def calm(g: SpeedHazardGame) -> None:
    """Make every hazard card a near miss (for tests that count draws)."""
    quiet = next(c for c in g.decks.hazards if c.id == "near-miss")
    g.decks = dataclasses.replace(g.decks, hazards=(quiet,) * len(g.decks.hazards))


def choose(g: SpeedHazardGame, key: str) -> None:
    d = g.pending
    assert d is not None and key in d.keys(), (key, d)
    assert g.apply(key) is None


def drive(g: SpeedHazardGame, p: int, lane: int) -> None:
    """Keep car `p` in `lane` while it is asked where to step."""
    while (d := g.pending) is not None and d.player == p and d.kind == "step":
        seg = g.b.seg[g.cars[p].node] + 1
        want = f"to {lane}:{seg % g.track.segments}"
        choose(g, want if want in d.keys() else d.keys()[0])


def events(g: SpeedHazardGame, ev: str) -> list[dict]:
    return [e for e in g.log if e.get("ev") == ev]


# --- numbers ------------------------------------------------------------------------------

def test_hazards_count_one_per_10_kmh_over_and_order_breaks_ties_by_speed_place_lane():
    assert rules.squares(90) == 9 and rules.hazards_over(100, 80) == 2 and rules.hazards_over(80, 80) == 0
    assert rules.hazards_over(100, 20) == 8  # the seed's example says 2: the rule wins (Readings 1)
    keys = sorted([(4, 50, 10, 1, 0, 0), (4, 60, 5, 2, 0, 1), (4, 50, 12, 2, 0, 2), (4, 50, 12, 0, 0, 3), (2, 10, 0, 0, 0, 4)],
                  key=lambda k: rules.order_key(*k))
    assert [k[5] for k in keys] == [4, 1, 3, 2, 0]


# --- movement -----------------------------------------------------------------------------

def test_seed_example_blocked_after_three_squares_at_90_forces_a_rear_end_both_roll_two_dice_turn_over():
    g, d = game(track(), cars=4)
    put(g, 0, 1, 0, speed=90)
    for p, lane in ((1, 0), (2, 1), (3, 2)):
        put(g, p, lane, 4, speed=50)
    play(g, 0, "card accelerate")
    choose(g, "accelerate 0")
    drive(g, 0, 1)
    assert g.b.seg[g.cars[0].node] == 3 and g.pending.kind == "bump"
    assert sorted(g.pending.keys()) == ["bump 0:4", "bump 1:4", "bump 2:4"]
    d.faces = [1, 1, 2, 0]
    choose(g, "bump 1:4")
    dmg = events(g, "damage")
    assert [(e["p"], len(e["dice"])) for e in dmg] == [(0, 2), (2, 2)]
    assert g.cars[0].maximum == 120 and g.cars[2].maximum == 120
    assert g.turn is None and g.pending.kind == "card"  # the turn (and this test's round) is over
    assert g.cars[0].progress == 3


def test_seed_example_damage_from_120_to_90_gives_nine_squares_in_all():
    g, d = game(track())
    put(g, 0, 1, 0, speed=120, maximum=120)
    g.on_board[g.track.space_at(1, 3).index] = "oil"
    stack(g, "big-hit")
    play(g, 0, "card ram")  # nobody to ram: the car just drives
    d.faces = [1, 1, 1]
    drive(g, 0, 1)
    assert g.cars[0].maximum == 90 and g.cars[0].speed == 90
    assert g.cars[0].progress == 9
    assert events(g, "token-hit")[0]["kind"] == "oil" and not g.on_board


def test_a_car_never_enters_an_occupied_square_or_a_wreck():
    g, d = game(track())
    put(g, 0, 1, 0, speed=30)
    put(g, 1, 1, 1)
    g.cars[1].wreck = True
    assert sorted(g.b.name[x] for x in g.step_nodes(g.cars[0])) == ["0:1", "2:1"]


# --- curves -------------------------------------------------------------------------------

def test_curve_entry_draws_per_10_over_then_the_curve_and_a_directly_following_one_are_free():
    g, d = game(track("  - {name: a, from: 5, to: 7, speed: 80}\n  - {name: b, from: 8, to: 12, speed: 40}\n"))
    put(g, 0, 1, 0, speed=100)
    stack(g, "near-miss", "near-miss")
    play(g, 0, "card ram")
    drive(g, 0, 1)
    assert [e["n"] for e in events(g, "hazards")] == [2]
    assert len(events(g, "hazard")) == 2 and g.cars[0].progress == 10


def test_a_curve_after_a_straight_is_checked_again():
    g, d = game(track("  - {name: a, from: 3, to: 4, speed: 80}\n  - {name: b, from: 7, to: 8, speed: 60}\n"))
    put(g, 0, 1, 0, speed=100)
    calm(g)
    play(g, 0, "card ram")
    drive(g, 0, 1)
    assert [e["n"] for e in events(g, "hazards")] == [2, 4]


def test_moving_to_an_inner_lane_over_its_limit_draws_one_card():
    g, d = game(track("  - {name: a, from: 3, to: 9, lane_speeds: [50, 70, 90]}\n"))
    put(g, 0, 2, 0, speed=80)
    stack(g, "near-miss")
    play(g, 0, "card ram")
    for seg in range(1, 5):
        choose(g, f"to 2:{seg}")
    assert events(g, "hazards") == []
    choose(g, "to 1:5")
    assert [e["n"] for e in events(g, "hazards")] == [1]


def test_accelerating_in_a_curve_draws_per_10_accelerated_or_per_10_over_as_an_option():
    for option, want in (("accelerated", 2), ("over", 1)):
        g, d = game(track("  - {name: a, from: 3, to: 20, speed: 70}\n"), curve_accel_hazards=option)
        put(g, 0, 1, 5, speed=60)
        stack(g, "near-miss", "near-miss")
        play(g, 0, "card accelerate")
        choose(g, "accelerate 20")
        assert [e["n"] for e in events(g, "hazards")] == [want], option


def test_leaving_a_curve_is_checked_only_with_the_option():
    for option, want in ((False, [1]), (True, [1, 1])):
        g, d = game(track("  - {name: a, from: 2, to: 3, speed: 50}\n"), check_leaving_curve=option)
        put(g, 0, 1, 0, speed=60)
        stack(g, "near-miss", "near-miss")
        play(g, 0, "card ram")
        drive(g, 0, 1)
        assert [e["n"] for e in events(g, "hazards")] == want


# --- damage -------------------------------------------------------------------------------

def test_maximum_zero_makes_a_wreck_that_stays_an_obstacle():
    g, d = game(track("  - {name: a, from: 2, to: 3, speed: 10}\n"))
    put(g, 0, 1, 0, speed=20, maximum=20)
    stack(g, "barrier")
    d.faces = [2, 1]
    play(g, 0, "card ram")
    drive(g, 0, 1)
    assert g.cars[0].wreck and events(g, "wreck")[0]["at"] == "1:2"
    put(g, 1, 1, 1, speed=10)
    assert "1:2" not in [g.b.name[x] for x in g.step_nodes(g.cars[1])]


def test_a_speed_above_a_lowered_maximum_drops_at_once():
    g, d = game(track())
    c = g.cars[0]
    put(g, 0, 1, 0, speed=100)
    d.faces = [2, 2]
    g._damage(c, 2, "test")
    assert c.maximum == 100 and c.speed == 100
    d.faces = [2]
    g._damage(c, 1, "test")
    assert c.maximum == 80 and c.speed == 80


# --- action cards ---------------------------------------------------------------------------

def test_side_ram_costs_one_and_two_dice_and_the_rammer_drives_on():
    g, d = game(track())
    put(g, 0, 1, 0, speed=30)
    put(g, 1, 2, 1, speed=30)
    play(g, 0, "card ram")
    assert "ram 2:1" in g.pending.keys()
    d.faces = [1, 1, 1]
    choose(g, "ram 2:1")
    assert [(e["p"], len(e["dice"])) for e in events(g, "damage")] == [(0, 1), (1, 2)]
    assert g.pending.kind == "step" and g.pending.player == 0


def test_rear_ram_ends_the_turn_and_a_car_level_beside_cannot_be_rammed_but_with_the_option():
    g, d = game(track())
    put(g, 0, 1, 0, speed=30)
    put(g, 1, 1, 1, speed=30)
    play(g, 0, "card ram")
    d.faces = [0, 1, 1]
    choose(g, "ram 1:1")
    assert events(g, "ram")[0]["kind"] == "rear" and g.cars[0].progress == 0 and g.pending.kind == "card"
    for option, want in ((False, False), (True, True)):
        g, d = game(track(), ram_beside=option)
        put(g, 0, 1, 0, speed=0)
        put(g, 1, 2, 0, speed=0)
        assert any(k == "card ram" for k, _ in g.card_options(0)) is want


def test_ram_is_a_legal_card_only_with_a_target_in_reach():
    g, d = game(track())
    put(g, 0, 1, 0, speed=30)
    put(g, 1, 1, 9, speed=30)
    assert "card ram" not in [k for k, _ in g.card_options(0)]
    put(g, 0, 1, 0, speed=80)
    assert "card ram" in [k for k, _ in g.card_options(0)]


def test_brake_offers_10_to_40_within_the_speed_and_accelerate_stays_within_the_maximum():
    g, d = game(track())
    put(g, 0, 1, 0, speed=30, maximum=40)
    play(g, 0, "card brake")
    assert g.pending.keys() == ["brake 10", "brake 20", "brake 30"]
    play(g, 0, "card accelerate")
    assert g.pending.keys() == ["accelerate 0", "accelerate 10", "nitrous"]
    put(g, 0, 1, 0, speed=0)
    assert "card brake" not in [k for k, _ in g.card_options(0)]


def test_nitrous_ignores_the_maximum_for_the_turn_then_drops_to_it():
    g, d = game(track(segments=60))
    put(g, 0, 1, 0, speed=130)
    g.nitrous_deck = [next(i for i, c in enumerate(g.decks.nitrous) if c.id == "shot-40")] + g.nitrous_deck
    play(g, 0, "card accelerate")
    choose(g, "nitrous")
    assert g.cars[0].speed == 170 and g.cars[0].nitrous
    drive(g, 0, 1)
    assert g.cars[0].progress == 17 and g.cars[0].speed == 140 and not g.cars[0].nitrous


def test_a_nitrous_click_adds_nothing_and_shuffles_every_nitrous_card_back():
    g, d = game(track())
    put(g, 0, 1, 0, speed=30)
    click = next(i for i, c in enumerate(g.decks.nitrous) if c.click)
    g.nitrous_used = g.nitrous_deck[:5]
    g.nitrous_deck = [click] + [i for i in g.nitrous_deck[5:] if i != click]
    play(g, 0, "card accelerate")
    choose(g, "nitrous")
    assert g.cars[0].speed == 30 and sorted(g.nitrous_deck) == list(range(len(g.decks.nitrous)))


def test_an_explosion_rolls_its_dice():
    g, d = game(track())
    put(g, 0, 1, 0, speed=30)
    g.nitrous_deck = [next(i for i, c in enumerate(g.decks.nitrous) if c.id == "bang")]
    d.faces = [2, 1]
    play(g, 0, "card accelerate")
    choose(g, "nitrous")
    assert events(g, "damage")[0]["why"] == "explosion" and g.cars[0].maximum == 110


def test_sabotage_drops_one_or_two_tokens_of_a_kind_on_passed_squares_not_the_last_and_they_hit_once():
    g, d = game(track())
    put(g, 0, 1, 0, speed=30)
    g.cars[0].tokens["tacks"] = 2
    play(g, 0, "card sabotage")
    drive(g, 0, 1)
    squares = {k.split()[1] for k in g.pending.keys()}
    assert squares == {"1:0", "1:1", "1:2"}  # the start square counts; never the last one (1:3)
    choose(g, "tacks 1:2")
    assert sorted(g.pending.keys()) == ["done", "tacks 1:0", "tacks 1:1"]  # the same kind, one a square
    choose(g, "tacks 1:1")
    assert g.on_board == {g.track.space_at(1, 2).index: "tacks", g.track.space_at(1, 1).index: "tacks"}
    before = g.supply["tacks"]
    put(g, 1, 1, 0, speed=20)
    d.faces = [1, 1]
    play(g, 1, "card ram")
    drive(g, 1, 1)
    hits = events(g, "token-hit")
    assert [h["at"] for h in hits] == ["1:1", "1:2"] and len(events(g, "damage")) == 2
    assert not g.on_board and g.supply["tacks"] == before + 2


def test_sabotage_needs_a_token():
    g, d = game(track())
    put(g, 0, 1, 0, speed=30)
    g.cars[0].tokens = {k: 0 for k in g.cars[0].tokens}
    assert "card sabotage" not in [k for k, _ in g.card_options(0)]


def test_a_luck_token_cancels_a_drawn_card_for_another():
    g, d = game(track("  - {name: a, from: 2, to: 3, speed: 20}\n"))
    put(g, 0, 1, 0, speed=30)
    g.cars[0].luck = 1
    stack(g, "spin", "near-miss")
    play(g, 0, "card ram")
    drive(g, 0, 1)
    assert g.pending.kind == "luck"
    choose(g, "redraw")
    drive(g, 0, 1)
    assert g.cars[0].luck == 0 and [e["card"] for e in events(g, "hazard")] == ["spin", "near-miss"]
    assert not events(g, "spin") and g.cars[0].progress == 3


def test_an_insanity_card_is_kept_until_therapy_and_forbids_brake():
    g, d = game(track("  - {name: a, from: 2, to: 3, speed: 20}\n"))
    put(g, 0, 1, 0, speed=30)
    stack(g, "red-mist")
    play(g, 0, "card ram")
    drive(g, 0, 1)
    assert [g.decks.hazards[i].id for i in g.cars[0].insanity] == ["red-mist"]
    assert "card brake" not in [k for k, _ in g.card_options(0)]


# --- pit road -------------------------------------------------------------------------------

def test_pit_road_entry_limit_shopping_speed_zero_then_leaving_with_accelerate():
    g, d = game(track(pit=PIT))
    put(g, 0, 0, 8, speed=50, maximum=100)
    stack(g, "near-miss", "near-miss")
    play(g, 0, "card ram")
    choose(g, "to 0:9")
    choose(g, "to 0:10")
    choose(g, "pit")
    assert [e["n"] for e in events(g, "hazards")] == [2] and g.pending.kind == "shop"
    for _ in range(3):
        choose(g, "repair")
    choose(g, "equipment")
    offered = g.pending.keys()
    assert len(offered) in (1, 2) and g.pending.kind == "keep"
    choose(g, offered[0])
    choose(g, "token oil")
    choose(g, "done")
    c = g.cars[0]
    assert c.in_pit and c.speed == 0 and c.maximum == 130 and len(c.equipment) == 1 and c.tokens["oil"] == 2
    assert events(g, "pit-stop")[0]["lost"] == 15 - 3 - 5 - 1
    assert all(k.startswith("card accelerate") or k.startswith("equip") for k, _ in g.card_options(0))
    play(g, 0, "card accelerate")
    assert g.pending.keys() == ["accelerate 10", "accelerate 20", "nitrous"]
    choose(g, "accelerate 20")
    drive(g, 0, 0)
    assert not c.in_pit and g.b.name[c.node] == "0:17" and c.progress == 17


def test_the_pit_road_lets_cars_out_first_in_first_out_and_a_blocked_exit_waits():
    g, d = game(track(pit=PIT), cars=3)
    for p in (0, 1):
        c = g.cars[p]
        c.in_pit, c.node, c.speed = True, g.track.space_at(0, 10).index, 0
        g.pit_counter += 1
        c.pit_seq = g.pit_counter
    play(g, 1, "card accelerate")
    assert events(g, "pit-wait")[-1] == {"t": "event", "ev": "pit-wait", "p": 1, "why": "blocked"}
    put(g, 2, 0, 16)
    play(g, 0, "card accelerate")
    assert len(events(g, "pit-wait")) == 2 and g.cars[0].in_pit
    put(g, 2, 2, 30)
    play(g, 0, "card accelerate")
    choose(g, "accelerate 10")
    assert not g.cars[0].in_pit and g.b.name[g.cars[0].node] == "0:16"


def test_a_side_ram_beside_the_pit_road_slides_the_target_into_the_wall():
    for option, dice in ((True, 3), (False, 2)):
        g, d = game(track(pit=PIT), pit_wall_slide=option)
        put(g, 0, 1, 11, speed=10)
        put(g, 1, 0, 12, speed=10)
        play(g, 0, "card ram")
        d.faces = [0] * 5
        choose(g, "ram 0:12")
        assert len(events(g, "damage")[1]["dice"]) == dice


# --- the race -------------------------------------------------------------------------------

def test_the_first_car_over_the_line_after_three_laps_wins_at_once():
    g, d = game(track(), cars=3)
    put(g, 0, 1, 38, speed=30)
    g.cars[0].progress = 3 * 40 - 2
    g.choosing, g._hidden = [], {0: "card accelerate", 1: "card accelerate", 2: "card accelerate"}
    g.cars[1].speed = g.cars[2].speed = 10
    g._reveal()
    assert g.turn.car == 0  # level cards: the fastest car first
    choose(g, "accelerate 0")
    drive(g, 0, 1)
    assert g.over and g.winner == 0 and g.pending is None and g.standings()[0] == 0


def test_a_pit_visit_over_the_line_means_one_more_lap():
    t = track(pit=PIT.replace('"0:16"', '"0:2"').replace('"0:10"', '"0:36"'))
    g, d = game(t)
    c = g.cars[0]
    c.in_pit, c.node, c.speed, c.progress = True, t.space_at(0, 36).index, 0, 3 * 40 - 4
    g.pit_counter = c.pit_seq = 1
    play(g, 0, "card accelerate")
    choose(g, "accelerate 10")
    assert not g.over and c.goal == 4 * 40 and events(g, "extra-lap")


def test_no_seat_sees_another_seats_secret_card():
    g, d = game(track(), cars=2)
    put(g, 0, 1, 0, speed=30)
    put(g, 1, 2, 1, speed=30)
    g._start_round()
    a, b = g.copy(), g.copy()
    a.apply("card brake")
    b.apply("card accelerate")
    assert a.pending == b.pending and a.pending.player == 1
    assert "brake" not in a.pending.text
    assert GreedyBot(1).choose(a, a.pending) == GreedyBot(1).choose(b, b.pending)
    a.apply(a.pending.keys()[0])
    assert [e for e in a.log if e["t"] == "decision"][-2:][0]["choice"] == "card brake"  # the log records it
    assert events(a, "reveal")[0]["cards"]["0"] == "card brake"


def test_u_turn_card_turns_across_the_road_or_skids_round():
    g, d = game(track(), u_turn=True)
    put(g, 0, 0, 5, speed=30)
    assert "card u-turn" in [k for k, _ in g.card_options(0)]
    stack(g, "near-miss", "near-miss")
    play(g, 0, "card u-turn")
    assert g.pending.keys() == ["u-turn turn"]
    choose(g, "u-turn turn")
    c = g.cars[0]
    assert g.b.name[c.node] == "2:5" and c.reversed and c.speed == 10 and events(g, "hazards")[0]["n"] == 2
    g2, _ = game(track(), u_turn=True)
    put(g2, 0, 2, 5, speed=40)
    play(g2, 0, "card u-turn")
    choose(g2, "u-turn skid")
    c = g2.cars[0]
    assert g2.b.name[c.node] == "2:4" and c.speed == 0 and c.progress == 4 and c.reversed
    assert "card u-turn" not in [k for k, _ in game(track())[0].card_options(0)]
    # from the middle lane only with u_turn_lanes: skid-any-lane, and then only the skid
    for lanes, offered in (("inner-outer", False), ("skid-any-lane", True)):
        g3, _ = game(track(), u_turn=True, u_turn_lanes=lanes)
        put(g3, 0, 1, 5, speed=40)
        assert ("card u-turn" in [k for k, _ in g3.card_options(0)]) == offered
    play(g3, 0, "card u-turn")
    assert g3.pending.keys() == ["u-turn skid"]


def test_head_on_ram_costs_three_and_four_dice_and_stops_both():
    g, d = game(track(), u_turn=True)
    put(g, 0, 1, 5, speed=20)
    g.cars[0].reversed = True
    put(g, 1, 1, 4, speed=30)
    play(g, 0, "card ram")
    d.faces = [0] * 7
    choose(g, "ram 1:4")
    assert events(g, "ram")[0]["kind"] == "head-on" and g.cars[0].speed == g.cars[1].speed == 0
    assert [len(e["dice"]) for e in events(g, "damage")] == [3, 4]


def test_equipment_armour_ignores_a_point_of_each_damage_roll():
    g, d = game(track())
    c = g.cars[0]
    c.equipment = ["roll-cage"]
    d.faces = [1, 1]
    g._damage(c, 2, "test")
    assert c.maximum == 130


def test_copy_is_independent():
    g, d = game(track())
    h = g.copy()
    h.cars[0].speed = 99
    assert g.cars[0].speed != 99


def test_cars_beyond_the_grid_slots_line_up_behind_the_grid():
    t = track(lanes=1)
    g = SpeedHazardGame(t, load_pack(str(PACK)).decks, [f"P{i + 1}" for i in range(4)], 3, 3, {})
    places = sorted((c.progress, g.b.name[c.node]) for c in g.cars)
    assert places == [(-4, "0:36"), (-3, "0:37"), (-2, "0:38"), (-1, "0:39")]


def test_nitrous_until_the_curve_keeps_the_speed_into_the_next_turn_then_drops_leaving_the_curve():
    g, d = game(track("  - {name: a, from: 20, to: 21, speed: 200}\n", segments=80), nitrous_until="curve")
    put(g, 0, 1, 0, speed=130)
    g.nitrous_deck = [next(i for i, c in enumerate(g.decks.nitrous) if c.id == "shot-40")] + g.nitrous_deck
    play(g, 0, "card accelerate")
    choose(g, "nitrous")
    drive(g, 0, 1)
    c = g.cars[0]
    assert c.progress == 17 and c.speed == 170 and c.nitrous  # the turn is over, the nitrous is not
    play(g, 0, "card ram")
    drive(g, 0, 1)
    # dropped to 140 on leaving the curve at 22: the move ends as if begun at 140 (14 squares, Readings 17)
    assert c.progress == 17 + 14 and c.speed == 140 and not c.nitrous
    assert {"ev": "speed", "p": 0, "speed": 140, "why": "nitrous over", "t": "event"} in g.log


def test_sabotage_without_the_start_square_option_drops_only_on_squares_entered():
    g, d = game(track(), sabotage_start_square=False)
    put(g, 0, 1, 0, speed=30)
    play(g, 0, "card sabotage")
    drive(g, 0, 1)
    assert {k.split()[1] for k in g.pending.keys()} == {"1:1", "1:2"}
    g2, _ = game(track(), sabotage_start_square=False)
    put(g2, 0, 1, 0, speed=10)
    assert "card sabotage" not in [k for k, _ in g2.card_options(0)]


def test_closed_pit_entries_open_only_with_the_option():
    extra = PIT.replace('    - {from: "0:10", to: 0, speed: 30}\n',
                        '    - {from: "0:10", to: 0, speed: 30}\n    - {from: "0:12", to: 1, speed: 20, main: false}\n')
    for option, want in ((False, False), (True, True)):
        g, d = game(track(pit=extra), all_pit_entries=option)
        put(g, 0, 0, 12, speed=10)
        assert any(x >= g.m for x in g.step_nodes(g.cars[0])) is want
