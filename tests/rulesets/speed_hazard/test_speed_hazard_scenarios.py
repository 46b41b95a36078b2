"""The speed-and-hazard rule scenarios (sh-scenario/1, docs/speed-hazard-scenarios.md): every
rule id and every card of the pack has one, the seeds' worked examples are scenarios, refused
decisions and plays, piles and the pack's data are expectations. What the scenarios of every
ruleset share (every one passes, the docs' table and example, failures that name their line,
malformed and fuzzed scenarios) is in tests/rulesets/test_shared_scenarios.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from slipstream.engine.play.registry import get, load_pack
from slipstream.engine.rulesets.speed_hazard.ruleids import RULES, cover_ids
from slipstream.engine.rulesets.speed_hazard.scenarios import run_file, run_pack_scenarios

from ..shared import SH_GOOD

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "content" / "speed-hazard"
RS = get("speed-hazard")


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return run_pack_scenarios(str(PACK), RS)


@pytest.fixture(scope="module")
def pack():  # type: ignore[no-untyped-def]
    return load_pack(str(PACK))


def test_every_rule_and_every_card_of_the_pack_has_a_scenario(report, pack) -> None:  # type: ignore[no-untyped-def]
    covered = {c for r in report.results for c in r.covers}
    wanted = cover_ids(pack.decks)
    assert {f"rule:{r}" for r in RULES} <= wanted and len(wanted) > len(RULES) + 25  # the cards count too
    assert sorted(wanted - covered) == []


def test_the_seeds_worked_examples_are_scenarios(report) -> None:  # type: ignore[no-untyped-def]
    ok = {r.id for r in report.results if r.ok}
    assert {"seed-blocked-at-90", "seed-nine-squares"} <= ok


GOOD = SH_GOOD


def _run(tmp_path: Path, pack, text: str):  # type: ignore[no-untyped-def]
    f = tmp_path / "s.yaml"
    f.write_text(text)
    return run_file(f, pack, RS)


def test_a_refused_decision_is_checked_with_its_reason(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    ok = GOOD.replace("decisions: [accelerate 0]", "decisions: [{choose: accelerate 30, rejected: not an option}, accelerate 0]")
    res, _ = _run(tmp_path, pack, ok)
    assert res is not None and res.ok, res.problems
    res, _ = _run(tmp_path, pack, ok.replace("rejected: not an option", "rejected: too fast"))
    assert res is not None and not res.ok and "refused, but the reason is" in res.problems[0]
    res, _ = _run(tmp_path, pack, ok.replace("choose: accelerate 30", "choose: accelerate 10"))
    assert res is not None and res.problems[0].startswith("line 9: decision 1 'accelerate 10' was accepted")
    res, _ = _run(tmp_path, pack, GOOD.replace("[accelerate 0]", "[brake 10]"))
    assert res is not None and "'brake 10' refused at the accelerate decision of P1" in res.problems[0]


def test_a_card_the_car_cannot_choose_fails_at_its_play_line(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    res, _ = _run(tmp_path, pack, GOOD.replace("card: card accelerate", "card: card ram"))
    assert res is not None and not res.ok
    assert res.problems == ["line 8: P1 cannot choose 'card ram' now; legal: card brake, card sabotage, card accelerate"]


PILES = """\
slipstream: sh-scenario/1
id: piles
covers: [rule:hazard-reshuffle]
track: {lanes: 1, squares: 40}
cars: [{at: "0:0", speed: 30}]
decks: {hazards: [spin, scrape], hazard_discard: [lift-off, near-miss], equipment: [helmet]}
board: {}
play: [{car: 0, card: card accelerate}]
decisions: [accelerate 0]
expect:
  decks:
    hazards: {size: 22, top: spin, order_placeholder: 0}
    hazard_discard: {size: 2, top: lift-off, bottom: near-miss, order: [lift-off, near-miss]}
    equipment: {top: helmet, size: 12}
  pack:
    hazards: {size: 24, cards: {spin: {count: 3, spin: true}}}
    setup: {pit: {points: 15}, dice: {pit_wall: 3}}
"""


def test_piles_and_pack_data_are_compared_and_a_difference_names_its_line(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    ok = PILES.replace(", order_placeholder: 0", "")
    res, diags = _run(tmp_path, pack, ok)
    assert not diags and res is not None and res.ok, (diags, res)
    res, _ = _run(tmp_path, pack, ok.replace("top: lift-off, bottom: near-miss", "top: near-miss, bottom: near-miss")
                  .replace("points: 15", "points: 16").replace("count: 3, spin", "count: 2, spin"))
    assert res is not None and sorted(res.problems) == [
        "line 13: hazard discard top: expected near-miss, got lift-off",
        "line 16: pack hazards cards spin count: expected 2, got 3",
        "line 17: pack setup pit points: expected 16, got 15"]
    res, diags = _run(tmp_path, pack, PILES)  # a key a pile does not have is a schema error
    assert res is None and [d.code for d in diags] == ["S002"]
