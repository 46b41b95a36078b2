"""Invariants over many races (DESIGN §10), drawn by hypothesis over seeds, player counts, both
bundled tracks, card sets, drivers and every rule option value: cubes are conserved, money is
never negative, only legal options are accepted, positions stay consistent, and most races end
by the finish rather than the round cap. The same seed gives a byte-identical log."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from slipstream.engine.play.decisions import Decision
from slipstream.engine.rulesets.automobiles.bots import Bot, GreedyBot, RandomBot
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.racelog import dumps
from slipstream.engine.rulesets.automobiles.rules import (
    SUPPORTED,
    ruleset_from_pack,
    unsupported_options,
)

from .tiny import track

SHORT = track("3 4x2 5x3 6x2 3 4 3 3 5x2 4x2 3 3 3 3", "4 3 3 5x2 6x3 3 4x2 3 5x2 3 3 4x2 3 3",
              "3 3 4x3 3 6x2 5x2 3 3 4x2 3 3 3 5x3", grid=[(0, 18), (1, 18), (2, 18), (0, 17), (1, 17)])
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


# ------------------------------------------------------------------ races over the bundled tracks
# Every implemented value of every rule option (RULES §8), drawn independently per race.
OPTION_VALUES: dict[str, list[Any]] = {k: sorted(v) for k, v in SUPPORTED.items()}
OPTION_VALUES.update({name: [False, True] for name in (
    "weaving", "strict_play", "unlimited_wear", "wear_card_playable", "placement_chain",
    "positions_count_laps", "refill_on_any_draw", "drivers_in_single_races")})
BOT_KINDS = ["greedy", "explore", "explore", "random"]  # the first seat is never random
ROUND_CAP = 40  # one lap of a bundled track takes 12-30 rounds with these bots


class ExploringBot(GreedyBot):
    """Greedy, but one decision in five is a random legal option: the races reach the finish
    and still wander through unusual choices."""

    def choose(self, game: Game, decision: Decision) -> str:
        if self.rng.random() < 0.2:
            return self.rng.choice(decision.options).key
        return super().choose(game, decision)


@dataclass(frozen=True)
class RaceSpec:
    seed: int
    track: str
    players: int
    card_set: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    drivers: bool


def race_specs() -> st.SearchStrategy[RaceSpec]:
    pack = base_pack()

    @st.composite
    def build(draw: st.DrawFn) -> RaceSpec:
        n = draw(st.integers(2, 5))
        return RaceSpec(draw(st.integers(0, 2**32 - 1)), draw(st.sampled_from(sorted(pack.tracks))), n,
                        draw(st.sampled_from(sorted(pack.card_sets))),
                        draw(st.fixed_dictionaries({k: st.sampled_from(v) for k, v in OPTION_VALUES.items()})),
                        tuple(draw(st.sampled_from(BOT_KINDS[:3 if i == 0 else 4])) for i in range(n)),
                        draw(st.booleans()))
    return build()


def seeded_spec(seed: int) -> RaceSpec:
    """The same domains as `race_specs`, drawn from a seeded generator (for fixed samples)."""
    pack = base_pack()
    r = random.Random(seed)
    n = r.randint(2, 5)
    return RaceSpec(seed, r.choice(sorted(pack.tracks)), n, r.choice(sorted(pack.card_sets)),
                    {k: r.choice(v) for k, v in OPTION_VALUES.items()},
                    tuple(r.choice(BOT_KINDS[:3 if i == 0 else 4]) for i in range(n)), r.random() < 0.5)


def spec_game(spec: RaceSpec) -> tuple[Game, list[Bot]]:
    pack = base_pack()
    rs = ruleset_from_pack(pack, spec.card_set).with_options({**spec.options, "max_rounds": ROUND_CAP})
    assert unsupported_options(rs.options) == []
    r = random.Random(spec.seed)
    drivers = r.sample([d.id for d in rs.drivers], spec.players) if spec.drivers else [None] * spec.players
    seats = [Seat(f"P{i + 1}", b, drivers[i]) for i, b in enumerate(spec.bots)]
    bots: list[Bot] = [{"greedy": GreedyBot, "explore": ExploringBot, "random": RandomBot}[b](spec.seed * 10 + i)
                       for i, b in enumerate(spec.bots)]
    return Game(rs, pack.tracks[spec.track], seats, seed=spec.seed, laps=1, record=False), bots


def _check_positions(g: Game, where: str, before: list[int]) -> list[int]:
    """Standings are a permutation ordered by distance (ties to the inner lane, RULES §4.1), no
    two cars share a segment, and with `occupancy: space` a car that reaches a new space finds it
    empty (RULES §8.1; the track's grid alone may seat two cars in one space). Returns the space
    of every car."""
    race, n = g.race, len(g.race.players)
    order = g.standings()
    assert sorted(order) == list(range(n)), where
    keys = [(-g.distance(i), race.players[i].car.lane) for i in order]
    assert keys == sorted(keys), f"{where}: standings out of order {order} {keys}"
    assert g.positions(False) == {p: i + 1 for i, p in enumerate(order)}, where
    cells = [(p.car.lane, p.car.segment) for p in race.players]
    spaces = [g.track.cells[ln][s] for ln, s in cells]
    occupancy = g.rules.options.occupancy
    if occupancy in ("segment", "space"):
        assert len(set(cells)) == n, f"{where}: two cars on one segment {cells}"
    if occupancy == "space":
        joined = [i for i in range(n) if spaces[i] != before[i] and spaces.count(spaces[i]) > 1]
        assert not joined, f"{where}: car {joined} moved into an occupied space {cells}"
    assert all(p.car.lap >= -1 for p in race.players), where
    return spaces


def _check_invariants(g: Game, bots: Sequence[Bot], where: str) -> None:
    """Play the race out, checking after every decision: cubes conserved, nothing negative,
    money never negative, only legal options accepted, positions consistent."""
    total = g.race.total_cubes()
    steps = 0
    spaces = [g.track.cells[p.car.lane][p.car.segment] for p in g.race.players]
    while g.pending is not None:
        d = g.pending
        assert d.options, "a pending decision always has options"
        assert len({o.key for o in d.options}) == len(d.options), "option keys are unique"
        if steps % 7 == 0:  # an illegal option is refused and changes nothing
            before = g.snapshot()
            r = g.apply("not-an-option")
            assert r is not None and r.code == "not-an-option" and set(r.legal) == set(d.keys())
            assert g.pending is d and g.snapshot() == before, where
        key = bots[d.player].choose(g, d)
        assert key in d.keys()
        assert g.apply(key) is None
        steps += 1
        assert g.race.total_cubes() == total, f"{where}: cubes not conserved after {key!r}"
        # nothing negative: the smallest count of the stock and of each zone (a generator over
        # every single count cost about a seventh of this test)
        assert min(g.race.stock) >= 0
        for p in g.race.players:
            for z in p.zones:
                assert min(z) >= 0, f"{where}: negative count in a zone of {p.name}"
        t = g.race.turn
        if t is not None and t.stage == "buy":
            assert g.money(t.player) >= 0, f"{where}: negative money"
        spaces = _check_positions(g, where, spaces)
        assert steps < 50_000
    assert g.race.over
    assert g.apply("anything") is not None  # a finished race accepts nothing
    # every player had the same number of turns: the race ends after a complete round
    assert len(set(g.race.stats["turns"])) == 1
    if not g.race.capped:
        # the race ended by the finish: someone crossed it, and the winner is at least that far
        goal = g.race.laps * g.track.segments
        assert g.race.final_round, where
        assert max(p.car.lap * g.track.segments + p.car.segment for p in g.race.players) >= goal, where
        if g.rules.options.positions_count_laps:
            assert g.distance(g.standings()[0]) >= goal, where


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(race_specs())
def test_races_on_the_bundled_tracks_keep_every_invariant(spec: RaceSpec) -> None:
    g, bots = spec_game(spec)
    _check_invariants(g, bots, repr(spec))
    assert g.race.round <= ROUND_CAP
    event("ends by the finish" if not g.race.capped else "ends at the round cap")


FINISH_SAMPLE = 100


def test_most_property_races_end_by_the_finish() -> None:
    """The invariant races exercise real race endings: most end because a car crossed the line."""
    ended = 0
    for seed in range(FINISH_SAMPLE):
        g, bots = spec_game(seeded_spec(seed))
        while g.pending is not None:
            g.apply(bots[g.pending.player].choose(g, g.pending))
        ended += not g.race.capped
    assert ended >= 0.85 * FINISH_SAMPLE, f"only {ended} of {FINISH_SAMPLE} races end by the finish"


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
