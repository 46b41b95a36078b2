"""Issue 31: the Formula Dé `lookahead` bot takes the pit lane's decisions (the entry offer and
the gears inside it) by greedy's rule; it used to rate "pit" / "stay out" as gears (IndexError)."""

from __future__ import annotations

from helpers import CONTENT

from slipstream.engine.play.races import bot_seed, seats_of
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.formula_de.bots import make_bot
from slipstream.engine.rulesets.formula_de.ruleset import RULESET

PACK = str(CONTENT / "formula-de")


def test_lookahead_answers_the_pit_lane_offer_and_drives_through_the_pit_lane():
    pack = load_pack(PACK)
    bots = ("lookahead", "lookahead")
    game = RULESET.new_game(pack, pack.tracks["tilleuls"], seats_of(bots), 2, {}, 2)
    players = [make_bot(b, bot_seed(2, i)) for i, b in enumerate(bots)]
    seen: set[str] = set()
    while game.pending is not None:
        d = game.pending
        if d.kind == "pit" or (d.kind == "gear" and game.cars[d.player].pit >= 0):
            seen.add(d.kind)
        key = players[d.player].choose(game, d)
        assert key in d.keys(), (d.kind, key)
        game.apply(key)
    assert seen == {"pit", "gear"}  # offered the pit lane, entered it and chose gears in it
    assert game.standings()
