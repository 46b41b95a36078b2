"""The pack view driven like a user: forms, the effect editor, YAML tab, diagnostics, saves."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from helpers import invoke as cli  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from slipstream.editor.forms import IntField, ListField, TextAreaField, TextField, VariantField  # noqa: E402
from slipstream.editor.pack.packview import PackWindow  # noqa: E402
from slipstream.editor.rulesets.automobiles.effecteditor import EffectListField  # noqa: E402
from slipstream.engine.editing.packdoc import PackDocument, items  # noqa: E402
from slipstream.engine.editing.scaffold import new_pack  # noqa: E402
from slipstream.engine.packs.splice import changed_lines  # noqa: E402

from .conftest import SHOTS  # noqa: E402

STEAM_SCENARIO = """\
slipstream: scenario/1
id: card-steam-engine
description: Steam Engine gives one wear and moves its cube up to two white spaces.
covers: ['card:steam-engine']
track:
  layout: [3 3 3 3 3 3 3 3 3 3, 3 3 3 3 3 3 3 3 3 3]
cards: {blue: steam-engine}
players:
- car: {lane: 0, segment: 0}
  bag: {gear-3: 7}
  active: {blue: 1}
- car: {lane: 1, segment: 5}
  bag: {gear-3: 7}
decisions: [play blue, 'to 0:1', 'to 0:2']
expect:
  players:
  - placed: ['0:2']
    used: {blue: 1, wear: 1}
"""


@pytest.fixture
def open_pack(qtbot):
    def make(root, **kw):
        w = PackWindow(PackDocument.open(root), **kw)
        # no unsaved-changes prompt when pytest-qt closes the window, even after a failure
        qtbot.addWidget(w, before_close_func=lambda win: setattr(win.doc, "saved", win.doc.state))
        w.show()
        qtbot.waitExposed(w)
        return w

    return make


def type_text(qtbot, field, text: str) -> None:
    """Type into a one-line or multi-line text field and leave it, as a user does."""
    if isinstance(field, TextField):
        field.edit.selectAll()
        qtbot.keyClicks(field.edit, text)
        qtbot.keyClick(field.edit, Qt.Key.Key_Return)
    else:
        assert isinstance(field, TextAreaField)
        field.edit.selectAll()
        qtbot.keyClicks(field.edit, text)
        field.edit.clearFocus()
        field.edit.on_leave()  # offscreen windows do not always get focus-out events


def set_number(qtbot, field, n: int) -> None:
    while isinstance(field, VariantField):  # a number may be a literal or a count expression
        field = field.current
    assert isinstance(field, IntField)
    field.spin.selectAll()
    qtbot.keyClicks(field.spin, str(n))
    qtbot.keyClick(field.spin, Qt.Key.Key_Return)


def test_new_pack_gets_an_engine_card_and_a_set_through_the_forms(open_pack, qtbot, tmp_path):
    root = new_pack(tmp_path, "Steam Age").root
    win = open_pack(root)
    win.new_item("cards", "steam-engine")
    fields = win.form.root.fields
    type_text(qtbot, fields["name"], "Steam Engine")
    type_text(qtbot, fields["colour"], "blue")
    set_number(qtbot, fields["cost"], 4)
    set_number(qtbot, fields["value"], 1)
    type_text(qtbot, fields["text"], "Take one wear. This cube may go up to two white spaces.")
    effect = fields["effect"]
    assert isinstance(effect, EffectListField)
    effect.pick.setCurrentText("gain_wear")
    qtbot.mouseClick(effect.add_button, Qt.MouseButton.LeftButton)
    set_number(qtbot, effect.steps[0].body, 1)
    effect.pick.setCurrentText("move")
    qtbot.mouseClick(effect.add_button, Qt.MouseButton.LeftButton)
    spaces = effect.steps[1].body.child("spaces")
    spaces.choose("up_to")
    set_number(qtbot, spaces.child("up_to"), 2)

    card = next(r for r in items(win.doc.state, "cards") if r.id == "steam-engine").data
    assert card == {"id": "steam-engine", "name": "Steam Engine", "colour": "blue", "cost": 4, "value": 1,
                    "text": "Take one wear. This cube may go up to two white spaces.",
                    "effect": [{"gain_wear": 1}, {"move": {"spaces": {"up_to": 2}, "colours": [3]}}]}
    # the new card, then one undo step per field edit (the name typed was already the default)
    assert win.undo_stack.count() == 10
    win.undo_stack.undo()
    assert next(r for r in items(win.doc.state, "cards") if r.id == "steam-engine").data["effect"][1] == \
        {"move": {"spaces": {"up_to": 0}, "colours": [3]}}
    win.undo_stack.redo()
    assert win.preview.face is not None and win.preview.face.wear == 1 and win.preview.face.cost == 4

    win.new_item("cardsets", "steam")
    fields = win.form.root.fields
    type_text(qtbot, fields["name"], "Steam")
    cards = fields["cards"]
    assert isinstance(cards, ListField)
    offered = cards.rows[0].edit.completer().model()
    words = {offered.index(i, 0).data() for i in range(offered.rowCount())}
    assert {"steam-engine", "manager", "crate-motor"} <= words and "third-gear" not in words
    for i, cid in enumerate(["manager", "suspension", "crew-chief", "steam-engine", "gearbox"]):
        if i >= len(cards.rows):
            qtbot.mouseClick(cards.add_button, Qt.MouseButton.LeftButton)
        type_text(qtbot, cards.rows[i], cid)
    assert win.validate_now() == []

    win.select_item("cards", "steam-engine")
    SHOTS.mkdir(parents=True, exist_ok=True)
    win.grab().save(str(SHOTS / "new-pack-card.png"))
    assert win.save()
    assert not win.doc.dirty
    (root / "tests" / "card-steam-engine.yaml").write_text(STEAM_SCENARIO)
    validated = cli("validate", str(root))
    assert validated.exit_code == 0, validated.output
    assert "0 errors, 0 warnings" in validated.output
    tested = cli("test", str(root))
    assert tested.exit_code == 0, tested.output
    assert "PASS card-steam-engine" in tested.output and "2 passed, 0 failed" in tested.output  # and the sample
    # the scaffold's comments survive the save of the file that changed
    assert "#  - id: tow-truck" in (root / "cards.yaml").read_text()


def test_editing_a_base_card_in_the_form_saves_only_its_lines(open_pack, qtbot, base_copy):
    win = open_pack(base_copy)
    ref = win.select_item("cards", "crate-motor")
    path = base_copy / ref.rel
    before = {p: p.read_text() for p in base_copy.rglob("*.yaml")}
    set_number(qtbot, win.form.root.fields["cost"], 6)
    type_text(qtbot, win.form.root.fields["name"], "Crate Motor Mk II")
    assert win.save()
    after = {p: p.read_text() for p in base_copy.rglob("*.yaml")}
    assert [p for p in before if before[p] != after[p]] == [path]
    lines = before[path].splitlines()
    first = lines.index("  - id: crate-motor") + 1
    nxt = next(i for i in range(first, len(lines)) if lines[i].startswith("  - id: ")) + 1
    changed = changed_lines(before[path], after[path])
    assert changed == [first + 1, first + 3]  # the name and the cost lines, nothing else
    assert all(first <= n < nxt for n in changed)


def test_undo_and_the_yaml_tab_stay_in_step_with_the_form(open_pack, qtbot, base_copy):
    win = open_pack(base_copy)
    win.select_item("cards", "turbo")
    set_number(qtbot, win.form.root.fields["cost"], 9)
    win.tabs.setCurrentWidget(win.yaml)
    assert "    cost: 9\n" in win.yaml.edit.toPlainText()
    win.undo_stack.undo()
    assert win.form.root.fields["cost"].value() != 9
    assert "    cost: 9\n" not in win.yaml.edit.toPlainText()
    text = win.yaml.edit.toPlainText().replace("name: Turbo\n", "name: Turbo Charger\n")
    win.yaml.edit.setPlainText(text)
    qtbot.mouseClick(win.yaml.apply_button, Qt.MouseButton.LeftButton)
    assert win.form.root.fields["name"].value() == "Turbo Charger"
    win.undo_stack.undo()
    assert win.form.root.fields["name"].value() == "Turbo"
    assert not win.doc.dirty


def test_clicking_a_diagnostic_selects_the_item_and_field(open_pack, qtbot, base_copy):
    win = open_pack(base_copy)
    win.select_item("cardsets", "gamble")
    cards = win.form.root.fields["cards"]
    type_text(qtbot, cards.rows[3], "no-such-card")
    diags = win.validate_now()
    assert [d.code for d in diags] == ["P011"]
    win.select_item("cards", "manager")
    win.problems.tree.setCurrentItem(win.problems.tree.topLevelItem(0))
    win.problems._clicked(win.problems.tree.topLevelItem(0))
    ref = win.current_ref()
    assert (ref.kind, ref.id) == ("cardsets", "gamble")
    marked = win.form.field(("cards", 3))
    assert marked.focus_widget().styleSheet() != ""
    assert win.status_counts.text() == "1 error, 0 warnings"


def test_scenarios_run_from_the_editor_show_expected_and_actual(open_pack, qtbot, base_copy):
    win = open_pack(base_copy)
    ref = win.select_item("cards", "diesel-engine")
    step = win.form.root.fields["effect"].steps[0]
    set_number(qtbot, step.body, 3)
    outcomes = win.scenarios.run()
    files = sorted((base_copy / "tests").rglob("*.yaml"))
    assert len(outcomes) == len(files)
    using = {f.stem for f in files if "diesel-engine" in f.read_text()}
    failed = {o.id for o in outcomes if not o.ok}
    assert "card-diesel-engine" in failed and failed <= using  # only scenarios of that card fail
    details = win.scenarios.details.toPlainText()
    assert "FAILED" in details and "expected" in details and "got" in details and "wear" in details
    assert win.scenarios.summary.text() == f"{len(files) - len(failed)} passed, {len(failed)} failed"
    assert ref.rel == "cards/engine.yaml"
    item = win.scenarios.tree.currentItem()
    win.scenarios.tree.itemDoubleClicked.emit(item, 0)  # opens the failing scenario's YAML
    assert win.yaml.rel == item.text(2) and win.tabs.currentWidget() is win.yaml


def test_new_items_of_every_kind_get_a_form_and_can_be_removed(open_pack, base_copy):
    win = open_pack(base_copy)
    names = {a.objectName() for a in win.actions()}
    assert {"new-cards", "new-drivers", "new-sponsors", "new-cardsets", "new-cubes", "pack-save"} <= names
    before = win.doc.state
    for kind in ("cubes", "cards", "drivers", "sponsors", "cardsets"):
        ref = win.new_item(kind, f"new-{kind}")
        assert win.current_ref() == ref and win.form is not None
        assert win.form.value() == ref.data
        assert win._find_tree(lambda t, r=ref: t == ("item", r.rel, r.key, r.index)) is not None
        win.remove_selected()
        assert all(r.id != f"new-{kind}" for r in items(win.doc.state, kind))
    assert win.undo_stack.count() == 10
    while win.undo_stack.canUndo():
        win.undo_stack.undo()
    assert win.doc.state == before
