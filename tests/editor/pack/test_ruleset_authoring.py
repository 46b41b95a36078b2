"""The pack editor on Formula Dé-style and speed-and-hazard packs (issue 29 item 2): New item
offers each ruleset's item kinds (through its `authoring` capability), a deck shows one item
per card, the numbers are edited as tables with undo, and a save changes only the edited lines.
Screenshots land in out/pack-editor/ for a person to look at."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QTreeWidgetItem  # noqa: E402

from slipstream.editor.pack.packview import PackWindow  # noqa: E402
from slipstream.editor.pack.tableview import TableEditor  # noqa: E402
from slipstream.engine.editing.packdoc import PackDocument  # noqa: E402
from slipstream.engine.packs.loader import PackLoader  # noqa: E402
from slipstream.engine.packs.splice import changed_lines  # noqa: E402

from .conftest import ROOT, SHOTS  # noqa: E402

FD = ROOT / "content" / "formula-de"
SH = ROOT / "content" / "speed-hazard"


@pytest.fixture
def open_copy(qtbot, tmp_path):
    def make(src: Path, name: str = "") -> tuple[PackWindow, Path]:
        dst = tmp_path / (name or src.name)
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
        w = PackWindow(PackDocument.open(dst))
        qtbot.addWidget(w, before_close_func=lambda win: setattr(win.doc, "saved", win.doc.state))
        w.show()
        qtbot.waitExposed(w)
        return w, dst

    return make


def group(w: PackWindow, title: str) -> QTreeWidgetItem:
    found = w.tree.findItems(title, Qt.MatchFlag.MatchExactly)
    assert len(found) == 1, title
    return found[0]


def children(it: QTreeWidgetItem) -> list[str]:
    return [it.child(i).text(0) for i in range(it.childCount())]


def new_actions(w: PackWindow) -> dict[str, str]:
    return {a.objectName(): a.text() for a in w.actions() if a.objectName().startswith("new-")}


def rows(t: TableEditor) -> list[list[str]]:
    return [[t.cell(r, c) for c in range(t.table.columnCount())] for r in range(t.table.rowCount())]


# ---------------------------------------------------------------------------------------------
# Formula Dé: gear dice and wear rows
# ---------------------------------------------------------------------------------------------


def test_formula_de_offers_gear_dice_and_wear_rows_and_adds_the_next_gear(open_copy, qtbot):
    w, root = open_copy(FD)
    assert new_actions(w) == {"new-gears-gears": "New gear die…", "new-wear-races": "New wear row…"}
    assert children(group(w, "Gear dice")) == [f"gear {g}" for g in range(1, 7)]
    assert children(group(w, "Wear table")) == ["laps 1", "laps 2"]
    assert not w.card_side.isVisible()  # no cards in this ruleset: no card preview
    before = (root / "gears.yaml").read_text()
    w.findChild(type(w.actions()[0]), "new-gears-gears").trigger()  # Edit > New gear die… (no id asked)
    ref = w.current_ref()
    assert ref is not None and ref.data["gear"] == 7 and ref.data["faces"] == w.doc.state.file(
        "gears.yaml").data["gears"][5]["faces"]  # a copy of 6th gear, one gear up
    assert children(group(w, "Gear dice"))[-1] == "gear 7"
    assert w.form is not None and "<b>gear die</b>" in w.form.layout().itemAt(0).widget().text()
    assert w.validate_now() == []  # gears 1 to 7 without a gap
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert w.grab().save(str(SHOTS / "formula-de-new-gear-die.png"))
    w.undo_stack.undo()
    assert children(group(w, "Gear dice")) == [f"gear {g}" for g in range(1, 7)]
    w.undo_stack.redo()
    assert w.save()
    after = (root / "gears.yaml").read_text()
    assert after.startswith(before)  # the comments and the six gears keep their lines
    assert len(after.splitlines()) == len(before.splitlines()) + 1


def test_the_wear_table_is_edited_as_a_table_with_undo_and_a_one_line_save(open_copy, qtbot):
    w, root = open_copy(FD)
    w.tree.setCurrentItem(group(w, "Wear table"))  # the user clicks the group
    t = w.table
    assert isinstance(t, TableEditor) and w.form_area.widget() is t
    heads = [t.table.horizontalHeaderItem(c).text() for c in range(t.table.columnCount())]
    assert heads == ["laps", "tyres", "brakes", "transmission", "body", "engine"]
    assert rows(t) == [["1", "4", "3", "2", "2", "2"], ["2", "5", "5", "4", "3", "3"]]
    before = (root / "wear.yaml").read_text()
    t.table.item(1, 1).setText("6")  # 2-lap tyres: 5 -> 6
    assert w.doc.state.file("wear.yaml").data["races"][1]["tyres"] == 6
    assert w.undo_stack.undoText() == "Set Wear table: tyres"
    w.undo_stack.undo()
    assert w.doc.state.file("wear.yaml").data["races"][1]["tyres"] == 5 and w.table.cell(1, 1) == "5"
    w.undo_stack.redo()
    assert w.table.cell(1, 1) == "6"
    t = w.table
    t.table.item(0, 5).setText("many")  # not a number: refused, the cell shows the number again
    assert w.doc.state.file("wear.yaml").data["races"][0]["engine"] == 2 and t.cell(0, 5) == "2"
    assert "not a whole number" in w.statusBar().currentMessage()
    t.table.item(0, 5).setText("")  # a required number cannot be cleared
    assert w.doc.state.file("wear.yaml").data["races"][0]["engine"] == 2
    assert w.validate_now() == []
    assert w.save()
    after = (root / "wear.yaml").read_text()
    lines = before.splitlines()
    two = next(i for i, line in enumerate(lines) if line.strip().startswith("- {laps: 2")) + 1
    assert changed_lines(before, after) == [two]
    assert "tyres: 6" in after.splitlines()[two - 1] and "# all house values" in after.splitlines()[two - 1]
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert w.grab().save(str(SHOTS / "formula-de-wear-table.png"))


def test_gear_dice_faces_spread_one_cell_each(open_copy):
    w, root = open_copy(FD)
    w.select_group("gears")
    t = w.table
    assert isinstance(t, TableEditor)
    assert rows(t)[0][:6] == ["1", "1", "1", "2", "2", ""]  # gear 1: four faces, then a cell to add one
    assert t.table.horizontalHeaderItem(1).text() == "face 1"
    t.table.item(0, 5).setText("3")  # a fifth face
    assert w.doc.state.file("gears.yaml").data["gears"][0]["faces"] == [1, 1, 2, 2, 3]
    w.table.table.item(0, 1).setText("")  # clearing a face removes it
    assert w.doc.state.file("gears.yaml").data["gears"][0]["faces"] == [1, 2, 2, 3]
    w.undo_stack.undo()
    w.undo_stack.undo()
    assert w.doc.state.file("gears.yaml").data["gears"][0]["faces"] == [1, 1, 2, 2]
    w.table.add_row()  # the table's own Add row: the next gear
    assert [g["gear"] for g in w.doc.state.file("gears.yaml").data["gears"]] == [1, 2, 3, 4, 5, 6, 7]
    w.table.table.setCurrentCell(6, 0)
    w.table.remove_row()
    assert len(w.doc.state.file("gears.yaml").data["gears"]) == 6
    assert not w.doc.dirty


def test_a_new_wear_row_in_a_pack_extending_formula_de_follows_the_inherited_table(qtbot, tmp_path):
    (tmp_path / "fd-house").mkdir()
    (tmp_path / "fd-house" / "pack.yaml").write_text(
        "slipstream: pack/1\nid: fd-house\nname: House tables\nversion: 0.1.0\nruleset: formula-de\n"
        "extends: [formula-de]\n")
    w = PackWindow(PackDocument.open(tmp_path / "fd-house"))
    qtbot.addWidget(w, before_close_func=lambda win: setattr(win.doc, "saved", win.doc.state))
    assert children(group(w, "Wear table")) == []
    w.select_group("wear")
    # no own file: the table shows the inherited rows (a change to one would be an override)
    t = w.table
    assert isinstance(t, TableEditor) and rows(t) == [["1", "4", "3", "2", "2", "2"], ["2", "5", "5", "4", "3", "3"]]
    assert [t.table.verticalHeaderItem(r).text() for r in range(2)] == ["inherited", "inherited"]
    assert w.doc.state.file("wear.yaml") is None and not w.doc.dirty
    w.new_item("wear")
    data = w.doc.state.file("wear.yaml").data
    # the pack's own file holds only its change (rows merge one by one with the inherited ones):
    # the new row follows the inherited table's last one
    assert [r["laps"] for r in data["races"]] == [3] and "basic_pool" not in data
    assert w.validate_now() == []
    w.save()
    pack, diags = PackLoader().load(tmp_path / "fd-house")
    assert diags == [] and sorted(pack.tables.wear) == [1, 2, 3] and pack.tables.basic_pool == 18


# ---------------------------------------------------------------------------------------------
# speed-and-hazard: decks one card an item, token kinds, price list
# ---------------------------------------------------------------------------------------------


def test_speed_hazard_offers_its_cards_and_tokens_and_shows_one_item_per_card(open_copy, qtbot):
    w, root = open_copy(SH)
    assert new_actions(w) == {
        "new-action-cards-cards": "New action card…", "new-hazard-deck-cards": "New hazard card…",
        "new-nitrous-deck-cards": "New nitrous card…", "new-equipment-deck-cards": "New equipment card…",
        "new-car-setup-tokens-kinds": "New token kind…"}
    hazards = children(group(w, "Hazard cards"))
    assert len(hazards) == 11 and hazards[1] == "Scrape (scrape) ×4" and hazards[3] == "Big hit (big-hit)"
    assert children(group(w, "Tokens")) == ["Tacks (tacks)", "Oil (oil)", "Glue (glue)"]
    assert len(children(group(w, "Equipment cards"))) == 7
    ref = w.new_item("hazard-deck", "oil-slick", damage=1, slow=10, text="Roll a damage die and lose 10 km/h.")
    assert ref.rel == "hazards.yaml" and w.current_ref() == ref
    assert children(group(w, "Hazard cards"))[-1] == "Oil Slick (oil-slick)"
    face = w.preview.face
    assert face is not None and face.kind_name == "Hazard card" and face.colour_hex == "#c0392b"
    assert ("damage dice", "1") in face.figures and ("km/h", "−10") in face.figures
    assert w.card_side.isVisible() and w.png_button.isEnabled()
    assert w.validate_now() == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert w.grab().save(str(SHOTS / "speed-hazard-new-hazard-card.png"))
    token = w.new_item("car-setup", "sand", key="tokens.kinds", slow=10)
    assert token.rel == "car.yaml" and token.path == ("tokens", "kinds", 3)
    assert w.doc.state.file("car.yaml").data["tokens"]["kinds"][3] == {"id": "sand", "name": "Sand", "slow": 10}
    assert w.form is not None and "<b>token kind</b>" in w.form.layout().itemAt(0).widget().text()
    assert w.validate_now() == []
    w._form_edited("hazards", 1)  # the token form's own signal path
    assert w.doc.state.file("car.yaml").data["tokens"]["kinds"][3]["hazards"] == 1
    w.remove_selected()
    assert len(w.doc.state.file("car.yaml").data["tokens"]["kinds"]) == 3
    before = {p.name: p.read_text() for p in root.glob("*.yaml")}
    assert w.save()
    after = {p.name: p.read_text() for p in root.glob("*.yaml")}
    assert [n for n in before if before[n] != after[n]] == ["hazards.yaml"]
    assert changed_lines(before["hazards.yaml"], after["hazards.yaml"]) == []  # only a line added:
    added = [line for line in after["hazards.yaml"].splitlines() if line not in before["hazards.yaml"].splitlines()]
    assert added == ["  - {id: oil-slick, name: Oil Slick, count: 1, damage: 1, slow: 10, text: "
                     "Roll a damage die and lose 10 km/h.}"]  # one flow line, as the other cards


def test_a_deck_and_the_pit_prices_are_edited_as_tables(open_copy):
    w, root = open_copy(SH)
    w.select_group("hazard-deck")
    t = w.table
    assert isinstance(t, TableEditor)
    heads = [t.table.horizontalHeaderItem(c).text() for c in range(t.table.columnCount())]
    assert heads == ["name", "count", "damage", "slow", "spin", "insanity", "late", "keep"]
    assert rows(t)[1][:4] == ["Scrape", "4", "1", ""]
    spin = t.table.item(6, 4)
    assert spin.checkState() == Qt.CheckState.Checked  # Spin-out
    t.table.item(1, 1).setText("5")  # one more Scrape
    assert w.doc.state.file("hazards.yaml").data["cards"][1]["count"] == 5
    w.table.table.item(6, 4).setCheckState(Qt.CheckState.Unchecked)  # an optional switch off: removed
    assert "spin" not in w.doc.state.file("hazards.yaml").data["cards"][6]
    w.undo_stack.undo()
    assert w.doc.state.file("hazards.yaml").data["cards"][6]["spin"] is True
    w.table.table.item(3, 1).setText("0")  # no Big hit at all: below the schema's minimum
    problem = next(d for d in w.validate_now() if d.path == "$.cards[3].count")
    w.go_to_diagnostic(problem)  # a click in the Problems dock: the card's form, its count outlined
    assert w.current_ref().id == "big-hit" and w.form.marked is w.form.root.fields["count"].focus_widget()
    w.undo_stack.undo()
    prices = w.tree.findItems("Pit road prices", Qt.MatchFlag.MatchRecursive | Qt.MatchFlag.MatchExactly)[0]
    assert prices.parent().text(0) == "Tables"
    w.tree.setCurrentItem(prices)
    t = w.table
    assert isinstance(t, TableEditor) and t.rel == "car.yaml"
    labels = [t.table.verticalHeaderItem(r).text() for r in range(t.table.rowCount())]
    assert labels == ["points", "equipment", "repair", "token", "therapy"] and rows(t) == [["15"], ["5"], ["1"], ["1"], ["2"]]
    t.table.item(2, 0).setText("2")  # a repair costs 2 points
    assert w.doc.state.file("car.yaml").data["pit"]["repair"] == 2
    before = (root / "car.yaml").read_text()
    assert w.validate_now() == []
    assert w.save()
    after = (root / "car.yaml").read_text()
    assert changed_lines(before, after) == [next(i for i, line in enumerate(before.splitlines(), 1)
                                                 if line.startswith("pit:"))]
    assert "repair: 2" in after


def test_a_hazard_card_added_in_an_extending_pack_keeps_the_inherited_deck(qtbot, tmp_path):
    (tmp_path / "sh-house").mkdir()
    (tmp_path / "sh-house" / "pack.yaml").write_text(
        "slipstream: pack/1\nid: sh-house\nname: House deck\nversion: 0.1.0\nruleset: speed-hazard\n"
        "extends: [speed-hazard]\n")
    w = PackWindow(PackDocument.open(tmp_path / "sh-house"))
    qtbot.addWidget(w, before_close_func=lambda win: setattr(win.doc, "saved", win.doc.state))
    assert children(group(w, "Hazard cards")) == []
    w.new_item("hazard-deck", "pothole", count=2, damage=1, text="Roll 1 damage die.")
    # the pack's own file holds only the new card; the inherited ones come with the merge
    assert len(children(group(w, "Hazard cards"))) == 1
    assert [c["id"] for c in w.doc.state.file("hazard-deck.yaml").data["cards"]] == ["pothole"]
    assert w.validate_now() == []
    w.save()
    pack, diags = PackLoader().load(tmp_path / "sh-house")
    assert diags == [] and len(pack.decks.hazards) == 24 + 2
    assert [h.id for h in pack.decks.hazards].count("pothole") == 2


def test_a_speed_hazard_card_sheet_pdf_has_a_face_per_copy(open_copy, tmp_path):
    w, _root = open_copy(SH)
    assert [sid for sid, _n in w.authoring().sheets(w.doc.analysis().pack)] == [
        "action-cards", "hazard-deck", "nitrous-deck", "equipment-deck", "all"]
    faces = w.sheet_faces("hazard-deck")
    assert len(faces) == 24 and [f.name for f in faces[:4]] == ["Near miss"] * 3 + ["Scrape"]
    assert w.export_sheet_pdf("hazard-deck", tmp_path / "hazards.pdf") == 3  # 9 to an A4 page
    assert (tmp_path / "hazards.pdf").read_bytes().startswith(b"%PDF")
    assert w.export_sheet_pdf("all", tmp_path / "all.pdf") == 6  # 5 + 24 + 12 + 12 = 53 cards
    from slipstream.editor.pack.cardfaces import sheet_image

    sheet = sheet_image(faces, 0, 110, "Hazard deck — speed-hazard")
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert sheet.save(str(SHOTS / "speed-hazard-card-sheet.png"))
    mm = 110 / 25.4  # the first slot's colour band is the hazard red
    band = sheet.pixelColor(round((210 - 189) / 2 * mm + 10 * mm), round(((297 - 264) / 2 + 3) * mm + 5 * mm))
    assert band.name() == "#c0392b"
    w.select_item("action-cards", "brake")
    face = w.current_face()
    assert face is not None and face.figures[0] == ("number", "1") and ("km/h", "10 20 30 40") in face.figures
    png = w.export_card_png(tmp_path / "brake.png")
    assert png.is_file()
