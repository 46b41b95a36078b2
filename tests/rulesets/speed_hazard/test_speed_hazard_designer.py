"""The speed-and-hazard designer pack (tests/packs/designer-speed-hazard, issue 34): new action
cards, hazard, nitrous and equipment cards written only in the ruleset's effect vocabulary. It
validates, every item has a scenario, every scenario passes, and each item written in a
plausible wrong way (a mutant of its YAML text) fails one of its scenarios."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from slipstream.engine.packs.validate import validate_paths
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.speed_hazard.ruleset import RULESET
from slipstream.engine.rulesets.speed_hazard.scenarios import run_pack_scenarios

PACK = Path(__file__).resolve().parents[2] / "packs" / "designer-speed-hazard"
PREFIX = {"actions.yaml": "card", "hazards.yaml": "hazard", "nitrous.yaml": "nitrous", "equipment.yaml": "equipment"}

# item -> (file, a snippet of its text, what the snippet becomes): each must fail a scenario
MUTANTS: dict[str, list[tuple[str, str, str]]] = {
    "card:overdrive": [("actions.yaml", "top_speed_at_least: 80", "top_speed_at_most: 80"),
                       ("actions.yaml", "[{boost: 30}, {damage: 1}]", "[{speed: 30}, {damage: 1}]")],
    "card:gamble": [("actions.yaml", "[{speed: -10}, {draw: nitrous}]", "[{draw: nitrous}]"),
                    ("actions.yaml", "effects: [{speed: 10}]", "effects: [{speed: 20}]")],
    "card:cruise": [("actions.yaml", "speed_at_least: 60", "speed_at_most: 60"),
                    ("actions.yaml", "else: [{speed: 20}]", "else: [{boost: 20}]")],
    "nitrous:wild-shot": [("nitrous.yaml", "[{boost: 50}, {draw: hazard}]", "[{boost: 50}]"),
                          ("nitrous.yaml", "[{boost: 50}, {draw: hazard}]", "[{speed: 50}, {draw: hazard}]")],
    "nitrous:cold-start": [("nitrous.yaml", "speed_at_most: 20", "speed_at_least: 20"),
                           ("nitrous.yaml", "then: [{boost: 40}]", "then: [{boost: 10}]")],
    "nitrous:cracked-tank": [("nitrous.yaml", "{top_speed: -20}", "{speed: -20}"),
                             ("nitrous.yaml", "[{boost: 30}, {top_speed: -20}]", "[{top_speed: -20}, {boost: 30}]")],
    "hazard:bent-axle": [("hazards.yaml", "[{top_speed: -20}]", "[{speed: -20}]")],
    "hazard:pile-up": [("hazards.yaml", "[{damage: 1}, {draw: hazard}]", "[{damage: 1}]")],
    "hazard:debris": [("hazards.yaml", "{tokens: tacks, count: 2}", "{tokens: oil, count: 2}"),
                      ("hazards.yaml", "{tokens: tacks, count: 2}", "{tokens: tacks}")],
    "hazard:second-wind": [("hazards.yaml", "{luck: 1}", "{luck: -1}")],
    "hazard:sideways": [("hazards.yaml", "{move: -2}", "{speed: -20}"), ("hazards.yaml", "{move: -2}", "{move: 2}")],
    "equipment:tuned-engine": [("equipment.yaml", "{top_speed: 20}", "{top_speed: 10}")],
    "equipment:toolbox": [("equipment.yaml", "{tokens: glue, count: 2}, {luck: 1}", "{tokens: glue, count: 2}"),
                          ("equipment.yaml", "{tokens: glue, count: 2}", "{tokens: oil, count: 2}")],
    "equipment:jump-jets": [("equipment.yaml", "effects: [{move: 2}]", "effects: [{speed: 20}]"),
                            ("equipment.yaml", "effects: [{move: 2}]", "effects: [{move: 1}]")],
}


def own_items() -> set[str]:
    """`card:ID`, `hazard:ID`, ... of every card the designer pack adds itself."""
    import re

    out = set()
    for name, prefix in PREFIX.items():
        out |= {f"{prefix}:{i}" for i in re.findall(r"^  - (?:\{)?id: ([a-z0-9-]+)", (PACK / name).read_text(), re.M)}
    return out


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return run_pack_scenarios(str(PACK), RULESET)


def test_the_designer_pack_validates_clean() -> None:
    diags, _ = validate_paths([PACK])
    assert not diags, [str(d) for d in diags]


def test_at_least_a_dozen_new_items_of_every_kind() -> None:
    items = own_items()
    assert len(items) >= 12
    assert {i.split(":")[0] for i in items} == set(PREFIX.values())


def test_the_new_items_are_in_the_decks_and_use_the_vocabulary() -> None:
    pack = load_pack(str(PACK))
    d = pack.decks
    assert {a.kind for a in d.actions} >= {"overdrive", "gamble", "cruise"}
    assert all(a.effects or a.choices for a in d.actions if a.id in ("overdrive", "gamble", "cruise"))
    assert {c.id for c in d.nitrous if c.effects and c.id in ("wild-shot", "cold-start", "cracked-tank")} == {
        "wild-shot", "cold-start", "cracked-tank"}
    tuned = next(e for e in d.equipment if e.id == "tuned-engine")
    assert [(x.op, x.n) for x in tuned.on_keep] == [("top_speed", 20)]


def test_every_designer_scenario_passes(report) -> None:  # type: ignore[no-untyped-def]
    assert not report.diagnostics, [str(x) for x in report.diagnostics]
    assert report.results and all(r.ok for r in report.results), [(r.id, r.problems) for r in report.results if not r.ok]


def test_every_new_item_has_a_scenario(report) -> None:  # type: ignore[no-untyped-def]
    covered = {c for r in report.results for c in r.covers}
    assert own_items() <= covered, own_items() - covered


def test_every_new_item_has_wrong_versions() -> None:
    assert sorted(MUTANTS) == sorted(own_items())


@pytest.mark.parametrize("item", sorted(MUTANTS))
def test_each_wrong_version_of_an_item_fails_one_of_its_scenarios(item: str, tmp_path: Path) -> None:
    for n, (name, old, new) in enumerate(MUTANTS[item]):
        copy = tmp_path / f"m{n}"
        shutil.copytree(PACK, copy)
        text = (copy / name).read_text()
        assert text.count(old) == 1, f"{item}: {old!r} is not once in {name}"
        (copy / name).write_text(text.replace(old, new))
        rep = run_pack_scenarios(str(copy), RULESET)
        assert not rep.diagnostics, f"{item}: the wrong version {new!r} does not load: {[str(x) for x in rep.diagnostics]}"
        mine = [r for r in rep.results if item in r.covers]
        assert mine, item
        assert not all(r.ok for r in mine), f"{item}: no scenario notices {old!r} -> {new!r}"


def test_the_rules_page_shows_the_designer_items_as_written() -> None:
    """The examples of docs/rules/speed-hazard.md, "Designing new content", are the designer
    pack's items: the same steps, choices and conditions."""
    import re

    import yaml

    doc = (PACK.parents[2] / "docs" / "rules" / "speed-hazard.md").read_text()
    section = doc.split("## Designing new content", 1)[1].split("\n## ", 1)[0]
    shown = []
    for block in re.findall(r"```yaml\n(.*?)```", section, re.S):
        data = yaml.safe_load(block.replace("text: ...", "text: x"))
        shown += data["cards"] if isinstance(data, dict) else data
    raw = {}
    for name in PREFIX:
        raw |= {c["id"]: c for c in yaml.safe_load((PACK / name).read_text())["cards"]}
    assert len(shown) >= 6
    for card in shown:
        for key in ("effects", "on_keep", "choices", "needs", "kind", "number"):
            assert card.get(key) == raw[card["id"]].get(key), (card["id"], key)
