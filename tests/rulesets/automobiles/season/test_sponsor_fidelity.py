"""The base pack keeps the two sponsor numbers that the worked examples of RULES §7.2 pin;
every other sponsor number is a house value."""

from __future__ import annotations

from slipstream.engine.rulesets.automobiles.content import base_pack


def _steps(sid: str, bracket: str) -> list[dict]:
    return [dict(s) for s in base_pack().sponsors[sid].effect(bracket)]


def test_e_first_place_standard_removal_is_at_least_three() -> None:
    # E1, first: 2 white + 1 wear go with the standard removal; higher levels are never weaker
    for sid in ("e1", "e2", "e3"):
        assert base_pack().sponsors[sid].standard_remove("first") >= 3, sid


def test_f2_middle_places_give_three_additional_removals() -> None:
    steps = _steps("f2", "middle")
    extra = [s["remove"] for s in steps if "remove" in s and s["remove"].get("as") == "extra"]
    assert len(extra) == 1 and dict(extra[0]["count"]) == {"up_to": 3}
    # each extra removal is worth $2, so up to $6 (content/base/tests/sponsor-f2.yaml spends it)
    budget = steps[-1]["shop"]["budget"]["product"]
    assert budget[0] == 2 and dict(budget[1]) == {"selected": "extra"}
