"""What the golden speed-and-hazard race logs show (tests/rulesets/test_shared_golden.py replays
them, with those of the other rulesets)."""

from __future__ import annotations

import json
from pathlib import Path

GOLDEN = sorted((Path(__file__).parent / "golden-speed-hazard").glob("*.jsonl"))


def test_the_golden_logs_cover_both_lengths_and_the_rule_options():
    # three of them, one of one lap: tests/rulesets/test_shared_golden.py
    heads = [json.loads(p.read_text().splitlines()[0]) for p in GOLDEN]
    assert any(h["laps"] is None for h in heads)
    options = {k for h in heads for k in h["options"]}
    assert {"u_turn", "nitrous_until", "ram_beside", "all_pit_entries"} <= options
    events = {json.loads(line).get("ev") for p in GOLDEN for line in p.read_text().splitlines()[1:-1]}
    assert {"hazard", "damage", "ram", "drop", "pit", "pit-exit", "u-turn", "finish"} <= events


def test_every_event_of_the_golden_logs_but_single_steps_is_told_in_a_sentence():
    from slipstream.engine.rulesets.speed_hazard.ruleset import RULESET

    untold = set()
    for p in GOLDEN:
        for line in p.read_text().splitlines()[1:-1]:
            e = json.loads(line)
            if e["t"] == "event" and e["ev"] not in ("step", "order") and not RULESET.describe(e):
                untold.add(e["ev"])
    assert untold == set()
