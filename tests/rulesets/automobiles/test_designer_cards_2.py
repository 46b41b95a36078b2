"""The second designer pack (tests/packs/designer-cards-2, issue 34): it validates, its 20 cards
use the forms issue 34 added and are spread over the five colours, every card has a scenario,
every scenario passes, and each scenario set fails when its card is written in a plausible
wrong way (a wrong version of the card's data). The YAML examples of docs/effects.md's issue-34
section are the effects of these cards, so the scenarios run every documented example."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from slipstream.engine.packs.data import freeze, thaw
from slipstream.engine.packs.loader import load_pack
from slipstream.engine.packs.validate import validate_paths
from slipstream.engine.rulesets.automobiles.scenarios import run_pack_scenarios

from .designer_cards import COLOURS, forms, loaded_clean, own_cards, scenarios_of
from .designer_cards import outcomes as run_with

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "tests" / "packs" / "designer-cards-2"
SECTION = "## Reacting to the other cars, money and playability, counters, race-long modifiers"

# The spellings issue 34 added, found in effect data.
NEW_KEYS = {"watch", "gain_money", "play_if", "set_counter", "lower_counter", "take", "floor", "shade",
            "car_on", "last_turn", "higher_than", "chosen_by"}
NEW_VALUES = {("who", "mover"), ("turn_stat", "cubes_played"), ("until", "race"), ("when", "passed"),
              ("when", "ends_behind"), ("when", "enters")}


def _found(k: str, v: Any, parent: str) -> list[str]:
    out = []
    if k in NEW_KEYS:
        out.append(k)
    if isinstance(v, str) and (k, v) in NEW_VALUES:
        out.append(f"{k}: {v}")
    if k == "lasts" and v == "race" and parent == "modify_turn":
        out.append("modify_turn.lasts: race")
    return out


def new_forms(data: Any) -> set[str]:
    return forms(data, _found)


@pytest.fixture(scope="module")
def pack():  # type: ignore[no-untyped-def]
    return loaded_clean(PACK)


def test_the_pack_validates_clean() -> None:
    diags, _ = validate_paths([PACK])
    assert not diags, [str(d) for d in diags]


def test_twenty_new_cards_over_five_colours_each_with_an_issue_34_form(pack) -> None:  # type: ignore[no-untyped-def]
    cards = own_cards(pack)
    assert len(cards) >= 16
    by_colour = {c: [k for k, v in cards.items() if v.colour == c] for c in COLOURS}
    assert all(len(ids) >= 3 for ids in by_colour.values()), by_colour
    assert [cid for cid, c in cards.items() if not new_forms(thaw(c.effect))] == []
    used = set().union(*(new_forms(thaw(c.effect)) for c in cards.values()))
    assert NEW_KEYS <= used and {f"{k}: {v}" for k, v in NEW_VALUES} <= used
    assert "modify_turn.lasts: race" in used
    others = [load_pack(ROOT / p)[0] for p in ("content/base", "tests/packs/designer-cards")]
    for o in others:
        assert o is not None and not set(cards) & {c.id for c in o.cards.values() if c.pack == o.id}
        assert not {c.name for c in cards.values()} & {c.name for c in o.cards.values()}
    assert "HOUSE VALUES" in pack.description


def test_the_card_sets_hold_every_card_once(pack) -> None:  # type: ignore[no-untyped-def]
    sets = [cs for cs in pack.card_sets.values() if cs.pack == pack.id]
    used = [cid for cs in sets for cid in cs.cards.values()]
    assert sorted(used) == sorted(own_cards(pack))


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return run_pack_scenarios(str(PACK))


def test_every_scenario_passes_and_every_card_has_one(report, pack) -> None:  # type: ignore[no-untyped-def]
    assert not report.diagnostics, [str(d) for d in report.diagnostics]
    assert {r.id: r.problems for r in report.results if not r.ok} == {}
    covered = {c for r in report.results for c in r.covers}
    assert [cid for cid in own_cards(pack) if f"card:{cid}" not in covered] == []


# The wrong version of each card: a snippet of its effect as JSON and what it becomes. Each must
# make at least one of the card's scenarios fail.
WRONG: dict[str, list[tuple[str, str]]] = {
    "rear-guard": [('"when": "passed"', '"when": "ends_behind"'), ('"count": 1', '"count": 2')],
    "prize-money": [('{"turn_stat": "cubes_played"}', '1'), ('"cubes_played"', '"spaces_entered"')],
    "scavenger": [('"who": "ahead"', '"who": "behind"'), ('"kinds": "gears", ', '')],
    "kerb-hopper": [('"op": "gt"', '"op": "ge"'), ('{"shade": "car"}', '3')],
    "brake-check": [('"when": "ends_behind"', '"when": "passed"'), ('"who": "mover"', '"who": "all"')],
    "draft-trap": [('"when": "passed"', '"when": "ends_behind"'), ('"spaces": 1', '"spaces": 2')],
    "tyre-stint": [('"last_turn": "pit"', '"last_turn": "standard"'),
                   ('{"set_counter": {"name": "stint", "lasts": "race"}}', '{"set_counter": {"name": "stint"}}')],
    "dark-patch": [('"colours": [5, 6]', '"colours": [6]'), ('"colours": [3]', '"colours": "any"')],
    "oil-slick": [('"until": "race"', '"until": "next_turn"'), ('"colours": [6]', '"colours": [5]')],
    "turbo-lag": [('"lower_counter"', '"add_counter"'), ('"value": 3', '"value": 4')],
    "fuel-gauge": [('"value": 2', '"value": 3'), ('"lower_counter"', '"add_counter"')],
    "gear-grinder": [('"higher_than"', '"lower_than"'), ('"higher_than"', '"same_as"')],
    "slipstream-surge": [('"car": "ahead"', '"car": "behind"'), ('"same_colour": true', '"same_colour": false')],
    "big-spender": [('"op": "ge"', '"op": "gt"'), ('"right": 4', '"right": 3'), ('"pay": 3', '"pay": 2')],
    "aero-package": [('"lasts": "race"', '"lasts": "turn"')],
    "fresh-rubber": [('"last_turn": "pit"', '"last_turn": "standard"')],
    "salvage-rights": [('"chosen_by": "them"', '"chosen_by": "me"'), ('"who": "behind"', '"who": "ahead"')],
    "haggler": [('"floor": 2', '"floor": 0'), ('"floor": 2', '"floor": 3')],
    "season-discount": [('"lasts": "race"', '"lasts": "turn"'), ('"floor": 2', '"floor": 1')],
    "pit-lane-deal": [('"last_turn": "pit"', '"last_turn": "standard"'), ('{"play_if": {"last_turn": "pit"}}, ', '')],
}


def test_every_card_has_wrong_versions(pack) -> None:  # type: ignore[no-untyped-def]
    assert sorted(WRONG) == sorted(own_cards(pack))


def outcomes(pack: Any, cid: str, effect: Any) -> list[bool]:
    return run_with(pack, scenarios_of(PACK, cid), cid, effect)


@pytest.mark.parametrize("cid", sorted(WRONG))
def test_each_wrong_version_of_a_card_fails_one_of_its_scenarios(pack, cid: str) -> None:  # type: ignore[no-untyped-def]
    text = json.dumps(thaw(pack.cards[cid].effect))
    assert all(outcomes(pack, cid, pack.cards[cid].effect))  # the card as written passes them all
    for old, new in WRONG[cid]:
        assert old in text, f"{cid}: wrong version {old!r} does not apply to {text}"
        wrong = freeze(json.loads(text.replace(old, new, 1)))
        assert not all(outcomes(pack, cid, wrong)), f"{cid}: no scenario notices {old} -> {new}"


def section_examples() -> list[Any]:
    text = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")
    assert SECTION in text
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", body, flags=re.S)]


def test_every_example_of_the_docs_section_is_a_card_of_the_pack(pack) -> None:  # type: ignore[no-untyped-def]
    effects = {json.dumps(thaw(c.effect), sort_keys=True): cid for cid, c in own_cards(pack).items()}
    examples = section_examples()
    assert len(examples) >= 12
    missing = [ex for ex in examples if json.dumps(ex["effect"], sort_keys=True) not in effects]
    assert missing == []
    shown = set().union(*(new_forms(ex["effect"]) for ex in examples))
    assert NEW_KEYS <= shown
