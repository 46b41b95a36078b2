"""Greedy's ratings (docs/rules/formula-de.md, "Bots"), shared by the `greedy` and `lookahead` bots.

`score` rates a destination by the squares it gains less the wear it costs (braking, a
blocked lane, tyres lost overshooting) and a large penalty for an elimination, with a bonus
for a stop still owed in a corner and a penalty for standing too fast before a corner;
`gear_values` rates each gear by the average over its die's faces of the best destination's
score; `pit_choice` is greedy's pit lane.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any, Final

from slipstream.engine.play.decisions import Decision
from slipstream.engine.rulesets.formula_de import rules
from slipstream.engine.rulesets.formula_de.game import Car, FormulaDeGame, Target
from slipstream.engine.rulesets.formula_de.moves import ByTrack, exits, required_stops
from slipstream.engine.tracks.corners import corner_at, next_corner
from slipstream.engine.tracks.track import Corner, Track

OUT: Final = -1000.0
WEAR: Final = 2.5  # squares a wear point is worth
STOP: Final = 4.0  # worth of a stop still owed


def score(game: FormulaDeGame, car: Car, t: Target, gear: int, occ: dict[int, int]) -> float:
    """How good stopping on `t` is for `car` (driving in `gear` next turn; `occ` the occupied
    squares)."""
    return Scorer(game, car, occ).score(t, gear)


def _node_facts_(track: Track) -> list[tuple[int, Corner | None, Corner | None]]:
    """Per square: its segment, the corner it stands in and the next corner ahead."""
    return [(sp.first, corner_at(track, sp.first), next_corner(track, sp.first)) for sp in track.spaces]


_node_facts = ByTrack(_node_facts_)
# value before the corner penalties, and the stops owed and room of each penalty (0 stops:
# none), and the brake points left to meet it
Prepared = tuple[float, int, int, int, int, int]
NOT_PREPARED: Final[Prepared] = (OUT, 0, 0, 0, 0, 0)


class Place:
    """What ending a move of so many squares on a square means, whatever the braking:
    eliminated by a corner left (`out`), squares owed past corners, the value before wear and
    corner penalties, and the stops owed and room of each penalty (`prepare_at`). A class, not
    a tuple: compiled, a tuple of fixed types is unpacked when read from a table and made anew
    when stored or returned, where an object is passed as it is."""

    def __init__(self, out: bool, owed: int, value: float, t1: int, r1: int, t2: int, r2: int) -> None:
        self.out, self.owed, self.value = out, owed, value
        self.t1, self.r1, self.t2, self.r2 = t1, r1, t2, r2


class Scorer:
    """`score` for one car at one decision: the car's wear, and per square (and squares
    driven) the corners left, the neighbours and the corner ahead are worked out once, not
    per destination and gear."""

    def __init__(self, game: FormulaDeGame, car: Car, occ: dict[int, int]) -> None:
        self.game, self.car, self.occ = game, car, occ
        self.facts = _node_facts.get(game.track)
        self.n = game.track.segments
        self.start = game.track.spaces[car.node].first
        self.tyres = game.points(car, "tyres")
        self.brakes = game.points(car, "brakes")
        # tyre points an overshoot may still demand before the 1-lap tyre limit eliminates the car
        self.toll_room = rules.ONE_LAP_TYRE_LIMIT - car.tyre_toll if game.laps == 1 and not game.pool else 1 << 20
        body = game.points(car, "body")
        # each neighbour: a 1-in-20 roll for it and one for us; the last body point is the car
        self.near_cost = 0.5 + (8.0 if body <= 1 else 1.0)
        self.wear: dict[str, int] | None = None  # `wear_view`, when a blocked move asks for it
        self.slow = _slowest(game.tables.gears)
        # places by `steps * m + node` (m: the track's squares): an int key, no tuple to make
        self.m = len(game.track.spaces)
        self.places: dict[int, Place] = {}
        # per squares driven: the corners left under-stopped, whether one eliminates, squares owed
        self.left: dict[int, tuple[list[Any], bool, int]] = {}
        self.blocked: dict[int, int | None] = {}
        self.prepared: dict[tuple[int, int, int, int], Prepared] = {}
        self.tolls: dict[tuple[int, int], int | None] = {}  # `_toll`'s
        # `best`'s places per squares driven (`_row`), of the car's layers (`layers_for`)
        self.rows: dict[int, list[Place]] = {}
        # the car's layers for the largest roll asked (`layers_for`; -1: none yet)
        self.layers: list[list[int]] = []
        self.roll = -1
        # the per-track tables `_place` reads (looked up once, not per square)
        self.neighbours = game.neighbour_table()
        self.exit_memo = _exit_cache.get(game.track)
        memo = _place_memo.get(game.track)  # `_base_place`'s for this start, corner and stops
        at = (self.start, car.corner, car.stops)
        bases = memo.get(at)
        if bases is None:
            bases = memo[at] = {}
        self.place_memo = bases

    def _place(self, node: int, steps: int) -> Place:
        key = steps * self.m + node
        base = self.place_memo.get(key)
        if base is None:
            base = self.place_memo[key] = self._base_place(node, steps)
        seat, occ = self.car.seat, self.occ  # `len(game.neighbours_at(node, car.seat, occ))`
        near = 0
        for m in self.neighbours[node]:
            if m in occ and occ[m] != seat:
                near += 1
        if near:
            base = Place(base.out, base.owed, base.value - near * self.near_cost, base.t1, base.r1, base.t2, base.r2)
        self.places[key] = base
        return base

    def _base_place(self, node: int, steps: int) -> Place:
        """`_place` before the neighbours' cost: a function of the track, the square, the
        squares driven and where the move starts (its segment, corner and stops made), kept per
        track (`_place_memo`). (Every number here is a multiple of 0.5: the neighbours' cost
        taken off afterwards gives the same value.)"""
        game, car = self.game, self.car
        left = self.left.get(steps)
        if left is None:
            key = (self.start, steps, car.corner, car.stops)  # `_exits`, with this track's memo
            found = self.exit_memo.get(key)
            if found is None:
                found = self.exit_memo[key] = exits(game.track, self.start, steps, car.corner, car.stops)
            ex = found
            out = any(rules.overshoot_eliminates(e.required, e.made) for e in ex)
            left = self.left[steps] = (ex, out, sum(e.past for e in ex))
        ex, out, owed = left
        value = float(steps)
        end, c, ahead = self.facts[node]
        n = self.n
        t1 = r1 = t2 = r2 = 0  # a penalty counts only for stops owed after this turn (t > 0)
        if c is not None and not ex:
            made = car.stops if c.index == car.corner else 0
            need = required_stops(c)
            if made < need:
                value += STOP
            t1, r1 = need - made - 1, (c.last - end) % n
        if ahead is not None and (c is None or ex):
            t2, r2 = required_stops(ahead), (ahead.last - end) % n
        return Place(out, owed, value, max(0, t1), r1, max(0, t2), r2)

    def wear_points(self) -> dict[str, int]:
        """The car's points by category (`FormulaDeGame.wear_view`)."""
        if self.wear is None:
            self.wear = self.game.wear_view(self.car)
        return self.wear

    def _blocked(self, absorbed: int) -> int | None:
        if absorbed not in self.blocked:
            cost = rules.blocked_cost(absorbed)
            ok = cost is not None and rules.can_pay(self.wear_points(), cost, self.game.pool)
            self.blocked[absorbed] = sum(cost.values()) if ok and cost is not None else None
        return self.blocked[absorbed]

    def score(self, t: Target, gear: int) -> float:
        return self.finish(self.prepare(t), gear)

    def prepare(self, t: Target) -> Prepared:
        return self.prepare_at(t.node, t.steps, t.brake, t.absorbed)

    def prepare_at(self, node: int, steps: int, brake: int, absorbed: int) -> Prepared:
        """The part of `score` that does not depend on the gear: the value before the
        penalties for standing too fast before a corner, and what those need. (Every number
        here is a multiple of 0.5, so sums are exact in any order.)"""
        place = self.places.get(steps * self.m + node)
        if place is None:
            place = self._place(node, steps)
        owed, value = place.owed, place.value
        if place.out:
            return NOT_PREPARED
        wear = brake
        if absorbed:
            paid = self._blocked(absorbed)
            if paid is None:
                return NOT_PREPARED
            wear += paid
        if owed:
            toll = self._toll(owed, brake)
            if toll is None:
                return NOT_PREPARED
            wear += toll
        return value - WEAR * wear, place.t1, place.r1, place.t2, place.r2, max(0, self.brakes - brake)

    def _toll(self, owed: int, brake: int) -> int | None:
        """The wear an overshoot owing `owed` squares costs after braking `brake` squares, all
        of it on the tyres (a spin counts 6 more), None when it eliminates the car; kept in
        `tolls`. (A share on the brakes is a braked square, a destination of its own.)"""
        left, outcome = rules.tyre_loss(self.tyres, owed)
        toll: int | None = None
        if outcome != "out" and owed <= self.toll_room:
            toll = owed + (6 if outcome == "spin" else 0)
        self.tolls[owed, brake] = toll
        return toll

    def finish(self, p: Prepared, gear: int) -> float:
        """`prepare`'s value less the penalties for standing too fast before a corner in `gear`."""
        value, t1, r1, t2, r2, brakes = p
        if t1 > 0:
            over = self.slow.need(gear, t1) - r1
            if over > 0:
                value -= WEAR * over + (50.0 if over > brakes else 0.0)
        if t2 > 0:
            over = self.slow.need(gear, t2) - r2
            if over > 0:
                value -= WEAR * over + (50.0 if over > brakes else 0.0)
        return value

    def layers_for(self, roll: int) -> list[list[int]]:
        """`FormulaDeGame.layers` of the car for `roll` with the other cars where they are (those
        of a larger roll asked before, cut to this one: `best` keeps its rows for them)."""
        if self.roll >= roll:
            return self.layers[: roll + 1]
        layers = self.game.layers(self.car, roll, self.occ)
        self.layers, self.roll = layers, roll
        return layers

    def best(self, layers: list[list[int]], roll: int, gear: int) -> float:
        """The best score among the destinations of `roll` (those `FormulaDeGame.targets`
        offers, from `layers_for` that roll or a larger one) for a car driving on in `gear`.
        A destination scores at most its squares less its braking plus the bonus for a stop,
        so the scan, least braking first, stops where that bound cannot beat the best so far.
        (`destinations` with `prepare_at` and `finish`, written out for a destination that
        leaves no corner short: this runs for every face of every gear die.)"""
        best = float("-inf")
        far = min(len(layers) - 1, roll)
        if far != roll:
            absorbed = roll - far
            prepared = self.prepared
            bound = far - WEAR * 0 + STOP
            for node in layers[far]:
                if bound <= best:
                    return best
                key = (node, far, 0, absorbed)
                p = prepared.get(key)
                if p is None:
                    p = prepared[key] = self.prepare_at(node, far, 0, absorbed)
                v = self.finish(p, gear)
                if v > best:
                    best = v
            return best
        brakes = self.brakes
        needs = self.slow.row(gear)  # `need(gear, t)` for the stops owed t a corner can ask
        rows = self.rows  # `layers` are this square's (`layers_for`): its rows serve
        for k in range(roll, max(-1, roll - brakes - 1), -1):
            brake = roll - k
            bound = k - WEAR * brake + STOP
            if bound <= best:
                return best
            row = rows.get(k)
            if row is None:
                row = rows[k] = self._row(layers[k], k)
            for place in row:
                out, owed, value, t1, r1, t2, r2 = place.out, place.owed, place.value, place.t1, place.r1, place.t2, place.r2
                wear = brake
                if owed and not out:
                    toll = self.tolls.get((owed, brake), -1)
                    if toll == -1:
                        toll = self._toll(owed, brake)
                    if toll is None:
                        out = True
                    else:
                        wear += toll
                if out:
                    v = OUT
                else:  # `finish(prepare_at(...))`
                    v = value - WEAR * wear
                    spare = brakes - brake  # >= 0: k is never below roll - brakes
                    if t1 > 0:
                        over = (needs[t1] if t1 < len(needs) else self.slow.need(gear, t1)) - r1
                        if over > 0:
                            v -= WEAR * over + (50.0 if over > spare else 0.0)
                    if t2 > 0:
                        over = (needs[t2] if t2 < len(needs) else self.slow.need(gear, t2)) - r2
                        if over > 0:
                            v -= WEAR * over + (50.0 if over > spare else 0.0)
                if v > best:
                    best = v
        return best

    def _row(self, nodes: list[int], k: int) -> list[Place]:
        """The places of the squares `nodes` reached in `k` steps, as `best` rates them: when
        they differ only in their value (the squares of one segment: the same corners, the
        same corners left, only their neighbours differ), the best of them alone, since every
        rating of a destination is its value less what the rest asks."""
        places = []
        known, at = self.places, k * self.m
        for node in nodes:
            place = known.get(at + node)
            places.append(self._place(node, k) if place is None else place)
        first = places[0]
        top = first
        for i in range(1, len(places)):
            place = places[i]
            if (place.out != first.out or place.owed != first.owed or place.t1 != first.t1 or place.r1 != first.r1
                    or place.t2 != first.t2 or place.r2 != first.r2):
                return places
            if place.value > top.value:
                top = place
        return [top]

    def gear_value(self, layers: list[list[int]], gear: int, faces: tuple[int, ...], downshift: float,
                   floor: float = float("-inf"), most: dict[int, float] | None = None) -> float:
        """`gear_values`' figure for `gear` (its die's `faces`; `downshift` the wear its shift
        costs, as squares): the average best score over the faces, less the shift. With a
        `floor`, -inf as soon as the figure is sure to fall below it, `most` giving per roll
        the most its best score can be (`ceilings`); every sum here is exact (multiples of
        0.5), so a figure worked out to the end is the same in any order."""
        n = len(faces)
        total = 0.0
        counts = _counts(faces)
        if floor == float("-inf") or most is None:
            for roll, count in counts:
                total += count * self.best(layers, roll, gear)
            return total / n - downshift
        rest = 0.0  # the most the faces not yet worked out can add
        for roll, count in counts:
            rest += count * most[roll]
        if rest / n - downshift < floor:
            return float("-inf")
        for roll, count in counts:
            total += count * self.best(layers, roll, gear)
            rest -= count * most[roll]
            if (total + rest) / n - downshift < floor:
                return float("-inf")
        return total / n - downshift

    def ceilings(self, layers: list[list[int]], rolls: Collection[int]) -> dict[int, float]:
        """Per roll, the most `best` can give: a destination scores at most its squares, less
        2.5 a square braked, plus the bonus for a stop where its square is in a corner (so
        the roll's own squares, or one braked into a corner; two or more braked squares score
        less than the roll's own). When blocked, the squares driven (and a stop's bonus)."""
        inside = _in_corner.get(self.game.track)
        # per squares driven k: whether a square reached in k steps is in a corner
        corner = [False] * len(layers)
        for k, layer in enumerate(layers):
            for node in layer:
                if inside[node]:
                    corner[k] = True
                    break
        far = len(layers) - 1
        out: dict[int, float] = {}
        for roll in rolls:
            if far < roll:
                out[roll] = far + (STOP if corner[far] else 0.0)
                continue
            most = roll + (STOP if corner[roll] else 0.0)
            if roll >= 1 and self.brakes >= 1 and corner[roll - 1]:
                most = max(most, roll - 1 - WEAR + STOP)
            out[roll] = most
        return out


def destinations(layers: list[list[int]], roll: int, brakes: int) -> Iterator[tuple[int, int, int, int]]:
    """(square, squares driven, squares braked, squares absorbed) of every destination
    `FormulaDeGame.targets` gives for `roll`, least braking first (a test keeps the two equal)."""
    far = min(len(layers) - 1, roll)
    if far == roll:
        for k in range(roll, max(-1, roll - brakes - 1), -1):
            for node in layers[k]:
                yield node, k, roll - k, 0
    else:
        for node in layers[far]:
            yield node, far, 0, roll - far


class Slowest:
    """`need(gear, turns)`: the fewest squares a car in `gear` drives over the next `turns`
    turns, shifting down one gear a turn for free (per gear dice, worked out once)."""

    def __init__(self, gears: tuple[tuple[int, ...], ...]) -> None:
        self.gears = gears
        self.table: dict[tuple[int, int], int] = {}
        self.rows: dict[int, list[int]] = {}

    def row(self, gear: int) -> list[int]:
        """`need(gear, t)` for t = 0..7 (a corner asks for 3 stops at most in the bundled
        tracks; `need` answers for more)."""
        hit = self.rows.get(gear)
        if hit is None:
            hit = self.rows[gear] = [self.need(gear, t) for t in range(8)]
        return hit

    def need(self, gear: int, turns: int) -> int:
        hit = self.table.get((gear, turns))
        if hit is None:
            gears = self.gears
            hit = self.table[gear, turns] = sum(min(gears[max(0, gear - 1 - i)]) for i in range(1, turns + 1))
        return hit


_slowest_tables: dict[int, tuple[tuple[tuple[int, ...], ...], Slowest]] = {}


def _slowest(gears: tuple[tuple[int, ...], ...]) -> Slowest:
    hit = _slowest_tables.get(id(gears))
    if hit is None or hit[0] is not gears:
        hit = _slowest_tables[id(gears)] = (gears, Slowest(gears))
    return hit[1]


def _exits(game: FormulaDeGame, start: int, steps: int, corner: int, stops: int) -> list[Any]:
    """`moves.exits`, kept per track: a pure function of the track and its arguments."""
    cache = _exit_cache.get(game.track)
    key = (start, steps, corner, stops)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = exits(game.track, start, steps, corner, stops)
    return hit


def _new_exit_memo(track: Track) -> dict[tuple[int, int, int, int], list[Any]]:
    return {}


_exit_cache: ByTrack[dict[tuple[int, int, int, int], list[Any]]] = ByTrack(_new_exit_memo)


# per square: whether it is in a corner
_in_corner = ByTrack(lambda track: [fact[1] is not None for fact in _node_facts.get(track)])


def _new_place_memo(track: Track) -> dict[tuple[int, int, int], dict[int, Place]]:
    return {}


# `Scorer._base_place` per (start segment, corner, stops made), then per squares driven and
# square (`steps * len(track.spaces) + node`)
_place_memo: ByTrack[dict[tuple[int, int, int], dict[int, Place]]] = ByTrack(_new_place_memo)


def gear_values(game: FormulaDeGame, car: Car, keys: Sequence[str], slack: float = -1.0,
                sc: Scorer | None = None) -> dict[str, float]:
    """Per gear option: the average over the gear die's faces of the best destination's score,
    less the downshift's wear (greedy's gear choice takes the first best). With `slack` >= 0,
    a gear sure to rate more than `slack` below the best is left at -inf, not worked out (the
    best gear and every gear within `slack` of it get their exact figures: the choices made
    from them are the same). `sc`: greedy's ratings of `car` now, when the caller has them."""
    return dict(zip(keys, gear_figures(game, car, [int(k.split()[1]) for k in keys], slack, sc=sc), strict=True))


def gear_figures(game: FormulaDeGame, car: Car, gears: Sequence[int], slack: float = -1.0,
                 floor: float = float("-inf"), sc: Scorer | None = None) -> list[float]:
    """`gear_values` by gear number, in the order of `gears`; with `slack`, the highest gears
    (the likeliest best) are worked out first, and a gear sure to rate below `floor` less
    `slack` is not worked out either (-inf, all of them when none can reach it)."""
    if sc is None:
        sc = Scorer(game, car, game.occupied(car.seat))
    dice = game.tables.gears
    top = 0
    for g in gears:
        top = max(top, _top(dice[g - 1]))
    layers = sc.layers_for(top)
    shift = [_shift_wear(car.gear, g) for g in gears]
    if slack < 0:
        return [sc.gear_value(layers, g, dice[g - 1], w) for g, w in zip(gears, shift, strict=True)]
    values = [float("-inf")] * len(gears)
    best = floor
    most = sc.ceilings(layers, {f for g in gears for f in dice[g - 1]})
    for i in sorted(range(len(gears)), key=lambda i: -gears[i]):
        v = values[i] = sc.gear_value(layers, gears[i], dice[gears[i] - 1], shift[i], best - slack, most)
        if v > best:
            best = v
    return values


_shift_wears: dict[tuple[int, int], float] = {}


def _shift_wear(old: int, new: int) -> float:
    """The wear a shift from `old` to `new` costs, as squares (greedy's figure)."""
    hit = _shift_wears.get((old, new))
    if hit is None:
        hit = _shift_wears[old, new] = WEAR * sum((rules.downshift_cost(old, new) or {}).values())
    return hit


_face_counts: dict[int, tuple[tuple[int, ...], list[tuple[int, int]], int]] = {}


def _faces_of(faces: tuple[int, ...]) -> tuple[tuple[int, ...], list[tuple[int, int]], int]:
    hit = _face_counts.get(id(faces))
    if hit is None or hit[0] is not faces:
        if len(_face_counts) > 64:
            _face_counts.clear()
        hit = _face_counts[id(faces)] = (faces, [(roll, faces.count(roll)) for roll in set(faces)], max(faces))
    return hit


def _counts(faces: tuple[int, ...]) -> list[tuple[int, int]]:
    """(roll, how many faces show it) per roll of a die, in the order of `set(faces)`."""
    return _faces_of(faces)[1]


def _top(faces: tuple[int, ...]) -> int:
    """The highest face of a die."""
    return _faces_of(faces)[2]


def pit_choice(game: FormulaDeGame, car: Car, d: Decision) -> str:
    """The pit lane, for greedy and lookahead: enter it when the box gives back at least half the
    race's tyre points (never below 2); inside it, the highest gear up to 4th (the box stops the
    car anyway)."""
    if d.kind == "pit":
        full = game.race_wear()["tyres"]
        gain = car.tyres_lost if game.pool else full - game.points(car, "tyres")
        return "pit" if gain >= max(2, full // 2) else "stay out"
    gears = [int(k.split()[1]) for k in d.keys()]
    return f"gear {max((g for g in gears if g <= 4), default=min(gears))}"
