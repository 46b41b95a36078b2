"""Races with the designer pack's cards in play end without error, and every card of the set
is really played (bench/designer_cards.py plays 1,000 random-bot and 200 greedy races)."""

from __future__ import annotations

from collections import Counter

import pytest

from .designer_races import PACK, checked_race, designer_cards, field, load_pack_cached

SETS = ["long-haul", "money-talks", "bargain-bin", "night-race", "contact-sport", "close-quarters",
        "photo-finish"]


def test_the_test_plays_every_card_set_of_the_pack() -> None:
    pack = load_pack_cached(PACK)
    assert sorted(SETS) == sorted(cs.id for cs in pack.card_sets.values() if cs.pack == pack.id)


@pytest.mark.parametrize("card_set", SETS)
def test_twenty_races_of_a_card_set_end_and_play_each_of_its_cards(card_set: str) -> None:
    played: Counter[str] = Counter()
    for seed in range(16):
        _res, n = checked_race(card_set, seed, field("random", seed), replay=seed == 0)
        played.update(n)
    for seed in range(4):
        res, n = checked_race(card_set, seed, field("greedy", seed), replay=seed == 1)
        assert not res.capped, f"greedy race {seed} reached the round cap"
        played.update(n)
    in_set = load_pack_cached(PACK).card_set(card_set).cards.values()
    assert all(played[cid] > 0 for cid in in_set), played
    assert set(played) <= set(designer_cards())
