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


def test_race_and_season_with_lookahead_bots_run_through_the_pit_lane(tmp_path):
    """The commands of the report: `race --bots lookahead` and `season --bots lookahead,lookahead`
    (a two-lap race on the bundled pack, where the pit lane is offered)."""
    from click.testing import CliRunner

    from slipstream.cli.main import main

    for args in (["race", PACK, "--bots", "lookahead,lookahead", "--laps", "2", "--seed", "2"],
                 ["season", PACK, "--bots", "lookahead,lookahead", "--laps", "2", "--tracks", "tilleuls",
                  "--log", str(tmp_path)]):
        r = CliRunner().invoke(main, args, catch_exceptions=False)
        assert r.exit_code == 0, r.output
    log = (tmp_path / "season-1.jsonl").read_text(encoding="utf-8")
    assert '"kind":"pit"' in log  # the offer was made to a lookahead seat and answered
