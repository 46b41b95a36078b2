"""The Qt-free parts of racing in the editor: turn frames and heat counts read from race logs."""

from __future__ import annotations

from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.rulesets.automobiles.heatmap import (
    COLOURS,
    Heat,
    heat_of_log,
    run_batch,
    run_on_track,
)
from slipstream.engine.rulesets.automobiles.raceframes import watch_race
from slipstream.engine.rulesets.automobiles.racesetup import load_pack_cached

BOTS = ("greedy", "greedy", "greedy", "random")


def oval():
    return load_pack_cached("").tracks["first-oval"]


def test_a_watched_race_is_the_race_slipstream_race_runs():
    spec = RaceSpec("", "first-oval", 11, BOTS)
    rec = watch_race(spec, oval())
    res = run_race(spec)
    assert rec.game.log == res.log
    assert rec.game.standings() == res.standings


def test_one_frame_per_turn_and_frames_join_up():
    rec = watch_race(RaceSpec("", "first-oval", 5, BOTS), oval())
    turns = [e for e in rec.game.log if e.get("ev") == "turn"]
    frames = rec.frames[1:]
    assert len(frames) == len(turns)
    assert [f.player for f in frames] == [e["p"] for e in turns]
    assert [f.choice for f in frames] == [e["choice"] for e in turns]
    for a, b in zip(rec.frames, rec.frames[1:], strict=False):
        assert a.cars_after == b.cars_before
    moved = [f for f in frames if f.cars_after[f.player] != f.cars_before[f.player]]
    assert moved, "somebody moved"
    for f in moved:
        # the route starts at the car and ends where the car stops (before any momentum slide)
        assert f.route[0] == f.cars_before[f.player][:2]
        assert f.route[-1][0] == f.cars_after[f.player][0]
    assert all(f.events for f in frames)


def test_heat_counts_add_up():
    track = oval()
    res = run_race(RaceSpec("", "first-oval", 3, BOTS))
    start = [(track.grid[res.grid.index(p)].lane, track.grid[res.grid.index(p)].segment)
             for p in range(len(res.bots))]
    heat = heat_of_log(track, res.log, start)
    turns = sum(1 for e in res.log if e.get("ev") == "turn")
    assert heat.turns == turns == sum(heat.turn_ends) == sum(heat.lane_ends)
    assert sum(heat.wear) == sum(e["wear"] for e in res.log if e.get("ev") == "decline")
    assert sum(heat.moves) == sum(1 for e in res.log if e.get("ev") == "decline")
    assert sum(heat.drafts) == sum(1 for e in res.log if e.get("ev") == "decline" and e["drafting"])
    placed_on_gears = 0
    for e in res.log:
        if e.get("ev") == "place":
            lane, seg = map(int, e["cell"].split(":"))
            placed_on_gears += track.spaces[track.cells[lane][seg]].colour in COLOURS
    assert sum(map(sum, heat.colours)) == placed_on_gears


def test_a_batch_in_two_processes_equals_one_process():
    track = oval()
    specs = [RaceSpec("", "first-oval", s, BOTS, record=False) for s in range(1, 7)]
    one = run_batch(specs, track, jobs=1, chunk=2)
    two = run_batch(specs, track, jobs=2, chunk=2)
    assert [r.standings for r in one.results] == [r.standings for r in two.results]
    assert one.heat.to_dict() == two.heat.to_dict()
    assert Heat.from_dict(one.heat.to_dict()) == one.heat
    r, _ = run_on_track(specs[0], track)
    assert r.standings == run_race(specs[0]).standings
