"""The Formula Dé-style rule scenarios (fd-scenario/1, docs/formula-de-scenarios.md): every rule
id has one, refused decisions, losses, routes and the pack's dice and wear are expectations.
What the scenarios of every ruleset share (every one passes, the docs' table and example,
failures that name their line, malformed and fuzzed scenarios) is in
tests/rulesets/test_shared_scenarios.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from slipstream.engine.play.registry import get, load_pack
from slipstream.engine.rulesets.formula_de.ruleids import RULES
from slipstream.engine.rulesets.formula_de.scenarios import run_file, run_pack_scenarios

from ..shared import FD_GOOD

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "content" / "formula-de"
RS = get("formula-de")


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return run_pack_scenarios(str(PACK), RS)


@pytest.fixture(scope="module")
def pack():  # type: ignore[no-untyped-def]
    return load_pack(str(PACK))


def test_every_rule_has_a_scenario(report) -> None:  # type: ignore[no-untyped-def]
    covered = {c.partition(":")[2] for r in report.results for c in r.covers}
    assert sorted(set(RULES) - covered) == []


GOOD = FD_GOOD


def _run(tmp_path: Path, pack, text: str):  # type: ignore[no-untyped-def]
    f = tmp_path / "s.yaml"
    f.write_text(text)
    return run_file(f, pack, RS)


def test_a_refused_decision_is_checked_with_its_reason(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    ok = GOOD.replace('decisions: [gear 2, "to 1:7"]',
                      'decisions: [{choose: gear 4, rejected: shifts up one gear at most}, gear 2, "to 1:7"]')
    res, _ = _run(tmp_path, pack, ok)
    assert res is not None and res.ok, res.problems
    res, _ = _run(tmp_path, pack, ok.replace("shifts up one gear at most", "no gearbox point"))
    assert res is not None and not res.ok
    assert "refused, but the reason is" in res.problems[0] and "shifts up one gear at most" in res.problems[0]
    res, _ = _run(tmp_path, pack, ok.replace("choose: gear 4", "choose: gear 3").replace("[4]", "[4], gear-3: [5]"))
    assert res is not None and res.problems[0].startswith("line 7: decision 1 'gear 3' was accepted")
    res, _ = _run(tmp_path, pack, GOOD.replace('"to 1:7"', '"to 1:4"'))
    assert res is not None and "'to 1:4' refused at the move decision of P1" in res.problems[0]
    assert "cannot be reached with 4 squares" in res.problems[0]


LATER = """\
slipstream: fd-scenario/1
id: later
covers: [rule:brakes]
track: {lanes: 3, squares: 40}
race_wear: {brakes: 6}
cars: [{at: "1:5", gear: 2, lost: {tyres: 1}}]
dice: {gear-2: [4]}
decisions: [gear 2, "to 2:8"]
expect:
  cars: [{lost: {tyres: 1, brakes: 1}, route: ["1:5", "2:6", "2:7", "2:8"], spun: false, wear: {brakes: 5}}]
  pack: {dice: {black: 20, gear-1: [2, 1, 2, 1]}, wear: [{laps: 1, tyres: 4}], basic_pool: 18}
"""


def test_losses_routes_and_pack_data_are_expectations_that_name_their_line(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    res, diags = _run(tmp_path, pack, LATER)
    assert not diags and res is not None and res.ok, (diags, res and res.problems)
    wrong = (LATER.replace("brakes: 1}", "brakes: 2}").replace('"2:6", "2:7"', '"1:6", "2:7"')
             .replace("spun: false", "spun: true").replace("black: 20", "black: 12")
             .replace("[2, 1, 2, 1]", "[1, 2, 3, 4]").replace("tyres: 4}]", "tyres: 5}]"))
    res, _ = _run(tmp_path, pack, wrong)
    assert res is not None and res.problems == [
        "line 10: P1 brakes lost in the race: expected 2, got 1",
        "line 10: P1 spun: expected True, got False",
        "line 10: P1 route of its last move: expected 1:5 1:6 2:7 2:8, got 1:5 2:6 2:7 2:8",
        "line 11: the black die: expected 12 faces, got 20",
        "line 11: the gear-1 die: expected faces [1, 2, 3, 4], got [1, 1, 2, 2]",
        "line 11: the 1-lap wear table, tyres: expected 5, got 4",
    ]
