"""Whole Formula Dé-style races: invariants over many seeded random-bot races, the pack and the
CLI (determinism and replay: tests/rulesets/test_shared_races.py)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.packs.loader import load_pack as load_pack_diags
from slipstream.engine.play.races import bot_seed, seats_of
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.formula_de.bots import make_bot
from slipstream.engine.rulesets.formula_de.content import CATEGORIES
from slipstream.engine.rulesets.formula_de.ruleset import RULESET

from .fd_invariants import check_finished, checked_race, random_race_options

ROOT = Path(__file__).parents[3]
PACK = str(ROOT / "content" / "formula-de")


def test_two_hundred_random_races_stay_legal_and_every_elimination_has_its_cause():
    shorts = boxes = 0
    for seed in range(200):
        options, laps = random_race_options(seed)
        g = checked_race(seed, ("random",) * 6, laps=laps, options=options)
        shorts += check_finished(g)
        boxes += sum(e.get("ev") == "box" for e in g.log)
    assert shorts > 0  # the check above met cars that owed more than they had
    assert boxes > 0  # and cars that stopped in their box


def test_greedy_bots_finish_most_races_and_beat_random_ones():
    wins = finished = 0
    for seed in range(20):
        g = checked_race(seed, ("greedy", "random") * 3)
        wins += g.standings()[0] % 2 == 0
        finished += sum(c.finished for c in g.cars if c.seat % 2 == 0)
    assert wins >= 17
    assert finished >= 40  # of 60 greedy cars


def test_the_pack_holds_the_circuit_and_the_tables_with_house_values_marked():
    pack, diags = load_pack_diags(PACK)
    assert pack is not None and not diags
    assert pack.ruleset == "formula-de" and "tilleuls" in pack.tracks
    assert pack.tables.gears[5] == tuple(v for v in range(21, 31) for _ in range(3))
    assert dict(pack.tables.wear[1]) == {"tyres": 4, "brakes": 3, "transmission": 2, "body": 2, "engine": 2}
    assert set(pack.tables.wear[2]) == set(CATEGORIES)
    assert "HOUSE VALUES" in pack.description
    assert "HOUSE VALUES" in (ROOT / "content" / "formula-de" / "wear.yaml").read_text()


def test_a_pack_without_tables_is_reported(tmp_path):
    (tmp_path / "pack.yaml").write_text("slipstream: pack/1\nid: bare\nname: Bare\nversion: 0.1.0\nruleset: formula-de\n")
    _, diags = load_pack_diags(tmp_path)
    assert [d.code for d in diags] == ["P043"]


def test_a_table_file_with_schema_errors_is_a_diagnostic_not_a_traceback(tmp_path):
    import shutil

    shutil.copytree(PACK, tmp_path / "p")
    gears = tmp_path / "p" / "gears.yaml"
    gears.write_text(gears.read_text().replace("black_die: 20", "black_die: x"))
    r = CliRunner().invoke(main, ["validate", str(tmp_path / "p")])
    assert r.exit_code == 1 and "S0" in r.output and "gears.yaml:5" in r.output, r.output


def test_race_command_reports_finish_rate_and_eliminations_by_cause():
    r = CliRunner().invoke(main, ["race", PACK, "--races", "6", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "finish rate:" in r.output and "eliminations by cause:" in r.output
    one = CliRunner().invoke(main, ["race", PACK, "--seed", "3"])
    assert one.exit_code == 0 and "rolls" in one.output and "final standings:" in one.output


def test_view_and_cars_show_gear_wear_stops_and_lap():
    pack = load_pack(PACK)
    g = RULESET.new_game(pack, pack.tracks["tilleuls"], seats_of(("random", "random")), 3, {})
    labels = [k for k, _ in RULESET.view(g, 0)]
    assert labels[:1] == ["gear"] and set(CATEGORIES) <= set(labels)
    assert "stops in this corner" in labels and "lap" in labels
    assert len(RULESET.race_view.cars(g)) == 2
    assert RULESET.describe({"t": "event", "ev": "roll", "p": 0, "gear": 3, "roll": 6}) == "P1 rolls 6 in gear 3"


def test_the_layers_of_a_larger_roll_give_the_targets_of_every_smaller_roll():
    g = checked_race(4, ("greedy",) * 6, laps=1)  # a finished race; replay its positions
    pack = load_pack(PACK)
    game = RULESET.new_game(pack, pack.tracks["tilleuls"], seats_of(("greedy",) * 6), 4, {}, 1)
    bots = [make_bot("greedy", bot_seed(4, i)) for i in range(6)]
    checked = 0
    while game.pending is not None:
        d = game.pending
        if d.kind == "gear" and game.cars[d.player].started:
            car = game.cars[d.player]
            big = game.layers(car, 30)
            for roll in (1, 4, 9, 17, 30):
                assert game.targets(car, roll, big) == game.targets(car, roll)
                checked += 1
        game.apply(bots[d.player].choose(game, d))
    assert checked > 100 and game.log == g.log
