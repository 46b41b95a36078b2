"""The effect editor offers the whole effect vocabulary of schemas/effect.schema.json and opens
every designer card (tests/packs/designer-cards, issue 17, and designer-cards-2, issue 34) without
losing data."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("PySide6")

from slipstream.editor.forms import ItemForm, schemas  # noqa: E402
from slipstream.editor.rulesets.automobiles.effecteditor import EffectListField, EffectStepField  # noqa: E402
from slipstream.engine.editing.packdoc import PackDocument, items  # noqa: E402

from .conftest import ROOT  # noqa: E402

DESIGNER = ROOT / "tests" / "packs" / "designer-cards"
DESIGNER_2 = ROOT / "tests" / "packs" / "designer-cards-2"


def schema_primitives() -> list[str]:
    """The primitive names of the schema's `effect`, read from the JSON file itself."""
    schema = json.loads((ROOT / "schemas" / "effect.schema.json").read_text())
    names = []
    for branch in schema["$defs"]["effect"]["oneOf"]:
        if "$ref" in branch:
            branch = schema["$defs"][branch["$ref"].rsplit("/", 1)[1]]
        names.append(branch["required"][0])
    return names


def combo_items(combo: Any) -> list[str]:
    return [combo.itemText(i) for i in range(combo.count())]


def test_the_editor_offers_every_primitive_of_the_schema(qtbot) -> None:
    want = schema_primitives()
    assert {"pay", "set_flag", "clear_flag", "once", "gain_wear", "others", "watch", "take", "play_if",
            "gain_money", "set_counter", "lower_counter"} <= set(want)
    eff = EffectListField(schemas(), [])
    qtbot.addWidget(eff)
    assert combo_items(eff.pick) == want  # the Add step drop-down
    step = EffectStepField(schemas(), {"gain_wear": 1})
    qtbot.addWidget(step)
    assert combo_items(step.combo) == want  # the drop-down of each step
    for name in want:  # each can be added with its default parameters
        added = eff.add_step(name)
        assert list(added.value()) == [name]
    assert [list(v)[0] for v in eff.value()] == want


@pytest.fixture(scope="module", params=[DESIGNER, DESIGNER_2], ids=["designer-cards", "designer-cards-2"])
def designer_doc(request):  # type: ignore[no-untyped-def]
    return PackDocument.open(request.param)  # read only


def test_every_designer_card_effect_round_trips_through_the_effect_editor(qtbot, designer_doc) -> None:
    cards = [ref for ref in items(designer_doc.state) if ref.kind == "cards"]
    assert len(cards) >= 20
    s = schemas()
    for ref in cards:
        effect = ref.data["effect"]
        eff = EffectListField(s, effect)
        qtbot.addWidget(eff)
        assert eff.value() == effect, ref.id
        assert not any("(unknown)" in st.combo.currentText() for st in eff.steps), ref.id
        form = ItemForm(*ref.schema_def, ref.data)  # the whole card form, text and costs included
        qtbot.addWidget(form)
        assert form.value() == ref.data, ref.id


def test_an_edit_of_a_new_form_reaches_the_value(qtbot) -> None:
    effect = [{"once": {"key": "k", "per": "race", "effect": [{"gain_wear": 1}]}}]
    eff = EffectListField(schemas(), effect)
    qtbot.addWidget(eff)
    edits: list[Any] = []
    eff.edited.connect(lambda: edits.append(eff.value()))
    inner = eff.steps[0].body.fields["effect"]
    inner.add_step("draw")
    assert edits and edits[-1][0]["once"]["effect"][1] == {"draw": eff.value()[0]["once"]["effect"][1]["draw"]}
    assert eff.value()[0]["once"]["per"] == "race"
