"""Whole speed-and-hazard races: invariants over many seeded random-bot races, the pack and the
CLI (determinism and replay: tests/rulesets/test_shared_races.py). The 1,000-race run is bench/speed_hazard_race.py --check."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.play.races import RaceSpec, bot_seed, seats_of
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.speed_hazard.bots import make_bot
from slipstream.engine.rulesets.speed_hazard.invariants import checked_race
from slipstream.engine.rulesets.speed_hazard.ruleset import RULESET

ROOT = Path(__file__).parents[3]
PACK = str(ROOT / "content" / "speed-hazard")
OPTIONS = [{}, {"u_turn": True}, {"nitrous_until": "curve", "ram_beside": True},
           {"all_pit_entries": True, "check_leaving_curve": True, "sabotage_start_square": False},
           {"u_turn": True, "u_turn_lanes": "skid-any-lane", "reverse_laps": "unchanged", "all_pit_entries": True}]


def test_two_hundred_random_races_keep_every_invariant():
    seen: Counter[str] = Counter()
    for seed in range(200):
        g = checked_race(load_pack(PACK), seed, ("random",) * 4, laps=1, options=OPTIONS[seed % len(OPTIONS)])
        seen.update(e.get("ev") for e in g.log)
        assert sorted(g.standings()) == [0, 1, 2, 3]
        assert g.over
    # the invariants met what they guard: wrecks, tokens, nitrous, pits, rams, U-turns
    assert all(seen[ev] for ev in ("wreck", "drop", "token-hit", "pit", "pit-exit", "ram", "bump", "u-turn", "finish"))


def test_greedy_races_end_with_a_winner_and_beat_random():
    wins = Counter()
    for seed in range(12):
        g = checked_race(load_pack(PACK), seed, ("greedy", "random", "greedy", "random"), laps=1)
        wins[g.winner % 2] += 1
        assert g.winner >= 0
    assert wins[0] >= 10


def test_the_bundled_track_meets_the_rulesets_needs_and_the_pack_marks_house_values():
    pack = load_pack(PACK)
    assert "HOUSE VALUES" in pack.description
    assert set(pack.tracks) == {"redline-loop"} and pack.decks is not None
    text = (ROOT / "content" / "speed-hazard" / "car.yaml").read_text()
    assert text.count("house value") >= 4


def test_cli_batch_ends_with_the_statistics():
    r = CliRunner().invoke(main, ["race", PACK, "--races", "6", "--seed", "1", "--laps", "1"])
    assert r.exit_code == 0, r.output
    for want in ("win rate by grid slot", "wrecks:", "pit visits:", "hazard cards drawn:", "by curve:"):
        assert want in r.output


def test_summary_keys_hazards_by_corner_index():
    results = [RULESET.run_race(RaceSpec(pack=PACK, track="redline-loop", seed=s, bots=("greedy",) * 4, laps=1))
               for s in range(3)]
    s = RULESET.stats.summarise(results)
    assert s["races"] == 3 and s["hazards"] == sum(s["hazards_by_corner"].values())
    assert all(k.isdigit() or k in ("pit", "straight") for k in s["hazards_by_corner"])


def test_view_and_cars_show_every_seat():
    pack = load_pack(PACK)
    g = RULESET.new_game(pack, pack.tracks["redline-loop"], seats_of(("random",) * 3), 2, {})
    bots = [make_bot("random", bot_seed(2, i)) for i in range(3)]
    for _ in range(60):
        d = g.pending
        g.apply(bots[d.player].choose(g, d))
    assert len(RULESET.race_view.cars(g)) == 3
    labels = [k for k, _ in RULESET.view(g, 0)]
    assert labels[:5] == ["speed", "maximum", "damage", "tokens", "luck"] and "lap" in labels


def test_the_generic_race_recorder_shows_a_race_frame_by_frame():
    from slipstream.engine.play.watch import Recorder

    pack = load_pack(PACK)
    g = RULESET.new_game(pack, pack.tracks["redline-loop"], seats_of(("greedy", "random")), 6, {}, laps=1)
    rec = Recorder(RULESET, g, ["A", "B"])
    rec.play_bots({i: make_bot(b, bot_seed(6, i)) for i, b in enumerate(("greedy", "random"))})
    assert rec.over and len(rec.frames) > 50
    assert any(f.events for f in rec.frames) and all(len(f.cars_after) == 2 for f in rec.frames)
    assert any("km/h" in v for f in rec.frames[1:] for _, v in f.view)
