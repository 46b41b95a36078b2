"""The effect forms of docs/effects.md "Race-long state, progress, position, move results,
arithmetic" (issue 17 part A): every YAML example of that section is valid against the schema,
is the effect of a card of the test pack tests/rulesets/automobiles/scenarios/vocab-a/, and runs there in scenarios
that pass; and each scenario set is shown to catch a plausible wrong implementation of its form
(the form is replaced by the wrong one and a named scenario must fail)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from slipstream.engine.core.schema import registry
from slipstream.engine.packs.data import thaw
from slipstream.engine.packs.loader import load_pack
from slipstream.engine.rulesets.automobiles import effects as fx
from slipstream.engine.rulesets.automobiles import phases
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import position_game
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack
from slipstream.engine.rulesets.automobiles.scenarios import run_file, scenario_paths

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "tests" / "rulesets" / "automobiles" / "scenarios" / "vocab-a"
SECTION = "## Race-long state, progress, position, move results, arithmetic"
EFFECT_ID = "https://slipstream.invalid/schemas/effect.schema.json"
# every spelling of the section, each of which a card of the test pack must use
FORMS = ["lasts", "race_counter", "set_flag", "clear_flag", "flag", "once", "per", "after_buy",
         "next_turn_start", "next_action", "progress", "drafting", "car", "gap", "cars", "moved",
         "turn_stat", "divide", "minus", "distinct_kinds", "one_lower", "repeat_while", "as"]
VALUES = ["lap", "laps", "laps_done", "laps_left", "round", "crossings_this_turn", "final_round",
          "last_lap", "finished", "crossed_line_this_turn", "start_of_turn", "now", "ahead",
          "beside", "behind", "leader", "steps", "spaces", "cars_passed", "crossings",
          "spaces_entered", "up", "nearest", "race", "turn"]


def section_examples() -> list[Any]:
    text = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")
    assert SECTION in text
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", body, flags=re.S)]


@pytest.fixture(scope="module")
def pack():  # type: ignore[no-untyped-def]
    got, diags = load_pack(PACK)
    assert got is not None and not [d for d in diags if d.is_error], diags
    return got


def run_all(pack: Any) -> dict[str, list[str]]:
    """Scenario id -> problems (empty when it passes)."""
    out: dict[str, list[str]] = {}
    for f in scenario_paths(pack):
        res, diags = run_file(f, pack)
        assert res is not None and not diags, (f, diags)
        out[res.id] = list(res.problems)
    return out


def covers(pack: Any) -> dict[str, set[str]]:
    """Card id -> scenario ids covering it."""
    out: dict[str, set[str]] = {}
    for f in scenario_paths(pack):
        data = yaml.safe_load(f.read_text())
        for c in data["covers"]:
            out.setdefault(c.partition(":")[2], set()).add(data["id"])
    return out


def words(x: Any) -> set[str]:
    if isinstance(x, dict):
        return set(map(str, x)) | {w for v in x.values() for w in words(v)}
    if isinstance(x, list):
        return {w for v in x for w in words(v)}
    return {str(x)}


def test_every_example_is_valid_against_the_schema() -> None:
    v = Draft202012Validator({"$ref": f"{EFFECT_ID}#/$defs/effect_list"}, registry=registry())
    examples = section_examples()
    assert len(examples) >= 18
    for ex in examples:
        assert set(ex) == {"effect"}, ex
        errors = [e.message for e in v.iter_errors(ex["effect"])]
        assert not errors, (ex, errors)


def test_every_example_is_a_card_of_the_test_pack_with_a_scenario(pack) -> None:  # type: ignore[no-untyped-def]
    cov = covers(pack)
    by_effect = {yaml.safe_dump(thaw(c.effect)): cid for cid, c in pack.cards.items() if cid.startswith("va-")}
    for ex in section_examples():
        cid = by_effect.get(yaml.safe_dump(ex["effect"]))
        assert cid is not None, f"no card of {PACK.name} has the effect {ex['effect']}"
        assert cov.get(cid), f"no scenario covers {cid}"


def test_every_form_is_used_by_a_covered_card(pack) -> None:  # type: ignore[no-untyped-def]
    cov = covers(pack)
    used = {w for cid, c in pack.cards.items() if cov.get(cid) for w in words(thaw(c.effect))}
    assert not [f for f in FORMS + VALUES if f not in used]


def test_every_scenario_passes(pack) -> None:  # type: ignore[no-untyped-def]
    got = run_all(pack)
    assert len(got) >= 40
    assert not {k: v for k, v in got.items() if v}


# ----------------------------------------------------------------------------------------------
# Each form replaced by a plausible wrong reading: a named scenario must then fail.
# ----------------------------------------------------------------------------------------------


def _turn_counter_for_race(mp: pytest.MonkeyPatch) -> None:  # a race counter reset per turn
    def add(g, arg, ctx):  # type: ignore[no-untyped-def]
        t = g.race.turn
        t.counters["race:" + arg["name"]] = t.counters.get("race:" + arg["name"], 0) + fx.number(
            g, arg.get("by", 1), ctx)
    mp.setattr(fx, "add_race_counter", add)
    mp.setitem(fx.NUMBER_FORMS, "race_counter",
               lambda g, a, ctx, them: g.race.turn.counters.get("race:" + a, 0))


def _race_flag_as_turn_flag(mp: pytest.MonkeyPatch) -> None:
    orig = fx.p_set_flag
    mp.setitem(fx.PRIMITIVES, "set_flag", lambda g, a, ctx: orig(g, {"name": a["name"]}, ctx))
    orig_has = fx.has_flag
    mp.setattr(fx, "has_flag", lambda g, me, name, lasts: orig_has(g, me, name, None))


def _once_per(per: str) -> Callable[[pytest.MonkeyPatch], None]:
    def patch(mp: pytest.MonkeyPatch) -> None:
        orig = fx.p_once
        mp.setitem(fx.PRIMITIVES, "once", lambda g, a, ctx: orig(g, {**a, "per": per}, ctx))
    return patch


def _schedule_at(new_at: str, only: str | None = None) -> Callable[[pytest.MonkeyPatch], None]:
    def patch(mp: pytest.MonkeyPatch) -> None:
        orig = fx.PRIMITIVES["schedule"]

        def sched(g, a, ctx):  # type: ignore[no-untyped-def]
            orig(g, {**a, "at": new_at} if only in (None, a["at"]) else a, ctx)
        mp.setitem(fx.PRIMITIVES, "schedule", sched)
    return patch


def _drop_on_pit(mp: pytest.MonkeyPatch) -> None:
    # (the turn's pit stop, not a method of the frame: frames are native classes when compiled,
    # whose methods the compiled code calls directly)
    orig = phases.pit_stop

    def pit_stop(g, me):  # type: ignore[no-untyped-def]
        mem = g.race.players[me].memory
        if mem is not None:
            mem.later = [x for x in mem.later if x[0] != "next_action"]
        orig(g, me)
    mp.setattr(phases, "pit_stop", pit_stop)


def _progress(arg: str, fn: Callable[..., Any]) -> Callable[[pytest.MonkeyPatch], None]:
    def patch(mp: pytest.MonkeyPatch) -> None:
        for table, orig in (("NUMBER_FORMS", fx.NUMBER_FORMS["progress"]),
                            ("CONDITION_FORMS", fx.CONDITION_FORMS["progress"])):
            mp.setitem(getattr(fx, table), "progress",
                       lambda g, a, ctx, them, orig=orig: fn(g, ctx) if a == arg else orig(g, a, ctx, them))
    return patch


def _drafting_now(mp: pytest.MonkeyPatch) -> None:
    mp.setitem(fx.CONDITION_FORMS, "drafting", lambda g, a, ctx, them: fx.drafting_condition(g, "now", ctx))


def _car_segment_only(mp: pytest.MonkeyPatch) -> None:  # ahead/behind: the next/previous segment only
    def car(g, a, ctx, them):  # type: ignore[no-untyped-def]
        c = g.race.players[ctx.me].car
        occ = g.occupancy(ctx.me)
        n = g.ix.n
        if a == "ahead":
            return (c.lane, (c.segment + 1) % n) in occ
        if a == "behind":
            return (c.lane, (c.segment - 1) % n) in occ
        return fx.car_condition(g, a, ctx)
    mp.setitem(fx.CONDITION_FORMS, "car", car)


def _gap_without_laps(mp: pytest.MonkeyPatch) -> None:
    def gap(g, a, ctx, them):  # type: ignore[no-untyped-def]
        ps = g.race.players
        mine = ps[ctx.me].car.segment
        others = [p.car.segment for i, p in enumerate(ps) if i != ctx.me]
        if a == "behind":
            return min((mine - d for d in others if d < mine), default=0)
        return fx.gap_number(g, a, ctx)
    mp.setitem(fx.NUMBER_FORMS, "gap", gap)


def _gap_ahead_for_leader(mp: pytest.MonkeyPatch) -> None:
    mp.setitem(fx.NUMBER_FORMS, "gap", lambda g, a, ctx, them: fx.gap_number(
        g, "ahead" if a == "leader" else a, ctx))


def _moved(what: str, fn: Callable[[list[int]], int]) -> Callable[[pytest.MonkeyPatch], None]:
    def patch(mp: pytest.MonkeyPatch) -> None:
        def moved(g, a, ctx, them):  # type: ignore[no-untyped-def]
            w, of = (a, "") if isinstance(a, str) else (a["what"], a.get("of", ""))
            got = ctx.sel.get("moved:" + of)
            return (fn(got) if w == what else got[fx.MOVED.index(w)]) if got else 0
        mp.setitem(fx.NUMBER_FORMS, "moved", moved)
    return patch


def _turn_stat_passed_zero(mp: pytest.MonkeyPatch) -> None:
    orig = fx.turn_stat_more
    mp.setattr(fx, "turn_stat_more", lambda g, a, ctx: 0 if a == "cars_passed" else orig(g, a, ctx))


def _divide(rnd: str, fn: Callable[[int, int], int]) -> Callable[[pytest.MonkeyPatch], None]:
    def patch(mp: pytest.MonkeyPatch) -> None:
        def div(g, a, ctx, them):  # type: ignore[no-untyped-def]
            if a.get("round", "down") != rnd:
                return fx.divide_number(g, a, ctx, them)
            left, by = fx.number(g, a["left"], ctx), fx.number(g, a["by"], ctx)
            return fn(left, by) if by else 0
        mp.setitem(fx.NUMBER_FORMS, "divide", div)
    return patch


def _minus_unclamped(mp: pytest.MonkeyPatch) -> None:
    mp.setitem(fx.NUMBER_FORMS, "minus", lambda g, a, ctx, them: abs(
        fx.number(g, a[0], ctx) - fx.number(g, a[1], ctx)))


def _distinct_unfiltered(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(fx, "distinct_kinds_number", lambda g, a, ctx, them: fx.number(
        g, {"distinct_kinds": {k: v for k, v in a.items() if k in ("zone", "whose")}}, ctx))


# A frame's reading is changed where its primitive makes it (the primitives are looked up at each
# run; frames are native classes when compiled, whose `__init__` the compiled code calls directly).
def _one_lower_as_higher(mp: pytest.MonkeyPatch) -> None:
    orig = fx.PRIMITIVES["gain"]

    def gain(g, spec, ctx):  # type: ignore[no-untyped-def]
        if "one_lower" in spec:
            spec = {("one_higher" if k == "one_lower" else k): v for k, v in spec.items()}
        orig(g, spec, ctx)
    mp.setitem(fx.PRIMITIVES, "gain", gain)


def _repeat_kind_only(mp: pytest.MonkeyPatch) -> None:
    orig = fx.PRIMITIVES["draw"]

    def draw(g, arg, ctx):  # type: ignore[no-untyped-def]
        orig(g, arg, ctx)  # the Draw frame made on top of the stack
        rw = arg.get("repeat_while") if isinstance(arg, Mapping) else None
        if rw and "kind" not in rw:
            g.stack[-1].repeat = None
    mp.setitem(fx.PRIMITIVES, "draw", draw)


MUTANTS: dict[str, tuple[Callable[[pytest.MonkeyPatch], None], str]] = {
    "race counter reset every turn": (_turn_counter_for_race, "va-race-counter"),
    "race flag kept for the turn only": (_race_flag_as_turn_flag, "va-race-flag"),
    "clear_flag does nothing": (lambda mp: mp.setitem(fx.PRIMITIVES, "clear_flag", lambda g, a, c: None),
                                "va-race-flag-cleared"),
    "turn flag kept for the race": (lambda mp: mp.setitem(fx.PRIMITIVES, "set_flag", lambda g, a, c: fx.p_set_flag(
        g, {**a, "lasts": "race"}, c)), "va-turn-flag"),
    "once per race read as per turn": (_once_per("turn"), "va-once-per-race"),
    "once per turn read as per race": (_once_per("race"), "va-once-per-turn-again"),
    "once never remembered": (lambda mp: mp.setitem(fx.PRIMITIVES, "once", lambda g, a, c: g.stack.append(
        fx.EffectList(a["effect"], c))), "va-once-per-turn"),
    "next_turn_start run at the end of this turn": (_schedule_at("after_end", "next_turn_start"),
                                                    "va-next-turn-start-waits"),
    "next_turn_start run at the next Action phase": (_schedule_at("next_action", "next_turn_start"),
                                                     "va-next-turn-start-runs"),
    "next_action run at the next turn's start": (_schedule_at("next_turn_start", "next_action"),
                                                 "va-next-action-waits"),
    "next_action dropped by a pit stop": (_drop_on_pit, "va-next-action-after-pit"),
    "after_buy run after the End phase": (_schedule_at("after_end", "after_buy"), "va-after-buy"),
    "lap read as finish-line crossings": (_progress("lap", lambda g, ctx: max(
        0, g.race.players[ctx.me].car.lap)), "va-probe-progress"),
    "laps_done read as the lap number": (_progress("laps_done", lambda g, ctx: fx.progress_number(
        g, "lap", ctx)), "va-laps-done"),
    "last_lap also true once finished": (_progress("last_lap", lambda g, ctx: g.race.players[
        ctx.me].car.lap >= g.race.laps - 1), "va-probe-progress-finish"),
    "crossings of the turn never counted": (_progress("crossings_this_turn", lambda g, ctx: 0),
                                            "va-probe-progress-finish"),
    "drafting at the start of the turn read now": (_drafting_now, "va-drafting-at-start"),
    "drafting now for the start of the turn (reverse)": (_drafting_now, "va-drafting-only-now"),
    "car ahead: next segment only": (_car_segment_only, "va-probe-position-ahead-space"),
    "car behind: previous segment only": (_car_segment_only, "va-probe-position-behind-space"),
    "gaps without laps": (_gap_without_laps, "va-probe-gaps-laps"),
    "gap to the leader read as the gap ahead": (_gap_ahead_for_leader, "va-gap-leader"),
    "cars passed counts steps": (_moved("cars_passed", lambda got: got[0]), "va-dash-cars-passed"),
    "cars passed counts a car stopped beside": (_moved("cars_passed", lambda got: got[2] + 1),
                                                "va-dash-stop-short"),
    "moved crossings never counted": (_moved("crossings", lambda got: 0), "va-probe-moved"),
    "turn cars passed never counted": (_turn_stat_passed_zero, "va-overtake-bonus"),
    "divide up rounds down": (_divide("up", lambda a, b: a // b), "va-divide-up"),
    "divide nearest rounds half to even": (_divide("nearest", lambda a, b: round(a / b)), "va-probe-divide"),
    "minus not clamped at 0": (_minus_unclamped, "va-probe-arithmetic"),
    "distinct_kinds ignores kind filters": (_distinct_unfiltered, "va-distinct-kinds-filter"),
    "one_lower gains one higher": (_one_lower_as_higher, "va-one-lower"),
    "repeat_while reads kind only": (_repeat_kind_only, "va-repeat-while-not-gear"),
}


@pytest.mark.parametrize("name", list(MUTANTS))
def test_a_wrong_reading_of_the_form_fails_a_scenario(name: str, pack, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    patch, scenario = MUTANTS[name]
    patch(monkeypatch)
    got = run_all(pack)
    assert got[scenario], f"{scenario} still passes with: {name}"


# ----------------------------------------------------------------------------------------------
# Corners the scenarios do not reach
# ----------------------------------------------------------------------------------------------


def _game(effect: list[Any]):  # type: ignore[no-untyped-def]
    rules = ruleset_from_pack(base_pack())
    track = base_pack().tracks["first-oval"]
    g = position_game(rules, track, [{"car": {"lane": 0, "segment": 2}}, {"car": {"lane": 1, "segment": 0}}],
                      start="action")
    return g, effect


def test_once_per_round_runs_again_in_the_next_round() -> None:
    g, eff = _game([{"once": {"key": "k", "per": "round", "effect": [{"gain_wear": 1}]}}])
    g.run_effects(0, eff)
    g.run_effects(0, eff)
    assert g.race.stats["wear"][0] == 1
    g.race.round += 1
    g.run_effects(0, eff)
    assert g.race.stats["wear"][0] == 2


def test_race_state_is_copied_with_the_game_and_absent_when_unused() -> None:
    g, _ = _game([])
    assert all(p.memory is None for p in g.race.players) and g.race.turn.extra is None
    g.run_effects(0, [{"add_counter": {"name": "c", "by": 2, "lasts": "race"}},
                      {"set_flag": {"name": "f"}}])
    c = g.copy()
    c.run_effects(0, [{"add_counter": {"name": "c", "by": 1, "lasts": "race"}},
                      {"clear_flag": {"name": "f"}}])
    assert g.race.players[0].memory.counters == {"c": 2}
    assert c.race.players[0].memory.counters == {"c": 3}
    assert fx.has_flag(g, 0, "f", None) and not fx.has_flag(c, 0, "f", None)


def test_unused_forms_record_nothing_for_the_printed_cards() -> None:
    rules = ruleset_from_pack(base_pack())
    assert fx.uses(rules) == frozenset()


def test_cars_near_names_the_cars_of_the_geometry() -> None:
    from slipstream.engine.core.yamlsource import SourceMap
    from slipstream.engine.tracks.track import parse_track

    track, diags = parse_track({"id": "t", "laps": 1, "layout": ["3x2 3x2 3x2 3x2", "3x2 3x2 3x2 3x2"],
                                "grid": [{"lane": 0, "segment": 0, "money": 10}]}, SourceMap("t"))
    assert track is not None and not diags
    cars = [(0, 3), (0, 4), (0, 5), (1, 3), (0, 0), (0, 2)]
    g = position_game(ruleset_from_pack(base_pack()), track,
                      [{"car": {"lane": ln, "segment": s}} for ln, s in cars], start="action")
    assert fx.cars_near(g, 0, "ahead") == [1, 2]  # the whole next space from its last segment
    assert fx.cars_near(g, 0, "beside") == [3]
    assert fx.cars_near(g, 0, "behind") == [5]  # the previous segment only (not the first one)
    assert fx.cars_near(g, 5, "behind") == [4]  # from the first segment: the previous space
    assert fx.cars_near(g, 4, "ahead") == []
