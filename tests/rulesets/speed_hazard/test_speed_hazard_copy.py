"""Copies of a speed-and-hazard race (`SpeedHazardGame.copy` and the look-ahead's `fork`, made
field by field by hand) and the greedy bot's memo of speed values: both must answer exactly as
the deep copy and the direct computation they replace."""

from __future__ import annotations

import copy
import dataclasses
import random
from pathlib import Path

from slipstream.engine.play.races import seats_of
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.speed_hazard import game as game_module
from slipstream.engine.rulesets.speed_hazard.game import Car, Turn
from slipstream.engine.rulesets.speed_hazard.greedy import GreedyBot, _speed_value, speed_value
from slipstream.engine.rulesets.speed_hazard.ruleset import RULESET

ROOT = Path(__file__).parents[3]
PACK = str(ROOT / "content" / "speed-hazard")
OPTIONS = [{}, {"u_turn": True, "ram_beside": True}, {"all_pit_entries": True, "nitrous_until": "curve"}]


def new_game(seed: int, options: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    pack = load_pack(PACK)
    return RULESET.new_game(pack, pack.tracks["redline-loop"], seats_of(["a", "b", "c", "d"]), seed,
                            options or {})


def fields_of(g):  # type: ignore[no-untyped-def]
    return set(g.__dict__ if hasattr(g, "__dict__") else type(g).__mypyc_attrs__)


def play(g, decisions: int) -> None:  # type: ignore[no-untyped-def]
    bot = GreedyBot(0)
    for _ in range(decisions):
        d = g.pending
        if d is None:
            return
        g.apply(bot.choose(g, d))


def test_the_hand_written_copy_names_every_field_of_the_game():
    # a field added to the game and not to `_take` would be deep-copied (slowly): name it there
    assert fields_of(new_game(1)) == set(game_module._TAKEN)


def test_car_and_turn_copies_keep_every_field_and_share_nothing_that_changes():
    values = {int: 7, bool: True, str: "x"}
    for cls in (Car, Turn):
        kwargs = {}
        for f in dataclasses.fields(cls):
            t = f.type if isinstance(f.type, str) else f.type.__name__
            kwargs[f.name] = ({"a": 2} if t.startswith("dict") else [3, 4] if t.startswith("list")
                              else values.get({"int": int, "bool": bool, "str": str}.get(t, object), object()))
        x = cls(**kwargs)
        y = x.copy() if cls is Car else x.copy(dict(x.opts))
        assert y == x and y is not x
        for f in dataclasses.fields(cls):
            v = getattr(x, f.name)
            if isinstance(v, (list, dict)):
                assert getattr(y, f.name) is not v, f.name


def test_a_copy_plays_on_as_the_race_does_and_leaves_it_alone():
    for seed in range(6):
        g = new_game(seed, OPTIONS[seed % len(OPTIONS)])
        play(g, 40 + 37 * seed)  # somewhere in a turn or a round
        log = copy.deepcopy(g.log)
        pending = g.pending
        c = g.copy()
        assert c.log == g.log and c.log is not g.log
        play(c, 400)
        assert g.log == log and g.pending == pending  # the race is untouched
        play(g, 400)
        assert c.log == g.log  # the same generator state, the same moves, the same log


def test_a_fork_is_the_copy_without_log_generator_or_recording():
    g = new_game(3)
    play(g, 120)
    f = g.fork()
    assert f.log == [] and f.rng is None and not f.record
    f.rng = random.Random(5)
    c = g.copy()
    c.rng, c.log, c.record = random.Random(5), [], False
    play(f, 300)
    play(c, 300)
    assert [(x.node, x.progress, x.speed, x.maximum) for x in f.cars] == \
        [(x.node, x.progress, x.speed, x.maximum) for x in c.cars]
    assert f.stats == c.stats and f.hazard_deck == c.hazard_deck


def test_the_speed_value_memo_answers_as_the_computation():
    for seed in range(4):
        g = new_game(seed, OPTIONS[seed % len(OPTIONS)])
        bot = GreedyBot(0)
        checked = n = 0
        while (d := g.pending) is not None:  # the whole race, every seventh decision
            n += 1
            for car in g.cars if n % 7 == 0 else ():
                if car.wreck or car.in_pit or car.node < 0:
                    continue
                for s in range(0, 200, 10):
                    assert speed_value(g, car, s) == _speed_value(g, car, s)
                    checked += 1
            g.apply(bot.choose(g, d))
        assert checked >= 3000
