"""`slipstream rulesets` names the bundled packs of each ruleset, and the short race
`python3 dev.py demo` shows on each of them runs and reads well."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import CONTENT, invoke

from slipstream.engine.play.registry import ids


def test_rulesets_name_the_bundled_packs_that_play_each():
    listing = {r["id"]: r for r in json.loads(invoke("rulesets", "--format", "json").output)}
    assert set(listing) == set(ids())
    packs = {rid: [Path(p).resolve() for p in r["packs"]] for rid, r in listing.items()}
    assert packs["automobiles"] == [(CONTENT / "base").resolve()]
    assert packs["formula-de"] == [(CONTENT / "formula-de").resolve()]
    assert packs["speed-hazard"] == [(CONTENT / "speed-hazard").resolve()]
    assert packs["toy"] == []  # installed for the tests, with no bundled pack
    text = invoke("rulesets").output
    assert "\n  bundled pack: " in text and str(Path("content") / "formula-de") in text


def test_the_demo_race_of_every_ruleset_with_a_bundled_pack_runs_and_finishes():
    raced = []
    for r in json.loads(invoke("rulesets", "--format", "json").output):
        for pack in r["packs"][:1]:
            out = invoke("race", pack, "--seed", "7", "--laps", "1", "--players", "3")
            assert out.exit_code == 0, out.output
            assert "final standings: " in out.output or "\n  3. P" in out.output
            assert out.output.count("\n") > 10
            raced.append(r["id"])
    assert raced == ["automobiles", "formula-de", "speed-hazard"]
