"""The pack document lists and adds the items of every ruleset (issue 29 item 2): the item
lists of whole data files that a ruleset's `authoring` capability names (a deck's cards, a
table's rows, nested lists such as token kinds), without Qt."""

from __future__ import annotations

from pathlib import Path

from helpers import CONTENT

from slipstream.engine.editing.commands import CommandStack
from slipstream.engine.editing.packdoc import (
    PackDocument,
    add_item,
    items,
    next_row,
    place_of,
    places,
)


def _pack(root: Path, ruleset: str, extends: str) -> Path:
    root.mkdir()
    (root / "pack.yaml").write_text(f"slipstream: pack/1\nid: {root.name}\nname: T\nversion: 0.1.0\n"
                                    f"ruleset: {ruleset}\nextends: [{extends}]\n")
    return root


def test_places_come_from_the_content_model_and_the_authoring_capability():
    assert [(p.kind, p.key, p.whole) for p in places("speed-hazard")] == [
        ("action-cards", "cards", True), ("hazard-deck", "cards", True), ("nitrous-deck", "cards", True),
        ("equipment-deck", "cards", True), ("car-setup", "tokens.kinds", True)]
    assert place_of("formula-de", "wear").item_def == "/properties/races/items"
    assert [(p.kind, p.key, p.whole) for p in places("automobiles")][:2] == [("cubes", "cubes", False),
                                                                             ("cards", "cards", False)]


def test_deck_cards_rows_and_token_kinds_are_items():
    sh = PackDocument.open(CONTENT / "speed-hazard")
    refs = list(items(sh.state))
    assert {r.kind for r in refs} == {"action-cards", "hazard-deck", "nitrous-deck", "equipment-deck", "car-setup"}
    oil = next(r for r in refs if r.id == "oil")
    assert (oil.rel, oil.path, oil.place, oil.schema_def) == (
        "car.yaml", ("tokens", "kinds", 1), "tokens.kinds", ("car-setup", "/properties/tokens/properties/kinds/items"))
    fd = PackDocument.open(CONTENT / "formula-de")
    assert [(r.kind, r.id, r.data.get("gear", r.data.get("laps"))) for r in items(fd.state)][-3:] == [
        ("gears", "#5", 6), ("wear", "#0", 1), ("wear", "#1", 2)]


def test_a_new_card_in_a_pack_without_its_deck_starts_a_deck_of_changes_and_setup_copies(tmp_path):
    """A deck merges card by card with the inherited one (engine/packs/merge.py's `rows`), so
    the new file holds only the new card; the car setup replaces the inherited one whole, so a
    new token kind goes into a copy of it."""
    from slipstream.engine.packs.loader import PackLoader

    root = _pack(tmp_path / "sh-more", "speed-hazard", "speed-hazard")
    doc = PackDocument.open(root)
    stack = CommandStack(doc)
    stack.push(add_item(doc, "hazard-deck", {"id": "pothole", "name": "Pothole", "count": 2, "damage": 1}))
    deck = doc.state.file("hazard-deck.yaml").data["cards"]
    assert [c["id"] for c in deck] == ["pothole"]
    assert doc.diagnostics == []
    doc.save()
    text = (root / "hazard-deck.yaml").read_text()
    assert text == "slipstream: hazard-deck/1\ncards:\n  - id: pothole\n    name: Pothole\n    count: 2\n    damage: 1\n"
    pack, diags = PackLoader().load(root)
    assert diags == [] and len(pack.decks.hazards) == 24 + 2
    stack.push(add_item(doc, "car-setup", {"id": "sand", "name": "Sand", "slow": 10}, "tokens.kinds"))
    assert [k["id"] for k in doc.state.file("car-setup.yaml").data["tokens"]["kinds"]] == ["tacks", "oil", "glue", "sand"]
    assert doc.diagnostics == []


def test_next_row_continues_a_table():
    rows = [{"gear": 1, "faces": [1, 2]}, {"gear": 2, "faces": [2, 3]}]
    assert next_row(rows, "gear") == {"gear": 3, "faces": [2, 3]}
    assert next_row([{"id": "a", "count": 2}, {"id": "a-2", "count": 1}], "name") == {"id": "a-3", "count": 1}
    assert next_row([], "gear") == {}
