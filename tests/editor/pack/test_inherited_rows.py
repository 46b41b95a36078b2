"""In a pack that extends another, a table whose rows merge one by one (Formula Dé gear dice and
wear rows, speed-hazard decks) shows the inherited rows as the parents merge them, then the
pack's own; a cell changed in an inherited row is saved as that row's override (a line added,
none rewritten), undo takes it back, and races use the changed row."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import ROOT

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402

from slipstream.editor.pack.packview import PackWindow  # noqa: E402
from slipstream.editor.pack.tableview import TableEditor  # noqa: E402
from slipstream.engine.editing.packdoc import PackDocument  # noqa: E402
from slipstream.engine.packs.loader import PackLoader  # noqa: E402
from slipstream.engine.packs.splice import changed_lines  # noqa: E402
from slipstream.engine.play.races import seats_of  # noqa: E402
from slipstream.engine.play.registry import for_pack  # noqa: E402

HARD_TYRES = ROOT / "tests" / "rulesets" / "formula_de" / "packs" / "hard-tyres"
BLACK_ICE = ROOT / "tests" / "rulesets" / "speed_hazard" / "packs" / "black-ice"


@pytest.fixture
def open_pack(qtbot):
    def make(root: Path) -> PackWindow:
        w = PackWindow(PackDocument.open(root))
        qtbot.addWidget(w, before_close_func=lambda win: setattr(win.doc, "saved", win.doc.state))
        return w

    return make


def _extending(tmp_path: Path, pid: str, ruleset: str, parent: str) -> Path:
    root = tmp_path / pid
    root.mkdir()
    (root / "pack.yaml").write_text(f"slipstream: pack/1\nid: {pid}\nname: House\nversion: 0.1.0\n"
                                    f"ruleset: {ruleset}\nextends: [{parent}]\n")
    return root


def rows(t: TableEditor) -> list[list[str]]:
    return [[t.cell(r, c) for c in range(t.table.columnCount())] for r in range(t.table.rowCount())]


def heads(t: TableEditor) -> list[str]:
    return [t.table.verticalHeaderItem(r).text() for r in range(t.table.rowCount())]


def test_a_changed_inherited_wear_row_is_an_override_in_a_new_file_and_races_use_it(open_pack, tmp_path):
    root = _extending(tmp_path, "fd-house", "formula-de", "formula-de")
    w = open_pack(root)
    w.select_group("wear")
    t = w.table
    assert isinstance(t, TableEditor) and heads(t) == ["inherited", "inherited"]
    assert t.table.item(0, 1).foreground().color().name() == "#6b6f73"  # grey: inherited as it is
    t.table.item(0, 1).setText("6")  # 1-lap tyres: 4 -> 6
    assert w.doc.state.file("wear.yaml").data == {"slipstream": "wear/1", "overrides": [{"laps": 1, "tyres": 6}]}
    assert w.undo_stack.undoText() == "Change inherited laps 1: tyres (new file wear.yaml)"
    t = w.table
    assert rows(t)[0] == ["1", "6", "3", "2", "2", "2"] and t.table.item(0, 1).font().bold()
    w.undo_stack.undo()
    assert w.doc.state.file("wear.yaml") is None and rows(w.table)[0][1] == "4"
    w.undo_stack.redo()
    w.table.table.item(0, 2).setText("4")  # brakes too: the same override
    assert w.doc.state.file("wear.yaml").data["overrides"] == [{"laps": 1, "tyres": 6, "brakes": 4}]
    w.table.table.item(0, 2).setText("")  # cleared: back to the inherited 3, out of the override
    assert w.doc.state.file("wear.yaml").data["overrides"] == [{"laps": 1, "tyres": 6}]
    w.table.table.item(0, 0).setText("9")  # the key names the row: refused
    assert w.doc.state.file("wear.yaml").data["overrides"] == [{"laps": 1, "tyres": 6}]
    assert "names the inherited row" in w.statusBar().currentMessage()
    assert w.validate_now() == []
    assert w.save()
    pack, diags = PackLoader().load(root)
    assert diags == [] and pack.tables.wear[1]["tyres"] == 6 and pack.tables.wear[2]["tyres"] == 5
    rs, pk = for_pack(str(root))
    game = rs.new_game(pk, pk.tracks["tilleuls"], seats_of(("greedy", "greedy")), 1, {}, 1)
    assert game.cars[0].wear["tyres"] == 6  # a 1-lap race starts with the changed row


def test_a_chain_of_packs_shows_the_rows_as_merged_and_a_change_adds_one_line(open_pack, tmp_path):
    parent = tmp_path / "hard-tyres"
    shutil.copytree(HARD_TYRES, parent)
    w = open_pack(parent)
    w.select_group("wear")
    t = w.table
    # formula-de's rows with hard-tyres' override, then its own 3-lap row
    assert heads(t) == ["inherited", "inherited", "1"]
    assert rows(t) == [["1", "6", "3", "2", "2", "2"], ["2", "5", "5", "4", "3", "3"], ["3", "7", "6", "5", "4", "4"]]
    assert t.table.item(0, 1).font().bold() and not t.table.item(0, 2).font().bold()
    before = (parent / "wear.yaml").read_text()
    t.table.item(1, 2).setText("6")  # 2-lap brakes: an override added beside the other
    assert w.doc.state.file("wear.yaml").data["overrides"] == [{"laps": 1, "tyres": 6}, {"laps": 2, "brakes": 6}]
    assert w.save()
    after = (parent / "wear.yaml").read_text()
    assert changed_lines(before, after) == []  # a line added, none rewritten
    assert "  - {laps: 2, brakes: 6}" in after.splitlines()
    w.table.table.item(0, 1).setText("5")  # the existing override changed in its place
    assert w.doc.state.file("wear.yaml").data["overrides"][0] == {"laps": 1, "tyres": 5}
    assert w.save()
    assert changed_lines(after, (parent / "wear.yaml").read_text()) == [after.splitlines().index(
        "  - {laps: 1, tyres: 6}") + 1]
    # a pack extending hard-tyres inherits all three rows, the overrides applied
    child = _extending(tmp_path, "harder", "formula-de", "hard-tyres")
    c = open_pack(child)
    c.select_group("wear")
    assert heads(c.table) == ["inherited"] * 3
    assert [r[:3] for r in rows(c.table)] == [["1", "5", "3"], ["2", "5", "6"], ["3", "7", "6"]]
    c.table.add_row()  # the next race length, in a new file of its own
    assert c.doc.state.file("wear.yaml").data["races"][0]["laps"] == 4
    assert c.validate_now() == []


def test_a_deck_in_an_extending_pack_shows_its_inherited_cards_and_overrides_one(open_pack, tmp_path):
    root = tmp_path / "black-ice"
    shutil.copytree(BLACK_ICE, root)
    w = open_pack(root)
    w.select_group("hazard-deck")
    t = w.table
    names = [r[0] for r in rows(t)]
    assert "Big hit" not in names and names[-1] == "Black ice" and heads(t)[-1] == "1"  # removed; own
    near = names.index("Near miss")
    assert rows(t)[near][3] == "10" and t.table.item(near, 3).font().bold()  # slow: the override
    scrape = names.index("Scrape")
    before = (root / "hazards.yaml").read_text()
    t.table.item(scrape, 1).setText("5")  # one more Scrape
    assert w.doc.state.file("hazards.yaml").data["overrides"][-1] == {"id": "scrape", "count": 5}
    spin = names.index("Spin-out")
    w.table.table.item(spin, 4).setCheckState(Qt.CheckState.Unchecked)  # a switch of an inherited card
    # the override naming the card `speed-hazard:spin` takes it (no second override of the card)
    overrides = w.doc.state.file("hazards.yaml").data["overrides"]
    assert overrides[1] == {"id": "speed-hazard:spin", "count": 1, "spin": False} and len(overrides) == 3
    w.undo_stack.undo()
    w.table.table.setCurrentCell(scrape, 0)
    w.table.remove_row()  # an inherited card is not removed from the table
    assert "removes:" in w.statusBar().currentMessage()
    assert w.validate_now() == []
    assert w.save()
    after = (root / "hazards.yaml").read_text()
    assert changed_lines(before, after) == []  # a line added, none rewritten
    pack, diags = PackLoader().load(root)
    assert diags == [] and [h.id for h in pack.decks.hazards].count("scrape") == 5
