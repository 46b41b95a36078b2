"""The speed-and-hazard effect vocabulary (engine/rulesets/speed_hazard/content.py, game.py):
the printed cards read the same written as steps as in their shorthand fields (same decks, same
scenarios, same races), and each misuse of a step is a diagnostic at its place."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from slipstream.engine.packs.loader import load_pack as load_fresh
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.speed_hazard.content import Effect
from slipstream.engine.rulesets.speed_hazard.ruleset import RULESET
from slipstream.engine.rulesets.speed_hazard.scenarios import run_pack_scenarios

ROOT = Path(__file__).resolve().parents[3]
BASE = ROOT / "content" / "speed-hazard"
PRINTED = Path(__file__).parent / "packs" / "printed-effects"


def test_the_shorthand_fields_are_read_as_steps_of_the_vocabulary() -> None:
    d = load_pack(str(BASE)).decks
    by = {c.id: c for c in d.nitrous} | {f"h:{c.id}": c for c in d.hazards}  # type: ignore[operator]
    assert by["pop"].effects == (Effect("boost", 20), Effect("damage", 1))
    assert by["click"].effects == (Effect("reshuffle", 0, "nitrous"),)
    assert by["h:lose-grip"].effects == (Effect("speed", -20),)
    assert by["h:spin"].effects == (Effect("spin"),)
    assert by["h:near-miss"].effects == ()


def test_the_printed_cards_written_as_steps_make_the_same_decks() -> None:
    assert load_pack(str(PRINTED)).decks == load_pack(str(BASE)).decks


def test_the_bundled_scenarios_pass_on_the_printed_cards_written_as_steps(tmp_path: Path) -> None:
    pack = tmp_path / "printed-effects"
    shutil.copytree(PRINTED, pack)
    shutil.copytree(BASE / "tests", pack / "tests")
    rep = run_pack_scenarios(str(pack), RULESET)
    assert not rep.diagnostics, [str(x) for x in rep.diagnostics]
    assert len(rep.results) > 100 and all(r.ok for r in rep.results), [r.id for r in rep.results if not r.ok]


@pytest.mark.parametrize("seed", range(6))
def test_races_with_the_printed_cards_written_as_steps_log_the_same(seed: int) -> None:
    bots = ("random", "greedy", "random", "greedy")[: 2 + seed % 3]
    options = (("u_turn", True),) if seed % 2 else ()

    def log(pack: Path) -> str:
        res = RULESET.run_race(RaceSpec(pack=str(pack), track="redline-loop", seed=seed, bots=bots, options=options))
        return json.dumps([res.log, res.result])

    assert log(PRINTED) == log(BASE)


# --- misuse: each a diagnostic with its code and place -------------------------------------

def _diags(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str, int, int, str]]:
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "pack.yaml").write_text("slipstream: pack/1\nid: p\nname: P\nversion: 0.1.0\nruleset: speed-hazard\n"
                                    "extends: [speed-hazard]\n")
    for name, text in files.items():
        (pack / name).write_text(text)
    _, diags = load_fresh(pack)
    return [(d.code, Path(d.file).name, d.line, d.column, d.path) for d in diags]


HAZARD = "slipstream: hazard-deck/1\ncards:\n  - id: x\n    name: X\n    count: 1\n    effects:\n{}"
NITROUS = "slipstream: nitrous-deck/1\ncards:\n  - id: x\n    name: X\n    count: 1\n    effects:\n{}"
ACTION = "slipstream: action-cards/1\ncards:\n  - id: x\n    name: X\n    number: 6\n{}"
EQUIP = "slipstream: equipment-deck/1\ncards:\n  - id: x\n    name: X\n    count: 1\n{}"


@pytest.mark.parametrize(("files", "want"), [
    ({"hazards.yaml": HAZARD.format("      - {draw: hazard, then: [{spin: true}]}\n")},
     ("E201", "$.cards[0].effects[0].then")),
    ({"hazards.yaml": HAZARD.format("      - {if: {speed_at_least: 50}}\n")}, ("E201", "$.cards[0].effects[0].if")),
    ({"hazards.yaml": HAZARD.format("      - {}\n")}, ("S001", "$.cards[0].effects[0]")),  # the schema: at least one key
    ({"hazards.yaml": HAZARD.format("      - {reshuffle: nitrous}\n")}, ("E202", "$.cards[0].effects[0].reshuffle")),
    ({"hazards.yaml": HAZARD.format("      - {draw: nitrous}\n")}, ("E202", "$.cards[0].effects[0].draw")),
    ({"nitrous.yaml": NITROUS.format("      - {draw: nitrous}\n")}, ("E202", "$.cards[0].effects[0].draw")),
    ({"actions.yaml": ACTION.format("    kind: hop\n    effects: [{draw: nitrous}, {speed: 10}]\n")},
     ("E202", "$.cards[0].effects[0].draw")),
    ({"actions.yaml": ACTION.format("    kind: hop\n    effects: [{if: {nitrous: false}, then: [{draw: nitrous}]}]\n")},
     ("E202", "$.cards[0].effects[0].then[0].draw")),
    ({"equipment.yaml": EQUIP.format("    on_keep: [{move: 2}]\n")}, ("E202", "$.cards[0].on_keep[0].move")),
    ({"equipment.yaml": EQUIP.format("    action: {number: 6, kind: hop, effects: [{tokens: nails}]}\n")},
     ("E203", "$.cards[0].action.effects[0].tokens")),
    ({"actions.yaml": ACTION.format("    kind: brake\n    amounts: [10]\n    effects: [{speed: -10}]\n")},
     ("E204", "$.cards[0].effects")),
    ({"actions.yaml": ACTION.format("    kind: hop\n    effects: [{move: 1}]\n"
                                    "    choices: [{id: a, effects: [{move: 1}]}, {id: b, effects: [{move: 2}]}]\n")},
     ("E204", "$.cards[0].choices")),
    ({"actions.yaml": ACTION.format("    kind: hop\n"
                                    "    choices: [{id: a, effects: [{move: 1}]}, {id: a, effects: [{move: 2}]}]\n")},
     ("E204", "$.cards[0].choices[1].id")),
    ({"hazards.yaml": HAZARD.format("      - {top_speed: -15}\n")}, ("P044", "$.cards[0].effects[0].top_speed")),
    ({"actions.yaml": ACTION.format("    kind: hop\n    needs: {speed_at_least: 25}\n    effects: [{move: 1}]\n")},
     ("P044", "$.cards[0].needs.speed_at_least")),
])
def test_each_misuse_of_a_step_is_a_diagnostic_at_its_place(tmp_path: Path, files: dict[str, str],
                                                           want: tuple[str, str]) -> None:
    got = _diags(tmp_path, files)
    assert got, "no diagnostic"
    assert {g[0] for g in got} == {want[0]}, got
    if want[1]:
        assert want[1] in [g[4] for g in got], got
    assert all(g[2] > 1 for g in got), got  # a line of the card, not of the file's head


def test_a_pack_using_no_step_of_its_own_loads_as_before(tmp_path: Path) -> None:
    assert _diags(tmp_path, {"hazards.yaml": HAZARD.format("      - {damage: 1}\n      - {draw: hazard, count: 2}\n")}) == []


def test_a_reshuffle_inside_an_if_puts_the_card_back_once(tmp_path: Path) -> None:
    pack = tmp_path / "p"
    (pack / "tests").mkdir(parents=True)
    (pack / "pack.yaml").write_text("slipstream: pack/1\nid: p\nname: P\nversion: 0.1.0\nruleset: speed-hazard\n"
                                    "extends: [speed-hazard]\n")
    (pack / "nitrous.yaml").write_text(
        "slipstream: nitrous-deck/1\ncards:\n  - id: maybe-click\n    name: Maybe click\n    count: 1\n"
        "    effects: [{if: {speed_at_least: 50}, then: [{reshuffle: nitrous}], else: [{boost: 20}]}]\n")
    (pack / "tests" / "maybe-click.yaml").write_text(
        "slipstream: sh-scenario/1\nid: maybe-click\ndescription: at 50 km/h the card clicks\n"
        "covers: [nitrous:maybe-click]\ntrack: {lanes: 1, squares: 100}\ncars: [{at: '0:0', speed: 50}]\n"
        "decks: {nitrous: [maybe-click]}\nplay: [{car: 0, card: card accelerate}]\ndecisions: [nitrous]\n"
        "expect:\n  cars: [{at: '0:5', speed: 50}]\n  decks: {nitrous: {size: 13}, nitrous_discard: {size: 0}}\n")
    rep = run_pack_scenarios(str(pack), RULESET)
    assert not rep.diagnostics and [r.ok for r in rep.results] == [True], [(r.id, r.problems) for r in rep.results]


def test_a_copy_of_the_game_keeps_the_squares_a_card_added_to_the_move() -> None:
    from slipstream.engine.rulesets.speed_hazard.game import SpeedHazardGame

    pack = load_pack(str(BASE))
    g = SpeedHazardGame(pack.tracks["redline-loop"], pack.decks, ["a", "b"], 3, 1, {})
    while g.turn is None:
        d = g.pending
        assert d is not None
        g.apply(d.keys()[0])
    g.turn.extra = 2
    assert g.copy().turn.extra == 2  # type: ignore[union-attr]
    assert g.fork().turn.extra == 2  # type: ignore[union-attr]
