"""Races with the speed-and-hazard designer pack's items in play end without error, their logs
replay, every event is told in a sentence, and the items are really played
(bench/designer_cards.py --ruleset speed-hazard plays 1,000 random-bot and 200 greedy races)."""

from __future__ import annotations

from collections import Counter

import pytest

from slipstream.engine.rulesets.speed_hazard.ruleset import RULESET

from .designer_races import card_sets, checked_race, designer_cards, field, run_race, spec


def test_the_items_found_are_the_designer_packs_own() -> None:
    items = designer_cards()
    assert len(items) >= 12
    assert {"card:gamble", "nitrous:wild-shot", "hazard:bent-axle", "equipment:tuned-engine"} <= set(items)
    assert not any(i.endswith((":brake", ":scrape", ":shot-20", ":rocket")) for i in items)


@pytest.mark.parametrize("card_set", card_sets())
def test_races_end_replay_and_play_the_new_action_nitrous_and_hazard_cards(card_set: str) -> None:
    played: Counter[str] = Counter()
    for seed in range(6):
        _res, n = checked_race(card_set, seed, field("random", seed), replay=seed == 0)
        played.update(n)
    for seed in range(2):
        res, n = checked_race(card_set, seed, field("greedy", seed), replay=seed == 1)
        assert not res.capped
        played.update(n)
    drawn = [i for i in designer_cards() if not i.startswith("equipment:")]  # equipment needs a pit visit
    assert all(played[i] > 0 for i in drawn), sorted(set(drawn) - set(played))


def test_every_event_of_a_designer_race_is_told() -> None:
    untold = set()
    for seed in range(4):
        res = run_race(spec("default", seed, field("random", seed)))
        untold |= {e["ev"] for e in res.log
                   if e["t"] == "event" and e["ev"] not in ("step", "order") and not RULESET.describe(e)}
    assert untold == set()


def test_designer_races_keep_every_invariant_at_every_decision() -> None:
    from slipstream.engine.play.registry import load_pack
    from slipstream.engine.rulesets.speed_hazard.invariants import checked_race as invariant_race

    from .designer_races import PACK

    pack = load_pack(PACK)
    for seed in range(20):
        bots = ("random",) * (2 + seed % 4) if seed % 5 else ("greedy", "random", "greedy")
        invariant_race(pack, seed, bots, laps=1, options={"u_turn": bool(seed % 2)})
