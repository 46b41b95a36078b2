"""House rules in a Formula Dé-style pack (`formula-de-rules/1`, tests/rulesets/formula_de/packs/
house-rules): races, championships, scenarios and the editor's race form read them, and
`--option` overrides them (the pack validates, its scenarios and race logs: tests/rulesets/
test_shared_races.py)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import run

from slipstream.engine.play.races import seats_of
from slipstream.engine.play.registry import for_pack

PACK = str(Path(__file__).parent / "packs" / "house-rules")


def test_a_race_of_the_pack_plays_by_its_house_rules_and_an_option_overrides_them():
    rs, pack = for_pack(PACK)
    assert dict(pack.house_options) == {"wear_model": "basic", "season_races": 2, "season_points": (4, 2, 1)}
    track = pack.tracks["tilleuls"]
    game = rs.new_game(pack, track, seats_of(("greedy", "greedy")), 1, {}, 1)
    assert [c.wear for c in game.cars] == [{"pool": 18}, {"pool": 18}]
    game = rs.new_game(pack, track, seats_of(("greedy", "greedy")), 1, {"wear_model": "advanced"}, 1)
    assert set(game.cars[0].wear) == {"tyres", "brakes", "transmission", "body", "engine"}


def test_a_championship_takes_its_races_and_points_from_the_house_rules(tmp_path):
    code, out = run("season", PACK, "--bots", "greedy,random", "--players", "3", "--laps", "1", "--seed", "2",
                    "--log", str(tmp_path))
    assert code == 0, out
    assert out.startswith("Championship of 2 races (tilleuls, tilleuls), seed 2, points 4-2-1"), out
    assert run("replay", str(tmp_path / "season-2.jsonl")) == (0, "identical\n")
    code, out = run("season", PACK, "--bots", "greedy,random", "--players", "3", "--laps", "1", "--seed", "2",
                    "--option", "season_points=9,1", "--option", "season_races=1", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["season_options"]["season_points"] == [9, 1] and len(data["races"]) == 1


def test_the_race_form_shows_the_pack_values():
    from slipstream.editor.race.racepanels import RacePanels

    rs, _ = for_pack(PACK)
    values = RacePanels().pack_options(rs, PACK)
    assert values["wear_model"] == "basic" and values["collision_diagonal"] is True
