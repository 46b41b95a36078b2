"""Money, lane rules and effects on others that cannot be declined (issue 17 part B), and
`distribute` over the cubes of a `select` (issue 30).

The scenarios of tests/rulesets/automobiles/scenarios/vocab-b pass, and each fails under a plausible wrong
implementation of its form (the wrong reading is patched in, the scenario must then fail).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from slipstream.engine.rulesets.automobiles import effects, phases
from slipstream.engine.rulesets.automobiles.racesetup import load_pack_cached
from slipstream.engine.rulesets.automobiles.scenarios import run_file, run_pack_scenarios

PACK = Path(__file__).resolve().parent / "scenarios" / "vocab-b"


def _results() -> dict[str, bool]:
    pack = load_pack_cached(str(PACK))
    out = {}
    for f in sorted((PACK / "tests").glob("*.yaml")):
        res, diags = run_file(f, pack)
        assert res is not None, diags
        out[res.id] = res.ok
    return out


def test_every_scenario_of_the_forms_pack_passes() -> None:
    rep = run_pack_scenarios(str(PACK))
    assert not rep.diagnostics
    assert len(rep.results) >= 20
    assert all(r.ok for r in rep.results), [(r.id, r.problems) for r in rep.results if not r.ok]


# --------------------------------------------------------------------- plausible wrong readings
def _keep_everything(self: Any, g: Any, origin_lane: int, targets: list[Any], changes: int) -> list[Any]:
    return targets


def _keep_without_limit(self: Any, g: Any, origin_lane: int, targets: list[Any], changes: int) -> list[Any]:
    return [t for t in targets if (not self.straight or t[1] == origin_lane)
            and (self.lanes is None or t[1] in self.lanes)]


def _price_below_zero(g: Any, t: Any, k: int) -> int:
    return g.rules.kinds[k].cost + (t.prices or {}).get(k, 0)


def _pay_in_full(g: Any, arg: Any, ctx: Any) -> None:
    t = g.race.turn
    if t is not None and t.player == ctx.me:
        t.spent += effects.number(g, arg, ctx)


def _available_ignores_spent(g: Any, what: str, ctx: Any) -> int:
    t = g.race.turn
    if t is None or t.player != ctx.me:
        return 0
    if what == "spent":
        return t.spent
    z = g.race.players[ctx.me].zones[effects.ACTIVE]
    return sum(g.rules.kinds[k].value * n for k, n in enumerate(z))


def _last_price_wins(g: Any, t: Any, arg: Any, ctx: Any) -> None:
    for ch in arg.get("prices", ()):
        t.prices = t.prices or {}
        for ref in effects.seq(ch["kinds"]):
            for k in g.rules.group(ref):
                t.prices[k] = int(ch["change"])


def _no_limit(g: Any, t: Any, arg: Any, ctx: Any) -> None:
    for ch in arg.get("prices", ()):
        t.prices = t.prices or {}
        for ref in effects.seq(ch["kinds"]):
            for k in g.rules.group(ref):
                t.prices[k] = t.prices.get(k, 0) + int(ch["change"])


def _ahead_by_position(g: Any, me: int, who: str) -> list[int]:
    pos = g.positions(False)
    rel = {"ahead_adjacent": lambda i: pos[i] < pos[me], "beside": lambda i: True,
           "behind_adjacent": lambda i: pos[i] > pos[me]}[who]
    return [i for i in range(len(g.race.players)) if i != me and rel(i)]


def _beside_any_lane_near(g: Any, me: int, who: str) -> list[int]:
    car = g.race.players[me].car
    return [i for i, p in enumerate(g.race.players) if i != me and abs(p.car.segment - car.segment) <= 1
            and p.car.lane != car.lane] if who == "beside" else effects_adjacent(g, me, who)


effects_adjacent = effects.adjacent_others
_p_distribute = effects.PRIMITIVES["distribute"]


def _distribute_revealed_only(g: Any, arg: Any, ctx: Any) -> None:
    """The former reading: `distribute` looks only at revealed cubes, so a `select` does nothing
    (the frame changed where its primitive makes it: frames are native classes when compiled,
    whose `__init__` the compiled code calls directly)."""
    _p_distribute(g, arg, ctx)
    g.stack[-1].zones = None

WRONG: list[tuple[str, Any, str, Callable[..., Any], tuple[str, ...]]] = [
    ("lane rules ignored", effects.LaneRule, "keep", _keep_everything,
     ("lanes-straight-first-step", "lanes-straight-second-step", "lanes-inside", "lanes-inside-drive",
      "lanes-outside", "lanes-list", "lane-change-at-most")),
    ("lane_change limit ignored", effects.LaneRule, "keep", _keep_without_limit, ("lane-change-at-most",)),
    ("a price below 0", phases, "buy_price", _price_below_zero, ("buy-prices-paid",)),
    ("pay takes N even when less is left", effects.PRIMITIVES, "pay", _pay_in_full,
     ("money-pay-what-is-left",)),
    ("money available ignores what was spent", effects, "money_number", _available_ignores_spent,
     ("money-pay-twice",)),
    ("the last price change wins", effects, "modify_buy", _last_price_wins, ("buy-prices-options",)),
    ("buy_limit ignored", effects, "modify_buy", _no_limit, ("buy-limit",)),
    ("adjacent read as position", effects, "adjacent_others", _ahead_by_position,
     ("others-ahead-adjacent", "others-beside", "others-behind-adjacent")),
    ("beside includes diagonal cars", effects, "adjacent_others", _beside_any_lane_near, ("others-beside",)),
    ("distribute sends only revealed cubes", effects.PRIMITIVES, "distribute", _distribute_revealed_only,
     ("distribute-selected", "distribute-selected-stock")),
]


@pytest.mark.parametrize("what,target,name,wrong,fails", WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_reading_fails_its_scenarios(monkeypatch: pytest.MonkeyPatch, what: str, target: Any,
                                             name: str, wrong: Callable[..., Any],
                                             fails: tuple[str, ...]) -> None:
    if isinstance(target, dict):
        monkeypatch.setitem(target, name, wrong)
    else:
        monkeypatch.setattr(target, name, wrong)
    got = _results()
    assert [s for s in fails if got[s]] == [], f"{what}: these scenarios still pass"


def test_mandatory_others_never_offer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading `mandatory` as an ordinary offer fails the two mandatory scenarios."""
    orig = effects.PRIMITIVES["others"]

    def offer_anyway(g: Any, arg: Any, ctx: Any) -> None:
        orig(g, arg, ctx)  # the Others frame made on top of the stack
        g.stack[-1].mandatory = False

    monkeypatch.setitem(effects.PRIMITIVES, "others", offer_anyway)
    got = _results()
    assert not got["others-mandatory"] and not got["others-mandatory-done"]


def test_money_forms_in_a_sponsor_and_buy_modifiers_after_the_buy_phase_are_reported() -> None:
    from slipstream.engine.core.yamlsource import SourceMap
    from slipstream.engine.rulesets.automobiles.effectcheck import money_and_lane_checks

    src = SourceMap("x.yaml")
    sponsor = [{"pay": 1}, {"shop": {"budget": {"money": "available"}}},
               {"modify_turn": {"prices": [{"kinds": "gears", "change": -1}]}}]
    got = money_and_lane_checks("sponsor s1 (first)", (), sponsor, ("sponsors", 0), src, 3)
    assert [(d.code, d.path) for d in got] == [
        ("E120", "$.sponsors[0][0].pay"), ("E120", "$.sponsors[0][1].shop.budget.money"),
        ("E120", "$.sponsors[0][2].modify_turn.prices")]
    # in a card or a Buy-phase hook the same steps are fine; a lane beyond every track is not
    card = [*sponsor, {"drive": {"spaces": 1, "colours": "any", "lanes": [0, 2, 3]}}]
    got = money_and_lane_checks("card c", ("effect",), card, ("cards", 0, "effect"), src, 3)
    assert [(d.code, d.path) for d in got] == [("E121", "$.cards[0].effect[3].drive.lanes[2]")]
    hook = [{"modify_turn": {"buy_limit": 1}}]
    assert money_and_lane_checks("driver d", ("hooks", "buy"), hook, ("drivers", 0), src, 3) == []
    assert [d.code for d in money_and_lane_checks("driver d", ("hooks", "end_draw"), hook,
                                                  ("drivers", 0), src, 3)] == ["E120"]


def test_buy_modifiers_live_in_the_turn_and_are_copied_with_the_game() -> None:
    from slipstream.engine.core.yamlsource import load_file
    from slipstream.engine.rulesets.automobiles.scenarios import build_game, check_scenario

    loaded = load_file(PACK / "tests" / "buy-prices-options.yaml")
    sc, diags = check_scenario(loaded.data, loaded.source, load_pack_cached(str(PACK)))
    assert sc is not None, diags
    g = build_game(sc)
    g.apply("play purple")
    g.apply("end")
    assert g.pending is not None and g.pending.kind == "buy"
    c = g.copy()
    t, tc = g.race.turn, c.race.turn
    assert t is not None and tc is not None and tc.prices == t.prices and tc.prices is not t.prices
    c.apply("buy gear-3")
    assert (tc.bought, t.bought) == (1, 0)
    tc.prices[g.rules.kind("gear-5")] = -9  # a change in the copy leaves the original alone
    assert t.prices.get(g.rules.kind("gear-5")) == -1
    g.apply("buy gear-3")
    assert g.race.players[0].zones == c.race.players[0].zones
