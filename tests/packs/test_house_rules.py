"""House rules as a file for every ruleset whose packs are track packs (engine/packs/trackpack.py):
`RULESET-rules/1`, with a schema generated from the ruleset's option spec; merged over the
inherited house rules; a bad value is a diagnostic at its line and column."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import ROOT, run

from slipstream.engine.core.schema import schema_files
from slipstream.engine.packs.loader import load_pack
from slipstream.engine.packs.trackpack import house_options
from slipstream.engine.play.options import house_rules_schema
from slipstream.engine.play.registry import get

RULESETS = ("formula-de", "speed-hazard", "toy")


def _pack(folder: Path, ruleset: str, rules: str | None, *, pid: str = "house", extends: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    ext = f"[{extends or ruleset}]"
    (folder / "pack.yaml").write_text(f"slipstream: pack/1\nid: {pid}\nname: House\nversion: 0.1.0\n"
                                      f"ruleset: {ruleset}\nextends: {ext}\n")
    if rules is not None:
        (folder / "rules.yaml").write_text(rules)
    return folder


@pytest.mark.parametrize("rid", RULESETS)
def test_the_house_rules_schema_is_generated_from_the_option_spec(rid):
    rs = get(rid)
    kind = f"{rid}-rules"
    doc = schema_files()[f"{kind}.schema.json"]  # registered when the ruleset loaded
    assert doc == house_rules_schema(kind, rs.name, list(rs.options))
    props = doc["properties"]["options"]["properties"]
    assert set(props) == {s.name for s in rs.options if s.in_rules_file}
    for s in rs.options:
        assert props[s.name]["description"] == s.help
        if s.type == "choice":
            assert props[s.name]["enum"] == list(s.implemented)
    assert doc["properties"]["slipstream"]["const"] == f"{kind}/1"


def test_schema_command_writes_the_generated_schemas(tmp_path):
    code, out = run("schema", "-o", str(tmp_path))
    assert code == 0, out
    for rid in RULESETS:
        doc = json.loads((tmp_path / f"{rid}-rules.schema.json").read_text())
        assert doc["$id"].endswith(f"/{rid}-rules.schema.json")


def test_a_bad_value_is_a_diagnostic_with_file_line_column_and_json_path(tmp_path):
    folder = _pack(tmp_path / "p", "formula-de", "slipstream: formula-de-rules/1\noptions:\n"
                   "  wear_model: basic\n  pit_entry_max_gear: 9\n  season_points: [3, 2, x]\n"
                   "  wear_modle: basic\n  collision_diagonal: maybe\n")
    pack, diags = load_pack(folder)
    got = {(d.code, Path(d.file).name, d.line, d.column, d.path) for d in diags}
    assert got == {("S001", "rules.yaml", 4, 23, "$.options.pit_entry_max_gear"),
                   ("S001", "rules.yaml", 5, 25, "$.options.season_points[2]"),
                   ("S002", "rules.yaml", 6, 3, "$.options.wear_modle"),
                   ("S001", "rules.yaml", 7, 23, "$.options.collision_diagonal")}
    assert next(d for d in diags if d.code == "S002").hint == "did you mean 'wear_model'?"
    # the values the schema takes still count; the others stay the inherited ones
    assert dict(pack.house_options) == {"wear_model": "basic"}
    code, out = run("validate", str(folder))
    assert code == 1 and "rules.yaml:4:23: error S001" in out and "Traceback" not in out
    code, out = run("race", str(folder))
    assert code == 1 and "S001" in out and "Traceback" not in out


def test_a_lone_rules_file_is_checked_against_its_schema(tmp_path):
    f = tmp_path / "rules.yaml"
    f.write_text("slipstream: speed-hazard-rules/1\noptions: {nitrous_until: lap}\n")
    code, out = run("validate", str(f))
    assert code == 1 and "rules.yaml:2:26: error S001" in out and "$.options.nitrous_until" in out


def test_house_rules_are_inherited_and_an_extending_pack_changes_one(tmp_path):
    _pack(tmp_path / "a", "speed-hazard", "slipstream: speed-hazard-rules/1\noptions: {u_turn: true, ram_beside: true}\n",
          pid="a")
    b = _pack(tmp_path / "b", "speed-hazard", "slipstream: speed-hazard-rules/1\noptions: {ram_beside: false}\n",
              pid="b", extends="a")
    c = _pack(tmp_path / "c", "speed-hazard", None, pid="c", extends="b")
    for folder, want in ((b, {"u_turn": True, "ram_beside": False}), (c, {"u_turn": True, "ram_beside": False})):
        pack, diags = load_pack(folder)
        assert diags == [] and dict(pack.house_options) == want
    assert house_options(load_pack(ROOT / "content" / "speed-hazard")[0]) == {}


def test_a_second_house_rules_file_is_p035(tmp_path):
    folder = _pack(tmp_path / "p", "formula-de", "slipstream: formula-de-rules/1\noptions: {wear_model: basic}\n")
    (folder / "more.yaml").write_text("slipstream: formula-de-rules/1\noptions: {}\n")
    _, diags = load_pack(folder)
    # files are read in name order: more.yaml is the first, rules.yaml the second
    assert [(d.code, Path(d.file).name, d.line, d.path) for d in diags] == [("P035", "rules.yaml", 1, "$.slipstream")]
    assert "more.yaml" in diags[0].message


def test_a_rules_file_of_another_ruleset_is_f003(tmp_path):
    folder = _pack(tmp_path / "p", "formula-de", "slipstream: speed-hazard-rules/1\noptions: {}\n")
    _, diags = load_pack(folder)
    assert [d.code for d in diags] == ["F003"]
    assert "formula-de-rules/1" in (diags[0].hint or "")


def test_the_toy_ruleset_reads_its_house_rules_and_option_overrides_them(tmp_path):
    folder = tmp_path / "toy"
    shutil.copytree(ROOT / "tests" / "toy", folder)
    (folder / "rules.yaml").write_text("slipstream: toy-rules/1\noptions: {die: 2}\n")
    code, out = run("validate", str(folder))
    assert code == 0, out
    code, out = run("race", str(folder), "--bots", "bold", "--seed", "3", "--log", str(tmp_path / "logs"))
    assert code == 0, out
    lines = (tmp_path / "logs" / "race-3.jsonl").read_text().splitlines()
    moves = [json.loads(x)["by"] for x in lines if '"ev":"move"' in x]
    assert moves and set(moves) <= {1, 2}
    assert json.loads(lines[0])["options"] == {}  # the pack's digest stands for its house rules
    assert run("replay", str(tmp_path / "logs" / "race-3.jsonl")) == (0, "identical\n")
    code, out = run("race", str(folder), "--bots", "bold", "--seed", "3", "--option", "die=20",
                    "--log", str(tmp_path / "logs2"))
    assert code == 0, out
    moves = [json.loads(x)["by"] for x in (tmp_path / "logs2" / "race-3.jsonl").read_text().splitlines()
             if '"ev":"move"' in x]
    assert max(moves) > 2
