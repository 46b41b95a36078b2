"""A ruleset defined in tests (tests/toyruleset.py) plugs in through the protocol alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run

from slipstream.engine.play import registry
from slipstream.engine.play.protocol import missing_parts

TOY = Path(__file__).resolve().parent.parent / "toy"


def test_the_toy_ruleset_is_registered_and_complete():
    assert "toy" in registry.ids()
    rs = registry.get("toy")
    assert missing_parts(rs) == []
    assert rs.name == "Toy race"


def test_its_pack_validates_clean():
    code, out = run("validate", str(TOY))
    assert code == 0, out
    assert "0 errors, 0 warnings" in out


def test_slipstream_race_races_it_and_logs_replay_identical(tmp_path: Path):
    code, out = run("race", str(TOY), "--bots", "bold,random", "--seed", "4", "--log", str(tmp_path))
    assert code == 0, out
    assert "final standings: " in out
    assert "P1 moves" in out  # narration through the ruleset's describe
    log = tmp_path / "race-4.jsonl"
    head = json.loads(log.read_text().splitlines()[0])
    assert head["ruleset"] == "toy"
    code, out = run("replay", str(log))
    assert (code, out.strip()) == (0, "identical")
    # a changed decision is found
    lines = log.read_text().splitlines()
    i = next(i for i, ln in enumerate(lines) if '"choice":"roll"' in ln)
    lines[i] = lines[i].replace('"choice":"roll"', '"choice":"creep"')
    log.write_text("\n".join(lines) + "\n")
    code, out = run("replay", str(log))
    assert code == 1, out
    # the seat's bot did not choose it: the changed decision is named on its own line
    assert f"race-4.jsonl:{i + 1}: the decision at line {i + 1} is not what seat " in out, out


def test_many_races_in_two_processes_give_the_same_statistics_as_one():
    args = ["race", str(TOY), "--bots", "bold,random,random", "--races", "30", "--format", "json"]
    one = json.loads(run(*args, "--jobs", "1")[1])
    two = json.loads(run(*args, "--jobs", "2")[1])
    for s in (one, two):
        s.pop("seconds")
        s.pop("races_per_second")
    assert one == two
    assert one["races"] == 30
    assert one["win_rate_by_bot"][0]["label"] == "bold"


@pytest.mark.parametrize("args, message", [
    (["--option", "die=1"], "die takes a whole number 2..20"),
    (["--option", "weaving=true"], "unknown rule option 'weaving'"),
    (["--set", "first-race"], "Toy race races take no setting 'card_set'"),
    (["--bots", "greedy"], "unknown bot 'greedy'; bots: bold, random"),
    (["--players", "7"], "a race of Toy race needs 1 to 6 cars, not 7"),
])
def test_usage_errors_come_from_the_ruleset(args, message):
    code, out = run("race", str(TOY), *args)
    assert code == 2, out
    assert message in out


def test_a_cli_process_finds_it_through_the_environment():
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-m", "slipstream", "race", str(TOY), "--bots", "bold"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "final standings: P1" in proc.stdout


def test_commands_it_lacks_a_capability_for_refuse_its_pack_without_a_traceback(monkeypatch):
    code, out = run("cards", str(TOY))
    assert code == 2, out
    assert "a pack of the 'toy' ruleset" in out and "Traceback" not in out
    # the toy declares a championship (tests/play/test_toy_every_face.py runs it); without one,
    # `season` refuses the pack
    monkeypatch.setattr(registry.get("toy"), "seasons", None)
    code, out = run("season", str(TOY))
    assert code != 0 and "Traceback" not in out
