"""The schema errors of a file are jsonschema's own, found without walking its valid parts.

`validator(name)` (engine/core/schema.py) skips every part of an instance that the fast check
(engine/core/schemafast.py) passes; `reference_validator(name)` is jsonschema with no such help.
On broken copies of every bundled file kind both must give the same errors, in the same order,
with the same messages, paths and innermost causes (what a diagnostic is made of)."""

from __future__ import annotations

from typing import Any

from slipstream.engine.core import schemafast
from slipstream.engine.core.schema import _leaf, reference_validator, schema_diagnostics, validator
from slipstream.engine.core.yamlsource import load_text

from .fuzzing import mutants


def _errors(v: Any, data: Any) -> list[tuple[Any, ...]]:
    out = []
    for e in v.iter_errors(data):
        leaf = _leaf(e)
        out.append((e.message, tuple(e.absolute_path), e.validator, tuple(e.absolute_schema_path),
                    leaf.message, tuple(leaf.absolute_path), len(e.context)))
    return out


def _documents(seed: int, count: int) -> list[tuple[str, Any]]:
    out = []
    for _, rel, raw in mutants(seed, count, 2_000):
        loaded = load_text(raw.decode("utf-8", "replace"), rel)
        if not isinstance(loaded.data, dict):
            continue
        name = str(loaded.data.get("slipstream", "")).split("/")[0]
        if schemafast.compiled(name) is not None:
            out.append((name, loaded.data))
    return out


def test_the_pruned_validator_reports_exactly_jsonschemas_errors():
    docs = _documents(11, 240)
    assert len({name for name, _ in docs}) >= 8  # the kinds of every ruleset's packs and tracks
    invalid = 0
    for name, data in docs:
        reference = _errors(reference_validator(name), data)
        assert _errors(validator(name), data) == reference, name
        invalid += bool(reference)
    assert invalid > len(docs) // 2  # the mutants are broken, not only reformatted


def _cubes(n: int, last: str) -> str:
    rows = "\n".join(f"  - {{id: c{i}, name: Cube {i}, role: action, supply: 4}}" for i in range(n))
    return f"slipstream: cubes/1\ncubes:\n{rows}\n  - {{id: late, name: Late, role: action, supply: {last}}}\n"


def test_a_part_is_skipped_only_when_the_fast_check_passes_it():
    schema = validator("cubes").schema
    good = load_text(_cubes(3, "4"), "cubes.yaml").data
    bad = load_text(_cubes(3, "lots"), "cubes.yaml").data
    assert schemafast.passes(schema, good) is True
    assert schemafast.passes(schema, bad) is False
    assert schemafast.passes({"type": "object"}, {}) is False  # not a part of a bundled schema


def test_a_long_list_with_one_bad_item_reports_it_at_its_place_without_walking_the_rest(monkeypatch):
    loaded = load_text(_cubes(3_000, "lots"), "cubes.yaml")
    skipped = []
    passes = schemafast.passes

    def counting(schema: Any, data: Any) -> bool:
        ok = passes(schema, data)
        skipped.extend([data] if ok else [])
        return ok

    monkeypatch.setattr(schemafast, "passes", counting)
    diags = schema_diagnostics("cubes", loaded.data, loaded.source)
    assert [(d.code, d.path, d.line) for d in diags] == [("S001", "$.cubes[3000].supply", 3_003)]
    assert _errors(validator("cubes"), loaded.data) == _errors(reference_validator("cubes"), loaded.data)
    # each good cube was passed whole by the fast check, not walked keyword by keyword
    assert sum(1 for d in skipped if isinstance(d, dict) and str(d.get("id", "")).startswith("c")) >= 2 * 3_000
