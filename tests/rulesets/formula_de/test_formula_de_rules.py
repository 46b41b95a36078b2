"""The Formula Dé-style rules (docs/rules/formula-de.md), one test per rule, on small tracks
written inline and with the dice scripted."""

from __future__ import annotations

from pathlib import Path

import pytest

from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.formula_de import rules
from slipstream.engine.rulesets.formula_de.game import FormulaDeGame

from ..shared import inline_track

ROOT = Path(__file__).parents[3]
PACK = ROOT / "content" / "formula-de"


def track(corners: str = "", lanes: int = 3, segments: int = 40, links: str = ""):
    t, diags = inline_track("formula-de", corners, lanes, segments, laps=1, grid_rows=3, extra=links)
    assert t is not None, diags
    return t


class Dice:
    """Scripted dice: black-die values for `randint`, gear-die values for `randrange`."""

    def __init__(self, game: FormulaDeGame) -> None:
        self.game, self.black, self.faces = game, [], []

    def randint(self, a: int, b: int) -> int:
        return self.black.pop(0)

    def randrange(self, n: int) -> int:
        car = self.game.cars[self.game.turn.car]
        return self.game.tables.gears[car.gear - 1].index(self.faces.pop(0))


def game(t, cars: int = 2, laps: int = 1, **options) -> tuple[FormulaDeGame, Dice]:
    g = FormulaDeGame(t, load_pack(str(PACK)).tables, [f"P{i + 1}" for i in range(cars)], 7, laps, options)
    d = Dice(g)
    g.rng = d
    return g, d


def put(g: FormulaDeGame, p: int, lane: int, segment: int, gear: int = 1, started: bool = True) -> None:
    """Stand car `p` on (lane, segment) in `gear`, past its start, and give it the turn."""
    c = g.cars[p]
    c.node, c.gear, c.started = g.track.space_at(lane, segment).index, gear, started
    c.progress = segment
    g._start_round()
    g.queue = [q for q in g.queue if q != p]
    g.turn.car, g.turn.phase = p, "gear"


def events(g: FormulaDeGame, ev: str) -> list[dict]:
    return [e for e in g.log if e.get("ev") == ev]


def park_others(g: FormulaDeGame, p: int) -> None:
    """Take every car but `p` off the track (eliminated before the test starts)."""
    for c in g.cars:
        if c.seat != p:
            c.out = "test"


# --- rules as numbers -------------------------------------------------------------------------

def test_downshift_costs_grow_with_skipped_gears_and_six_to_one_is_banned():
    assert rules.downshift_cost(4, 3) == {}
    assert rules.downshift_cost(5, 3) == {"transmission": 1}
    assert rules.downshift_cost(5, 2) == {"transmission": 1, "brakes": 1}
    assert rules.downshift_cost(6, 2) == {"transmission": 1, "brakes": 1, "engine": 1}
    assert rules.downshift_cost(6, 1) is None


def test_blocked_lane_costs_brakes_then_tyres_and_more_than_seven_eliminates():
    assert rules.blocked_cost(2) == {"brakes": 2}
    assert rules.blocked_cost(5) == {"brakes": 3, "tyres": 2}
    assert rules.blocked_cost(7) == {"brakes": 3, "tyres": 4}
    assert rules.blocked_cost(8) is None


def test_overshoot_eliminates_with_no_stop_in_two_or_one_in_three():
    assert rules.overshoot_eliminates(2, 0) and not rules.overshoot_eliminates(2, 1)
    assert rules.overshoot_eliminates(3, 1) and not rules.overshoot_eliminates(3, 2)
    assert not rules.overshoot_eliminates(1, 0)


def test_tyre_loss_spins_on_the_last_point_and_eliminates_beyond_it():
    assert rules.tyre_loss(4, 2) == (2, "ok")
    assert rules.tyre_loss(2, 2) == (0, "spin")
    assert rules.tyre_loss(2, 3) == (0, "out")
    assert rules.tyre_loss(0, 1) == (0, "spin")
    assert rules.tyre_loss(0, 2) == (0, "out")


def test_grid_ties_roll_again_among_the_tied_cars():
    rolls = iter([5, 3, 5, 9, 12, 4])
    order, records = rules.grid_order([0, 1, 2, 3], lambda: next(rolls))
    # car 1 lowest (3); cars 0 and 2 tie on 5 and re-roll 12 / 4; car 3 last (9)
    assert order == [1, 2, 0, 3]
    assert records[1] == {"cars": [0, 2], "rolls": [12, 4]}


# --- the turn ---------------------------------------------------------------------------------

def test_the_first_turn_is_in_first_gear_and_a_start_roll_of_one_stalls():
    g, d = game(track())
    p = g.turn.car
    assert g.pending.keys() == ["gear 1"]
    d.black = [1]
    assert g.apply("gear 1") is None
    assert events(g, "start")[-1]["result"] == "stall"
    assert g.cars[p].progress == g.track.grid_progress(g.track.grid[0]) and g.turn.car != p


def test_a_flying_start_moves_four_squares():
    g, d = game(track())
    d.black = [20]
    g.apply("gear 1")
    assert g.turn.roll == 4 and g.pending.kind == "move"
    assert all(o.key.startswith("to ") for o in g.pending.options)
    assert max(t.steps for t in g.turn.targets.values()) == 4


def test_gear_choice_is_up_one_keep_or_down_with_skips_paid_in_transmission_points():
    g, _ = game(track())
    put(g, 0, 1, 5, gear=5)
    assert g.pending.keys() == ["gear 1", "gear 2", "gear 3", "gear 4", "gear 5", "gear 6"]
    g.cars[0].wear["transmission"] = 0
    assert g.pending.keys() == ["gear 4", "gear 5", "gear 6"]


def test_a_skip_needing_a_point_the_car_lacks_is_not_offered_unless_the_option_allows_it():
    g, _ = game(track())
    put(g, 0, 1, 5, gear=6)
    g.cars[0].wear["engine"] = 0
    assert "gear 2" not in g.pending.keys()
    g2, _ = game(track(), downshift_needs_points=False)
    put(g2, 0, 1, 5, gear=6)
    g2.cars[0].wear["engine"] = 0
    g2.apply("gear 2")
    assert g2.cars[0].out == "engine"  # the category that ran out, as engine damage says
    g3, _ = game(track(), downshift_needs_points=False)
    put(g3, 0, 1, 5, gear=6)
    g3.cars[0].wear["brakes"] = 0  # short of a brake point: no category runs out
    g3.apply("gear 3")
    assert g3.cars[0].out == "downshift"


def test_a_car_moves_exactly_its_roll_or_brakes_at_one_brake_point_a_square():
    g, d = game(track())
    park_others(g, 0)
    put(g, 0, 1, 5, gear=2)
    d.faces = [4]
    g.apply("gear 2")
    steps = {t.steps for t in g.turn.targets.values()}
    assert steps == {4, 3, 2, 1}  # 3 brake points in a 1-lap race: at most 3 squares short
    assert {k for k, t in g.turn.targets.items() if t.steps == 4} == {"to 0:9", "to 1:9", "to 2:9"}
    g.apply("to 1:7")
    assert g.cars[0].wear["brakes"] == 1 and g.cars[0].progress == 7


def test_a_car_never_drives_through_another_car():
    g, d = game(track(lanes=1))
    put(g, 1, 0, 8)
    put(g, 0, 0, 5, gear=2)
    d.faces = [2]
    g.apply("gear 2")
    assert set(g.turn.targets) == {"to 0:7", "to 0:6", "to 0:5"}


def test_a_blocked_car_pays_brakes_for_the_squares_it_cannot_drive():
    g, d = game(track(lanes=1))
    put(g, 1, 0, 8)
    put(g, 0, 0, 5, gear=3)
    d.faces, d.black = [6], [10, 10]
    g.apply("gear 3")
    assert list(g.turn.targets) == ["to 0:7"] and g.turn.targets["to 0:7"].absorbed == 4
    g.apply("to 0:7")
    assert g.cars[0].wear["brakes"] == 0 and g.cars[0].wear["tyres"] == 4 - 1


def test_a_car_blocked_by_more_than_seven_squares_is_out_and_the_blocker_loses_body():
    g, d = game(track(lanes=1))
    put(g, 1, 0, 6)
    put(g, 0, 0, 5, gear=4)
    d.faces = [9]
    g.apply("gear 4")
    g.apply("to 0:5")
    assert g.cars[0].out == "blocked"
    assert g.cars[1].wear["body"] == 1
    assert events(g, "out")[-1] == {"t": "event", "ev": "out", "p": 0, "cause": "blocked"}


# --- corners ----------------------------------------------------------------------------------

CORNER2 = "  - {name: A, from: 10, to: 13, stops: 2}\n  - {name: B, from: 16, to: 19, stops: 1}\n"


def test_ending_inside_a_corner_counts_a_stop_for_that_corner():
    g, d = game(track(CORNER2))
    park_others(g, 0)
    put(g, 0, 1, 8, gear=1)
    d.faces = [2, 2]
    g.apply("gear 1")
    g.apply("to 1:10")
    assert (g.cars[0].corner, g.cars[0].stops) == (0, 1)
    g.apply("gear 1")
    g.apply("to 1:12")
    assert (g.cars[0].corner, g.cars[0].stops) == (0, 2)


def test_leaving_a_two_stop_corner_without_a_stop_eliminates():
    g, d = game(track(CORNER2))
    park_others(g, 0)
    put(g, 0, 1, 8, gear=3)
    d.faces = [8]
    g.apply("gear 3")
    g.apply("to 1:16")
    assert g.cars[0].out == "stops missed"


def test_an_overshoot_costs_a_tyre_point_a_square_and_a_stop_in_the_next_corner_does_not_count():
    g, d = game(track(CORNER2))
    park_others(g, 0)
    put(g, 0, 1, 12, gear=2)
    g.cars[0].corner, g.cars[0].stops = 0, 1
    d.faces = [4]
    g.apply("gear 2")
    g.apply("to 1:16")
    assert events(g, "overshoot")[-1]["past"] == 3
    assert g.cars[0].wear["tyres"] == 4 - 3 and g.cars[0].wear["brakes"] == 3
    assert g.cars[0].corner == 1 and g.cars[0].stops == 0


def test_an_overshoot_loss_is_shared_with_the_brakes_by_braking_a_square_a_brake_point():
    # seed 004: each brake point used is a square the car does not drive, so the brakes' share
    # is squares no longer driven past the corner; none is taken on the square the car reached
    ends = {}
    for to in ("to 1:16", "to 1:14"):
        g, d = game(track(CORNER2))
        park_others(g, 0)
        put(g, 0, 1, 12, gear=2)
        g.cars[0].corner, g.cars[0].stops = 0, 1
        g.cars[0].wear["brakes"] = 2
        d.faces = [4]
        g.apply("gear 2")
        g.apply(to)
        assert g.pending is None or g.pending.kind != "split"
        ends[to] = (g.cars[0].wear["tyres"], g.cars[0].wear["brakes"], events(g, "overshoot")[-1]["past"])
    assert ends == {"to 1:16": (1, 2, 3), "to 1:14": (3, 0, 1)}


def test_after_an_overshoot_the_car_keeps_to_the_lane_of_its_first_square_past_the_corner():
    ends = {}
    for made in (1, 2):
        g, d = game(track(CORNER2))
        park_others(g, 0)
        put(g, 0, 0, 13, gear=2)
        g.cars[0].corner, g.cars[0].stops = 0, made
        d.faces = [3]
        g.apply("gear 2")
        ends[made] = {k for k, t in g.turn.targets.items() if t.steps == 3}
    # with enough stops the car may drift to lane 2 by square 16; overshooting, it keeps to
    # the lane (0 or 1) it reached on square 14
    assert ends[2] == {"to 0:16", "to 1:16", "to 2:16"}
    assert ends[1] == {"to 0:16", "to 1:16"}


def test_losing_the_last_tyre_point_spins_the_car_into_first_gear():
    g, d = game(track(CORNER2))
    park_others(g, 0)
    put(g, 0, 1, 12, gear=2)
    g.cars[0].corner, g.cars[0].stops = 0, 1
    g.cars[0].wear["tyres"] = 2
    d.faces = [3]
    g.apply("gear 2")
    g.apply("to 1:15")
    assert g.cars[0].wear["tyres"] == 0 and events(g, "spin") and g.cars[0].gear == 1
    assert not g.cars[0].out


def test_an_overshoot_beyond_the_tyres_left_eliminates():
    g, d = game(track(CORNER2))
    park_others(g, 0)
    put(g, 0, 1, 12, gear=2)
    g.cars[0].corner, g.cars[0].stops = 0, 1
    g.cars[0].wear["tyres"] = 1
    d.faces = [4]
    g.apply("gear 2")
    g.apply("to 1:16")
    assert g.cars[0].out == "overshoot"


# --- after the move ---------------------------------------------------------------------------

def test_collisions_the_seed_example_neighbours_roll_once_each_then_the_mover_three_times_last():
    g, d = game(track(), cars=4)
    put(g, 1, 0, 10)  # beside
    put(g, 2, 2, 10)  # beside
    put(g, 3, 1, 11)  # the mover ends behind it
    put(g, 0, 1, 8, gear=2)
    d.faces, d.black = [2], [5, 6, 7, 8, 9, 10]
    g.apply("gear 2")
    g.apply("to 1:10")
    rolls = [(e["p"], e["roll"]) for e in events(g, "collision-roll")]
    assert rolls == [(1, 5), (2, 6), (3, 7), (0, 8), (0, 9), (0, 10)]


def test_a_neighbour_eliminated_by_its_roll_costs_the_mover_a_body_point_instead_of_a_roll():
    g, d = game(track(), cars=4)
    put(g, 1, 0, 10)
    put(g, 2, 2, 10)
    put(g, 3, 1, 11)
    g.cars[2].wear["body"] = 1
    put(g, 0, 1, 8, gear=2)
    d.faces, d.black = [2], [5, 1, 7, 8, 9]
    g.apply("gear 2")
    g.apply("to 1:10")
    assert g.cars[2].out == "collision"
    assert [e["p"] for e in events(g, "collision-roll")] == [1, 2, 3, 0, 0]
    assert g.cars[0].wear["body"] == 2 - 1


def test_a_car_diagonally_behind_counts_unless_the_option_says_not():
    for diagonal, near in ((True, [1]), (False, [])):
        g, d = game(track(), collision_diagonal=diagonal)
        put(g, 1, 0, 11)  # the mover ends diagonally behind it
        put(g, 0, 1, 8, gear=2)
        d.faces, d.black = [2], [10, 10]
        g.apply("gear 2")
        g.apply("to 1:10")
        assert g.neighbours(g.cars[0]) == near


def test_a_top_roll_in_fifth_damages_every_engine_in_fifth_or_sixth():
    g, d = game(track(segments=80), cars=3)
    put(g, 1, 0, 40, gear=6)
    put(g, 2, 2, 40, gear=3)
    put(g, 0, 1, 5, gear=5)
    d.faces, d.black = [20], [3, 2]
    g.apply("gear 5")
    g.apply("to 1:25")
    assert [(e["p"], e["roll"]) for e in events(g, "engine-roll")] == [(0, 3), (1, 2)]
    assert g.cars[0].wear["engine"] == 1 and g.cars[1].wear["engine"] == 1 and g.cars[2].wear["engine"] == 2


def test_the_first_car_across_the_line_wins_and_the_race_ends_when_all_have_crossed():
    g, d = game(track(), cars=2)
    put(g, 1, 0, 20)
    g.cars[1].out = "test"
    g.eliminated.append(1)
    put(g, 0, 1, 37, gear=2)
    d.faces = [4]
    g.apply("gear 2")
    g.apply("to 1:1")
    assert events(g, "finish") == [{"t": "event", "ev": "finish", "p": 0, "place": 1}]
    assert g.pending is None and g.standings() == [0, 1]


@pytest.mark.parametrize("model", ["advanced", "basic"])
def test_wear_models_give_categories_or_one_pool(model):
    g, _ = game(track(), wear_model=model)
    assert g.cars[0].wear == ({"pool": 18} if model == "basic" else
                              {"tyres": 4, "brakes": 3, "transmission": 2, "body": 2, "engine": 2})


def test_a_blocked_car_that_cannot_pay_its_brakes_is_eliminated():
    g, d = game(track(lanes=1))
    put(g, 1, 0, 8)
    put(g, 0, 0, 5, gear=2)
    g.cars[0].wear["brakes"] = 1
    d.faces = [4]
    g.apply("gear 2")
    assert g.turn.targets["to 0:7"].absorbed == 2
    g.apply("to 0:7")
    assert g.cars[0].out == "blocked" and g.cars[1].wear["body"] == 1


def test_in_a_one_lap_race_more_than_four_tyre_points_lost_in_all_eliminates():
    g, d = game(track(CORNER2), laps=1)
    park_others(g, 0)
    put(g, 0, 1, 12, gear=2)
    c = g.cars[0]
    c.corner, c.stops = 0, 1
    c.wear["tyres"], c.wear["brakes"], c.tyre_toll = 2, 0, 2  # 2 lost on an earlier overshoot
    d.faces = [4]
    g.apply("gear 2")
    g.apply("to 1:16")  # 3 squares past the end: 5 tyre points demanded in all, with 2 left
    assert c.out == "tyre limit" and c.wear["tyres"] == 0 and c.tyre_toll == 5


def test_losing_the_last_engine_point_eliminates():
    g, d = game(track(segments=80))
    park_others(g, 0)
    put(g, 0, 1, 5, gear=6)
    g.cars[0].wear["engine"] = 1
    d.faces, d.black = [30], [4]
    g.apply("gear 6")
    g.apply("to 1:35")
    assert g.cars[0].out == "engine"
