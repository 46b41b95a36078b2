"""The speed-and-hazard pack in the pack editor: its decks and car setup open as generated
forms (from their schemas), and a form edit saves only the lines it changed."""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QTreeWidgetItem  # noqa: E402

from slipstream.editor.forms import IntField, ListField, ObjectField  # noqa: E402
from slipstream.editor.pack.packview import PackWindow  # noqa: E402
from slipstream.engine.editing.packdoc import PackDocument  # noqa: E402
from slipstream.engine.packs.splice import changed_lines  # noqa: E402

from .conftest import ROOT, SHOTS  # noqa: E402

PACK = ROOT / "content" / "speed-hazard"
DATA = {"actions.yaml": "action-cards", "hazards.yaml": "hazard-deck", "nitrous.yaml": "nitrous-deck",
        "equipment.yaml": "equipment-deck", "car.yaml": "car-setup"}


@pytest.fixture
def sh_window(qtbot, tmp_path):
    dst = tmp_path / "speed-hazard"
    shutil.copytree(PACK, dst, ignore=shutil.ignore_patterns("__pycache__"))
    w = PackWindow(PackDocument.open(dst))
    qtbot.addWidget(w, before_close_func=lambda win: setattr(win.doc, "saved", win.doc.state))
    w.show()
    qtbot.waitExposed(w)
    return w, dst


def tree_files(w: PackWindow) -> dict[str, QTreeWidgetItem]:
    out = {}
    stack = [w.tree.topLevelItem(i) for i in range(w.tree.topLevelItemCount())]
    while stack:
        it = stack.pop()
        t = it.data(0, Qt.ItemDataRole.UserRole)
        if t is not None and t[0] == "file":
            out[t[1]] = it
        stack += [it.child(i) for i in range(it.childCount())]
    return out


def test_every_deck_and_the_car_setup_open_in_a_form_generated_from_its_schema(sh_window):
    w, _ = sh_window
    files = tree_files(w)
    assert set(DATA) <= set(files)
    assert all(files[rel].parent().text(0) == "Data files" for rel in DATA)
    tops = [w.tree.topLevelItem(i).text(0) for i in range(w.tree.topLevelItemCount())]
    assert "Cards" not in tops and "Cubes" not in tops  # no empty groups of another ruleset's kinds
    assert w.validate_now() == []  # the pack loads through its ruleset; no cube kinds asked for
    for rel, kind in DATA.items():
        w.select(("file", rel))
        assert w.form is not None, rel
        assert w.form.value() == w.doc.state.file(rel).data  # the form shows the whole file
        assert f"<b>{kind}</b>" in w.form.layout().itemAt(0).widget().text()  # the schema's title line
    w.select(("file", "hazards.yaml"))
    cards = w.form.root.fields["cards"]
    assert isinstance(cards, ListField) and len(cards.rows) == len(w.doc.state.file("hazards.yaml").data["cards"])


def test_a_card_number_edited_in_the_form_saves_that_line_only(sh_window, qtbot):
    w, root = sh_window
    w.select(("file", "actions.yaml"))
    cards = w.form.root.fields["cards"]
    ram = next(r for r in cards.rows if isinstance(r, ObjectField) and r.value()["id"] == "ram")
    number = ram.fields["number"]
    assert isinstance(number, IntField) and number.value() == 3
    before = {p: p.read_text() for p in root.rglob("*.yaml")}
    number.spin.selectAll()
    qtbot.keyClicks(number.spin, "7")
    qtbot.keyClick(number.spin, Qt.Key.Key_Return)
    assert w.doc.state.file("actions.yaml").data["cards"][2]["number"] == 7
    assert w.validate_now() == []
    assert w.save()
    after = {p: p.read_text() for p in root.rglob("*.yaml")}
    assert [p.name for p in before if before[p] != after[p]] == ["actions.yaml"]
    text = before[root / "actions.yaml"]
    lines = text.splitlines()
    want = next(i for i, line in enumerate(lines) if line.strip() == "- id: ram") + 3  # its number line
    assert lines[want - 1].strip() == "number: 3  # house value"
    assert changed_lines(text, after[root / "actions.yaml"]) == [want]
    assert "number: 7  # house value" in after[root / "actions.yaml"]  # the comment stays
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert w.grab().save(str(SHOTS / "speed-hazard-actions-form.png"))


def test_the_car_setup_form_edits_a_nested_price(sh_window, qtbot):
    w, root = sh_window
    w.select(("file", "car.yaml"))
    data = w.doc.state.file("car.yaml").data
    assert w.form.value() == data
    before = (root / "car.yaml").read_text()
    w._form_edited("luck", 3)  # the form's own signal path for a top-level value
    assert w.save()
    after = (root / "car.yaml").read_text()
    assert len(changed_lines(before, after)) == 1 and "luck: 3" in after
