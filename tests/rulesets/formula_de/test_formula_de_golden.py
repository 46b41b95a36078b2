"""What the golden Formula Dé-style race logs show (tests/rulesets/test_shared_golden.py replays
them, with those of the other rulesets)."""

from __future__ import annotations

import json
from pathlib import Path

GOLDEN = sorted((Path(__file__).parent / "golden-formula-de").glob("*.jsonl"))


def test_the_golden_logs_cover_both_wear_models():
    # three of them, one of one lap: tests/rulesets/test_shared_golden.py
    heads = [json.loads(p.read_text().splitlines()[0]) for p in GOLDEN]
    assert any(h["options"].get("wear_model") == "basic" for h in heads)


def test_a_golden_log_has_pit_stops_and_two_cars_a_player():
    logs = {p.stem: [json.loads(x) for x in p.read_text().splitlines()] for p in GOLDEN}
    pit = logs["pit-stops-two-cars-each"]
    assert pit[0]["options"] == {"cars_per_player": 2}
    assert {e["result"] for e in pit if e.get("ev") == "pit-exit"} == {"quick", "slow"}
    assert any(e.get("ev") == "pit-out" for e in pit)
