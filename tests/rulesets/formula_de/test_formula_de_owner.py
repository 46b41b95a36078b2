"""With several cars a player the pending decision's `player` is the car's owner, not the car:
what reads the car reads the turn's car (a refusal's reason, the field's brief, the watched
race's frames, the scenario runner's messages)."""

from __future__ import annotations

from slipstream.engine.play import watch
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import for_pack
from slipstream.engine.rulesets.formula_de.ruleset import RULESET
from slipstream.engine.rulesets.formula_de.tally import TalliedGame

from .test_formula_de_rules import PACK, Dice, put, track


def _second_car_to_move():  # type: ignore[no-untyped-def]
    """Two players of two cars; P1's second car (car 1) leads, P1's first is in 4th gear."""
    _, pack = for_pack(str(PACK))
    g = TalliedGame(track(), pack.tables, ["P1", "P2"], 7, 1, {"cars_per_player": 2})
    d = Dice(g)
    g.rng = d
    for c, (lane, seg, gear) in enumerate(((0, 5, 4), (0, 20, 1), (1, 10, 1), (2, 8, 1))):
        put(g, c, lane, seg, gear=gear)
    g._start_round()
    assert g.turn.car == 1 and g.pending.player == 0
    return g, d


def test_a_refusal_gives_the_reason_of_the_moving_car_not_of_the_players_first():
    g, d = _second_car_to_move()
    r = g.apply("gear 3")
    assert r is not None and "a car shifts up one gear at most (from 1 to 2)" in r.message
    d.faces = [1]
    assert g.apply("gear 1") is None
    r = g.apply("to 0:5")  # car 0 stands there: the moving car may not stop on it
    assert r is not None and "a car stands on 0:5" in r.message


def test_the_field_has_one_line_a_player_with_each_of_their_cars():
    g, d = _second_car_to_move()
    d.faces = [2]
    g.apply("gear 1")
    g.apply("to 0:22")
    assert RULESET.race_view.brief(g, 0) == "#1 gear 4, rolled -; #2 gear 1, rolled 2"
    assert RULESET.race_view.brief(g, 1) == "#1 gear 1, rolled -; #2 gear 1, rolled -"
    assert RULESET.race_view.car_owners(g) == [0, 0, 1, 1] and RULESET.race_view.car_of(g) == g.turn.car


def test_a_watched_race_of_two_cars_a_player_records_the_moving_cars_route():
    rs, pack = for_pack(str(PACK))
    spec = RaceSpec(str(PACK), "tilleuls", 2, ("greedy", "random"), 1, (("cars_per_player", 2),))
    g, bots = watch.start(rs, pack, spec, pack.tracks["tilleuls"])
    rec = watch.Recorder(rs, g, ["P1", "P2"])
    n = [0]

    def enough() -> bool:  # 60 decisions: every car has moved a few times
        n[0] += 1
        return n[0] > 60

    rec.play_bots(bots, stop=enough)
    moves = [f for f in rec.frames[1:] if f.route]
    assert {f.car for f in moves} == {0, 1, 2, 3} and all(f.player == f.car // 2 for f in moves)
    for f in moves:
        assert f.route[0] == f.cars_before[f.car] and f.route[-1] == f.cars_after[f.car]
        assert f.owners == [0, 0, 1, 1]
    assert any(len(f.route) > 2 for f in moves if f.car % 2)  # square by square, second cars too


def test_the_scenario_runner_names_the_car_of_a_refused_decision(tmp_path):
    from slipstream.engine.rulesets.formula_de.scenarios import run_file

    f = tmp_path / "s.yaml"
    f.write_text("slipstream: fd-scenario/1\nid: s\ncovers: [rule:cars-per-player]\n"
                 "track: {lanes: 3, squares: 40}\noptions: {cars_per_player: 2}\n"
                 "cars: [{at: '0:5'}, {at: '0:9'}, {at: '1:7'}, {at: '1:3'}]\n"
                 "decisions: [gear 3]\nexpect: {}\n")
    _, pack = for_pack(str(PACK))
    res, diags = run_file(f, pack, RULESET)
    assert res is not None and not res.ok and not diags
    assert "at the gear decision of P1 #2" in res.problems[0] and "from 1 to 2" in res.problems[0]


def test_cars_that_do_not_share_out_among_players_are_a_diagnostic(tmp_path):
    from slipstream.engine.rulesets.formula_de.scenarios import run_file

    f = tmp_path / "s.yaml"
    f.write_text("slipstream: fd-scenario/1\nid: s\ncovers: [rule:cars-per-player]\n"
                 "track: {lanes: 3, squares: 40}\noptions: {cars_per_player: 2}\n"
                 "cars: [{at: '0:5'}, {at: '0:9'}, {at: '1:7'}]\nexpect: {}\n")
    _, pack = for_pack(str(PACK))
    res, diags = run_file(f, pack, RULESET)
    assert res is None and [(d.code, d.line, d.path) for d in diags] == [("C106", 6, "$.cars")]


def test_pit_squares_off_the_route_or_without_a_pit_lane_are_diagnostics(tmp_path):
    from slipstream.engine.rulesets.formula_de.scenarios import run_file

    _, pack = for_pack(str(PACK))
    pit = '  pit: {layout: "o o o o o o", entries: [{from: "2:30"}], exits: [{from: 4, to: "2:36"}], boxes: [1]}\n'
    cases = {"pit:1": ("", None), "pit:5": (pit, "off the pit route"), "pit:9": (pit, "not a square"),
             "pit:0": ("", "not a square of the track's pit lane")}
    for at, (lane, why) in cases.items():
        f = tmp_path / "s.yaml"
        f.write_text("slipstream: fd-scenario/1\nid: s\ncovers: [rule:pit-entry]\nlaps: 2\n"
                     f"track:\n  lanes: 3\n  squares: 40\n{lane or pit}"
                     f"cars: [{{at: '{at}', serviced: true}}, {{at: '0:3', serviced: true}}]\nexpect: {{}}\n")
        if lane == "" and why is not None:
            f.write_text(f.read_text().replace(pit, ""))
        res, diags = run_file(f, pack, RULESET)
        codes = [(d.code, d.path) for d in diags]
        if why is None:
            assert codes == [("C109", "$.cars[1].serviced")]
        else:
            assert ("C104", "$.cars[0].at") in codes and why in diags[0].message
