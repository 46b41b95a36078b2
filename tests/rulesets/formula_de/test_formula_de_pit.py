"""The pit stop, several cars per player and the flying start's swerve (docs/rules/formula-de.md),
on small tracks written inline and with the dice scripted (helpers of test_formula_de_rules)."""

from __future__ import annotations

from slipstream.engine.core.yamlsource import load_text
from slipstream.engine.play.races import seats_of
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.formula_de.narration import describe
from slipstream.engine.rulesets.formula_de.ruleset import RULESET
from slipstream.engine.tracks.load import check_track_data
from slipstream.engine.tracks.track import PIT_LANE

from .test_formula_de_rules import PACK, events, game, park_others, put, track

# a pit lane of 6 squares from 2:30 to 2:36 (6 main segments), boxes on pit squares 1 to 4
PIT = ('pit:\n  layout: "o o o o o o"\n  entries:\n    - {from: "2:30"}\n  exits:\n'
       '    - {from: 5, to: "2:36"}\n  boxes: [1, 2, 3, 4]\n')


# the pack's 2-lap wear points (house values, content/formula-de/wear.yaml): a box restores tyres
FULL = dict(load_pack(str(PACK)).tables.wear[2])


def pit_track(corners: str = "", boxes: str = "[1, 2, 3, 4]"):
    text = "slipstream: track/2\nid: t\nlaps: 2\nrulesets: [formula-de]\nlanes: 3\nlayout:\n"
    text += "".join(f'  - "{"o " * 40}"\n' for _ in range(3))
    text += "grid: [" + ", ".join(f"{{lane: {ln}, segment: {39 - k}}}" for k in range(3) for ln in range(3)) + "]\n"
    text += (f"corners:\n{corners}" if corners else "") + PIT.replace("[1, 2, 3, 4]", boxes)
    loaded = load_text(text, "t.yaml")
    t, diags = check_track_data(loaded.data, loaded.source)
    assert t is not None, diags
    return t


def to_pit(g, d, p: int = 0, segment: int = 27, gear: int = 2, face: int = 4):
    """Car `p` on lane 2 `segment` rolls `face` in `gear`; returns the pending decision."""
    put(g, p, 2, segment, gear=gear)
    d.faces = [face]
    g.apply(f"gear {gear}")
    return g.pending


# --- entering ---------------------------------------------------------------------------------

def test_a_roll_that_passes_the_pit_entry_offers_the_pit_lane_in_a_two_lap_race():
    g, d = game(pit_track(), laps=2)
    park_others(g, 0)
    dec = to_pit(g, d)
    assert dec.kind == "pit" and dec.keys() == ["pit", "stay out"]
    assert g.turn.pit_steps == 3
    g.apply("stay out")
    assert g.pending.kind == "move" and "to 2:31" in g.pending.keys()


def test_no_pit_entry_in_a_one_lap_race_or_with_nothing_left_to_drive_in_the_lane():
    g, d = game(pit_track(), laps=1)
    park_others(g, 0)
    assert to_pit(g, d).kind == "move"
    g, d = game(pit_track(), laps=2)
    park_others(g, 0)
    assert to_pit(g, d, face=3).kind == "move"  # 3 squares end on the entry: nothing left to enter


def test_no_pit_entry_when_the_race_would_end_in_the_pit_lane():
    from slipstream.engine.play.registry import load_pack

    tilleuls = load_pack(str(PACK)).tracks["tilleuls"]  # its pit lane spans the line
    for lap, kind in ((0, "pit"), (1, "move")):
        g, d = game(tilleuls, laps=2)
        park_others(g, 0)
        put(g, 0, 2, 110, gear=3)
        g.cars[0].progress = 120 * lap + 110
        d.faces = [8]
        g.apply("gear 3")
        assert g.pending.kind == kind


def test_the_entry_square_must_be_reachable_in_lane():
    g, d = game(pit_track(), laps=2)
    park_others(g, 0)
    put(g, 0, 0, 29, gear=2)
    d.faces = [4]
    g.apply("gear 2")  # from lane 0 one square cannot reach lane 2
    assert g.pending.kind == "move"


def test_the_pit_entry_gear_limit_is_an_option():
    g, d = game(pit_track(), laps=2, pit_entry_max_gear=4)
    park_others(g, 0)
    assert to_pit(g, d, segment=20, gear=5, face=14).kind == "move"
    g, d = game(pit_track(), laps=2)
    park_others(g, 0)
    assert to_pit(g, d, segment=20, gear=5, face=14).kind == "pit"


# --- in the pit lane --------------------------------------------------------------------------

def test_a_car_reaching_its_box_drops_the_extra_squares_gets_full_tyres_and_rolls_to_leave():
    g, d = game(pit_track(), laps=2)
    park_others(g, 0)
    g.cars[0].wear["tyres"] = 1
    to_pit(g, d, segment=20, gear=5, face=14)  # 10 squares to the entry, 4 left: box 1 is 2 away
    d.black = [15]
    g.apply("pit")
    c = g.cars[0]
    assert c.pit == 1 and c.wear["tyres"] == FULL["tyres"] and c.wear["brakes"] == FULL["brakes"]  # no braking
    assert events(g, "box")[-1] == {"t": "event", "ev": "box", "p": 0, "box": 1, "tyres": FULL["tyres"] - 1,
                                    "left": FULL["tyres"]}
    assert events(g, "pit-exit")[-1]["result"] == "slow"
    assert RULESET.race_view.cars(g)[0] == (PIT_LANE, 1)
    assert dict(RULESET.view(g, 0))["state"] == "in box 1"


def test_a_slow_stop_waits_then_leaves_in_at_most_fourth_gear_without_downshift_costs():
    g, d = game(pit_track(), laps=2)
    park_others(g, 0)
    to_pit(g, d, segment=20, gear=6, face=24)
    d.black = [11]
    g.apply("pit")
    assert g.pending.kind == "gear" and g.turn.car == 0  # the next round
    assert g.pending.keys() == ["gear 1", "gear 2", "gear 3", "gear 4"]
    d.faces = [2]
    g.apply("gear 1")
    assert g.cars[0].wear["transmission"] == FULL["transmission"] and g.cars[0].pit == 3


def test_a_quick_stop_leaves_at_once_with_half_the_roll_in_fourth_then_third_to_fifth():
    g, d = game(pit_track(), laps=2)
    park_others(g, 0)
    to_pit(g, d, segment=20, gear=5, face=14)
    d.black = [7]  # 4 squares from box 1: pit 2..5
    g.apply("pit")
    c = g.cars[0]
    assert events(g, "pit-exit")[-1]["squares"] == 4 and c.gear == 4 and c.pit == 5
    assert g.pending.keys() == ["gear 3", "gear 4", "gear 5"]
    d.faces = [5]
    g.apply("gear 3")  # 1 square out onto 2:36, then 4 on the track
    assert events(g, "pit-out")[-1] == {"t": "event", "ev": "pit-out", "p": 0, "to": "2:36", "rest": 4}
    assert g.pending.kind == "move" and {t.steps for t in g.turn.targets.values()} >= {4}
    g.apply("to 2:0")
    assert c.pit == -1 and c.progress == 40  # the lap counted through the pit lane


def test_a_quick_stop_that_reaches_the_exit_stands_on_the_track():
    g, d = game(pit_track(), laps=2, cars=2)
    put(g, 1, 1, 2)
    put(g, 0, 2, 20, gear=5)
    d.faces, d.black = [14], [10]  # box 1, then 5 squares: pit 2..5 and out to 2:36
    g.apply("gear 5")
    g.apply("pit")
    assert events(g, "pit-out")[-1]["rest"] == 0
    c = g.cars[0]
    assert (c.pit, c.node, c.progress) == (-1, g.track.space_at(2, 36).index, 36)
    assert g.turn.car == 1


def test_no_overtaking_in_the_pit_lane_and_no_loss_for_waiting_behind():
    g, d = game(pit_track(boxes="[1, 4]"), laps=2)
    c0, c1 = g.cars[0], g.cars[1]
    put(g, 0, 2, 20, gear=5)
    d.faces, d.black = [14], [15]  # car 0 to box 1, slow stop
    g.apply("gear 5")
    g.apply("pit")
    assert c0.pit == 1
    put(g, 1, 2, 20, gear=5)
    d.faces = [20]  # 10 to the entry, then 10 more: its box is 4, car 0 waits in box 1
    g.apply("gear 5")
    g.apply("pit")
    assert c1.pit == 0 and c1.wear == g._full_wear()
    assert not events(g, "blocked") and not events(g, "engine-roll")
    assert dict(RULESET.view(g, 1))["state"] == "in the pit lane"


def test_a_car_whose_way_out_is_taken_waits_in_the_lane_at_no_cost():
    g, d = game(pit_track(), laps=2, cars=2)
    put(g, 1, 2, 36)  # on the exit square
    put(g, 0, 2, 20, gear=5)
    d.faces, d.black = [14], [10]  # box 1, then 5 squares: the lane's last square, not out
    g.apply("gear 5")
    g.apply("pit")
    c = g.cars[0]
    assert c.pit == 5 and not events(g, "pit-out") and c.wear == g._full_wear()


def test_with_one_wear_pool_the_box_gives_back_the_points_lost_on_tyres():
    g, d = game(pit_track(), laps=2, wear_model="basic")
    park_others(g, 0)
    c = g.cars[0]
    c.wear["pool"], c.tyres_lost = 10, 3
    to_pit(g, d, segment=20, gear=5, face=14)
    d.black = [15]
    g.apply("pit")
    assert c.wear["pool"] == 13 and c.tyres_lost == 0


def test_the_greedy_bot_pits_on_worn_tyres_and_stays_out_on_fresh_ones():
    from slipstream.engine.rulesets.formula_de.bots import make_bot

    for tyres, choice in ((2, "pit"), (6, "stay out")):
        g, d = game(pit_track(), laps=2)
        park_others(g, 0)
        g.cars[0].wear["tyres"] = tyres
        dec = to_pit(g, d, segment=20, gear=5, face=14)
        assert make_bot("greedy", 1).choose(g, dec) == choice


def test_cars_in_the_pit_lane_neither_collide_nor_block_the_track():
    g, d = game(pit_track(), laps=2)
    put(g, 1, 2, 20, gear=5)
    d.faces, d.black = [14], [15]
    g.apply("gear 5")
    g.apply("pit")
    assert g.occupied() == {g.cars[0].node: 0}
    assert 1 not in g.neighbours_at(g.track.space_at(2, 29).index, 0)  # not ahead on the entry


def test_a_car_in_the_pit_lane_is_spared_engine_damage():
    g, d = game(pit_track(), laps=2, cars=2)
    put(g, 1, 2, 20, gear=5)
    d.faces, d.black = [14], [15]
    g.apply("gear 5")
    g.apply("pit")
    put(g, 0, 0, 2, gear=5)
    d.faces, d.black = [20], [3]
    g.apply("gear 5")
    g.apply("to 0:22")
    assert [e["p"] for e in events(g, "engine-roll")] == [0]


def test_an_overshoot_on_the_way_to_the_entry_is_paid_before_entering():
    g, d = game(pit_track("  - {name: A, from: 24, to: 28, stops: 1}\n"), laps=2)
    park_others(g, 0)
    g.cars[0].wear["brakes"] = 0
    to_pit(g, d, segment=22, gear=4, face=10)  # 8 squares to the entry (2 past A), 2 to box 1
    d.black = [15]
    g.apply("pit")
    assert events(g, "overshoot")[-1]["past"] == 2 and g.cars[0].wear["tyres"] == FULL["tyres"]
    assert [e["tyres"] for e in events(g, "box")] == [2]


def test_the_pit_events_are_told():
    g, d = game(pit_track(), laps=2)
    park_others(g, 0)
    to_pit(g, d, segment=20, gear=5, face=14)
    d.black = [7]
    g.apply("pit")
    told = [describe(e, g.names) for e in g.log if e.get("ev", "").startswith(("pit", "box"))]
    assert told[0] == "P1 turns into the pit lane"
    assert f"P1 stops in box 1: 0 tyre points back, {FULL['tyres']} now" in told
    assert "P1 pit exit roll 7: quick stop, leaves with 4 squares in 4th gear" in told


# --- several cars per player ------------------------------------------------------------------

def test_each_player_drives_several_cars_named_by_owner_and_placed_by_the_best():
    g, d = game(track(), cars=2, cars_per_player=2)
    assert g.names == ["P1 #1", "P1 #2", "P2 #1", "P2 #2"] and g.owner == [0, 0, 1, 1]
    assert len(g.cars) == 4 and len(events(g, "grid")[-1]["order"]) == 4
    assert g.pending.player == g.owner[g.turn.car]
    for c in g.cars:
        c.progress = {0: 5, 1: 30, 2: 20, 3: 10}[c.seat]
    assert g.car_standings() == [1, 2, 3, 0] and g.standings() == [0, 1]
    assert g.result()["car_standings"] == ["P1 #2", "P2 #1", "P2 #2", "P1 #1"]
    assert g.result()["standings"] == ["P1", "P2"]
    view = RULESET.view(g, 1)  # the player's car to move, else their first car racing
    shown = g.names[g.turn.car] if g.owner[g.turn.car] == 1 else "P2 #1"
    assert view[0] == ("car", shown) and ("gear", "1") in view


def test_more_cars_than_grid_slots_line_up_behind_the_grid():
    from slipstream.engine.play.registry import load_pack

    pack = load_pack(str(PACK))
    g = RULESET.new_game(pack, pack.tracks["tilleuls"], seats_of(("random",) * 6), 5, {"cars_per_player": 2})
    squares = [c.node for c in g.cars]
    assert len(set(squares)) == 12
    assert sorted(c.progress for c in g.cars)[:2] == [-5, -5]  # slots 11 and 12: a row behind


# --- the flying start's swerve ----------------------------------------------------------------

def test_a_flying_start_may_swerve_across_two_lanes_around_cars_ahead():
    g, d = game(track(), cars=3)
    p = g.turn.car
    car, (a, b) = g.cars[p], [c for c in g.cars if c.seat != p]
    car.node = g.track.space_at(0, 30).index
    a.node, b.node = g.track.space_at(0, 31).index, g.track.space_at(1, 31).index
    assert all(t.absorbed == 4 for t in g.targets(car, 4).values())  # boxed in without it
    d.black = [20]
    g.apply("gear 1")
    t = g.turn.targets
    assert t["to 2:34"].swerve and t["to 2:34"].steps == 4 and not t["to 2:34"].absorbed
    assert "swerving" in next(o.text for o in g.pending.options if o.key == "to 2:34")
    d.black = [10, 10, 10, 10]
    g.apply("to 2:34")
    assert events(g, "move")[-1]["swerve"] is True
    assert describe(events(g, "move")[-1], g.names).endswith("swerving across two lanes")


def test_a_flying_start_with_a_free_way_is_offered_no_swerve_it_does_not_need():
    g, d = game(track(), cars=1)
    d.black = [20]
    g.apply("gear 1")
    plain = g.targets(g.cars[0], 4)
    assert {k for k, t in g.turn.targets.items() if not t.swerve} == set(plain)


def test_a_race_of_two_cars_a_player_is_told_by_car_and_reported_by_player():
    from slipstream.engine.play.races import RaceSpec

    res = RULESET.run_race(RaceSpec(str(PACK), "tilleuls", 4, ("greedy", "random"), 1, (("cars_per_player", 2),)))
    assert sorted(res.standings) == [0, 1] and len(res.result["car_standings"]) == 4
    text = RULESET.reports.text(res)
    assert "P1 #1" in text and "P2 #2" in text and "P3" not in text and "P4" not in text
    assert text.splitlines()[-1].startswith("cars in race order: ")
    assert [c["name"] for c in RULESET.reports.json(res)["cars"]] == res.result["car_standings"]
