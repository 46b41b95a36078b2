"""What a face shows of a speed-and-hazard race (engine/rulesets/speed_hazard/views.py): the
field's lines never tell a card still hidden, routes end where the car ends, gauges and marks
are the state's, and the heat maps are the summary's counts per race."""

from __future__ import annotations

from pathlib import Path

from slipstream.engine.play import watch
from slipstream.engine.play.base import BaseRaceView
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import for_pack
from slipstream.engine.rulesets.speed_hazard import views

PACK = str(Path(__file__).resolve().parents[3] / "content" / "speed-hazard")
BOTS = ("greedy", "greedy", "random", "random")


def race(seed: int, laps: int | None = 1):
    rs, pack = for_pack(PACK)
    spec = RaceSpec(PACK, "redline-loop", seed, BOTS, laps, ())
    return rs, watch.watch(rs, pack, spec, pack.tracks["redline-loop"])


def test_the_field_tells_a_card_only_once_every_card_of_the_round_is_revealed():
    rs, pack = for_pack(PACK)
    game, bots = watch.start(rs, pack, RaceSpec(PACK, "redline-loop", 3, BOTS, 1, ()), pack.tracks["redline-loop"])
    assert game.pending.kind == "card" and game.pending.player == 0
    chosen = {0: game.pending.keys()[-1]}
    game.apply(chosen[0])
    assert game.pending.kind == "card" and "card" not in rs.race_view.brief(game, 0)  # chosen, not revealed
    while game.pending is not None and game.pending.kind == "card":
        chosen[game.pending.player] = game.pending.keys()[0]
        assert "card" not in rs.race_view.brief(game, 0)
        game.apply(chosen[game.pending.player])
    names = {a.id: a.name for a in game.decks.actions}
    assert views.last_cards(game) == {p: k.split()[1] for p, k in chosen.items()}
    assert all(f"card {names[k.split()[1]]}" in rs.race_view.brief(game, p) for p, k in chosen.items())
    assert rs.race_view.secret_kinds == ("card",) and BaseRaceView.secret_kinds == ()


def test_every_moving_decision_has_a_route_from_the_cars_square_to_where_it_stops():
    rs, rec = race(6)
    moved = [f for f in rec.frames[1:] if f.cars_before[f.player] != f.cars_after[f.player]]
    assert moved
    routed = [f for f in moved if f.route[0] == f.cars_before[f.player] and f.route[-1] == f.cars_after[f.player]]
    assert routed == moved
    # brake, accelerate and the like are tried on a copy: the game itself is not touched
    g = rec.game
    assert rs.race_view.route(g, "anything") == []


def test_gauges_and_marks_are_the_state_of_the_game():
    rs, rec = race(5, None)
    g = rec.game
    for p, c in enumerate(g.cars):
        (label, speed, top, scale), (dlabel, dmg, most, _s) = rs.race_view.gauges(g, p)
        assert (label, speed, top, dlabel, most) == ("speed", c.speed, c.maximum, "damage", 14)
        assert dmg == (140 - c.maximum) // 10 and scale >= 140
    marks = rs.race_view.marks(g)
    assert {(m[0], m[1]) for m in marks if m[2] != "wreck"} == {
        (g.track.spaces[n].lane, g.track.spaces[n].first) for n in g.on_board}
    assert sum(m[2] == "wreck" for m in marks) == sum(c.wreck and c.node >= 0 for c in g.cars)
    assert BaseRaceView().gauges(g, 0) == [] and BaseRaceView().marks(g) == []
    # a token a scenario lays in the pit road is marked on its pit square
    pit = g.track.pit
    g.on_board[len(g.track.spaces) + 2] = "oil"
    assert (pit.spaces[2].lane, pit.spaces[2].first, "oil", "Oil") in rs.race_view.marks(g)


def test_heat_maps_are_the_summarys_counts_per_race():
    summary = {"races": 4, "hazards_by_corner": {"0": 6, "3": 2, "pit": 5, "straight": 1},
               "wrecks_at": {"2:53": 2}, "rams_at": {}}
    maps = views.heat(summary)
    assert maps == {views.HEAT_HAZARDS: {"corner:0": 1.5, "corner:3": 0.5}, views.HEAT_WRECKS: {"space:2:53": 0.5}}
