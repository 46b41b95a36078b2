"""The strategy interface: a new bot is one small class, and races with it end."""

from __future__ import annotations

from typing import Any

from slipstream.engine.play.decisions import Decision
from slipstream.engine.rulesets.automobiles.bots import BOTS, Bot, GreedyBot, make_bot, play_out
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack


class LastOption(Bot):
    name = "last"

    def choose(self, game: Game, decision: Decision) -> str:
        return decision.options[-1].key


def test_a_new_bot_is_one_small_class() -> None:
    pack = base_pack()
    g = Game(ruleset_from_pack(pack), pack.tracks["first-oval"], [Seat("A"), Seat("B")], seed=2,
             laps=1, record=False)
    n = play_out(g, [LastOption(), make_bot("greedy", 1)])
    assert g.over and n > 50


def test_greedy_plans_a_route_over_its_gear_cubes() -> None:
    pack = base_pack()
    rs = ruleset_from_pack(pack)
    g = Game(rs, pack.tracks["first-oval"], [Seat("A", "greedy"), Seat("B", "greedy")], seed=4)
    bots = [GreedyBot(0), GreedyBot(1)]
    while g.pending is not None and g.pending.kind != "action":
        g.apply(bots[g.pending.player].choose(g, g.pending))
    d = g.pending
    assert d is not None
    plan = bots[d.player].plan(g, d.player)
    active = g.race.players[d.player].zones[1]
    assert plan, "the opening hand has gear cubes that can move the car"
    assert all(active[k] > 0 for k, _ in plan)
    assert all(key.startswith("to ") for _, key in plan)


def test_known_bots() -> None:
    assert set(BOTS) >= {"random", "greedy"}


def _greedy_keys(rs: Any, track: Any, seed: int, bots: list[GreedyBot]) -> list[str]:
    g = Game(rs, track, [Seat(f"P{i + 1}", "greedy") for i in range(len(bots))], seed=seed, laps=1,
             record=False)
    keys = []
    while g.pending is not None:
        d = g.pending
        keys.append(bots[d.player].choose(g, d))
        g.apply(keys[-1])
    return keys


def test_a_greedy_bot_moved_to_another_ruleset_chooses_by_that_ruleset() -> None:
    """The tables a greedy bot reads (kinds, ranks, Buy values, choices kept by options) are
    those of the ruleset of the game it plays: bots that played a race of another card set
    and strict play choose exactly as new bots do."""
    import slipstream.engine.rulesets.automobiles.bots as bots_module

    pack = base_pack()
    track = pack.tracks["road-course"]
    sets = sorted(pack.card_sets)
    first = ruleset_from_pack(pack, sets[0])
    other = ruleset_from_pack(pack, sets[-1]).with_options({"strict_play": True})
    assert first.kinds != other.kinds or first.options != other.options
    travelled = [GreedyBot(i) for i in range(3)]
    _greedy_keys(first, track, 3, travelled)
    for b, seed in zip(travelled, (7, 8, 9), strict=True):
        b.reset(seed)
    moved = _greedy_keys(other, track, 5, travelled)
    bots_module._SHARED.clear()  # new bots, and tables made afresh
    fresh = _greedy_keys(other, track, 5, [GreedyBot(s) for s in (7, 8, 9)])
    assert moved == fresh and len(fresh) > 100
