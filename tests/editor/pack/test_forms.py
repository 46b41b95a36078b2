"""Generated forms: every kind round-trips, new schema fields appear, effects are built and nested."""

from __future__ import annotations

import copy

import pytest

pytest.importorskip("PySide6")

from slipstream.editor.forms import ItemForm, ObjectField, Schemas, TextField, schemas  # noqa: E402
from slipstream.editor.rulesets.automobiles.effecteditor import EffectListField, primitives  # noqa: E402
from slipstream.engine.editing.packdoc import PackDocument, items  # noqa: E402

from .conftest import BASE  # noqa: E402


@pytest.fixture(scope="module")
def base_doc():
    return PackDocument.open(BASE)  # read only


def test_one_item_of_every_kind_shows_and_gives_back_its_data(qtbot, base_doc):
    seen = set()
    for ref in items(base_doc.state):
        if ref.kind in seen and ref.id not in ("pit-crew", "hybrid-engine"):
            continue  # first of each kind, plus cards with choose_one and if
        seen.add(ref.kind)
        form = ItemForm(*ref.schema_def, ref.data)
        qtbot.addWidget(form)
        assert form.value() == ref.data, ref.id
    assert seen == {"cubes", "cards", "drivers", "sponsors", "cardsets"}
    for rel in ("pack.yaml", "rules.yaml"):
        fs = base_doc.state.file(rel)
        form = ItemForm(fs.kind, None, fs.data)
        qtbot.addWidget(form)
        assert form.value() == fs.data, rel


def test_a_new_schema_field_shows_up_without_new_widget_code(qtbot, monkeypatch):
    s = Schemas()
    card = copy.deepcopy(s.docs[s.names["cards"]])
    card["$defs"]["card"]["properties"]["artist"] = {"type": "string", "description": "Who drew the card."}
    s.docs[s.names["cards"]] = card
    schema, base = s.item("cards", "card")
    field = ObjectField(s, schema, base, {"id": "x", "artist": "Ada"})
    qtbot.addWidget(field)
    assert isinstance(field.fields["artist"], TextField)
    assert field.fields["artist"].toolTip() == "Who drew the card."
    assert field.value()["artist"] == "Ada"


def test_effects_are_built_reordered_and_nested(qtbot):
    s = schemas()
    assert {"gain_wear", "move", "choose_one", "if", "remove", "draw"} <= {p[0] for p in primitives(s)}
    eff = EffectListField(s, [])
    qtbot.addWidget(eff)
    edits = []
    eff.edited.connect(lambda: edits.append(eff.value()))
    eff.add_step("gain_wear")
    choose = eff.add_step("choose_one")
    options = choose.body  # a list of options, each an effect step or a labelled effect list
    assert len(options.rows) == 2  # choose_one needs two options
    first = options.rows[0]
    first.choose("effect")
    first.current.choose("draw")
    eff.step_action(1, -1)  # run the choice first
    value = eff.value()
    assert list(value[0]) == ["choose_one"] and value[1] == {"gain_wear": 0}
    assert list(value[0]["choose_one"][0]) == ["draw"]
    assert edits and edits[-1] == value
    eff.step_action(0, 0)  # remove it
    assert eff.value() == [{"gain_wear": 0}]


def test_an_unknown_primitive_is_shown_and_kept_as_written(qtbot):
    eff = EffectListField(schemas(), [{"gian_wear": 2}, {"gain_wear": 1}])
    qtbot.addWidget(eff)
    assert eff.steps[0].combo.currentText() == "gian_wear (unknown)"
    assert eff.value() == [{"gian_wear": 2}, {"gain_wear": 1}]
    eff.steps[0].choose("gain_wear")  # picking a real primitive replaces it
    assert eff.value()[0] == {"gain_wear": 0}
