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
the same, so the later plans of one turn (after each cube placed as planned) are look-ups, and
it keeps the memos of the last contexts it left (the cells of the other cars and `reach`): the
look-ahead's playout bots, which share one planner, come back to the same few contexts in
rollout after rollout.
(The search this replaced counted the cubes left only over the gear kinds in hand, so its
memo keys meant other things once a kind ran out or came back mid-turn; here the counts run
over every gear kind of the ruleset.)

Cells are integer codes (segment × (lanes + 1) + lane + 1) and the cubes left one integer
with `bits` bits per gear kind, so keys are small integers, cheap to build and hash. The
targets of a step come from a table per track: for each cell and shade, the front-most
segment of each space of that shade ahead, and every segment those spaces hold; when no other
car stands on any of them the front-most ones are the targets, as `step_targets` would give.
"""

from __future__ import annotations

from typing import Final

from slipstream.engine.core.byidentity import ByIdentity
from slipstream.engine.rulesets.automobiles.movement import (
    TrackIndex,
    draft_cells,
    occupancy,
    step_targets,
)
from slipstream.engine.rulesets.automobiles.rules import Ruleset
from slipstream.engine.rulesets.automobiles.state import RaceState

Move = tuple[int, str]  # (gear kind, "to LANE:SEGMENT")
# per target space ahead: its segments as (code, segments advanced), front-most first
Spaces = tuple[tuple[tuple[int, int], ...], ...]
# (front-most (code, advance) of each space, every code of those spaces, the spaces)
Steps = tuple[tuple[tuple[int, int], ...], frozenset[int], Spaces]

Held = dict[int, tuple[tuple[int, int, int, int], ...]]  # cubes left -> the gear kinds held
Tables = tuple[TrackIndex, dict[int, Steps], dict[int, str], dict[str, dict[int, frozenset[int]]],
               dict[tuple[tuple[int, int, int, int], ...], Held]]
_TABLES: ByIdentity[TrackIndex, Tables] = ByIdentity(lambda ix: (ix, {}, {}, {}, {}))  # by track index


def _tables(ix: TrackIndex) -> Tables:
    """The step table, move keys and drafting cells (`movement.draft_cells` by drafting
    option) of a track by cell code, and the gear kinds held by count of cubes left (per layout of gear
    kinds), shared by every planner on it: they depend on the track (and kinds) only, and fill
    in as they are used."""
    return _TABLES.get(ix)


def _steps(ix: TrackIndex, width: int, c: int, shade: int) -> Steps:
    """The table entry of cell code `c` and a shade (the order of `TrackIndex.steps_of_colour`)."""
    lane, seg = c % width - 1, c // width
    n = ix.n
    spaces = tuple(tuple((s * width + sp_lane + 1, (s - seg) % n) for s in segs)
                   for _sp, _colour, sp_lane, segs in ix.steps_of_colour(lane, seg, shade))
    return tuple(sp[0] for sp in spaces if sp), frozenset(x for sp in spaces for x, _ in sp), spaces


SAVED: Final = 256  # contexts whose memo a planner keeps (`GearPlanner._reset`)


class _Context:
    """What the search keeps of one context (`GearPlanner._reset`): the codes of the other
    cars' cells, and the memo, first moves, results and off-table targets found in it."""

    __slots__ = ("occ_codes", "memo", "moves", "results", "slow")

    def __init__(self, occ_codes: frozenset[int]) -> None:
        self.occ_codes = occ_codes
        self.memo: dict[int, float] = {}
        self.moves: dict[int, int] = {}
        self.results: dict[int, list[Move]] = {}
        self.slow: dict[int, tuple[tuple[int, int], ...]] = {}


class GearPlanner:
    """The search's tables for one ruleset and track, and its memo for one context (plain
    methods and typed fields rather than closures, so that a compiled build calls them
    natively; as fast in pure Python, measured)."""

    __slots__ = ("rules", "ix", "weight", "bits", "kinds", "width", "ncodes", "dark", "keys",
                 "context", "reach", "results", "memo", "moves", "nk", "shifts", "fast", "static", "present",
                 "slow", "occ", "occ_codes", "draft_of", "wear_leaf", "darker", "kind_steps", "mask",
                 "shades", "opts", "saved", "lanes", "segments")

    def __init__(self, rules: Ruleset, ix: TrackIndex, wear_weight: float, bits: int = 4) -> None:
        self.rules = rules
        self.ix = ix
        self.weight = wear_weight
        self.bits = bits  # per gear kind in the count of cubes left (at most 2**bits - 1)
        self.kinds = tuple(rules.gear_index.values())
        shades = tuple(rules.kinds[k].gear or 0 for k in self.kinds)
        self.shades = shades
        track = ix.track
        self.width = width = track.lanes + 1
        self.ncodes = ncodes = track.segments * width
        self.dark = dark = max([sp.colour for sp in track.spaces] + list(shades) + [0]) + 1
        _ix, static, self.keys, draft_at, held = _tables(ix)
        self.static = static
        self.lanes = track.lanes
        self.segments = track.segments
        # the context (`context_key`: the cells of the other cars and `reach`), -1 before the
        # first and while in one off the table of `context_key`
        self.context = -1
        self.reach = 0
        self.results: dict[int, list[Move]] = {}
        # node key -> its best score, and its first move (the key of the node it leads to × nk
        # + the gear index, -1 when standing still is best): ints and floats only, so Python's
        # cyclic collector never looks through them, and no tuple is made per node
        self.memo: dict[int, float] = {}
        self.moves: dict[int, int] = {}
        self.nk = len(self.kinds) + 1  # a move is (node key) × nk + gear index
        # context key -> what the search keeps of that context, the current one among them
        # (`_reset`)
        self.saved: dict[int, _Context] = {}
        opts = rules.options
        self.opts = opts
        # the table gives the engine's step targets when a car blocks exactly its own segment
        # and each space offers its front-most free segment; otherwise `step_targets` is asked
        self.fast = opts.occupancy == "segment" and not opts.weaving
        # -(weight × wear) of each darkest colour, as the search scores it (0.0 = no wear)
        self.wear_leaf = [0 - wear_weight * rules.wear_by_gear.get(c, 0) if c else 0.0
                          for c in range(dark)]
        self.darker = [[max(d, sh) for sh in shades] for d in range(dark)]
        self.mask = (1 << bits) - 1
        self.shifts = tuple((k, bits * i) for i, k in enumerate(self.kinds))  # (kind, its shift) (`count`)
        kinds = [(i, bits * i, 1 << (bits * i), sh * ncodes) for i, sh in enumerate(shades)]
        self.kind_steps = kinds  # per gear kind: (index, shift, unit of its count, step key base)
        # cubes left -> the gear kinds held (shared by the planners of this track and kinds)
        self.present = held.setdefault(tuple(kinds), {})
        self.slow: dict[int, tuple[tuple[int, int], ...]] = {}  # targets of this context off the table
        self.occ: dict[tuple[int, int], int] = {}  # `movement.occupancy`, off the fast table only
        self.occ_codes: frozenset[int] = frozenset()  # the codes of the other cars' cells
        self.draft_of = draft_at.setdefault(opts.drafting, {})  # cell code -> the cells it drafts behind

    def context_key(self, race: RaceState, me: int, reach: int) -> int:
        """The context of a plan for player `me` as one integer: the cell code of each other
        car in seat order, as digits in base `ncodes` (each from 1 to ncodes - 1, so the
        digits, and how many, read back from the number), then `reach` in 4 bits; -1 when a
        car stands off the track's cells or `reach` needs more bits (a context kept nowhere:
        `_reset`). Compiled, a few native sums per car, where a list of (lane, segment) tuples
        made per plan, compared and hashed, cost more (measured)."""
        if not 0 <= reach < 16:
            return -1
        width = self.width
        ncodes = self.ncodes
        lanes = self.lanes
        segments = self.segments
        key = 0
        i = 0
        for p in race.players:
            if i != me:
                car = p.car
                ln = car.lane
                s = car.segment
                if ln < 0 or ln >= lanes or s < 0 or s >= segments:
                    return -1
                key = key * ncodes + s * width + ln + 1
            i += 1
        return key * 16 + reach

    def _reset(self, race: RaceState, me: int, key: int, new_reach: int) -> None:
        """A new context (`context_key`): the other cars' cells, and their
        `movement.occupancy` where `step_targets` reads it (off the fast table). The memo,
        results and off-table targets of every context seen are kept (`saved`, up to SAVED
        contexts) and taken back when it comes again: they depend on the context only."""
        saved = self.saved
        got = saved.get(key) if key >= 0 else None
        if got is None:
            cells = []
            i = 0
            for p in race.players:
                if i != me:
                    cells.append(p.car.segment * self.width + p.car.lane + 1)
                i += 1
            got = _Context(frozenset(cells))
            if key >= 0:
                if len(saved) >= SAVED:
                    saved.clear()
                saved[key] = got
        self.memo, self.moves, self.results, self.slow = got.memo, got.moves, got.results, got.slow
        self.occ_codes = got.occ_codes
        if not self.fast:
            occ = self.occ
            occ.clear()
            occ.update(occupancy(race, me))
        self.reach = new_reach
        self.context = key

    def _draft_fill(self, c: int) -> frozenset[int]:
        """The cells of `movement.draft_cells` at c, as codes (once per track and option)."""
        width = self.width
        cells = self.draft_of[c] = frozenset(
            s * width + ln + 1 for ln, s in draft_cells(self.ix, self.opts, c % width - 1, c // width))
        return cells

    def _draft_test(self, c: int) -> bool:
        """`movement.drafts` of a car at c among the other cars (by its cells)."""
        cells = self.draft_of.get(c)
        if cells is None:
            cells = self._draft_fill(c)
        return not self.occ_codes.isdisjoint(cells)

    def leaf(self, c: int, darkest: int) -> float:
        """The score of standing at c with `darkest` entered (no wear when c drafts)."""
        v = self.wear_leaf[darkest]
        if v and self._draft_test(c):
            return 0.0
        return v

    def _targets(self, c: int, i: int) -> tuple[tuple[int, int], ...]:
        """(code, segments advanced) of each target of one step of gear kind i from c."""
        shade = self.shades[i]
        ncodes = self.ncodes
        width = self.width
        skey = shade * ncodes + c
        e = self.static.get(skey)
        if e is None:
            e = self.static[skey] = _steps(self.ix, width, c, shade)
        occ_codes = self.occ_codes
        if self.fast and occ_codes.isdisjoint(e[1]):
            return e[0]
        tg = self.slow.get(skey)
        if tg is None:
            if self.fast:
                out = []
                for cands in e[2]:
                    for cand in cands:
                        if cand[0] not in occ_codes:
                            out.append(cand)
                            break
                tg = tuple(out)
            else:
                seg = c // width
                n = self.ix.n
                tg = tuple((s * width + ln + 1, (s - seg) % n) for _sp, ln, s in
                           step_targets(self.ix, self.opts, self.occ, c % width - 1, seg, (shade,)))
            self.slow[skey] = tg
        return tg

    def node(self, key: int, c: int, cnt: int, darkest: int) -> float:
        """The best score from cell c with the cubes `cnt` left (memoised under `key`). The
        last cube's targets are scored here as a node with no cube left would score them,
        without a node of their own (the path ends where the memo has no node)."""
        memo = self.memo
        nk = self.nk
        occ_codes = self.occ_codes
        draft_of = self.draft_of
        wear_leaf = self.wear_leaf
        top = wear_leaf[darkest]  # standing at c (no wear when c drafts)
        if top:
            dc = draft_of.get(c)
            if dc is None:
                dc = self._draft_fill(c)
            if not occ_codes.isdisjoint(dc):
                top = 0.0
        move = -1
        dk = self.darker[darkest]
        r = self.reach
        ks = self.present.get(cnt)
        if ks is None:
            mask = self.mask
            ks = self.present[cnt] = tuple(x for x in self.kind_steps if cnt >> x[1] & mask)
        ncodes = self.ncodes
        dark = self.dark
        static = self.static
        fast = self.fast
        for i, _sh, unit, skey0 in ks:
            rest = cnt - unit
            d2 = dk[i]
            base = rest * ncodes
            if r == 1:
                e = static.get(skey0 + c)
                tg = e[0] if e is not None and fast and occ_codes.isdisjoint(e[1]) else self._targets(c, i)
                if rest:
                    for c2, a2 in tg:
                        ck = (base + c2) * dark + d2
                        got = memo.get(ck)
                        sc = (self.node(ck, c2, rest, d2) if got is None else got) + a2
                        if sc > top:
                            top = sc
                            move = ck * nk + i
                    continue
                v0 = wear_leaf[d2]  # the last cube: each target as a node with no cube left
                for c2, a2 in tg:
                    if v0:
                        dc = draft_of.get(c2)
                        if dc is None:
                            dc = self._draft_fill(c2)
                        sc = (v0 if occ_codes.isdisjoint(dc) else 0.0) + a2
                    else:
                        sc = v0 + a2
                    if sc > top:
                        top = sc
                        move = ((base + c2) * dark + d2) * nk + i
                continue
            frontier = [(c, 0)]
            for _step in range(r):
                nxt = []
                for c1, a in frontier:
                    for c2, da in self._targets(c1, i):
                        nxt.append((c2, a + da))
                frontier = nxt
                for c2, a2 in frontier:
                    ck = (base + c2) * dark + d2
                    got = memo.get(ck)
                    sc = (self.node(ck, c2, rest, d2) if got is None else got) + a2
                    if sc > top:
                        top = sc
                        move = ck * nk + i
        memo[key] = top
        self.moves[key] = move
        return top

    def key_of(self, c: int) -> str:
        """The move option key of cell code `c` ("to LANE:SEGMENT")."""
        got = self.keys.get(c)
        if got is None:
            got = self.keys[c] = f"to {c % self.width - 1}:{c // self.width}"
        return got

    def count(self, zone: list[int]) -> int:
        """The gear cubes of a hand (counts by kind index) as the search counts them, or -1 when
        a count needs more than `bits` bits."""
        # (worked out each time: compiled, a loop over the few gear kinds costs less than the
        # slice, tuple and dict look-up of the memo by hand this had)
        got = 0
        mask = self.mask
        for k, shift in self.shifts:
            n = zone[k]
            if n > mask:
                return -1
            got += n << shift
        return got

    def plan(self, race: RaceState, me: int, reach: int, head: tuple[int, int], zone: list[int],
             darkest0: int) -> list[Move]:
        """Best sequence of (gear kind, target key) for player `me` from `head`, with the gear
        cubes of `zone` (counts by kind index), or [] when no placement beats standing still.
        `darkest0` is the darkest colour entered this turn so far (0 = none)."""
        cnt0 = self.count(zone)
        if cnt0 < 0:
            raise OverflowError(max(zone[k] for k in self.kinds))
        return self.plan_from(race, me, reach, head[1] * self.width + head[0] + 1, cnt0, darkest0)

    def plan_from(self, race: RaceState, me: int, reach: int, h: int, cnt0: int,
                  darkest0: int) -> list[Move]:
        """`plan` from cell code `h` with the cubes `cnt0` (`count`)."""
        key = self.context_key(race, me, reach)
        if key != self.context or key < 0:
            self._reset(race, me, key, reach)
        root = (cnt0 * self.ncodes + h) * self.dark + darkest0
        got = self.results.get(root)
        if got is None:
            got = self.results[root] = self._solve(h, cnt0, darkest0, root)
        return got

    def _solve(self, h: int, cnt0: int, darkest0: int, root: int) -> list[Move]:
        got = self.memo.get(root)
        score = self.node(root, h, cnt0, darkest0) if got is None else got
        if not score > self.leaf(h, darkest0):
            return []
        path: list[Move] = []
        moves = self.moves
        nk, dark, ncodes = self.nk, self.dark, self.ncodes
        move = moves[root]
        while move >= 0:
            child = move // nk
            i = move - child * nk
            c2 = child // dark % ncodes  # the node key's cell (`node`)
            path.append((self.kinds[i], self.key_of(c2)))
            move = moves.get(child, -1)
        return path
