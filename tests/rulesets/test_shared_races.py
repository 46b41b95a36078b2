"""Whole races of the Formula Dé-style and speed-and-hazard rulesets: the same seed gives the
same log, which replays identically and in which a changed line is found; a pack of house rules
validates, its scenarios play by them and its race logs replay. Each ruleset's invariants, bots,
views and statistics are tested in its folder."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from helpers import run

from slipstream.engine.play.racelog import log_lines, replay_lines
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import get

from .shared import FD, ROOT, SH, Ruleset


def _roll_plus_one(line: str) -> str | None:
    event = json.loads(line)
    if event.get("ev") != "roll":
        return None
    event["roll"] += 1
    return json.dumps(event)


def _step_elsewhere(line: str) -> str | None:
    return line.replace('"to":"', '"to":"9') if '"ev":"step"' in line else None


@dataclass(frozen=True)
class Case:
    rs: Ruleset
    spec: RaceSpec  # a race, its pack named from the repository root
    tamper: Callable[[str], str | None]  # the first line this changes is found by the replay
    house_scenarios: int  # scenarios of tests/rulesets/<ruleset>/packs/house-rules
    house_race: tuple[str, ...]  # the flags of a race on that pack


CASES = [
    Case(FD, RaceSpec(pack="content/formula-de", track="tilleuls", seed=11, bots=("greedy", "random", "greedy", "random")),
         _roll_plus_one, 2, ("--laps", "1")),
    Case(SH, RaceSpec(pack="content/speed-hazard", track="redline-loop", seed=4, bots=("greedy", "random", "random"),
                      laps=1, options=(("u_turn", True),)),
         _step_elsewhere, 1, ()),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.rs.id)
def test_the_same_seed_gives_the_same_log_and_the_log_replays_identically(case: Case, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    rs = get(case.rs.id)
    a, b = rs.run_race(case.spec), rs.run_race(case.spec)
    assert a.log == b.log and a.header == b.header
    lines = log_lines(a.header, a.log, a.result)
    assert lines == log_lines(b.header, b.log, b.result)
    assert replay_lines(lines).identical
    report = rs.replay(lines)
    assert report.identical, report
    assert any(case.tamper(x) is not None for x in lines)
    at = next(i for i, x in enumerate(lines) if case.tamper(x) is not None)
    tampered = [*lines[:at], case.tamper(lines[at]) or "", *lines[at + 1:]]
    for report in (rs.replay(tampered), replay_lines(tampered)):
        assert not report.identical and report.line == at + 1


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.rs.id)
def test_a_pack_of_house_rules_validates_and_its_scenarios_play_by_them(case: Case) -> None:
    pack = str(case.rs.tests / "packs" / "house-rules")
    assert run("validate", pack)[0] == 0
    code, out = run("test", pack)
    assert code == 0 and f"{case.house_scenarios} passed, 0 failed" in out, out


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.rs.id)
def test_race_logs_of_a_pack_of_house_rules_replay(case: Case, tmp_path) -> None:
    pack = str(case.rs.tests / "packs" / "house-rules")
    code, out = run("race", pack, *case.house_race, "--bots", "greedy,random", "--seed", "4", "--log", str(tmp_path))
    assert code == 0, out
    lines = (tmp_path / "race-4.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["options"] == {}  # the house rules are the pack's, not the race's options
    assert run("replay", str(tmp_path / "race-4.jsonl")) == (0, "identical\n")
