"""Invariants over many seeded random-bot races (DESIGN §10): cubes are conserved, money is
never negative, every applied option was legal, races end within the round cap, and the same
seed gives a byte-identical log."""

from __future__ import annotations

import random

import pytest

from slipstream.engine.rulesets.automobiles.bots import GreedyBot, RandomBot
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.racelog import dumps
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack

from .tiny import track

SHORT = track("3 4x2 5x3 6x2 3 4 3 3 5x2 4x2 3 3 3 3", "4 3 3 5x2 6x3 3 4x2 3 5x2 3 3 4x2 3 3",
              "3 3 4x3 3 6x2 5x2 3 3 4x2 3 3 3 5x3", grid=[(0, 18), (1, 18), (2, 18), (0, 17), (1, 17)])
RACES = 1000
CAP = 30


def _game(seed: int, record: bool = False) -> tuple[Game, list[RandomBot]]:
    pack = base_pack()
    r = random.Random(seed)
    card_set = r.choice(sorted(pack.card_sets))
    options = {"max_rounds": CAP, "weaving": r.random() < 0.3,
               "momentum": "none" if r.random() < 0.2 else "slide",
               "placement_chain": r.random() < 0.8, "strict_play": r.random() < 0.2,
               "turn_order": "position" if r.random() < 0.2 else "fixed",
               "drafting": r.choice(["segment_or_space", "segment", "space"]),
               "occupancy": "space" if r.random() < 0.1 else "segment"}
    rs = ruleset_from_pack(pack, card_set).with_options(options)
    n = r.randint(2, 4)
    drivers = r.sample([d.id for d in rs.drivers], n) if r.random() < 0.5 else [None] * n
    seats = [Seat(f"P{i + 1}", "random", drivers[i]) for i in range(n)]
    g = Game(rs, SHORT, seats, seed=seed, laps=1, record=record)
    return g, [RandomBot(seed * 10 + i) for i in range(n)]


def _play_checked(seed: int) -> Game:
    g, bots = _game(seed)
    total = g.race.total_cubes()
    steps = 0
    while g.pending is not None:
        d = g.pending
        assert d.options, "a pending decision always has options"
        assert len({o.key for o in d.options}) == len(d.options), "option keys are unique"
        key = bots[d.player].choose(g, d)
        assert key in d.keys()
        assert g.apply(key) is None
        steps += 1
        assert g.race.total_cubes() == total, f"seed {seed}: cubes not conserved after {key!r}"
        assert all(n >= 0 for n in g.race.stock)
        for p in g.race.players:
            assert all(n >= 0 for z in p.zones for n in z)
        t = g.race.turn
        if t is not None and t.stage == "buy":
            assert g.money(t.player) >= 0, f"seed {seed}: negative money"
        assert steps < 50_000
    assert g.race.over
    assert g.race.round <= CAP
    # every player had the same number of turns: the race ends after a complete round
    assert len(set(g.race.stats["turns"])) == 1
    return g


@pytest.mark.parametrize("chunk", range(10))
def test_random_races_keep_every_invariant(chunk: int) -> None:
    per = RACES // 10
    for seed in range(chunk * per, (chunk + 1) * per):
        _play_checked(seed)


def test_illegal_options_are_always_rejected() -> None:
    g, bots = _game(5)
    for _ in range(300):
        d = g.pending
        if d is None:
            break
        r = g.apply("definitely-not-an-option")
        assert r is not None and r.code == "not-an-option" and set(r.legal) == set(d.keys())
        assert g.pending is d
        g.apply(bots[d.player].choose(g, d))


def _log(seed: int) -> str:
    g, bots = _game(seed, record=True)
    while g.pending is not None:
        g.apply(bots[g.pending.player].choose(g, g.pending))
    return "\n".join(dumps(x) for x in g.log)


@pytest.mark.parametrize("seed", [1, 17, 404])
def test_same_seed_gives_a_byte_identical_log(seed: int) -> None:
    a, b = _log(seed), _log(seed)
    assert a == b and len(a) > 1000
    assert _log(seed + 1) != a


def test_copy_is_independent_and_plays_the_same() -> None:
    g, bots = _game(9, record=True)
    for _ in range(40):
        g.apply(bots[g.pending.player].choose(g, g.pending))  # type: ignore[union-attr]
    c = g.copy(record=True)
    b2 = [RandomBot(0) for _ in bots]
    for i, b in enumerate(bots):
        b2[i].rng.setstate(b.rng.getstate())
    while g.pending is not None:
        g.apply(bots[g.pending.player].choose(g, g.pending))
    while c.pending is not None:
        c.apply(b2[c.pending.player].choose(c, c.pending))
    assert [dumps(x) for x in c.log] == [dumps(x) for x in g.log]


def test_greedy_beats_random_head_to_head() -> None:
    pack = base_pack()
    rs = ruleset_from_pack(pack)
    oval = pack.tracks["first-oval"]
    wins = 0
    for seed in range(20):
        g = Game(rs, oval, [Seat("G", "greedy"), Seat("R", "random")], seed=seed, laps=1, record=False)
        bots = [GreedyBot(seed), RandomBot(seed)]
        while g.pending is not None:
            g.apply(bots[g.pending.player].choose(g, g.pending))
        wins += g.standings()[0] == 0
    assert wins >= 16


def test_snapshot_is_plain_data_and_copies_keep_it() -> None:
    import json

    g, bots = _game(21)
    for _ in range(60):
        g.apply(bots[g.pending.player].choose(g, g.pending))  # type: ignore[union-attr]
    snap = g.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    c = g.copy()
    assert c.snapshot() == snap
    c.apply(c.pending.options[0].key)  # type: ignore[union-attr]
    assert g.snapshot() == snap  # the original is untouched
