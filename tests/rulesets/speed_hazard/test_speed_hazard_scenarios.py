"""The speed-and-hazard rule scenarios (sh-scenario/1, docs/speed-hazard-scenarios.md): every
scenario of content/speed-hazard passes, every rule id and every card of the pack has one,
failures name their line, and malformed scenarios give coded diagnostics, never a traceback."""

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
from slipstream.engine.rulesets.speed_hazard.ruleids import RULES, cover_ids
from slipstream.engine.rulesets.speed_hazard.scenarios import run_file, run_pack_scenarios

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "content" / "speed-hazard"
INVALID = Path(__file__).parent / "sh_scenarios_invalid"
DOC = ROOT / "docs" / "speed-hazard-scenarios.md"
RS = get("speed-hazard")


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return run_pack_scenarios(str(PACK), RS)


@pytest.fixture(scope="module")
def pack():  # type: ignore[no-untyped-def]
    return load_pack(str(PACK))


def test_every_speed_hazard_scenario_passes(report) -> None:  # type: ignore[no-untyped-def]
    assert not report.diagnostics, report.diagnostics
    failed = {r.id: r.problems for r in report.results if not r.ok}
    assert not failed
    assert len(report.results) == len(list((PACK / "tests").glob("*.yaml"))) >= 80


def test_every_rule_and_every_card_of_the_pack_has_a_scenario(report, pack) -> None:  # type: ignore[no-untyped-def]
    covered = {c for r in report.results for c in r.covers}
    wanted = cover_ids(pack.decks)
    assert {f"rule:{r}" for r in RULES} <= wanted and len(wanted) > len(RULES) + 25  # the cards count too
    assert sorted(wanted - covered) == []


def test_the_seeds_worked_examples_are_scenarios(report) -> None:  # type: ignore[no-untyped-def]
    ok = {r.id for r in report.results if r.ok}
    assert {"seed-blocked-at-90", "seed-nine-squares"} <= ok


def test_the_rule_table_of_the_docs_is_the_rule_list() -> None:
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| ([^|]+) \| ([^|]+) \|$", DOC.read_text(encoding="utf-8"), flags=re.M)
    assert {rid: (sec.strip(), text.strip()) for rid, sec, text in rows} == RULES


def test_the_example_of_the_docs_passes(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    block = next(b for b in re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
                 if "sh-scenario/1" in b)
    f = tmp_path / "example.yaml"
    f.write_text(block)
    res, diags = run_file(f, pack, RS)
    assert not diags and res is not None and res.ok, (diags, res)


GOOD = """\
slipstream: sh-scenario/1
id: tiny
covers: [rule:damage-dice]
track: {lanes: 1, squares: 40}
cars: [{at: "0:0", speed: 30}]
board: {"0:1": tacks}
dice: [1]
play: [{car: 0, card: card accelerate}]
decisions: [accelerate 0]
expect:
  cars: [{at: "0:3", maximum: 130}]
"""


def _run(tmp_path: Path, pack, text: str):  # type: ignore[no-untyped-def]
    f = tmp_path / "s.yaml"
    f.write_text(text)
    return run_file(f, pack, RS)


def test_a_wrong_expectation_names_its_line_and_what_differed(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    res, diags = _run(tmp_path, pack, GOOD)
    assert not diags and res is not None and res.ok, res
    res, _ = _run(tmp_path, pack, GOOD.replace("maximum: 130", "maximum: 120"))
    assert res is not None and not res.ok
    assert res.problems == ["line 11: P1 maximum: expected 120, got 130"] and res.line == 11


def test_running_out_of_scripted_dice_is_a_failure_not_a_traceback(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    res, _ = _run(tmp_path, pack, GOOD.replace("dice: [1]\n", ""))
    assert res is not None and not res.ok
    assert res.problems == ["line 8: the script ran out of damage dice during decision 1 'accelerate 0' (P1's turn, accelerate)"]


def test_scripted_dice_left_over_fail_the_scenario(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    res, _ = _run(tmp_path, pack, GOOD.replace("dice: [1]", "dice: [1, 2]"))
    assert res is not None and res.problems == ["line 7: scripted damage dice never rolled: [2]"]


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


@pytest.mark.parametrize("case", sorted(INVALID.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_malformed_scenario_gives_its_code_at_its_position(case: Path, pack) -> None:  # type: ignore[no-untyped-def]
    code, pos = case.read_text().splitlines()[0].split()[2:4]
    line, col = (int(x) for x in pos.split(":"))
    res, diags = run_file(case, pack, RS)
    assert res is None
    assert (code, line, col) in {(d.code, d.line, d.column) for d in diags}, diags
    assert case.name.startswith(code.lower())


def test_validate_checks_a_scenario_of_the_pack_with_its_position(tmp_path: Path) -> None:
    copy = tmp_path / "sh"
    shutil.copytree(PACK, copy)
    shutil.copy(INVALID / "s002-unknown-key.yaml", copy / "tests" / "bad.yaml")
    diags, _ = validate_paths([copy], use_cache=False)
    assert [(Path(d.file).name, d.code, d.line, d.column) for d in diags] == [("bad.yaml", "S002", 6, 20)]
    rep = run_pack_scenarios(str(copy), RS)
    assert [d.code for d in rep.diagnostics] == ["S002"] and all(r.ok for r in rep.results)


def test_slipstream_test_runs_the_pack_scenarios() -> None:
    res = CliRunner().invoke(main, ["test", str(PACK), "-k", "seed-blocked-at-90"])
    assert res.exit_code == 0, res.output
    assert "PASS seed-blocked-at-90" in res.output and "1 passed, 0 failed, 0 malformed" in res.output
    res = CliRunner().invoke(main, ["test", str(PACK), "-k", "u-turn-middle", "--format", "json"])
    assert res.exit_code == 0 and json.loads(res.output)["passed"] == ["u-turn-middle-lane-fast", "u-turn-middle-lane"]


def test_a_failing_scenario_exits_one_with_a_github_annotation_on_its_line(tmp_path: Path) -> None:
    copy = tmp_path / "sh"
    shutil.copytree(PACK, copy)
    (copy / "tests" / "tiny.yaml").write_text(GOOD.replace("maximum: 130", "maximum: 100"))
    res = CliRunner().invoke(main, ["test", str(copy), "-k", "tiny", "--format", "github"])
    assert res.exit_code == 1
    assert "::error file=" in res.output and "tiny.yaml,line=11," in res.output
    assert "P1 maximum: expected 100, got 130" in res.output


def _mutants(seed: int, n: int) -> list[tuple[str, str]]:
    """Scenario texts with one number or word changed: odd values a user may write."""
    rng = random.Random(seed)
    files = sorted((PACK / "tests").glob("*.yaml"))
    values = ["0", "1", "2", "3", "5", "9", "10", "15", "39", "40", "140", "150", "999", "-1", "null", "[]", "{}", "x"]
    out = []
    for i in range(n):
        f = files[i % len(files)]
        text = f.read_text()
        spots = list(re.finditer(r"(?<=[\s\[{:,\"])(-?\d+|true|false)(?=[\s\]},:\"])", text))
        m = rng.choice(spots)
        out.append((f.name, text[: m.start()] + rng.choice(values) + text[m.end():]))
    return out


def test_changed_numbers_in_scenarios_end_in_results_or_diagnostics(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    for name, text in _mutants(5, 300):
        f = tmp_path / name
        f.write_text(text)
        res, diags = run_file(f, pack, RS)  # no exception, whatever the numbers
        assert res is not None or diags, name


@pytest.mark.parametrize("sid", ["tiny--board", "9-lives", "a" * 70 + "--" + "b" * 8])
def test_a_scenario_id_that_is_no_track_id_still_runs_on_an_inline_board(tmp_path: Path, pack, sid: str) -> None:  # type: ignore[no-untyped-def]
    res, diags = _run(tmp_path, pack, GOOD.replace("id: tiny", f"id: {sid}"))
    assert not diags and res is not None and res.ok and res.id == sid, (diags, res)


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
