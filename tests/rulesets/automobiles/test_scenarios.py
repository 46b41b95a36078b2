"""The base pack's rule scenarios pass, cover every card, driver, sponsor and rule, and a
malformed scenario gives coded diagnostics instead of running."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.core.yamlsource import load_text
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.scenarios import (
    check_scenario,
    run_file,
    run_pack_scenarios,
    scenario_paths,
)

RULES = ["placement-chain", "front-most-free-segment", "weaving", "drafting", "momentum",
         "darkest-colour-wear", "pit-stop", "refill-mid-draw", "limited-supply", "race-end",
         "tie-inner-lane", "lapped-cars"]


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return run_pack_scenarios("")


def test_every_base_scenario_passes(report) -> None:  # type: ignore[no-untyped-def]
    assert not report.diagnostics, report.diagnostics
    failed = {r.id: r.problems for r in report.results if not r.ok}
    assert not failed
    assert len(report.results) == len(scenario_paths(base_pack())) >= 90


def test_every_card_driver_sponsor_and_rule_has_a_scenario(report) -> None:  # type: ignore[no-untyped-def]
    covered = {c for r in report.results for c in r.covers}
    pack = base_pack()
    missing = [f"card:{c}" for c in pack.cards if f"card:{c}" not in covered]
    missing += [f"driver:{d}" for d in pack.drivers if f"driver:{d}" not in covered]
    missing += [f"sponsor:{s}" for s in pack.sponsors if f"sponsor:{s}" not in covered]
    missing += [f"rule:{r}" for r in RULES if f"rule:{r}" not in covered]
    assert not missing


GOOD = """\
slipstream: scenario/1
id: tiny
covers: [rule:placement-chain]
track: {layout: ["3 4x2 5", "3 3 3 3"]}
players:
  - car: {lane: 0, segment: 0}
    active: {gear-4: 1}
  - car: {lane: 1, segment: 3}
decisions: [play gear-4]
expect:
  players:
    - placed: ["0:2"]
"""


def _check(text: str):  # type: ignore[no-untyped-def]
    loaded = load_text(text, "bad.yaml")
    return check_scenario(loaded.data, loaded.source, base_pack())


def test_a_good_inline_scenario_runs(tmp_path: Path) -> None:
    f = tmp_path / "tiny.yaml"
    f.write_text(GOOD)
    res, diags = run_file(f, base_pack())
    assert not diags and res is not None and res.ok, res


def test_a_wrong_expectation_fails_with_a_readable_problem(tmp_path: Path) -> None:
    f = tmp_path / "tiny.yaml"
    f.write_text(GOOD.replace('"0:2"', '"0:1"'))
    res, _ = run_file(f, base_pack())
    assert res is not None and not res.ok
    assert "placed: expected ['0:1'], got ['0:2']" in res.problems[0]


@pytest.mark.parametrize(
    ("change", "code", "line"),
    [
        (("track: {layout", "track: nowhere\nx-old: {layout"), "C101", 4),
        (("gear-4: 1}", "gear-9: 1}"), "C103", 7),
        (("segment: 3}", "segment: 9}"), "C104", 8),
        (("covers: [rule:placement-chain]", "covers: [card:no-such-card]"), "C105", 3),
        (('"3 4x2 5"', '"3 4x2 5 3"'), "C108", 4),
        (("decisions:", "turn: 5\ndecisions:"), "C106", 9),
        (("decisions:", "options: {weavin: true}\ndecisions:"), "C107", 9),
        (("id: tiny", "id: Tiny Scenario"), "S001", 2),
        (("covers:", "cover:"), "S002", 3),
    ],
)
def test_malformed_scenarios_give_coded_diagnostics(change: tuple[str, str], code: str, line: int) -> None:
    sc, diags = _check(GOOD.replace(*change))
    assert sc is None
    assert code in {d.code for d in diags}, diags
    d = next(d for d in diags if d.code == code)
    assert d.line == line and d.file == "bad.yaml" and d.path.startswith("$")


def test_slipstream_test_reports_pass_and_fail() -> None:
    res = CliRunner().invoke(main, ["test", "-k", "rule-pit-stop"])
    assert res.exit_code == 0, res.output
    assert "PASS rule-pit-stop" in res.output and "1 passed, 0 failed" in res.output


def test_the_scenario_example_of_docs_engine_md_passes(tmp_path: Path) -> None:
    import re

    doc = (Path(__file__).resolve().parents[3] / "docs" / "engine.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```yaml\n(.*?)```", doc, flags=re.S) if "scenario/1" in b)
    f = tmp_path / "example.yaml"
    f.write_text(block)
    res, diags = run_file(f, base_pack())
    assert not diags and res is not None and res.ok, (diags, res)
