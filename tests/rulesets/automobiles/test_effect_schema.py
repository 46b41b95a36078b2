"""The effect vocabulary: every YAML example of docs/effects.md is valid against the schema."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from slipstream.engine.core.schema import registry, schema_files

ROOT = Path(__file__).resolve().parents[3]
EFFECT_ID = "https://slipstream.invalid/schemas/effect.schema.json"


def _validator(defn: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"{EFFECT_ID}#/$defs/{defn}"}, registry=registry())


def _doc_blocks() -> list[object]:
    text = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")
    out: list[object] = []
    for block in re.findall(r"```yaml\n(.*?)```", text, flags=re.S):
        out.extend(d for d in yaml.safe_load_all(block) if d is not None)
    return out


def test_effect_schema_is_registered_by_id() -> None:
    assert schema_files()["effect.schema.json"]["$id"] == EFFECT_ID
    Draft202012Validator.check_schema(schema_files()["effect.schema.json"])


def test_every_primitive_has_a_description() -> None:
    defs = schema_files()["effect.schema.json"]["$defs"]
    prims = [k for k in defs if k.startswith("p_")]
    assert len(prims) >= 15
    for k in prims:
        assert defs[k].get("description"), k


@pytest.mark.parametrize("doc", _doc_blocks(), ids=lambda d: str(d)[:40])
def test_documented_examples_are_valid(doc: object) -> None:
    if isinstance(doc, list):
        errors = list(_validator("effect_list").iter_errors(doc))
    elif isinstance(doc, dict) and "effect" in doc:
        errors = list(_validator("effect_list").iter_errors(doc["effect"]))
    elif isinstance(doc, dict) and "count" in doc:
        errors = list(_validator("number").iter_errors(doc))
    elif isinstance(doc, dict) and "hooks" in doc:
        errors = list(_validator("driver_hooks").iter_errors(doc["hooks"]))
    else:
        assert isinstance(doc, dict)
        errors = [e for v in doc.values() for e in _validator("effect_list").iter_errors(v)]
    assert not errors, [e.message for e in errors]


@pytest.mark.parametrize(
    "bad",
    [
        [{"gain_wear": -1}],
        [{"move": {"spaces": 2}}],
        [{"remove": {"from": "pocket"}}],
        [{"gain_wear": 1, "draw": 1}],
        [{"move": {"spaces": "3", "colours": [3]}}],
        [{"choose_one": [{"draw": 1}]}],
        [{"move": {"spaces": 1, "colours": [7]}}],
    ],
)
def test_malformed_effects_are_rejected(bad: object) -> None:
    assert list(_validator("effect_list").iter_errors(bad))


def _branch_keys(defs: dict, name: str) -> set[str]:
    """The keys that name the object forms of a `oneOf` definition (primitives, counts, conditions)."""
    out: set[str] = set()
    for b in defs[name].get("oneOf", []):
        if "$ref" in b:
            b = defs[b["$ref"].rsplit("/", 1)[-1]]
        out.update(b.get("required", []) if b.get("type") == "object" or "properties" in b else [])
    return out


def _keys(x: object) -> set[str]:
    if isinstance(x, dict):
        return set(x) | {k for v in x.values() for k in _keys(v)}
    if isinstance(x, list):
        return {k for v in x for k in _keys(v)}
    return set()


@pytest.mark.parametrize("kind", ["effect", "number", "condition"])
def test_every_form_of_the_schema_has_a_checked_example(kind: str) -> None:
    """Every primitive, count form and condition of the schema appears in a YAML example of
    docs/effects.md (which test_documented_examples_are_valid checks against the schema)."""
    defs = schema_files()["effect.schema.json"]["$defs"]
    forms = _branch_keys(defs, kind)
    assert len(forms) >= 10, forms
    used = set().union(*(_keys(d) for d in _doc_blocks()))
    assert sorted(forms - used) == []
