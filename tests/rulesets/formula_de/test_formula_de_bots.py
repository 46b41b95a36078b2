"""The Formula Dé-style bots: greedy's shortcuts agree with the rules, the look-ahead bot
only ever applies legal options and decides the same for the same seed."""

from __future__ import annotations

from pathlib import Path

import pytest

from slipstream.engine.play.races import bot_seed, seats_of
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.formula_de.bots import make_bot
from slipstream.engine.rulesets.formula_de.ruleset import RULESET
from slipstream.engine.rulesets.formula_de.scoring import destinations

ROOT = Path(__file__).parents[3]
PACK = str(ROOT / "content" / "formula-de")


def new_game(seed: int, bots: tuple[str, ...], laps: int = 2, options: dict | None = None):
    pack = load_pack(PACK)
    game = RULESET.new_game(pack, pack.tracks["tilleuls"], seats_of(bots), seed, options or {}, laps)
    return game, [make_bot(b, bot_seed(seed, i)) for i, b in enumerate(bots)]


def test_greedy_enumerates_the_destinations_the_rules_offer_for_every_roll():
    checked = blocked = 0
    for seed in range(3):
        game, bots = new_game(seed, ("greedy", "random") * 3, options={"wear_model": "basic"} if seed == 2 else {})
        while game.pending is not None:
            d = game.pending
            car = game.cars[d.player]
            if d.kind == "gear" and car.started:
                big = game.layers(car, 30)
                for roll in (1, 2, 4, 7, 12, 20, 30):
                    want = {(t.node, t.steps, t.brake, t.absorbed) for t in game.targets(car, roll).values()}
                    got = list(destinations(big, roll, game.points(car, "brakes")))
                    assert len(got) == len(set(got)) and set(got) == want
                    assert [b for _, _, b, _ in got] == sorted(b for _, _, b, _ in got)  # least braking first
                    blocked += any(a for *_, a in got)
                    checked += 1
            game.apply(bots[d.player].choose(game, d))
    assert checked > 300 and blocked > 0


def play(game, bots, check=None):
    n = 0
    while game.pending is not None:
        d = game.pending
        key = bots[d.player].choose(game, d)
        assert key in d.keys(), (d.kind, key)
        if check is not None:
            check(game, d)
        assert game.apply(key) is None
        n += 1
        assert n < 20_000
    return game


def test_a_copy_plays_on_exactly_as_the_game_and_leaves_it_untouched():
    game, bots = new_game(5, ("greedy",) * 6)  # greedy keeps no state between decisions
    for _ in range(150):
        d = game.pending
        game.apply(bots[d.player].choose(game, d))
    sim = game.copy()
    state, log, wear = game.rng.getstate(), list(game.log), [dict(c.wear) for c in game.cars]
    _, twins = new_game(5, ("greedy",) * 6)
    play(sim, twins)
    assert sim.pending is None and game.pending is not None
    assert game.rng.getstate() == state and game.log == log and [c.wear for c in game.cars] == wear
    play(game, bots)
    assert sim.log == game.log and sim.standings() == game.standings()


class Watched:
    """A bot that notes the race's dice and log before its choice (checked after it)."""

    def __init__(self, bot) -> None:
        self.bot, self.before = bot, None

    def choose(self, game, d):
        self.before = (game.rng.getstate(), len(game.log))
        return self.bot.choose(game, d)


def test_the_lookahead_bot_only_applies_legal_options_and_never_touches_the_race():
    finished = 0
    for seed in range(50):
        game, bots = new_game(seed, ("lookahead:1", "random"), laps=1,
                              options={"wear_model": "basic"} if seed % 5 == 4 else {})
        watched = bots[0] = Watched(bots[0])

        def untouched(g, d, w=watched):  # it played on copies only: the race's dice and log as they were
            if d.player == 0:
                assert (g.rng.getstate(), len(g.log)) == w.before

        play(game, bots, untouched)
        finished += game.cars[0].finished
    assert finished >= 40


def test_the_same_seed_gives_the_lookahead_bot_the_same_decisions():
    a, bots_a = new_game(8, ("lookahead", "greedy", "greedy"), laps=1)
    b, bots_b = new_game(8, ("lookahead", "greedy", "greedy"), laps=1)
    play(a, bots_a)
    play(b, bots_b)
    mine = [e for e in a.log if e["t"] == "decision" and e["p"] == 0]
    assert len(mine) > 20 and mine == [e for e in b.log if e["t"] == "decision" and e["p"] == 0]
    assert a.log == b.log


def test_bot_names_take_a_budget_only_where_one_is_meant():
    assert make_bot("lookahead", 1).budget == 3 and make_bot("lookahead:7", 1).budget == 7
    for bad in ("lookahead:0", "lookahead:x", "lookahead:51", "greedy:2"):
        with pytest.raises(ValueError):
            make_bot(bad, 1)
    assert "lookahead" in RULESET.bots
