"""The designer pack (tests/packs/designer-cards, issue 17): it validates, its cards use the
new effect forms and are spread over the five colours, every card has a scenario, every
scenario passes, and each scenario fails when its card's effect is written in a plausible
wrong way (a mutant of the card's data)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from slipstream.engine.packs.data import freeze, thaw
from slipstream.engine.packs.loader import load_pack
from slipstream.engine.packs.validate import validate_paths
from slipstream.engine.rulesets.automobiles.scenarios import run_pack_scenarios

from .designer_cards import COLOURS, forms, loaded_clean, outcomes, own_cards, scenarios_of

PACK = Path(__file__).resolve().parents[2] / "packs" / "designer-cards"

# The forms of docs/effects.md that the issue-17 vocabulary added, found in effect data.
NEW_KEYS = {"race_counter", "set_flag", "clear_flag", "flag", "once", "progress", "car", "gap", "cars",
            "moved", "divide", "minus", "one_lower", "money", "pay", "prices", "buy_limit", "straight",
            "lanes", "lane_change", "mandatory"}
NEW_VALUES = {("at", "next_turn_start"), ("at", "next_action"), ("at", "after_buy"), ("lasts", "race"),
              ("turn_stat", "spaces_entered"), ("turn_stat", "cars_passed"), ("drafting", "start_of_turn"),
              ("drafting", "now"), ("who", "ahead_adjacent"), ("who", "beside"), ("who", "behind_adjacent")}


def _found(k: str, v: Any, parent: str) -> list[str]:
    out = []
    if k in NEW_KEYS:
        out.append(f"{k}: {v}" if isinstance(v, str) else k)
    if isinstance(v, str) and (k, v) in NEW_VALUES:
        out.append(f"{k}: {v}")
    if k == "as" and parent in ("move", "drive"):
        out.append(f"{parent}.as")
    if k == "distinct_kinds" and isinstance(v, dict) and set(v) - {"zone"}:
        out.append("distinct_kinds filter")
    if k == "repeat_while" and dict(v) != {"kind": "wear"}:
        out.append("repeat_while filter")
    return out


def new_forms(data: Any) -> set[str]:
    """The new forms an effect list uses, as `key` or `key: value`."""
    return forms(data, _found)


@pytest.fixture(scope="module")
def pack():  # type: ignore[no-untyped-def]
    return loaded_clean(PACK)


def test_the_designer_pack_validates() -> None:
    diags, _ = validate_paths([PACK])
    assert not diags, [str(d) for d in diags]


def test_two_dozen_new_cards_over_five_colours_each_with_a_new_form(pack) -> None:  # type: ignore[no-untyped-def]
    cards = own_cards(pack)
    assert len(cards) >= 24
    by_colour = {c: [k for k, v in cards.items() if v.colour == c] for c in COLOURS}
    assert all(len(ids) >= 4 for ids in by_colour.values()), by_colour
    without = [cid for cid, c in cards.items() if not new_forms(thaw(c.effect))]
    assert without == []
    base = load_pack(Path(__file__).resolve().parents[3] / "content" / "base")[0]
    assert base is not None and not set(cards) & set(base.cards)
    assert not {c.name for c in cards.values()} & {c.name for c in base.cards.values()}
    assert "HOUSE VALUES" in pack.description


def test_the_new_form_finder_sees_what_it_looks_for() -> None:
    assert new_forms([{"move": {"spaces": 1, "colours": "any", "as": "m"}}]) == {"move.as"}
    assert new_forms([{"modify_turn": {"drafting": True}}, {"remove": {"from": "discard"}}]) == set()
    assert new_forms([{"draw": {"count": 1, "repeat_while": {"kind": "wear"}}}]) == set()


def test_the_card_sets_hold_every_designer_card_once(pack) -> None:  # type: ignore[no-untyped-def]
    sets = [cs for cs in pack.card_sets.values() if cs.pack == pack.id]
    used = [cid for cs in sets for cid in cs.cards.values()]
    assert sorted(used) == sorted(own_cards(pack))


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return run_pack_scenarios(str(PACK))


def test_every_designer_scenario_passes(report) -> None:  # type: ignore[no-untyped-def]
    assert not report.diagnostics, [str(d) for d in report.diagnostics]
    failed = {r.id: r.problems for r in report.results if not r.ok}
    assert not failed
    assert len(report.results) >= 30


def test_every_designer_card_has_a_scenario(report, pack) -> None:  # type: ignore[no-untyped-def]
    covered = {c for r in report.results for c in r.covers}
    assert [cid for cid in own_cards(pack) if f"card:{cid}" not in covered] == []


# Plausible wrong ways of writing each card (a snippet of its effect as JSON, and what it
# becomes): every one must make at least one of the card's scenarios fail.
MUTANTS: dict[str, list[tuple[str, str]]] = {
    "trade-in-desk": [('"one_lower"', '"one_higher"'), ('"kinds": "gears", "change"', '"kinds": "actions", "change"')],
    "ledger-clerk": [('"pay": 2', '"pay": 0'), ('"op": "ge"', '"op": "le"')],
    "garage-logbook": [('"lasts": "race"', '"lasts": "turn"'), ('"race_counter"', '"counter"')],
    "night-shift": [('"next_turn_start"', '"after_end"'), ('"draw": 2', '"draw": 1')],
    "parts-sorter": [('"zone": "discard", "kinds": "actions"', '"zone": "discard"')],
    "scrap-hunter": [('"kinds": "gears"', '"kind": "wear"')],
    "arrow-line": [('"straight": true', '"straight": false')],
    "inside-rail": [('"lanes": "inside"', '"lanes": "outside"')],
    "steady-hands": [('"at_most": 1', '"at_most": 2')],
    # ("now" reads the same as "start_of_turn" in the Action phase: the car has not moved yet)
    "tailgater": [('{"drafting": "start_of_turn"}', '{"car": "behind"}')],
    "warm-tyres": [('"lasts": "race"', '"lasts": "turn"'), ('{"clear_flag": {"name": "warm-tyres", "lasts": "race"}}, ', '')],
    "track-marbles": [('"per": "round"', '"per": "turn"'), ('"per": "round"', '"per": "race"'),
                      ('"mandatory": true', '"mandatory": false')],
    "last-lap-crew": [('"last_lap"', '"final_round"')],
    "pit-window": [('"round": "up"', '"round": "down"'), ('"round": "up"', '"round": "nearest"')],
    "crew-rotation": [('"per": "race"', '"per": "turn"')],
    "paid-overtime": [('"spent"', '"available"'), ('"by": 2', '"by": 1')],
    "shared-garage": [('"who": "beside"', '"who": "all"'), ('"mandatory": true', '"mandatory": false')],
    "lap-service": [('"crossed_line_this_turn"', '"finished"')],
    "home-stretch": [('"laps_left"', '"laps_done"')],
    "passing-power": [('"cars_passed"', '"steps"')],
    "torque-curve": [('"round": "nearest"', '"round": "down"'), ('"gap": "ahead"', '"gap": "leader"')],
    "preheat": [('"next_action"', '"after_car_move"')],
    "line-charger": [('"what": "crossings"', '"what": "cars_passed"')],
    "screamer-v12": [('"round": "up"', '"round": "down"'), ('{"moved": "steps"}', '4')],
    "back-marker": [('"cars": "ahead"', '"cars": "behind"'), ('{"cars": "ahead"}', '{"position": "now"}')],
    "chase-mode": [('"gap": "leader"', '"gap": "ahead"'), ('"by": 4}', '"by": 4, "round": "up"}')],
    "comeback-fund": [('"buy_limit": 2', '"buy_limit": 3'), ('"change": -2', '"change": -1')],
    "last-gasp": [('"final_round"', '"last_lap"')],
    "wheel-to-wheel": [('"car": "beside"', '"car": "ahead"')],
    "late-charge": [('"progress": "round"', '"progress": "laps_done"'), ('"by": 4', '"by": 5')],
    "victory-garage": [('"progress": "finished"', '"progress": "last_lap"'), ('{"progress": "lap"}', '{"progress": "laps"}'),
                       ('{"progress": "lap"}', '{"progress": "laps_done"}')],
    "bump-draft": [('"lanes": "outside"', '"lanes": "inside"'), ('"who": "ahead_adjacent"', '"who": "ahead"'),
                   ('"mandatory": true', '"mandatory": false'), ('{"car": "ahead"}', '{"car": "behind"}')],
    "rescue-crew": [('"cars": "behind"', '"cars": "ahead"'),
                    ('{"once": {"key": "rescue-crew", "per": "turn", "effect": [{"remove": {"from": "active", "kind": "wear", '
                     '"count": 1}}]}}', '{"remove": {"from": "active", "kind": "wear", "count": 1}}')],
    "afterburner": [('"right": 4', '"right": 5'), ('"turn_stat": "cars_passed"', '"turn_stat": "spaces_entered"'),
                    ('"at": "after_car_move"', '"at": "after_buy"')],
    "sling-shot": [('"drafting": "now"', '"drafting": "start_of_turn"'), ('"lanes": [0, 1]', '"lanes": [0, 1, 2]')],
}


def test_every_designer_card_has_mutants(pack) -> None:  # type: ignore[no-untyped-def]
    assert sorted(MUTANTS) == sorted(own_cards(pack))


@pytest.mark.parametrize("cid", sorted(MUTANTS))
def test_each_mutant_of_a_card_fails_one_of_its_scenarios(pack, cid: str) -> None:  # type: ignore[no-untyped-def]
    text = json.dumps(thaw(pack.cards[cid].effect))
    scenarios = scenarios_of(PACK, cid)
    assert scenarios
    for old, new in MUTANTS[cid]:
        assert old in text, f"{cid}: mutant {old!r} does not apply to {text}"
        effect = freeze(json.loads(text.replace(old, new, 1)))
        assert not all(outcomes(pack, scenarios, cid, effect)), f"{cid}: no scenario notices {old} -> {new}"


def test_the_writing_a_new_card_guide_shows_the_designer_cards_as_written(pack) -> None:  # type: ignore[no-untyped-def]
    import re

    import yaml

    text = (Path(__file__).resolve().parents[3] / "docs" / "effects.md").read_text(encoding="utf-8")
    guide = text.split("\n## Writing a new card\n", 1)[1].split("\n## ", 1)[0]
    shown = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", guide, flags=re.S)]
    assert len(shown) >= 2
    for item in shown:
        card = pack.cards[item["id"]]
        assert (card.colour, thaw(card.effect)) == (item["colour"], item["effect"]), item["id"]
        flat = " ".join(guide.split())
        assert card.name in flat and card.text.split(".")[0] in flat, item["id"]
