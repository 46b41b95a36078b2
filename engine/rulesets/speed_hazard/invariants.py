"""The invariants of a speed-and-hazard race, checked at every decision of a bot race (the
tests and bench/speed_hazard_race.py --check use it): the chosen option is legal, every speed
is within 0..maximum except in nitrous mode, no two cars (wrecks included) share a square, a
wreck never moves, no token lies under a car, and every token is held, on the board or in the
supply."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from slipstream.engine.play.races import bot_seed, seats_of
from slipstream.engine.rulesets.speed_hazard.bots import make_bot
from slipstream.engine.rulesets.speed_hazard.game import SpeedHazardGame

MAX_DECISIONS = 50_000


class Broken(AssertionError):
    """An invariant does not hold (a bug in the ruleset)."""


def check(g: SpeedHazardGame, totals: Mapping[str, int], wrecks: dict[int, int]) -> None:
    """Raise Broken when the state of `g` breaks an invariant."""
    where: dict[int, int] = {}
    for c in g.cars:
        if not c.nitrous and not 0 <= c.speed <= c.maximum:
            raise Broken(f"seat {c.seat} at {c.speed} km/h with maximum {c.maximum}")
        if c.speed < 0:
            raise Broken(f"seat {c.seat} at {c.speed} km/h")
        if c.wreck and c.node >= 0:
            if wrecks.setdefault(c.seat, c.node) != c.node:
                raise Broken(f"the wreck of seat {c.seat} moved")
        if not c.in_pit and c.node >= 0:
            if c.node in where:
                raise Broken(f"seats {where[c.node]} and {c.seat} share square {g.where(c.node)}")
            where[c.node] = c.seat
            if c.node in g.on_board and not c.wreck and c.seat != g.winner:  # the winner stops at once
                raise Broken(f"a token lies under seat {c.seat}")
    on_board = Counter(g.on_board.values())
    for k, total in totals.items():
        held = sum(c.tokens[k] for c in g.cars) + on_board[k] + g.supply[k]
        if held != total:
            raise Broken(f"{k} tokens: {held}, not {total}")


def checked_race(pack: Any, seed: int, bots: Sequence[str], laps: int | None = None,
                 options: Mapping[str, Any] | None = None, track: str = "redline-loop") -> SpeedHazardGame:
    """Play one race of `bots`, checking every invariant at every decision."""
    t = pack.tracks[track]
    g = SpeedHazardGame(t, pack.decks, [s.name for s in seats_of(bots)], seed, laps or t.laps, options or {})
    players = [make_bot(b, bot_seed(seed, i)) for i, b in enumerate(bots)]
    totals = {k: sum(c.tokens[k] for c in g.cars) + g.supply[k] for k in g.supply}
    wrecks: dict[int, int] = {}
    n = 0
    while (d := g.pending) is not None:
        key = players[d.player].choose(g, d)
        if key not in d.keys():
            raise Broken(f"seat {d.player} chose {key!r}, not one of {d.keys()}")
        if g.apply(key) is not None:
            raise Broken(f"{key!r} was rejected")
        check(g, totals, wrecks)
        n += 1
        if n > MAX_DECISIONS:
            raise Broken("the race did not end")
    return g
