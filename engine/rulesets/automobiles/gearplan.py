"""The greedy bot's search of a turn's gear play: the best sequence of gear cubes to place.

From the route head the search tries every gear cube in hand, each to every cell it may
reach in `reach` steps of its colour, and scores an end cell by the segments advanced, less
`wear_weight` × the wear of the darkest colour entered this turn (none when the end cell
drafts). It is a memoised search over (cell, gear cubes left, darkest colour); the first best
sequence in a fixed order wins (gear kinds in the ruleset's order, then targets in the
engine's order), so equal scores always break the same way.

What a result depends on, and nothing else: the ruleset (gear kinds and their shades, wear by
gear, the movement options), the track, `reach`, the cells of the other cars, and the
arguments (head, counts, darkest). A `GearPlanner` keeps its memo while the first four stay
the same, so the later plans of one turn (after each cube placed as planned) are look-ups.
(The search this replaced counted the cubes left only over the gear kinds in hand, so its
memo keys meant other things once a kind ran out or came back mid-turn; here the counts run
over every gear kind of the ruleset.) Cells are integer codes (segment × (lanes + 1) + lane + 1) and gear counts one integer with
16 bits per gear kind, so keys are cheap to build and hash.
"""

from __future__ import annotations

from typing import Any

from slipstream.engine.rulesets.automobiles.movement import (
    TrackIndex,
    drafts,
    occupancy,
    step_targets,
)
from slipstream.engine.rulesets.automobiles.rules import Ruleset
from slipstream.engine.rulesets.automobiles.state import Car, RaceState

Move = tuple[int, str]  # (gear kind, "to LANE:SEGMENT")


Static = dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], ...]]
_TABLES: dict[int, tuple[TrackIndex, Static, dict[int, str]]] = {}  # by id of the track index


def _tables(ix: TrackIndex) -> tuple[Static, dict[int, str]]:
    """The step table and move keys of a track, shared by every planner on it (they depend on
    the track only, and fill in as cells are visited)."""
    got = _TABLES.get(id(ix))
    if got is None or got[0] is not ix:
        if len(_TABLES) >= 64:  # many tracks (editor, tests): start over rather than grow
            _TABLES.clear()
        got = _TABLES[id(ix)] = (ix, {}, {})
    return got[1], got[2]


class GearPlanner:
    """The search's tables for one ruleset and track, and its memo for one context."""

    __slots__ = ("rules", "ix", "kinds", "shades", "width", "ncodes", "dark", "static", "keys",
                 "weight", "context", "results", "memo", "best", "leaf", "_reset")

    def __init__(self, rules: Ruleset, ix: TrackIndex, wear_weight: float) -> None:
        self.rules = rules
        self.ix = ix
        self.weight = wear_weight
        self.kinds = tuple(rules.gear_index.values())
        self.shades = shades = tuple(rules.kinds[k].gear or 0 for k in self.kinds)
        track = ix.track
        self.width = width = track.lanes + 1
        self.ncodes = ncodes = track.segments * width
        self.dark = dark = max([sp.colour for sp in track.spaces] + list(shades) + [0]) + 1
        self.static, self.keys = static, _keys = _tables(ix)
        self.context: Any = None
        self.results: dict[int, list[Move]] = {}
        self.memo: dict[int, tuple[float, Any]] = {}
        opts = rules.options
        # the engine's step targets, recomputed here from the track index without a call per
        # step: valid when a car blocks exactly its own segment and targets are front-most
        fast = opts.occupancy == "segment" and not opts.weaving
        # -(weight × wear) of each darkest colour, as the search scores it (0.0 = no wear)
        wear_leaf = [0 - wear_weight * rules.wear_by_gear.get(c, 0) if c else 0.0
                     for c in range(dark)]
        darker = [[max(d, sh) for sh in shades] for d in range(dark)]
        kinds = [(i, 1 << (16 * i)) for i in range(len(shades))]
        nk = len(shades)
        memo = self.memo
        tcache: dict[int, list[tuple[int, int]]] = {}
        dcache: dict[int, bool] = {}
        occ: dict[tuple[int, int], int] = {}
        occ_codes: set[int] = set()
        reach = [1]
        make_static = self._static

        def reset(new_occ: dict[tuple[int, int], int], new_reach: int) -> None:
            memo.clear()
            tcache.clear()
            dcache.clear()
            self.results.clear()
            occ.clear()
            occ.update(new_occ)
            occ_codes.clear()
            occ_codes.update(ln_s[1] * width + ln_s[0] + 1 for ln_s in occ)
            reach[0] = new_reach

        def leaf(c: int, darkest: int) -> float:
            v = wear_leaf[darkest]
            if v:
                dr = dcache.get(c)
                if dr is None:
                    dr = dcache[c] = drafts(ix, opts, occ, Car(c % width - 1, c // width, 0))
                if dr:
                    return 0.0
            return v

        def targets(c: int, i: int) -> list[tuple[int, int]]:
            shade = shades[i]
            if fast:
                sts = static.get((c, shade))
                if sts is None:
                    sts = make_static(c, shade)
                tg = []
                for cands in sts:
                    for cand in cands:
                        if cand[0] not in occ_codes:
                            tg.append(cand)
                            break
            else:
                lane, seg = c % width - 1, c // width
                n = ix.n
                tg = [(s * width + ln + 1, (s - seg) % n)
                      for _sp, ln, s in step_targets(ix, opts, occ, lane, seg, (shade,))]
            tcache[c * nk + i] = tg
            return tg

        def best(c: int, cnt: int, darkest: int) -> float:
            key = (cnt * ncodes + c) * dark + darkest
            got = memo.get(key)
            if got is not None:
                return got[0]
            # the leaf: standing at c (no wear when c drafts)
            top = wear_leaf[darkest]
            if top:
                dr = dcache.get(c)
                if dr is None:
                    dr = dcache[c] = drafts(ix, opts, occ, Car(c % width - 1, c // width, 0))
                if dr:
                    top = 0.0
            move: Any = None
            dk = darker[darkest]
            r = reach[0]
            for i, unit in kinds:
                if not (cnt // unit) & 0xFFFF:
                    continue
                rest = cnt - unit
                d2 = dk[i]
                tg = tcache.get(c * nk + i)
                if tg is None:
                    tg = targets(c, i)
                if r == 1:
                    for c2, a2 in tg:
                        sc = best(c2, rest, d2) + a2
                        if sc > top:
                            top = sc
                            move = (i, c2, (rest * ncodes + c2) * dark + d2)
                    continue
                frontier = [(c, 0)]
                for _step in range(r):
                    nxt = []
                    for c1, a in frontier:
                        t1 = tcache.get(c1 * nk + i)
                        if t1 is None:
                            t1 = targets(c1, i)
                        for c2, da in t1:
                            nxt.append((c2, a + da))
                    frontier = nxt
                    for c2, a2 in frontier:
                        sc = best(c2, rest, d2) + a2
                        if sc > top:
                            top = sc
                            move = (i, c2, (rest * ncodes + c2) * dark + d2)
            memo[key] = (top, move)
            return top

        self.best = best
        self.leaf = leaf
        self._reset = reset

    # ------------------------------------------------------------------ cells
    def code(self, lane: int, seg: int) -> int:
        return seg * self.width + lane + 1

    def key_of(self, c: int) -> str:
        """The move option key of cell code `c` ("to LANE:SEGMENT")."""
        got = self.keys.get(c)
        if got is None:
            got = self.keys[c] = f"to {c % self.width - 1}:{c // self.width}"
        return got

    def _static(self, c: int, shade: int) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per target space of colour `shade` ahead of cell `c`: its (code, advance) pairs,
        front-most first (the order of `TrackIndex.steps_of_colour`)."""
        w = self.width
        lane, seg = c % w - 1, c // w
        n = self.ix.n
        got = self.static[(c, shade)] = tuple(
            tuple((s * w + sp_lane + 1, (s - seg) % n) for s in segs)
            for _sp, _colour, sp_lane, segs in self.ix.steps_of_colour(lane, seg, shade))
        return got

    # ------------------------------------------------------------------ search
    def plan(self, race: RaceState, me: int, reach: int, head: tuple[int, int], zone: list[int],
             darkest0: int) -> list[Move]:
        """Best sequence of (gear kind, target key) for player `me` from `head`, with the gear
        cubes of `zone` (counts by kind index), or [] when no placement beats standing still."""
        others = [reach]
        for i, p in enumerate(race.players):
            if i != me:
                others.append(p.car.lane)
                others.append(p.car.segment)
        if others != self.context:
            self.context = others
            self._reset(occupancy(race, me), reach)
        cnt0 = 0
        shift = 0
        for k in self.kinds:
            cnt0 += min(zone[k], 0xFFFF) << shift
            shift += 16
        h = head[1] * self.width + head[0] + 1
        root = (cnt0 * self.ncodes + h) * self.dark + darkest0
        got = self.results.get(root)
        if got is None:
            got = self.results[root] = self.solve(h, cnt0, darkest0, root)
        return got

    def solve(self, h: int, cnt0: int, darkest0: int, root: int) -> list[Move]:
        score = self.best(h, cnt0, darkest0)
        if not score > self.leaf(h, darkest0):
            return []
        memo = self.memo
        path: list[Move] = []
        move = memo[root][1]
        while move is not None:
            i, c2, child = move
            path.append((self.kinds[i], self.key_of(c2)))
            move = memo[child][1]
        return path
