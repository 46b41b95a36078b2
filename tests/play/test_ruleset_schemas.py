"""Rulesets bring the JSON Schemas of their own file kinds (`files` capability): the core
keeps only the shared formats, `slipstream schema -o` writes every installed ruleset's, and the
toy ruleset of the tests (tests/toyruleset.py) ships one from its own package."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import ROOT, run

from slipstream.engine.core.schemafiles import CORE_SCHEMAS, ruleset_schemas, schema_files
from slipstream.engine.play.registry import get

TOY_SCENARIO = """slipstream: toy-scenario/1
id: bold-start
track: toy-oval
seed: 4
decisions: [roll, creep, roll]
expect:
  standings: [0, 1]
"""


def test_every_bundled_schema_belongs_to_the_core_or_to_one_ruleset():
    owners: dict[str, list[str]] = {name: ["core"] for name in CORE_SCHEMAS}
    for rid in ("automobiles", "formula-de", "speed-hazard"):
        files = get(rid).files
        assert files is not None
        generated = set(getattr(files, "generated", {}))  # made from the option spec, not bundled
        assert generated <= {f"{rid}-rules.schema.json"}, generated
        for name, entry in files.schemas().items():
            assert entry.is_file(), (rid, name)
            if name not in generated:
                owners.setdefault(name, []).append(rid)
    bundled = sorted(p.name for p in (ROOT / "schemas").glob("*.schema.json"))
    assert sorted(owners) == bundled
    assert all(len(v) == 1 for v in owners.values()), {k: v for k, v in owners.items() if len(v) > 1}
    assert set(bundled) <= set(schema_files())


def test_the_toy_ruleset_ships_its_schema_from_its_own_package():
    entry = ruleset_schemas()["toy-scenario.schema.json"]
    assert Path(str(entry)).parent.name == "toyschemas"
    assert schema_files()["toy-scenario.schema.json"]["title"] == "Toy race scenario"


def test_slipstream_schema_writes_the_schemas_of_every_installed_ruleset(tmp_path: Path):
    code, out = run("schema", "-o", str(tmp_path))
    assert code == 0, out
    written = sorted(p.name for p in tmp_path.glob("*.schema.json"))
    assert "toy-scenario.schema.json" in written and "fd-scenario.schema.json" in written
    assert set(CORE_SCHEMAS) <= set(written)
    data = json.loads((tmp_path / "toy-scenario.schema.json").read_text())
    assert data["$id"].endswith("/toy-scenario.schema.json")


def test_a_file_of_the_toy_kind_is_checked_against_the_toy_schema(tmp_path: Path):
    good = tmp_path / "good.yaml"
    good.write_text(TOY_SCENARIO)
    code, out = run("validate", str(good))
    assert code == 0, out
    bad = tmp_path / "bad.yaml"
    bad.write_text(TOY_SCENARIO.replace("[roll, creep, roll]", "[roll, jump]"))
    code, out = run("validate", str(bad))
    assert code == 1, out
    assert "bad.yaml:5:" in out and "jump" in out and "Traceback" not in out
