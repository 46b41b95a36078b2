"""The Formula Dé-style bots: greedy's shortcuts agree with the rules, the look-ahead bot
only ever applies legal options and decides the same for the same seed."""

from __future__ import annotations

from pathlib import Path

from slipstream.engine.play.races import bot_seed, seats_of
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.formula_de.bots import destinations, make_bot
from slipstream.engine.rulesets.formula_de.ruleset import RULESET

ROOT = Path(__file__).parent.parent.parent
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
