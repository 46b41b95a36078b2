"""The Qt-free pack document: commands with undo, the validator's diagnostics, minimal saves."""

from __future__ import annotations

from slipstream.engine.editing.commands import CommandStack
from slipstream.engine.editing.packdoc import (
    DELETE,
    InsertItem,
    PackDocument,
    ReplaceFileText,
    SetValue,
    add_item,
    items,
    parse_json_path,
)
from slipstream.engine.editing.scaffold import new_pack
from slipstream.engine.packs.splice import changed_lines
from slipstream.engine.packs.validate import validate_pack_folder


def _card(doc: PackDocument, card_id: str):
    return next(r for r in items(doc.state, "cards") if r.id == card_id)


def test_opening_base_lists_its_items_and_is_clean(base_copy):
    doc = PackDocument.open(base_copy)
    assert doc.id == "base"
    assert not doc.dirty
    kinds = {r.kind for r in items(doc.state)}
    assert kinds == {"cubes", "cards", "drivers", "sponsors", "cardsets"}
    assert sum(1 for _ in items(doc.state, "cards")) == 40  # 35 action cards + 4 gears + wear
    assert doc.diagnostics == []


def test_edits_are_commands_with_exact_undo_and_merged_typing(base_copy):
    doc = PackDocument.open(base_copy)
    stack = CommandStack(doc)
    ref = _card(doc, "manager")
    before = doc.state
    assert stack.push(SetValue(ref.rel, (*ref.path, "name"), "Manage", merge=True))
    assert stack.push(SetValue(ref.rel, (*ref.path, "name"), "Manager X", merge=True))
    assert len(stack.commands) == 1  # typing into one field is one step
    assert _card(doc, "manager").data["name"] == "Manager X"
    assert doc.dirty and doc.dirty_files() == [ref.rel]
    assert not stack.push(SetValue(ref.rel, (*ref.path, "cost"), ref.data["cost"]))  # no change, no step
    stack.undo()
    assert doc.state is before and not doc.dirty
    stack.redo()
    assert _card(doc, "manager").data["name"] == "Manager X"


def test_diagnostics_follow_the_edits_with_file_and_path(base_copy):
    doc = PackDocument.open(base_copy)
    stack = CommandStack(doc)
    ref = _card(doc, "turbo")
    stack.push(SetValue(ref.rel, (*ref.path, "cost"), -1))
    diags = doc.diagnostics
    assert diags and all(d.is_error for d in diags)
    d = diags[0]
    assert doc.file_of(d.file) == ref.rel
    assert parse_json_path(d.path)[:3] == (*ref.path, "cost")
    # the same records `slipstream validate` gives for the saved pack
    doc.save()
    assert validate_pack_folder(base_copy) == diags
    stack.undo()
    assert doc.diagnostics == []


def test_saving_an_edited_card_changes_only_that_cards_lines(base_copy):
    doc = PackDocument.open(base_copy)
    ref = _card(doc, "rotary-engine")
    path = base_copy / ref.rel
    old_text = path.read_text()
    others = {p: p.read_bytes() for p in base_copy.rglob("*.yaml") if p != path}
    stack = CommandStack(doc)
    stack.push(SetValue(ref.rel, (*ref.path, "cost"), 6))
    stack.push(SetValue(ref.rel, (*ref.path, "text"), "Take one wear, then go white spaces."))
    stack.push(SetValue(ref.rel, (*ref.path, "notes"), "House variant."))
    assert doc.save() == [ref.rel]
    new_text = path.read_text()
    lines = old_text.splitlines()
    first = lines.index("  - id: rotary-engine") + 1
    nxt = next(i for i in range(first, len(lines)) if lines[i].startswith("  - id: ")) + 1
    changed = changed_lines(old_text, new_text)
    assert changed and all(first <= n < nxt for n in changed)
    assert {p: p.read_bytes() for p in others} == others  # no other file touched
    assert not doc.dirty
    reopened = PackDocument.open(base_copy)
    assert _card(reopened, "rotary-engine").data["cost"] == 6
    assert reopened.diagnostics == []


def test_a_new_pack_gets_a_card_and_a_set(tmp_path):
    root = new_pack(tmp_path, "Steam Age").root
    doc = PackDocument.open(root)
    stack = CommandStack(doc)
    card = {"id": "steam-engine", "name": "Steam Engine", "colour": "blue", "cost": 4, "value": 1,
            "text": "Take one wear, then go up to two white spaces.",
            "effect": [{"gain_wear": 1}, {"move": {"spaces": {"up_to": 2}, "colours": [3]}}]}
    stack.push(add_item(doc, "cards", card))
    stack.push(add_item(doc, "cardsets", {"id": "steam", "name": "Steam",
                                          "cards": ["manager", "suspension", "crew-chief", "steam-engine", "gearbox"]}))
    assert doc.diagnostics == []
    written = doc.save()
    assert sorted(written) == ["cards.yaml", "cardsets.yaml"]
    text = (root / "cards.yaml").read_text()
    assert text.startswith("# yaml-language-server: $schema=schemas/cards.schema.json\n")
    assert "#  - id: tow-truck" in text  # the scaffold's commented example survives
    stack.push(add_item(doc, "drivers", {"id": "stoker", "name": "Stoker", "text": "Draws one cube.",
                                         "hooks": {"action": [{"draw": 1}]}}))
    assert doc.save() == ["drivers.yaml"]
    drivers = (root / "drivers.yaml").read_text()
    assert drivers.startswith("# yaml-language-server: $schema=schemas/drivers.schema.json\nslipstream: drivers/1\n")
    assert doc.diagnostics == []


def test_yaml_tab_text_round_trips_and_bad_yaml_is_kept_as_text(base_copy):
    doc = PackDocument.open(base_copy)
    stack = CommandStack(doc)
    rel = "cardsets.yaml"
    text = doc.text(rel)
    stack.push(ReplaceFileText(rel, text.replace("name: First Race", "name: Opening Race")))
    assert any(r.data.get("name") == "Opening Race" for r in items(doc.state, "cardsets"))
    stack.push(ReplaceFileText(rel, "card_sets: [unclosed\n"))
    assert doc.state.file(rel).data is None
    assert any(d.code.startswith("Y") for d in doc.diagnostics)
    stack.undo()
    stack.undo()
    assert doc.text(rel) == text


def test_new_items_delete_and_insert(base_copy):
    doc = PackDocument.open(base_copy)
    stack = CommandStack(doc)
    ref = _card(doc, "manager")
    stack.push(SetValue(ref.rel, (*ref.path, "notes"), "x"))
    stack.push(SetValue(ref.rel, (*ref.path, "notes"), DELETE))
    assert "notes" not in _card(doc, "manager").data
    stack.push(InsertItem(ref.rel, (ref.key,), {"id": "x"}, 0))
    assert doc.state.file(ref.rel).data["cards"][0] == {"id": "x"}
    assert any(d.code.startswith("S") for d in doc.diagnostics)  # the half-made card is reported


def test_a_comment_typed_in_the_yaml_tab_survives_later_form_edits(base_copy):
    doc = PackDocument.open(base_copy)
    stack = CommandStack(doc)
    rel = "cardsets.yaml"
    text = doc.text(rel).replace("  - id: gamble\n", "  # a risky set\n  - id: gamble\n")
    stack.push(ReplaceFileText(rel, text))
    assert doc.dirty and doc.text(rel) == text  # same data, new comment: still an edit
    ref = next(r for r in items(doc.state, "cardsets") if r.id == "gamble")
    stack.push(SetValue(rel, (*ref.path, "name"), "Big Gamble"))
    doc.save()
    saved = (base_copy / rel).read_text()
    assert "  # a risky set\n  - id: gamble\n    name: Big Gamble\n" in saved
    stack.undo()
    assert "  # a risky set\n  - id: gamble\n    name: Gamble\n" in doc.text(rel)


def test_a_removed_file_is_deleted_at_save_and_undo_brings_it_back(base_copy):
    from slipstream.engine.editing.packdoc import RemoveFile

    doc = PackDocument.open(base_copy)
    stack = CommandStack(doc)
    rel = "sponsors.yaml"
    original = doc.state
    assert stack.push(RemoveFile(rel))
    assert doc.state.file(rel) is None and doc.dirty
    assert not stack.push(RemoveFile("pack.yaml"))  # the manifest stays: no step
    stack.undo()
    assert doc.state is original and not doc.dirty
    stack.redo()
    assert doc.save() == [rel]
    assert not (base_copy / rel).exists() and not doc.dirty
    assert PackDocument.open(base_copy).state.file(rel) is None


def test_reload_file_takes_in_a_file_written_elsewhere_unless_edited_here(base_copy):
    from slipstream.engine.editing.packdoc import rebase

    doc = PackDocument.open(base_copy)
    stack = CommandStack(doc)
    ref = _card(doc, "manager")
    stack.push(SetValue(ref.rel, (*ref.path, "name"), "Manage"))
    doc.save()
    rel = "tracks/first-oval.yaml"
    path = base_copy / rel
    path.write_text(path.read_text().replace("name: First Oval", "name: Other Oval"))
    old = doc.saved.file(rel)
    assert doc.reload_file(path) is True
    assert doc.state.file(rel).data["name"] == "Other Oval" and not doc.dirty
    assert doc.reloaded is not None and doc.reloaded[0] == rel
    rebase(stack.commands, rel, old, doc.reloaded[2])
    stack.undo()  # an older edit undone does not bring the old track back
    assert doc.state.file(rel).data["name"] == "Other Oval"
    stack.redo()
    # unsaved edits here win: the file is left alone
    stack.push(SetValue(rel, ("laps",), 9))
    path.write_text(path.read_text().replace("name: Other Oval", "name: Third"))
    assert doc.reload_file(path) is False
    assert doc.state.file(rel).data["laps"] == 9 and doc.state.file(rel).data["name"] == "Other Oval"
    # a new file saved into the pack folder joins it; a file elsewhere is none of its business
    (base_copy / "tracks" / "new.yaml").write_text((base_copy / "tracks" / "first-oval.yaml").read_text())
    assert doc.reload_file(base_copy / "tracks" / "new.yaml") is True
    assert doc.state.file("tracks/new.yaml") is not None
    assert doc.reload_file(base_copy.parent / "elsewhere.yaml") is None
