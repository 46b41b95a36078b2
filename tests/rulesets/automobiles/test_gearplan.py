"""The greedy bot's gear-play search (gearplan.py) plans exactly as the plain search it replaced.

`reference_plan` is the bot's earlier search, kept here as the specification: a fresh memo per
call, cells as tuples, the engine's `step_targets` at every step. The planner keeps its memo
across the plans of a turn and reads a table of steps instead; both must give the same plan,
tie-breaks included, at every Action decision of seeded races (both tracks, every card set of
the base pack, one with gear cubes going two spaces, and the options that take the planner off
its table: weaving and one car per space).
"""

from __future__ import annotations

from typing import Any

import pytest

from slipstream.engine.rulesets.automobiles.bots import GreedyBot
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.movement import (
    draft_cells,
    drafts,
    step_targets,
    track_index,
)
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack
from slipstream.engine.rulesets.automobiles.state import ACTIVE, Car


def reference_plan(g: Game, me: int, wear_weight: float = GreedyBot.WEAR_WEIGHT) -> list[tuple[int, str]]:
    """The greedy bot's search as it was before gearplan.py (commit 82c9e45)."""
    rs = g.rules
    t = g.race.turn
    z = g.race.players[me].zones[ACTIVE]
    gears = [(k, rs.kinds[k].gear or 0) for k in rs.gear_index.values() if z[k]]
    if not gears or t is None:
        return []
    car = g.race.players[me].car
    head = (t.placements[-1].lane, t.placements[-1].segment) if t.placements else (car.lane, car.segment)
    darkest0 = max((g.track.spaces[s].colour for pl in t.placements for s in pl.spaces), default=0)
    occ = g.occupancy(me)
    opts = rs.options
    ix = g.ix
    n = ix.n
    counts = tuple(z[k] for k, _ in gears)
    reach = 2 if t.gear_spaces is not None else 1
    memo: dict[tuple[Any, ...], tuple[float, list[tuple[int, str]]]] = {}

    def leaf(cell: tuple[int, int], darkest: int) -> float:
        if darkest == 0:
            return 0.0
        wear = rs.wear_by_gear.get(darkest, 0)
        if wear and drafts(ix, opts, occ, Car(cell[0], cell[1], 0)):
            wear = 0
        return 0 - wear_weight * wear

    def best(cell: tuple[int, int], cnt: tuple[int, ...], darkest: int) -> tuple[float, list[tuple[int, str]]]:
        key = (cell, cnt, darkest)
        if key in memo:
            return memo[key]
        top: tuple[float, list[tuple[int, str]]] = (leaf(cell, darkest), [])
        for i, (k, shade) in enumerate(gears):
            if not cnt[i]:
                continue
            rest = cnt[:i] + (cnt[i] - 1,) + cnt[i + 1:]
            frontier = [(cell, 0)]
            for _step in range(reach):
                frontier = [((ln, s), a + (s - c[1]) % n) for c, a in frontier
                            for _sp, ln, s in step_targets(ix, opts, occ, c[0], c[1], (shade,))]
                for c2, a2 in frontier:
                    sc, path = best(c2, rest, max(darkest, shade))
                    sc += a2
                    if sc > top[0]:
                        top = (sc, [(k, f"to {c2[0]}:{c2[1]}")] + path)
        memo[key] = top
        return top

    score, path = best(head, counts, darkest0)
    return path if score > leaf(head, darkest0) else []


def _races(rs: Any, track: Any, seeds: range, players: int, deal: int = -1) -> tuple[int, int]:
    """Play greedy races; at each Action decision compare the bot's plan with the reference.
    With `deal`, a cube of that kind goes from the stock to the hand at every turn choice.
    Returns (decisions compared, of them with a non-empty plan)."""
    compared = nonempty = 0
    for seed in seeds:
        g = Game(rs, track, [Seat(f"P{i + 1}", "greedy") for i in range(players)], seed=seed, laps=1,
                 record=False)
        bots = [GreedyBot(seed * 10 + i) for i in range(players)]
        while g.pending is not None:
            d = g.pending
            if d.kind == "turn" and deal >= 0 and g.race.stock[deal]:
                g.race.stock[deal] -= 1
                g.race.players[d.player].zones[ACTIVE][deal] += 1
            if d.kind == "action":
                want = reference_plan(g, d.player)
                assert bots[d.player].plan(g, d.player) == want, (seed, g.decision_count)
                compared += 1
                nonempty += bool(want)
            g.apply(bots[d.player].choose(g, d))
    return compared, nonempty


@pytest.mark.parametrize("track", ["first-oval", "road-course"])
def test_the_planner_plans_as_the_plain_search_on_every_card_set(track: str) -> None:
    pack = base_pack()
    for i, cs in enumerate(sorted(pack.card_sets)):
        compared, nonempty = _races(ruleset_from_pack(pack, cs), pack.tracks[track], range(i, i + 1), 2 + i % 3)
        assert compared > 20 and nonempty > 5, cs


def test_the_planner_plans_as_the_plain_search_when_gear_cubes_go_two_spaces() -> None:
    pack = base_pack()
    rs = ruleset_from_pack(pack, "drag-strip")  # its engine card lets gear cubes go two spaces
    engine = next(k.index for k in rs.kinds if k.card == "fuel-injection-engine")
    reached = []
    orig = GreedyBot.plan

    def spy(self: GreedyBot, g: Game, me: int) -> list[tuple[int, str]]:
        if g.race.turn is not None and g.race.turn.gear_spaces is not None:
            reached.append(me)
        return orig(self, g, me)

    GreedyBot.plan = spy  # type: ignore[method-assign]
    try:
        compared, nonempty = _races(rs, pack.tracks["first-oval"], range(3), 4, deal=engine)
    finally:
        GreedyBot.plan = orig  # type: ignore[method-assign]
    assert len(reached) > 20 and nonempty > 10, "too few plans made with two spaces per gear cube"


@pytest.mark.parametrize("options", [{"weaving": True}, {"occupancy": "space"}, {"occupancy": "unlimited"}])
def test_the_planner_plans_as_the_plain_search_with_other_movement_options(options: dict[str, Any]) -> None:
    pack = base_pack()
    rs = ruleset_from_pack(pack).with_options(options)
    compared, nonempty = _races(rs, pack.tracks["road-course"], range(2), 4)
    assert compared > 40 and nonempty > 10


def test_a_hand_of_more_than_fifteen_cubes_of_one_gear_is_planned_with_wider_counts() -> None:
    pack = base_pack()
    rs = ruleset_from_pack(pack)
    g = Game(rs, pack.tracks["road-course"], [Seat("A", "greedy"), Seat("B", "greedy")], seed=5, laps=1,
             record=False)
    bots = [GreedyBot(0), GreedyBot(1)]
    first: list[tuple[int, str]] = []
    while not first:  # up to an Action decision with a plan (made with the narrow counts)
        g.apply(bots[g.pending.player].choose(g, g.pending))
        d = g.pending
        assert d is not None
        first = bots[d.player].plan(g, d.player) if d.kind == "action" else []
    g.race.players[d.player].zones[ACTIVE][first[0][0]] += 16
    want = reference_plan(g, d.player)
    assert want
    assert bots[d.player].plan(g, d.player) == want
    planner = bots[d.player]._planner
    assert planner is not None and planner.bits == 16


@pytest.mark.parametrize("drafting", ["segment_or_space", "segment", "space"])
def test_the_drafting_cells_are_what_the_drafting_test_asks_for(drafting: str) -> None:
    """The planner's drafting table (`draft_cells`) says a car drafts exactly when the engine's
    `drafts` does: with any one other car, and with a few at once."""
    import random

    pack = base_pack()
    opts = ruleset_from_pack(pack).with_options({"drafting": drafting}).options
    rng = random.Random(drafting)
    for track in pack.tracks.values():
        ix = track_index(track)
        cells = [(ln, s) for ln in range(track.lanes) for s in range(track.segments)]
        for ln, s in cells:
            car = Car(ln, s, 0)
            want = set(draft_cells(ix, opts, ln, s))
            for other in cells:
                assert drafts(ix, opts, {other: 1}, car) == (other in want), (track.id, ln, s, other)
            for _ in range(5):
                occ = {c: i for i, c in enumerate(rng.sample(cells, 3))}
                assert drafts(ix, opts, occ, car) == bool(want & occ.keys()), (track.id, ln, s, occ)


def test_one_planner_shared_by_every_seat_plans_as_the_plain_search() -> None:
    """As the look-ahead's playout bots do: one planner for every seat switches context (the
    other cars) at every turn and takes back the memo of a context it saw before."""
    pack = base_pack()
    rs = ruleset_from_pack(pack)
    compared = revisited = 0
    for seed in range(4):
        g = Game(rs, pack.tracks["road-course"], [Seat(f"P{i + 1}", "greedy") for i in range(3)], seed=seed,
                 laps=1, record=False)
        bots = [GreedyBot(seed * 10 + i) for i in range(3)]
        while g.pending is not None:
            d = g.pending
            if d.kind == "action":
                shared = next((b._planner for b in bots if b._planner is not None), None)
                for b in bots:
                    b._planner = shared
                if shared is not None:
                    revisited += len(shared.saved)
                for me in range(3):  # every seat's plan from here, each with its own context
                    assert bots[me].plan(g, me) == reference_plan(g, me), (seed, g.decision_count, me)
                    compared += 1
            g.apply(bots[d.player].choose(g, d))
    assert compared > 300 and revisited > 0
