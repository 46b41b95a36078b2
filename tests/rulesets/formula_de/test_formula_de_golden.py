"""Golden Formula Dé-style race logs (written by `slipstream race content/formula-de ... --log`
from the repository root) replay identically, header included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slipstream.engine.play.racelog import replay_file
from slipstream.engine.play.registry import load_pack

ROOT = Path(__file__).parents[3]
GOLDEN = sorted((Path(__file__).parent / "golden-formula-de").glob("*.jsonl"))
REGEN = ("if the rules or the formula-de pack changed on purpose, regenerate the log from the "
         "repository root with `slipstream race content/formula-de --seed S --bots ... --log DIR` "
         "using the header of the file")


def test_there_are_three_golden_logs_of_both_lengths_and_both_wear_models():
    heads = [json.loads(p.read_text().splitlines()[0]) for p in GOLDEN]
    assert len(heads) >= 3 and all(h["ruleset"] == "formula-de" for h in heads)
    assert any(h["laps"] == 1 for h in heads) and any(h["options"].get("wear_model") == "basic" for h in heads)


def test_a_golden_log_has_pit_stops_and_two_cars_a_player():
    logs = {p.stem: [json.loads(x) for x in p.read_text().splitlines()] for p in GOLDEN}
    pit = logs["pit-stops-two-cars-each"]
    assert pit[0]["options"] == {"cars_per_player": 2}
    assert {e["result"] for e in pit if e.get("ev") == "pit-exit"} == {"quick", "slow"}
    assert any(e.get("ev") == "pit-out" for e in pit)


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


