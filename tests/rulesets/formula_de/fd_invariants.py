"""Invariants of whole Formula Dé-style races, shared by tests/rulesets/formula_de/test_formula_de_races.py
and bench/formula_de_check.py (which plays them over 1,000 seeds and more)."""

from __future__ import annotations

from pathlib import Path

from slipstream.engine.play.races import bot_seed, seats_of
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.formula_de.bots import make_bot
from slipstream.engine.rulesets.formula_de.ruleset import RULESET

ROOT = Path(__file__).parents[3]
PACK = str(ROOT / "content" / "formula-de")


def checked_race(seed: int, bots: tuple[str, ...], laps: int | None = None, options: dict | None = None):
    """Play a race, checking at every decision that the chosen option is legal and that no
    wear point ever goes negative."""
    pack = load_pack(PACK)
    game = RULESET.new_game(pack, pack.tracks["tilleuls"], seats_of(bots), seed, options or {}, laps)
    players = [make_bot(b, bot_seed(seed, i)) for i, b in enumerate(bots)]
    n = 0
    seen = 0
    while game.pending is not None:
        d = game.pending
        key = players[d.player].choose(game, d)
        assert key in d.keys()
        before = {c.seat: c.pit for c in game.cars if c.pit >= 0}
        assert game.apply(key) is None
        assert all(v >= 0 for c in game.cars for v in c.wear.values())
        after = {c.seat: c.pit for c in game.cars if c.pit >= 0}
        both = [p for p in before if p in after]
        # nobody overtakes in the pit lane: two cars in it keep their order
        assert all((before[a] < before[b]) == (after[a] < after[b]) for a in both for b in both if a != b)
        for e in game.log[seen:]:
            if e.get("ev") == "box":  # a car in its box has full tyres
                car = game.cars[e["p"]]
                full = game.race_wear()["tyres"]
                assert game.pool or e["left"] == full, e
                assert car.tyres_lost == 0
        seen = len(game.log)
        n += 1
        assert n < 20_000
    return game


def check_finished(g) -> int:
    """After a race: every elimination has its cause event (at once for a car that owed more
    wear than it had), every car finished or is out, the standings are complete. Returns the
    number of cars that owed more than they had."""
    shorts = 0
    outs = {e["p"]: e["cause"] for e in g.log if e.get("ev") == "out"}
    for i, e in enumerate(g.log):
        if e.get("ev") == "wear" and e.get("short"):  # owed more than it had: out at once
            rest = g.log[i + 1:]
            upto = next((j for j, x in enumerate(rest) if x["t"] == "decision"), len(rest))
            assert {"t": "event", "ev": "out", "p": e["p"], "cause": outs[e["p"]]} in rest[:upto], e
            shorts += 1
    assert outs == {c.seat: c.out for c in g.cars if c.out}
    assert all(c.finished or c.out for c in g.cars) or g.capped
    assert sorted(g.standings()) == list(range(len(set(g.owner))))  # one place per player
    assert sorted(g.car_standings()) == list(range(len(g.cars)))
    return shorts


def random_race_options(seed: int) -> tuple[dict, int]:
    """The options and laps of the seeded random race `seed` of the invariant runs."""
    # a quarter of the races with one wear pool, a quarter with unpaid downshifts allowed
    options = [{}, {}, {"downshift_needs_points": False}, {"wear_model": "basic"}][seed % 4]
    if seed % 3 == 1:  # a third of the races with two cars a player or the 4th-gear pit limit
        options = {**options, **({"cars_per_player": 2} if seed % 2 else {"pit_entry_max_gear": 4})}
    if seed % 7 == 3:  # the other readings of issue 30: the tyre limit, the stall, the swerve
        options = {**options, "tyre_limit_counts": "all", "stall_first_gear": False,
                   "flying_start_swerve": "each-step"}
    return options, 1 if seed % 5 < 2 else 2
