"""Extending packs change single items of the Formula Dé-style and speed-and-hazard data files
(engine/packs/merge.py's `rows`): add, override or remove one card, deck entry or table row,
with a diagnostic at the line and column of an entry naming an unknown item."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

from helpers import ROOT, run

from slipstream.engine.packs.loader import load_pack
from slipstream.engine.play.races import seats_of
from slipstream.engine.play.registry import for_pack

SH_PACK = ROOT / "tests" / "rulesets" / "speed_hazard" / "packs" / "black-ice"
FD_PACK = ROOT / "tests" / "rulesets" / "formula_de" / "packs" / "hard-tyres"


def _pack(folder: Path, ruleset: str, files: dict[str, str], manifest: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text(f"slipstream: pack/1\nid: {folder.name}\nname: T\nversion: 0.1.0\n"
                                      f"ruleset: {ruleset}\nextends: [{ruleset}]\n{manifest}")
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def _found(diags):
    return [(d.code, Path(d.file).name, d.line, d.column, d.path) for d in diags]


def test_an_extending_pack_adds_changes_and_removes_single_hazard_cards():
    base, _ = load_pack(ROOT / "content" / "speed-hazard")
    pack, diags = load_pack(SH_PACK)
    assert diags == []
    old = Counter(c.id for c in base.decks.hazards)
    new = Counter(c.id for c in pack.decks.hazards)
    assert new == old - Counter({"big-hit": 1, "spin": 2}) + Counter({"black-ice": 2})
    ids = [c.id for c in pack.decks.hazards]
    assert ids[-2:] == ["black-ice", "black-ice"]  # added cards come after the inherited ones
    near = next(c for c in pack.decks.hazards if c.id == "near-miss")
    assert near.slow == 10 and near.name == "Near miss"  # the fields not overridden are inherited
    assert pack.decks.actions == base.decks.actions and pack.decks.setup == base.decks.setup


def test_races_and_scenarios_use_the_changed_cards(tmp_path):
    code, out = run("test", str(SH_PACK))
    assert code == 0 and "2 passed, 0 failed" in out, out
    rs, pack = for_pack(str(SH_PACK))
    game = rs.new_game(pack, pack.tracks["redline-loop"], seats_of(("greedy", "greedy")), 3, {})
    assert Counter(c.id for c in game.decks.hazards)["black-ice"] == 2
    code, out = run("race", str(SH_PACK), "--seed", "2", "--log", str(tmp_path))
    assert code == 0, out
    assert run("replay", str(tmp_path / "race-2.jsonl")) == (0, "identical\n")
    # the same scenarios on the pack without its changes: the added card is unknown, the
    # changed one does what the inherited card does
    bare = tmp_path / "bare"
    shutil.copytree(SH_PACK, bare)
    (bare / "hazards.yaml").unlink()
    code, out = run("test", str(bare))
    assert code == 1 and "FAIL near-miss-changed" in out and "black-ice" in out


def test_an_extending_pack_changes_one_wear_row_and_adds_one():
    base, _ = load_pack(ROOT / "content" / "formula-de")
    pack, diags = load_pack(FD_PACK)
    assert diags == []
    assert dict(pack.tables.wear[1]) == {**base.tables.wear[1], "tyres": 6}
    assert pack.tables.wear[2] == base.tables.wear[2]
    assert list(pack.tables.wear) == [1, 2, 3]
    assert pack.tables.gears == base.tables.gears and pack.tables.basic_pool == base.tables.basic_pool
    code, out = run("test", str(FD_PACK))
    assert code == 0 and "2 passed, 0 failed" in out, out
    rs, pk = for_pack(str(FD_PACK))
    game = rs.new_game(pk, pk.tracks["tilleuls"], seats_of(("greedy", "greedy")), 1, {}, 1)
    assert game.cars[0].wear["tyres"] == 6


def test_a_gear_die_is_changed_and_the_top_gear_left_out(tmp_path):
    folder = _pack(tmp_path / "five-gears", "formula-de", {"gears.yaml": (
        "slipstream: gears/1\noverrides:\n  - {gear: 2, faces: [3, 3, 4, 4]}\nremoves: [6]\nblack_die: 12\n")})
    pack, diags = load_pack(folder)
    assert diags == []
    assert len(pack.tables.gears) == 5 and pack.tables.gears[1] == (3, 3, 4, 4) and pack.tables.black_die == 12


def test_an_unknown_id_is_p017_at_its_entry(tmp_path):
    folder = _pack(tmp_path / "p", "speed-hazard", {"hazards.yaml": (
        "slipstream: hazard-deck/1\n"
        "overrides:\n"
        "  - {id: near-mis, slow: 10}\n"
        "removes: [big-hit, no-such-card]\n")})
    _, diags = load_pack(folder)
    assert _found(diags) == [("P017", "hazards.yaml", 3, 10, "$.overrides[0].id"),
                             ("P017", "hazards.yaml", 4, 20, "$.removes[1]")]
    assert "near-mis" in diags[0].message and "near-miss" in (diags[0].hint or "")
    code, out = run("validate", str(folder))
    assert code == 1 and "hazards.yaml:3:10: error P017" in out


def test_unknown_rows_of_a_table_are_p017(tmp_path):
    folder = _pack(tmp_path / "p", "formula-de", {"wear.yaml": (
        "slipstream: wear/1\noverrides:\n  - {laps: 5, tyres: 9}\nremoves: [4]\n")})
    _, diags = load_pack(folder)
    assert _found(diags) == [("P017", "wear.yaml", 3, 12, "$.overrides[0].laps"),
                             ("P017", "wear.yaml", 4, 11, "$.removes[0]")]


def test_a_pack_prefix_not_extended_is_p018(tmp_path):
    folder = _pack(tmp_path / "p", "speed-hazard", {"nitrous.yaml": (
        "slipstream: nitrous-deck/1\nremoves: [base:click]\n")})
    _, diags = load_pack(folder)
    assert _found(diags) == [("P018", "nitrous.yaml", 2, 11, "$.removes[0]")]


def test_an_added_card_with_an_inherited_id_clashes_unless_it_replaces_it(tmp_path):
    text = "slipstream: nitrous-deck/1\ncards:\n  - {id: pop, name: Pop!, count: 3, adds: 30}\n"
    folder = _pack(tmp_path / "p", "speed-hazard", {"nitrous.yaml": text})
    _, diags = load_pack(folder)
    assert _found(diags) == [("P023", "nitrous.yaml", 3, 10, "$.cards[0].id")]
    assert "overrides" in (diags[0].hint or "") and "speed-hazard:pop" in (diags[0].hint or "")
    folder = _pack(tmp_path / "q", "speed-hazard", {"nitrous.yaml": text}, "replaces: [speed-hazard:pop]\n")
    pack, diags = load_pack(folder)
    assert diags == []
    pops = [c for c in pack.decks.nitrous if c.id == "pop"]
    assert len(pops) == 3 and pops[0].adds == 30 and pops[0].damage == 0
    folder = _pack(tmp_path / "r", "speed-hazard", {}, "replaces: [speed-hazard:pop]\n")
    _, diags = load_pack(folder)
    assert [d.code for d in diags] == ["P025"]


def test_a_card_twice_in_one_file_is_p010(tmp_path):
    folder = _pack(tmp_path / "p", "speed-hazard", {"hazards.yaml": (
        "slipstream: hazard-deck/1\ncards:\n  - {id: ice, name: Ice, count: 1}\n  - {id: ice, name: Ice, count: 2}\n")})
    _, diags = load_pack(folder)
    assert _found(diags) == [("P010", "hazards.yaml", 4, 10, "$.cards[1].id")]


def test_a_deck_left_without_cards_or_a_changed_speed_off_the_grid_is_p044(tmp_path):
    ids = sorted({c.id for c in load_pack(ROOT / "content" / "speed-hazard")[0].decks.equipment})
    folder = _pack(tmp_path / "p", "speed-hazard", {"equipment.yaml": (
        f"slipstream: equipment-deck/1\nremoves: [{', '.join(ids)}]\n")})
    _, diags = load_pack(folder)
    assert [(d.code, Path(d.file).name) for d in diags] == [("P044", "equipment.yaml")]
    assert "no cards" in diags[0].message
    folder = _pack(tmp_path / "q", "speed-hazard", {"hazards.yaml": (
        "slipstream: hazard-deck/1\noverrides:\n  - {id: lose-grip, slow: 25}\n")})
    _, diags = load_pack(folder)
    assert _found(diags) == [("P044", "hazards.yaml", 3, 27, "$.overrides[0].slow")]


def test_leaving_out_a_middle_gear_is_p043(tmp_path):
    folder = _pack(tmp_path / "p", "formula-de", {"gears.yaml": "slipstream: gears/1\nremoves: [3]\n"})
    _, diags = load_pack(folder)
    assert [(d.code, Path(d.file).name) for d in diags] == [("P043", "gears.yaml")]
    assert "without a gap" in diags[0].message


def test_a_pack_of_its_own_still_gives_whole_tables(tmp_path):
    folder = tmp_path / "own"
    folder.mkdir()
    (folder / "pack.yaml").write_text("slipstream: pack/1\nid: own\nname: Own\nversion: 0.1.0\nruleset: formula-de\n")
    (folder / "gears.yaml").write_text("slipstream: gears/1\ngears:\n  - {gear: 1, faces: [1, 2]}\n")
    (folder / "wear.yaml").write_text("slipstream: wear/1\nbasic_pool: 9\n"
                                      "races: [{laps: 1, tyres: 1, brakes: 1, transmission: 1, body: 1, engine: 1}]\n")
    _, diags = load_pack(folder)
    assert _found(diags) == [("P043", "gears.yaml", 1, 1, "$")]
    assert "black_die" in diags[0].message


def test_an_override_entry_takes_the_fields_of_an_item():
    """The schemas list an item's fields twice (an item, and an override needing only its key):
    the two lists stay the same."""
    from slipstream.engine.core.schema import schema_files

    for kind, key, field in (("action-cards", "cards", "id"), ("hazard-deck", "cards", "id"),
                             ("nitrous-deck", "cards", "id"), ("equipment-deck", "cards", "id"),
                             ("gears", "gears", "gear"), ("wear", "races", "laps")):
        doc = schema_files()[f"{kind}.schema.json"]
        item, change = doc["properties"][key]["items"], doc["properties"]["overrides"]["items"]
        assert change["required"] == [field], kind
        assert set(change["properties"]) == set(item["properties"]), kind
        for name, sub in item["properties"].items():
            if name != field:
                assert change["properties"][name] == sub, (kind, name)
