"""The rows a pack inherits, merged through the packs it extends, and a change to one of them
kept as that row's override in the pack's own file (engine/editing/packdoc.py), without Qt."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers import ROOT

from slipstream.engine.editing.commands import CommandStack
from slipstream.engine.editing.packdoc import (
    PackDocument,
    change_inherited_row,
    inherited_rows,
    merge_rows,
    row_key_field,
)

HARD_TYRES = ROOT / "tests" / "rulesets" / "formula_de" / "packs" / "hard-tyres"


def _pack(root: Path, extends: str) -> Path:
    root.mkdir()
    (root / "pack.yaml").write_text(f"slipstream: pack/1\nid: {root.name}\nname: T\nversion: 0.1.0\n"
                                    f"ruleset: formula-de\nextends: [{extends}]\n")
    return root


def test_rows_are_named_by_id_else_by_the_first_column():
    assert row_key_field([{"id": "scrape", "count": 4}], ("name", "count")) == "id"
    assert row_key_field([{"laps": 1, "tyres": 4}], ("laps", "tyres")) == "laps"


def test_merge_rows_removes_overrides_then_adds():
    base = [{"id": "a", "n": 1}, {"id": "b", "n": 2}, {"id": "c", "n": 3}]
    data = {"removes": ["pk:b"], "overrides": [{"id": "pk:c", "n": 9}], "cards": [{"id": "d", "n": 4}]}
    assert merge_rows(base, data, ("cards",), "id") == [{"id": "a", "n": 1}, {"id": "c", "n": 9}, {"id": "d", "n": 4}]
    assert base[2]["n"] == 3  # the inherited rows are not changed in place


def test_inherited_rows_merge_through_a_chain_of_packs(tmp_path):
    shutil.copytree(HARD_TYRES, tmp_path / "hard-tyres")
    doc = PackDocument.open(_pack(tmp_path / "harder", "hard-tyres"))
    rows = inherited_rows(doc, "wear", ("races",), "laps")
    assert [(r["laps"], r["tyres"]) for r in rows] == [(1, 6), (2, 5), (3, 7)]  # formula-de, then hard-tyres
    stack = CommandStack(doc)
    stack.push(change_inherited_row(doc, "wear", "laps", 2, "brakes", 7, 5))
    assert doc.state.file("wear.yaml").data == {"slipstream": "wear/1", "overrides": [{"laps": 2, "brakes": 7}]}
    stack.push(change_inherited_row(doc, "wear", "laps", 2, "engine", 4, 3))
    assert doc.state.file("wear.yaml").data["overrides"] == [{"laps": 2, "brakes": 7, "engine": 4}]
    stack.push(change_inherited_row(doc, "wear", "laps", 2, "brakes", 5, 5))  # back to the inherited value
    assert doc.state.file("wear.yaml").data["overrides"] == [{"laps": 2, "engine": 4}]
    stack.push(change_inherited_row(doc, "wear", "laps", 2, "engine", 3, 3))  # nothing left: the override goes
    assert doc.state.file("wear.yaml").data["overrides"] == []
    while stack.can_undo:
        stack.undo()
    assert doc.state.file("wear.yaml") is None
