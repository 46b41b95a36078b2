"""The Formula Dé-style rule scenarios (fd-scenario/1, docs/formula-de-scenarios.md): every
scenario of content/formula-de passes, every rule id has one, failures name their line, and
malformed scenarios give coded diagnostics, never a traceback."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.packs.validate import validate_paths
from slipstream.engine.play.registry import get, load_pack
from slipstream.engine.rulesets.formula_de.ruleids import RULES
from slipstream.engine.rulesets.formula_de.scenarios import run_file, run_pack_scenarios

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "content" / "formula-de"
INVALID = Path(__file__).parent / "fd_scenarios_invalid"
DOC = ROOT / "docs" / "formula-de-scenarios.md"
RS = get("formula-de")


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return run_pack_scenarios(str(PACK), RS)


@pytest.fixture(scope="module")
def pack():  # type: ignore[no-untyped-def]
    return load_pack(str(PACK))


def test_every_formula_de_scenario_passes(report) -> None:  # type: ignore[no-untyped-def]
    assert not report.diagnostics, report.diagnostics
    failed = {r.id: r.problems for r in report.results if not r.ok}
    assert not failed
    assert len(report.results) == len(list((PACK / "tests").glob("*.yaml"))) >= 60


def test_every_rule_has_a_scenario(report) -> None:  # type: ignore[no-untyped-def]
    covered = {c.partition(":")[2] for r in report.results for c in r.covers}
    assert sorted(set(RULES) - covered) == []


def test_the_rule_table_of_the_docs_is_the_rule_list() -> None:
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| ([^|]+) \| ([^|]+) \|$", DOC.read_text(encoding="utf-8"), flags=re.M)
    assert {rid: (sec.strip(), text.strip()) for rid, sec, text in rows} == RULES


def test_the_example_of_the_docs_passes(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    block = next(b for b in re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
                 if "fd-scenario/1" in b)
    f = tmp_path / "example.yaml"
    f.write_text(block)
    res, diags = run_file(f, pack, RS)
    assert not diags and res is not None and res.ok, (diags, res)


GOOD = """\
slipstream: fd-scenario/1
id: tiny
covers: [rule:brakes]
track: {lanes: 3, squares: 40}
cars: [{at: "1:5", gear: 2}]
dice: {gear-2: [4]}
decisions: [gear 2, "to 1:7"]
expect:
  cars: [{at: "1:7", wear: {brakes: 1}}]
"""


def _run(tmp_path: Path, pack, text: str):  # type: ignore[no-untyped-def]
    f = tmp_path / "s.yaml"
    f.write_text(text)
    return run_file(f, pack, RS)


def test_a_wrong_expectation_names_its_line_and_what_differed(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    res, diags = _run(tmp_path, pack, GOOD)
    assert not diags and res is not None and res.ok
    res, _ = _run(tmp_path, pack, GOOD.replace("brakes: 1", "brakes: 2"))
    assert res is not None and not res.ok
    assert res.problems == ["line 9: P1 brakes: expected 2, got 1"] and res.line == 9


def test_running_out_of_scripted_dice_is_a_failure_not_a_traceback(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    res, _ = _run(tmp_path, pack, GOOD.replace("dice: {gear-2: [4]}", "dice: {black: [3]}"))
    assert res is not None and not res.ok
    assert res.problems == ["line 7: the script ran out of gear-2 rolls during decision 1 'gear 2' (P1's turn, gear)"]


def test_scripted_rolls_left_over_fail_the_scenario(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    res, _ = _run(tmp_path, pack, GOOD.replace("gear-2: [4]", "gear-2: [4, 3], black: [5]"))
    assert res is not None and res.problems == ["line 6: scripted rolls never used: black [5], gear-2 [3]"]


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


@pytest.mark.parametrize("case", sorted(INVALID.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_malformed_scenario_gives_its_code_at_its_position(case: Path, pack) -> None:  # type: ignore[no-untyped-def]
    code, pos = case.read_text().splitlines()[0].split()[2:4]
    line, col = (int(x) for x in pos.split(":"))
    res, diags = run_file(case, pack, RS)
    assert res is None
    assert (code, line, col) in {(d.code, d.line, d.column) for d in diags}, diags
    assert case.name.startswith(code.lower())


def test_validate_checks_a_scenario_of_the_pack_with_its_position(tmp_path: Path) -> None:
    copy = tmp_path / "fd"
    shutil.copytree(PACK, copy)
    shutil.copy(INVALID / "s002-unknown-key.yaml", copy / "tests" / "bad.yaml")
    diags, _ = validate_paths([copy], use_cache=False)
    assert [(Path(d.file).name, d.code, d.line, d.column) for d in diags] == [("bad.yaml", "S002", 7, 1)]
    # `slipstream test` runs the others and reports the malformed one, not a broken pack
    rep = run_pack_scenarios(str(copy), RS)
    assert [d.code for d in rep.diagnostics] == ["S002"] and all(r.ok for r in rep.results)


def test_slipstream_test_runs_the_pack_scenarios() -> None:
    res = CliRunner().invoke(main, ["test", str(PACK), "-k", "collision-seed-example"])
    assert res.exit_code == 0, res.output
    assert "PASS collision-seed-example" in res.output and "1 passed, 0 failed, 0 malformed" in res.output
    res = CliRunner().invoke(main, ["test", str(PACK), "-k", "grid-", "--format", "json"])
    assert res.exit_code == 0 and json.loads(res.output)["passed"] == ["grid-overflow", "grid-roll", "grid-ties"]


def test_a_failing_scenario_exits_one_with_a_github_annotation_on_its_line(tmp_path: Path) -> None:
    copy = tmp_path / "fd"
    shutil.copytree(PACK, copy)
    (copy / "tests" / "tiny.yaml").write_text(GOOD.replace("brakes: 1", "brakes: 0"))
    res = CliRunner().invoke(main, ["test", str(copy), "-k", "tiny", "--format", "github"])
    assert res.exit_code == 1
    assert "::error file=" in res.output and "tiny.yaml,line=9," in res.output
    assert "P1 brakes: expected 0, got 1" in res.output


def _mutants(seed: int, n: int) -> list[tuple[str, str]]:
    """Scenario texts with one number or word changed: odd values a user may write."""
    rng = random.Random(seed)
    files = sorted((PACK / "tests").glob("*.yaml"))
    values = ["0", "1", "2", "3", "6", "7", "9", "19", "20", "39", "40", "99", "999", "-1", "null", "[]", "{}", "x"]
    out = []
    for i in range(n):
        f = files[i % len(files)]
        text = f.read_text()
        spots = [m for m in re.finditer(r"(?<=[\s\[{:,])(-?\d+|true|false)(?=[\s\]},])", text)]
        m = rng.choice(spots)
        out.append((f.name, text[: m.start()] + rng.choice(values) + text[m.end():]))
    return out


def test_changed_numbers_in_scenarios_end_in_results_or_diagnostics(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    for name, text in _mutants(5, 300):
        f = tmp_path / name
        f.write_text(text)
        res, diags = run_file(f, pack, RS)  # no exception, whatever the numbers
        assert res is not None or diags, name


def test_an_inline_board_takes_any_scenario_id(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    """A scenario id may hold `--`, start with a digit or be 80 long; a track id may not. The
    inline board gets an id a track may have, and the scenario keeps its own."""
    for sid in ("tiny--case", "30-spin", "a" * 40 + "--" + "b" * 38):
        res, diags = _run(tmp_path, pack, GOOD.replace("id: tiny", f"id: {sid}"))
        assert not diags and res is not None and res.ok and res.id == sid, (sid, diags)


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
