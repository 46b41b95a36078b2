"""Golden speed-and-hazard race logs (written by `slipstream race content/speed-hazard ... --log`
from the repository root) replay identically, header included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slipstream.engine.play.racelog import replay_file
from slipstream.engine.play.registry import load_pack

ROOT = Path(__file__).parents[3]
GOLDEN = sorted((Path(__file__).parent / "golden-speed-hazard").glob("*.jsonl"))
REGEN = ("if the rules or the speed-hazard pack changed on purpose, regenerate the log from the "
         "repository root with `slipstream race content/speed-hazard --seed S --bots ... --log DIR` "
         "using the header of the file")


def test_three_golden_logs_cover_both_lengths_and_the_rule_options():
    heads = [json.loads(p.read_text().splitlines()[0]) for p in GOLDEN]
    assert len(heads) >= 3 and all(h["ruleset"] == "speed-hazard" for h in heads)
    assert any(h["laps"] is None for h in heads) and any(h["laps"] == 1 for h in heads)
    options = {k for h in heads for k in h["options"]}
    assert {"u_turn", "nitrous_until", "ram_beside", "all_pit_entries"} <= options
    events = {json.loads(line).get("ev") for p in GOLDEN for line in p.read_text().splitlines()[1:-1]}
    assert {"hazard", "damage", "ram", "drop", "pit", "pit-exit", "u-turn", "finish"} <= events


@pytest.mark.parametrize("cwd", ["root", "elsewhere"])
@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_log_replays_identically(path: Path, cwd: str, monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    # the header names the pack from the log's folder (older logs: from the folder they were
    # written in); either way the log replays from any working folder
    monkeypatch.chdir(ROOT if cwd == "root" else tmp_path)
    load_pack.cache_clear()  # packs are cached by the path as given, which names another folder now
    rep = replay_file(path)
    assert rep.identical, f"{rep.message} at line {rep.line}: {REGEN}"


def test_every_event_of_the_golden_logs_but_single_steps_is_told_in_a_sentence():
    from slipstream.engine.rulesets.speed_hazard.ruleset import RULESET

    untold = set()
    for p in GOLDEN:
        for line in p.read_text().splitlines()[1:-1]:
            e = json.loads(line)
            if e["t"] == "event" and e["ev"] not in ("step", "order") and not RULESET.describe(e):
                untold.add(e["ev"])
    assert untold == set()
