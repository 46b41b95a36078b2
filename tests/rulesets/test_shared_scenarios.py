"""The rule scenarios of the Formula Dé-style and speed-and-hazard rulesets (fd-scenario/1,
docs/formula-de-scenarios.md; sh-scenario/1, docs/speed-hazard-scenarios.md), through the
shared scenario harness: every scenario of the bundled pack passes, the docs' rule table is the
rule list and its example passes, failures name their line, malformed scenarios give coded
diagnostics at their position and odd values never a traceback. What only one ruleset's
scenarios have (gears and wear, piles and cards) is tested in its folder."""

from __future__ import annotations

import importlib
import json
import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.packs.validate import validate_paths
from slipstream.engine.play.registry import get, load_pack

from .shared import FD, FD_GOOD, SH, SH_GOOD, Ruleset


@dataclass(frozen=True)
class Case:
    rs: Ruleset
    at_least: int  # scenarios of the bundled pack
    good: str  # the smallest scenario
    wrong: tuple[str, str, str, int]  # a changed expectation: old, new, the problem, its line
    no_dice: tuple[str, str, str]  # the dice script taken away: old, new, the problem
    dice_left: tuple[str, str, str]  # one die too many: old, new, the problem
    s002: tuple[int, int]  # where validate finds the unknown key of s002-unknown-key.yaml
    one: str  # a scenario of the pack, run alone with -k
    some: tuple[str, list[str]]  # a -k that picks several, and those it passes
    github: tuple[str, str, str]  # a failing expectation: old, new, the problem (its line: `wrong`'s)
    values: tuple[str, ...]  # odd values the fuzzed scenarios take
    spots: str  # where a number or word of a scenario is changed
    ids: tuple[str, ...]  # scenario ids that are no track ids

    @property
    def module(self) -> Any:
        return importlib.import_module(f"slipstream.engine.rulesets.{self.rs.id.replace('-', '_')}.scenarios")

    def run_file(self, path: Path, pack: Any) -> Any:
        return self.module.run_file(path, pack, get(self.rs.id))

    def run_pack(self, path: Path) -> Any:
        return self.module.run_pack_scenarios(str(path), get(self.rs.id))

    @property
    def rules(self) -> dict[str, tuple[str, str]]:
        return importlib.import_module(f"slipstream.engine.rulesets.{self.rs.id.replace('-', '_')}.ruleids").RULES


CASES = [
    Case(FD, 60, FD_GOOD,
         ("brakes: 1", "brakes: 2", "line 9: P1 brakes: expected 2, got 1", 9),
         ("dice: {gear-2: [4]}", "dice: {black: [3]}",
          "line 7: the script ran out of gear-2 rolls during decision 1 'gear 2' (P1's turn, gear)"),
         ("gear-2: [4]", "gear-2: [4, 3], black: [5]", "line 6: scripted rolls never used: black [5], gear-2 [3]"),
         (7, 1), "collision-seed-example", ("grid-", ["grid-overflow", "grid-roll", "grid-ties"]),
         ("brakes: 1", "brakes: 0", "P1 brakes: expected 0, got 1"),
         ("0", "1", "2", "3", "6", "7", "9", "19", "20", "39", "40", "99", "999", "-1", "null", "[]", "{}", "x"),
         r"(?<=[\s\[{:,])(-?\d+|true|false)(?=[\s\]},])",
         ("tiny--case", "30-spin", "a" * 40 + "--" + "b" * 38)),
    Case(SH, 80, SH_GOOD,
         ("maximum: 130", "maximum: 120", "line 11: P1 maximum: expected 120, got 130", 11),
         ("dice: [1]\n", "",
          "line 8: the script ran out of damage dice during decision 1 'accelerate 0' (P1's turn, accelerate)"),
         ("dice: [1]", "dice: [1, 2]", "line 7: scripted damage dice never rolled: [2]"),
         (6, 20), "seed-blocked-at-90", ("u-turn-middle", ["u-turn-middle-lane-fast", "u-turn-middle-lane"]),
         ("maximum: 130", "maximum: 100", "P1 maximum: expected 100, got 130"),
         ("0", "1", "2", "3", "5", "9", "10", "15", "39", "40", "140", "150", "999", "-1", "null", "[]", "{}", "x"),
         r"(?<=[\s\[{:,\"])(-?\d+|true|false)(?=[\s\]},:\"])",
         ("tiny--board", "9-lives", "a" * 70 + "--" + "b" * 8)),
]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: c.rs.id)
def case(request) -> Case:  # type: ignore[no-untyped-def]
    return request.param


@pytest.fixture(scope="module")
def report(case: Case):  # type: ignore[no-untyped-def]
    return case.run_pack(case.rs.pack)


@pytest.fixture(scope="module")
def pack(case: Case):  # type: ignore[no-untyped-def]
    return load_pack(str(case.rs.pack))


def _run(case: Case, tmp_path: Path, pack, text: str):  # type: ignore[no-untyped-def]
    f = tmp_path / "s.yaml"
    f.write_text(text)
    return case.run_file(f, pack)


def test_every_scenario_of_the_pack_passes(case: Case, report) -> None:  # type: ignore[no-untyped-def]
    assert not report.diagnostics, report.diagnostics
    failed = {r.id: r.problems for r in report.results if not r.ok}
    assert not failed
    assert len(report.results) == len(list((case.rs.pack / "tests").glob("*.yaml"))) >= case.at_least


def test_the_rule_table_of_the_docs_is_the_rule_list(case: Case) -> None:
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| ([^|]+) \| ([^|]+) \|$", case.rs.doc.read_text(encoding="utf-8"),
                      flags=re.M)
    assert {rid: (sec.strip(), text.strip()) for rid, sec, text in rows} == case.rules


def test_the_example_of_the_docs_passes(case: Case, tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    block = next(b for b in re.findall(r"```yaml\n(.*?)```", case.rs.doc.read_text(encoding="utf-8"), flags=re.S)
                 if f"{case.rs.short}-scenario/1" in b)
    f = tmp_path / "example.yaml"
    f.write_text(block)
    res, diags = case.run_file(f, pack)
    assert not diags and res is not None and res.ok, (diags, res)


def test_a_wrong_expectation_names_its_line_and_what_differed(case: Case, tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    res, diags = _run(case, tmp_path, pack, case.good)
    assert not diags and res is not None and res.ok, res
    old, new, problem, line = case.wrong
    res, _ = _run(case, tmp_path, pack, case.good.replace(old, new))
    assert res is not None and not res.ok
    assert res.problems == [problem] and res.line == line


def test_running_out_of_scripted_dice_is_a_failure_not_a_traceback(case: Case, tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    old, new, problem = case.no_dice
    res, _ = _run(case, tmp_path, pack, case.good.replace(old, new))
    assert res is not None and not res.ok
    assert res.problems == [problem]


def test_scripted_dice_left_over_fail_the_scenario(case: Case, tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    old, new, problem = case.dice_left
    res, _ = _run(case, tmp_path, pack, case.good.replace(old, new))
    assert res is not None and res.problems == [problem]


def _invalid_cases() -> list[tuple[Case, Path]]:
    return [(c, p) for c in CASES for p in c.rs.invalid]


@pytest.mark.parametrize("scase, path", _invalid_cases(), ids=[f"{c.rs.id}-{p.stem}" for c, p in _invalid_cases()])
def test_a_malformed_scenario_gives_its_code_at_its_position(scase: Case, path: Path) -> None:
    code, pos = path.read_text().splitlines()[0].split()[2:4]
    line, col = (int(x) for x in pos.split(":"))
    res, diags = scase.run_file(path, load_pack(str(scase.rs.pack)))
    assert res is None
    assert (code, line, col) in {(d.code, d.line, d.column) for d in diags}, diags
    assert path.name.startswith(code.lower())


def test_validate_checks_a_scenario_of_the_pack_with_its_position(case: Case, tmp_path: Path) -> None:
    copy = tmp_path / case.rs.short
    shutil.copytree(case.rs.pack, copy)
    shutil.copy(case.rs.tests / f"{case.rs.short}_scenarios_invalid" / "s002-unknown-key.yaml",
                copy / "tests" / "bad.yaml")
    diags, _ = validate_paths([copy], use_cache=False)
    assert [(Path(d.file).name, d.code, d.line, d.column) for d in diags] == [("bad.yaml", "S002", *case.s002)]
    # `slipstream test` runs the others and reports the malformed one, not a broken pack
    rep = case.run_pack(copy)
    assert [d.code for d in rep.diagnostics] == ["S002"] and all(r.ok for r in rep.results)


def test_slipstream_test_runs_the_pack_scenarios(case: Case) -> None:
    res = CliRunner().invoke(main, ["test", str(case.rs.pack), "-k", case.one])
    assert res.exit_code == 0, res.output
    assert f"PASS {case.one}" in res.output and "1 passed, 0 failed, 0 malformed" in res.output
    k, passed = case.some
    res = CliRunner().invoke(main, ["test", str(case.rs.pack), "-k", k, "--format", "json"])
    assert res.exit_code == 0 and json.loads(res.output)["passed"] == passed


def test_a_failing_scenario_exits_one_with_a_github_annotation_on_its_line(case: Case, tmp_path: Path) -> None:
    copy = tmp_path / case.rs.short
    shutil.copytree(case.rs.pack, copy)
    old, new, problem = case.github
    (copy / "tests" / "tiny.yaml").write_text(case.good.replace(old, new))
    res = CliRunner().invoke(main, ["test", str(copy), "-k", "tiny", "--format", "github"])
    assert res.exit_code == 1
    assert "::error file=" in res.output and f"tiny.yaml,line={case.wrong[3]}," in res.output
    assert problem in res.output


def _mutants(case: Case, seed: int, n: int) -> list[tuple[str, str]]:
    """Scenario texts with one number or word changed: odd values a user may write."""
    rng = random.Random(seed)
    files = sorted((case.rs.pack / "tests").glob("*.yaml"))
    out = []
    for i in range(n):
        f = files[i % len(files)]
        text = f.read_text()
        spots = list(re.finditer(case.spots, text))
        m = rng.choice(spots)
        out.append((f.name, text[: m.start()] + rng.choice(case.values) + text[m.end():]))
    return out


def test_changed_numbers_in_scenarios_end_in_results_or_diagnostics(case: Case, tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    for name, text in _mutants(case, 5, 300):
        f = tmp_path / name
        f.write_text(text)
        res, diags = case.run_file(f, pack)  # no exception, whatever the numbers
        assert res is not None or diags, name


def test_a_scenario_id_that_is_no_track_id_still_runs_on_an_inline_board(case: Case, tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    """A scenario id may hold `--`, start with a digit or be 80 long; a track id may not. The
    inline board gets an id a track may have, and the scenario keeps its own."""
    for sid in case.ids:
        res, diags = _run(case, tmp_path, pack, case.good.replace("id: tiny", f"id: {sid}"))
        assert not diags and res is not None and res.ok and res.id == sid, (sid, diags)
