"""The bundled base pack: loads clean and holds every card, driver and sponsor of RULES.md."""

from __future__ import annotations

import json
import pickle
import re

import pytest
from helpers import CONTENT, ROOT

from slipstream.engine.core.diagnostics import format_text
from slipstream.engine.packs.data import FrozenMap
from slipstream.engine.packs.loader import load_pack
from slipstream.engine.packs.validate import validate_paths
from slipstream.engine.rulesets.automobiles.content import base_pack


def test_base_pack_validates_clean():
    diags, count = validate_paths([CONTENT / "base"])
    assert diags == [], format_text(diags)
    # the count is of files: every YAML file of the pack (manifest, data, tracks, scenarios)
    assert count == len(list((CONTENT / "base").rglob("*.yaml"))) > 100


def test_base_pack_holds_the_whole_game():
    pack = base_pack()
    assert set(pack.cube_kinds) == {"gear-3", "gear-4", "gear-5", "gear-6", "wear",
                                    "yellow", "red", "purple", "blue", "green"}
    supply = {k.id: k.supply for k in pack.cube_kinds.values()}
    assert supply == {"gear-3": 30, "gear-4": 28, "gear-5": 24, "gear-6": 16, "wear": 80,
                      "yellow": 40, "red": 16, "purple": 16, "blue": 16, "green": 16}
    action = [c for c in pack.cards.values() if not c.fixed]
    assert len(action) == 35
    for colour in ("yellow", "red", "purple", "blue", "green"):
        assert sum(c.colour == colour for c in action) == 7
    assert len(pack.fixed_cards) == 5
    assert len(pack.drivers) == 10
    assert sorted(pack.sponsors) == [f"{f}{n}" for f in "abcdef" for n in (1, 2, 3)]
    assert len(pack.card_sets) >= 5
    assert set(pack.tracks) >= {"first-oval"}


def test_first_race_set_is_the_suggested_one():
    pack = base_pack()
    in_play = pack.cards_in_play("first-race")
    assert {in_play[c].name for c in ("yellow", "red", "purple", "blue", "green")} == {
        "Manager", "Suspension", "Crew Chief", "Hybrid Engine", "Gearbox"}
    assert in_play["gear-3"].fixed and in_play["wear"].fixed


def test_rule_constants_and_options():
    rules = base_pack().rules
    assert rules is not None
    assert rules.hand_size == 7
    assert dict(rules.starting_bag) == {"gear-3": 5, "gear-4": 2, "yellow": 5}
    assert dict(rules.wear_by_darkest) == {"gear-3": 1, "gear-4": 2, "gear-5": 3, "gear-6": 4}
    opts = rules.options
    assert opts["weaving"] is False and opts["momentum"] == "slide"
    assert opts["drivers_in_single_races"] is False and opts["strict_play"] is False
    assert opts["unlimited_wear"] is True and opts["sponsor_level_by_draft"] is False
    assert opts["season_grid"] == "winner_pole"
    assert opts["season_points"] == "players_minus_place"


def test_pack_data_is_read_only_and_picklable():
    pack = base_pack()
    assert isinstance(pack.cards, FrozenMap)
    with pytest.raises(TypeError):
        pack.cards["x"] = pack.cards["manager"]  # type: ignore[index]
    effect = pack.cards["diesel-engine"].effect
    assert isinstance(effect, tuple)
    with pytest.raises(TypeError):
        effect[0]["gain_wear"] = 5
    again = pickle.loads(pickle.dumps(pack))
    assert again.cards == pack.cards


def test_namespaced_lookup_and_positions():
    pack = base_pack()
    assert pack.card("base:crew-chief") is pack.card("crew-chief")
    with pytest.raises(KeyError):
        pack.card("other:crew-chief")
    card = pack.card("turbo")
    file, pos, path = pack.position(card.origin, "effect", 1)
    assert file.endswith("performance.yaml") and path.endswith(".effect[1]")
    text = (CONTENT / "base" / "cards" / "performance.yaml").read_text().splitlines()
    assert text[pos.line - 1].strip().startswith("- move:")


def test_load_pack_of_a_folder_without_manifest(tmp_path):
    pack, diags = load_pack(tmp_path)
    assert pack is None
    assert [d.code for d in diags] == ["P001"]


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_user_pack_replaces_a_track_overrides_a_sponsor_and_sets_an_option(tmp_path):
    root = tmp_path / "house"
    _write(root / "pack.yaml", "slipstream: pack/1\nid: house\nname: House\nversion: 1.0.0\n"
                               "extends: [base]\nreplaces: [base:first-oval]\n")
    oval = (CONTENT / "base" / "tracks" / "first-oval.yaml").read_text()
    _write(root / "tracks" / "oval.yaml", oval.replace("name: First Oval", "name: Our Oval"))
    _write(root / "sponsors.yaml", "slipstream: sponsors/1\noverrides:\n  - id: base:c2\n    brackets:\n"
                                   "      last:\n        - remove: {from: owned, count: {up_to: 3}, as: standard}\n"
                                   "        - remove: {from: owned, kind: wear, count: {up_to: 7}}\n")
    _write(root / "rules.yaml", "slipstream: rules/1\noptions: {weaving: true}\n")
    pack, diags = load_pack(root)
    assert diags == [], format_text(diags)
    assert pack is not None and pack.rules is not None
    assert pack.tracks["first-oval"].name == "Our Oval"
    assert pack.track_owners["first-oval"] == "house"
    assert pack.track_owners["road-course"] == "base"
    assert pack.sponsors["c2"].effect("last")[1]["remove"]["count"]["up_to"] == 7
    assert pack.sponsors["c2"].standard_remove("first") == base_pack().sponsors["c2"].standard_remove("first")
    assert pack.rules.options["weaving"] is True
    assert pack.rules.options["momentum"] == base_pack().rules.options["momentum"]
    assert pack.lineage == ("house", "base")


def test_a_pack_line_of_three_with_namespaced_references(tmp_path):
    _write(tmp_path / "one" / "pack.yaml", "slipstream: pack/1\nid: one\nname: One\nversion: 1.0.0\nextends: [base]\n")
    _write(tmp_path / "one" / "cards.yaml", "slipstream: cards/1\ncards:\n  - id: tow-truck\n"
           "    name: Tow Truck\n    colour: purple\n    cost: 3\n    value: 1\n    text: Clear wear.\n"
           "    effect:\n      - remove: {from: discard, kind: wear, count: {up_to: 2}}\n")
    _write(tmp_path / "two" / "pack.yaml", "slipstream: pack/1\nid: two\nname: Two\nversion: 1.0.0\nextends: [one]\n")
    _write(tmp_path / "two" / "cardsets.yaml", "slipstream: cardsets/1\ncard_sets:\n  - id: towing\n"
           "    name: Towing\n    cards: [base:manager, suspension, one:tow-truck, hybrid-engine, gearbox]\n")
    _write(tmp_path / "two" / "cards.yaml", "slipstream: cards/1\noverrides:\n  - id: one:tow-truck\n    cost: 2\n")
    pack, diags = load_pack(tmp_path / "two")
    assert diags == [], format_text(diags)
    assert pack is not None
    assert pack.lineage == ("two", "one", "base")
    assert pack.cards_in_play("towing")["purple"].id == "tow-truck"
    assert pack.card("one:tow-truck").cost == 2
    assert pack.card("one:tow-truck").pack == "one"


def test_validate_reports_pack_problems_as_github_annotations():
    from click.testing import CliRunner

    from slipstream.cli.main import main

    case = CONTENT.parent / "tests" / "packs" / "p011-unknown-card-in-set" / "main"
    res = CliRunner().invoke(main, ["validate", "--format", "github", str(case)])
    assert res.exit_code == 1
    assert re.search(r"::error file=.*cardsets\.yaml,line=5,col=34,title=P011::", res.output)


def test_pre_commit_hooks_run_the_validate_command():
    import yaml

    hooks = yaml.safe_load((CONTENT.parent / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"] for h in hooks} == {"slipstream-validate", "slipstream-validate-all"}
    for h in hooks:
        assert h["entry"].startswith("slipstream validate") and h["language"] == "python"


def _seed_grams():
    import importlib.util

    spec = importlib.util.spec_from_file_location("seed_grams", ROOT / "tests" / "tools" / "seed_grams.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _strings(node: object):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def test_texts_are_our_own_words():
    """No 8 words in a row of any text of the bundled packs of every ruleset (cards, drivers,
    sponsors, hazards, descriptions, scenario notes) or of docs/ appear in the seed rule texts.
    The seeds are not committed: tests/packs/seed-8grams.bin holds a digest of each 8-word run
    (tests/tools/seed_grams.py writes it), and matches it when the seeds are beside the clone."""
    import yaml

    sg = _seed_grams()
    seeds = ROOT.parent / "shared" / "seeds"
    if any(seeds.glob("*.txt")):
        assert sg.load() == sg.load_bytes(sg.seed_digests(seeds)), "rerun tests/tools/seed_grams.py"
    grams = sg.load()
    assert len(grams) > 20_000
    texts = [(str(f.relative_to(ROOT)), t) for f in sorted(CONTENT.rglob("*.yaml"))
             for t in _strings(yaml.safe_load(f.read_text(encoding="utf-8")))]
    texts += [(str(f.relative_to(ROOT)), f.read_text(encoding="utf-8")) for f in sorted((ROOT / "docs").rglob("*.md"))]
    assert any("hazard" in f for f, _ in texts) and any("formula-de" in f for f, _ in texts)
    copied = [(f, " ".join(r)) for f, t in texts for r in sg.runs(t) if sg.digest(r) in grams]
    assert copied == []
    if any(seeds.glob("*.txt")):  # and a run of the seeds themselves is found
        first = sorted(seeds.glob("*.txt"))[0].read_text(errors="ignore")
        assert all(sg.digest(r) in grams for r in sg.runs(first)[:50])


def test_every_rule_option_is_set_in_base_and_documented():
    schema = json.loads((ROOT / "schemas" / "rules.schema.json").read_text())
    options = set(schema["$defs"]["options"]["properties"])
    constants = set(schema["$defs"]["constants"]["properties"])
    rules = base_pack().rules
    assert rules is not None
    assert set(rules.options) == options
    doc = (ROOT / "docs" / "packs.md").read_text()
    missing = [o for o in sorted(options | constants) if f"`{o}`" not in doc]
    assert missing == []
