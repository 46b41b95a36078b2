"""The effect editor offers the forms of issue 17 part A (from the schema alone) and builds a
form for every example of their docs/effects.md section that gives the example back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

pytest.importorskip("PySide6")

from slipstream.editor.forms import RawField, flat_variants, schemas  # noqa: E402
from slipstream.editor.rulesets.automobiles.effecteditor import (  # noqa: E402
    EffectListField,
    EffectStepField,
    primitives,
)

ROOT = Path(__file__).resolve().parents[3]
SECTION = "## Race-long state, progress, position, move results, arithmetic"
NEW_PRIMITIVES = ("set_flag", "clear_flag", "once")


def _examples() -> list[list[object]]:
    text = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return [yaml.safe_load(b)["effect"] for b in re.findall(r"```yaml\n(.*?)```", body, flags=re.S)]


def test_every_new_primitive_is_in_the_drop_down_with_its_description(qtbot) -> None:  # type: ignore[no-untyped-def]
    step = EffectStepField(schemas(), {"gain_wear": 1})
    qtbot.addWidget(step)
    items = [step.combo.itemText(i) for i in range(step.combo.count())]
    descs = {name: desc for name, _schema, desc in primitives(schemas())}
    for name in NEW_PRIMITIVES:
        assert name in items
        assert descs[name]
        step.choose(name)
        assert list(step.value()) == [name]


@pytest.mark.parametrize("example", _examples(), ids=lambda e: str(e)[:50])
def test_every_example_of_the_section_round_trips_through_the_editor(qtbot, example) -> None:  # type: ignore[no-untyped-def]
    field = EffectListField(schemas(), example)
    qtbot.addWidget(field)
    assert field.value() == example
    assert not any("(unknown)" in s.combo.currentText() for s in field.steps)
    assert not field.findChildren(RawField)  # every part has a generated widget


def test_the_new_numbers_and_conditions_are_variants_of_their_pickers() -> None:
    s = schemas()
    base = s.names["effect"]
    for defn, want in (("number", {"race_counter", "progress", "gap", "cars", "moved", "divide", "minus"}),
                       ("condition", {"flag", "progress", "drafting", "car"})):
        schema, bb = s.resolve({"$ref": f"#/$defs/{defn}"}, base)
        labels = {label for _b, _bb, label in flat_variants(s, schema, bb)}
        assert want <= labels, (defn, want - labels)
