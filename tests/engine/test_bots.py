"""The strategy interface: a new bot is one small class, and races with it end."""

from __future__ import annotations

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
