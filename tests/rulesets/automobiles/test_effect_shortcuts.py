"""The effect interpreter's shortcuts (issue 20) do exactly what the frames they skip would do:
seeded races played with and without them give byte-identical logs, header included."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from slipstream.engine.play.racelog import dumps
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.rulesets.automobiles import effects as fx
from slipstream.engine.rulesets.automobiles import phases
from slipstream.engine.rulesets.automobiles.racesetup import load_pack_cached

SEATS = (("greedy", "greedy", "greedy", "greedy"), ("greedy", "random", "greedy"))


def specs() -> list[RaceSpec]:
    sets = sorted(load_pack_cached("").card_sets)
    return [RaceSpec("", ("first-oval", "road-course")[seed % 2], seed, SEATS[seed % 2],
                     setup=(("card_set", sets[seed % len(sets)]),),
                     options=(("drivers_in_single_races", True),) if seed % 2 else ())
            for seed in range(1, 5)]


def logs() -> list[str]:
    out = []
    for spec in specs():
        r = run_race(spec)
        out.append("\n".join([dumps(r.header), *(dumps(x) for x in r.log), dumps(r.result)]))
    return out


def without_shortcuts(mp: pytest.MonkeyPatch) -> None:
    """Every move and cube effect through its frame, every card's list through `EffectList`."""
    orig = fx.plan_of

    def plan_of(op: str, spec: Any) -> Any:
        plan = copy.copy(orig(op, spec))
        if op == "move":
            plan.one_step = False
        else:
            plan.simple = False
        return plan

    mp.setattr(fx, "plan_of", plan_of)
    mp.setattr(phases, "push_effects", lambda g, eff, ctx: g.stack.append(fx.EffectList(eff, ctx)))


def test_races_are_the_same_with_and_without_the_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = logs()
    with monkeypatch.context() as mp:
        without_shortcuts(mp)
        slow = logs()
    assert slow == fast


def test_the_shortcuts_are_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gear cards' placements and the Wear card mostly skip their frames (so the test above
    compares two different paths): a gear placement gets a Move frame only for a choice."""
    frames: list[tuple[str, Any]] = []

    # the frames the move and cube primitives push (seen on the stack: frames are native
    # classes when compiled, whose `__init__` the compiled code calls directly; every Move frame
    # is pushed, and so is every cube frame of the played cube)
    def watch(name: str, what: Callable[[Any, Any, Any], tuple[str, Any]]) -> None:
        orig = fx.PRIMITIVES[name]

        def fn(g: Any, arg: Any, ctx: Any) -> None:
            n = len(g.stack)
            orig(g, arg, ctx)
            if len(g.stack) > n:
                frames.append(what(g, arg, ctx))
        monkeypatch.setitem(fx.PRIMITIVES, name, fn)

    for name in ("move", "drive"):
        watch(name, lambda g, arg, ctx: ("move", g.rules.kinds[ctx.played].role if ctx.played is not None else None))
    for name in ("remove", "move_cubes", "select"):
        watch(name, lambda g, arg, ctx: ("cubes", arg["from"]))
    r = run_race(specs()[1])
    plays = [x["kind"] for x in r.log if x.get("ev") == "play"]
    gears = sum(1 for k in plays if k.startswith("gear-"))
    wear = plays.count("wear")
    places = sum(1 for x in r.log if x.get("ev") == "place")
    assert gears > 40 and wear > 0 and places > 40
    assert frames.count(("move", "gear")) < gears / 2
    assert ("cubes", "played") not in frames
