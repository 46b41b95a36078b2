"""The `greedy` bot of the speed-and-hazard ruleset.

It scores each speed it could drive at this turn by the squares gained (with a little worth for
the speed it carries into the next turn) less the hazard cards it would owe entering the next
curve, this turn or on the turns after even braking as hard as it can; it draws nitrous when
the deck's expected speed, less the explosions' expected damage, beats every plain amount (two
greedy cars that do won 74 of 100 four-car races against two that never do). It heads for the
pit road when its maximum is low or it holds an insanity, rams from the side when a rival is level or ahead, and
steers clear of tokens, blocked lanes and curve lanes whose limit it exceeds. It sees only what
a player sees: the board, the speedometers and its own cards; never the cards other seats have
chosen this round.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any, Final

from slipstream.engine.play.decisions import Decision
from slipstream.engine.rulesets.speed_hazard import rules
from slipstream.engine.rulesets.speed_hazard.game import Car, SpeedHazardGame
from slipstream.engine.tracks.corners import speed_limit
from slipstream.engine.tracks.movegraph import ByIdentity
from slipstream.engine.tracks.track import Track

HAZARD: Final = 4.0  # squares a hazard card is worth
MOMENTUM: Final = 0.35  # worth of a square of speed carried into the next turn
PIT_MAXIMUM: Final = 80  # pits at or below this maximum
BIG: Final = 100.0
DAMAGE_POINT: Final = 3.0  # squares a point of maximum speed is worth
MAX_BRAKE: Final = 40  # the Brake card's largest step (the pack's brake amounts)
MEMO_CAP: Final = 20_000  # cars' tables of speed values kept per track before the memo starts afresh


def _ahead_(track: Track) -> list[tuple[int, int, tuple[int, ...]]]:
    """Per segment: squares to the next curve entry, that curve's index and its per-lane limits."""
    n = track.segments
    entries = {c.first: c for c in track.corners if 0 <= c.first < n}
    out: list[tuple[int, int, tuple[int, ...]]] = []
    for s in range(n):
        for d in range(1, n + 1):
            c = entries.get((s + d) % n)
            if c is not None:
                lims = tuple((speed_limit(track, ln, c.first) or 999) for ln in range(track.lanes))
                out.append((d, c.index, lims))
                break
        else:
            out.append((n * 10, -1, (999,) * track.lanes))
    return out


_ahead_tables = ByIdentity(_ahead_)
_last_ahead: list[Any] = [None, []]  # the last track asked for and its table


def _ahead(track: Track) -> list[tuple[int, int, tuple[int, ...]]]:
    """`_ahead_` of `track`, worked out once per track (the last one answered at once: the
    bots ask for it at every speed and step they rate)."""
    last = _last_ahead
    if last[0] is not track:
        last[1] = _ahead_tables(track)
        last[0] = track
    table: list[tuple[int, int, tuple[int, ...]]] = last[1]
    return table


def wants_pit(game: SpeedHazardGame, car: Car) -> bool:
    if game.track.pit is None:
        return False
    left = car.goal - car.progress
    if left < game.track.segments // 2:  # nearly home: only a crawling car stops
        return car.maximum <= 40
    return car.maximum <= PIT_MAXIMUM or bool(car.insanity)


def _entry(game: Any) -> tuple[int, int] | None:
    """(segment of the main pit entry square, its speed limit), None without a pit road."""
    pit = game.track.pit
    e = next((e for e in pit.entries if e.main), None) if pit is not None else None
    sp = game.track.space_named(e.cell) if e is not None else None
    return (sp.first, e.speed or 0) if sp is not None and e is not None else None


def speed_values(game: SpeedHazardGame, car: Car) -> dict[int, float]:
    """The worths of the speeds `car` could drive at this turn worked out so far (speed ->
    `speed_value`), kept with the track's board by what they read of the car: its square, its
    grip, the curve it drives through freely, whether it heads for the pit road and (on a
    curve, where accelerating costs) its speed now. The bots and look-ahead rollouts ask for
    the same values again and again."""
    b = game.b
    node = car.node
    grip = sum(game.equip_by_id[e].grip for e in car.equipment) if car.equipment else 0
    hi = b.corner[node]
    key = (node, grip, hi >= 0 and car.free_corner == game.track.corners[hi].index, wants_pit(game, car),
           car.speed if hi >= 0 else -1, game.o_accel)
    memo = b.values
    table = memo.get(key)
    if table is None:
        if len(memo) >= MEMO_CAP:
            memo.clear()
        table = memo[key] = {}
    return table


def value_in(table: dict[int, float], game: SpeedHazardGame, car: Car, s: int) -> float:
    """`speed_value(game, car, s)` with `table` = `speed_values(game, car)` in hand."""
    v = table.get(s)
    if v is None:
        v = table[s] = _speed_value(game, car, s)
    return v


def speed_value(game: SpeedHazardGame, car: Car, s: int) -> float:
    """Worth of driving at `s` km/h this turn."""
    return value_in(speed_values(game, car), game, car, s)


def _speed_value(game: Any, car: Any, s: int) -> float:
    grip = sum(game.equip_by_id[e].grip for e in car.equipment) if car.equipment else 0
    track = game.track
    seg, lane = game.b.seg[car.node], game.b.lane[car.node]
    k = rules.squares(s)
    value = k + MOMENTUM * k
    d, ci, lims = _ahead(track)[seg]
    hi = game.b.corner[car.node]
    here = track.corners[hi] if hi >= 0 else None
    if here is not None and car.free_corner == here.index and ci >= 0:
        nxt = track.corners[ci]
        if nxt.first == (here.last + 1) % track.segments:
            d = 10 * track.segments  # a directly following curve is free
    reach = [lims[ln] for ln in range(len(lims)) if abs(ln - lane) <= max(0, d - 1)] or [lims[lane]]
    lim = max(reach) + grip
    pit = _entry(game) if wants_pit(game, car) else None
    if pit is not None:
        pd = (pit[0] - seg) % track.segments + 1
        if pd <= k + 1:
            d, lim = pd, pit[1]
            value += BIG / 10 if k >= pd - 1 else 0
        elif pd < d:
            d, lim = pd, pit[1]
    if k >= d:
        value -= HAZARD * rules.hazards_over(s, lim)
    else:
        value -= HAZARD * fewest_hazards(s, d - k, lim)
    cur = game.limit(car, car.node) if here is not None else None
    if cur is not None and s > car.speed:  # accelerating on a curve square
        value -= HAZARD * rules.accel_hazards(s, cur, s - car.speed, game.o_accel)
    return value


def _nitrous_deck_(decks: Any) -> tuple[list[tuple[int, int]], float, int]:
    """What nitrous_value reads of a nitrous deck: (speed added, cards adding it) in the deck's
    order, the expected damage points of all its explosions, and its size."""
    die = decks.setup.die
    per_die = sum(die) / len(die)
    by_adds: dict[int, int] = {}
    dice = 0
    for c in decks.nitrous:
        by_adds[c.adds] = by_adds.get(c.adds, 0) + 1
        dice += c.damage
    return list(by_adds.items()), DAMAGE_POINT * per_die * dice, len(decks.nitrous)


_last_nitrous: list[Any] = [None, None]  # the last decks asked for and their summary


def nitrous_value(game: SpeedHazardGame, car: Car, table: dict[int, float] | None = None) -> float:
    """Expected worth of a nitrous draw: the speed each card of the deck gives, less its damage
    dice (a click adds nothing; no redraws counted)."""
    last = _last_nitrous
    if last[0] is not game.decks:
        last[1] = _nitrous_deck_(game.decks)
        last[0] = game.decks
    by_adds, explosions, cards = last[1]
    if not cards:
        return -BIG
    safe = game.has(car, "nitrous_safe")
    if table is None:
        table = speed_values(game, car)
    total = sum(n * value_in(table, game, car, car.speed + adds) for adds, n in by_adds)
    if not safe:
        total -= explosions
    return total / cards


def effects_value(game: Any, car: Any, steps: Any) -> float:
    """A rough worth of a card's own effect steps (content.py): the speed they leave (a nitrous
    draw as its expected worth), less their damage dice; a condition taken as holding."""
    speed, dice, nitrous = car.speed, 0, False
    for e in _flat(steps):
        if e.op == "speed":
            speed = max(0, speed + e.n) if e.n < 0 else min(speed + e.n, max(car.maximum, speed))
        elif e.op == "boost":
            speed += e.n
        elif e.op == "damage":
            dice += e.n
        elif e.op == "spin":
            speed = 0
        elif e.op == "draw" and e.what == "nitrous":
            nitrous = True
    die = game.decks.setup.die
    value = nitrous_value(game, car) if nitrous else speed_value(game, car, speed)
    return value - DAMAGE_POINT * dice * sum(die) / len(die)


def _flat(steps: Any) -> Any:
    for e in steps:
        if e.op == "if":
            yield from _flat(e.then)
        else:
            yield e


@cache
def fewest_hazards(v: int, d: int, limit: int) -> int:
    """The fewest hazard cards a car at `v` km/h, `d` squares before a curve entry of `limit`,
    can get away with by braking (at most 40 km/h a turn) over the coming turns."""
    best = 99
    for w in range(max(0, v - MAX_BRAKE), v + 1, rules.SQUARE_KMH):
        if w <= limit:
            return 0
        k = rules.squares(w)
        best = min(best, rules.hazards_over(w, limit) if k >= d else fewest_hazards(w, d - k, limit))
    return best


class GreedyBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.nitrous = True  # draws nitrous when it pays

    def choose(self, game: Any, d: Decision) -> str:
        return self.pick(game, d.player, d.kind, [o.key for o in d.options])

    def pick(self, game: Any, player: int, kind: str, keys: list[str]) -> str:
        """`choose` from the parts of the decision (look-ahead rollouts ask without one): the
        method named after the kind rates the options; the first option when there is one or
        the kind has no method."""
        if len(keys) == 1:
            return keys[0]
        car = game.cars[player]
        if kind == "step":
            key = self._step(game, car, keys)
        elif kind == "card":
            key = self._card(game, car, keys)
        elif kind == "accelerate":
            key = self._accelerate(game, car, keys)
        elif kind == "brake":
            key = self._brake(game, car, keys)
        elif kind == "luck":
            key = self._luck(game, car, keys)
        else:
            fn = getattr(self, "_" + kind.replace("-", "_"), None)
            if fn is None:
                return keys[0]
            key = fn(game, car, keys)
        return key if key in keys else keys[0]

    # --- choosing a card ----------------------------------------------------------------

    def _card(self, game: SpeedHazardGame, car: Car, keys: list[str]) -> str:
        best, best_v = keys[0], -1e9
        table = speed_values(game, car)
        for key in keys:
            a = _card(game, key)
            v = self._card_value(game, car, a, key, table)
            if v > best_v:
                best, best_v = key, v
        return best

    def _card_value(self, game: SpeedHazardGame, car: Car, a: Any, key: str,
                    table: dict[int, float] | None = None) -> float:
        v0 = car.speed
        if table is None:
            table = speed_values(game, car)
        if a.kind == "brake":
            return max(value_in(table, game, car, v0 - x) for x in rules.brake_amounts(a.amounts, v0)) + 0.1
        if a.kind == "accelerate":
            amounts = rules.accelerate_amounts(a.amounts, v0, car.maximum, car.in_pit)
            if car.in_pit:
                return 10.0 - (0.5 if key.startswith("equip") else 0.0)
            best = max((value_in(table, game, car, v0 + x) for x in amounts), default=-50.0)
            if a.nitrous and self.nitrous:
                best = max(best, nitrous_value(game, car, table))
            return best - (1.0 if key.startswith("equip") else 0.0)
        base = value_in(table, game, car, v0)
        if a.kind == "ram":
            return base + (1.5 if self._ram_now(game, car) and car.maximum > 50 else -1.0)
        if a.kind == "sabotage":
            behind = any(0 < car.progress - c.progress <= 12 for c in game.cars if not c.wreck and c.seat != car.seat)
            return base + (0.6 if behind else -0.5)
        if a.effects or a.choices:  # a kind of the pack's own: by the speed it leaves
            return max(effects_value(game, car, c.effects) for c in a.choices) if a.choices \
                else effects_value(game, car, a.effects)
        return -50.0  # u-turn: never on purpose

    def _ram_now(self, game: SpeedHazardGame, car: Car) -> bool:
        return any(self._ram_worth(game, car, k) > 0 for k in game._ram_options(car))

    def _ram_worth(self, game: SpeedHazardGame, car: Car, key: str) -> float:
        node = game.b.by_name[key.split()[1]]
        q = game.targets_map(car.seat).get(node)
        if q is None:
            return -1.0
        target = game.cars[q]
        side = node in _side(game, car)
        worth = 2.0 if side else 0.5
        if target.progress < car.progress - 3:
            worth -= 2.0
        if car.maximum <= 40:
            worth -= 3.0
        return worth

    # --- the card's own decision -------------------------------------------------------------

    def _choose(self, game: Any, car: Any, keys: list[str]) -> str:
        ways = {f"choose {c.id}": c.effects for c in game.turn.card.choices}
        return max(keys, key=lambda k: effects_value(game, car, ways.get(k, ())))

    def _brake(self, game: SpeedHazardGame, car: Car, keys: list[str]) -> str:
        table = speed_values(game, car)
        return max(keys, key=lambda k: value_in(table, game, car, car.speed - int(k.split()[1])))

    def _accelerate(self, game: SpeedHazardGame, car: Car, keys: list[str]) -> str:
        table = speed_values(game, car)

        def worth(k: str) -> float:
            if k == "nitrous":
                return nitrous_value(game, car, table) if self.nitrous else -BIG
            return value_in(table, game, car, car.speed + int(k.split()[1]))
        return max(keys, key=worth)

    def _luck(self, game: Any, car: Any, keys: list[str]) -> str:
        t = game.turn
        if t.drawn_kind == "hazard":
            c = game.decks.hazards[t.drawn]
            bad = c.damage >= 2 or c.spin or (c.keep and bool(c.insanity))
        else:
            c = game.decks.nitrous[t.drawn]
            bad = c.damage >= 2
        return "redraw" if bad else "keep"

    # --- moving --------------------------------------------------------------------------------

    def _step(self, game: SpeedHazardGame, car: Car, keys: list[str]) -> str:
        """The best-rated step, the first of equals: away from tokens, curve hazards and
        blocked squares, toward the pit road when it heads there, else the faster lane of a
        curve close ahead."""
        b = game.b
        occ = game.blocked()
        pit_lane: int | None = None
        pitting = wants_pit(game, car)
        if pitting:
            pit = game.track.pit
            e = next((e for e in pit.entries if e.main), None) if pit is not None else None
            pit_lane = b.lane[b.by_name[e.cell]] if e is not None and e.cell in b.by_name else 0
        t = game.turn
        assert t is not None
        opts = t.opts
        node, speed = car.node, car.speed
        c_old, lane_old = b.corner[node], b.lane[node]
        entering = c_old < 0 or car.free_corner != c_old  # a new curve entered here costs hazards
        grip = sum(game.equip_by_id[e].grip for e in car.equipment) if car.equipment else 0
        left = rules.squares(speed) - t.steps - 1
        ahead = _ahead(game.track)
        on_board = game.on_board
        best, best_v = keys[0], 0.0
        first = True
        for key in keys:
            if key == "pit":
                v = BIG if pitting else -BIG
            elif key.startswith("ram "):
                v = self._ram_worth(game, car, key)
            else:
                x = opts[key][2]
                v = 0.0
                if x in on_board:
                    v -= 3.0
                c_new = b.corner[x]
                lim = b.limit[x]
                if c_new >= 0 and lim >= 0:
                    lim += grip
                    if c_old != c_new and entering:
                        v -= HAZARD * rules.hazards_over(speed, lim)
                    elif b.lane[x] < lane_old and speed > lim:
                        v -= HAZARD
                    v += lim / 100.0
                free = 0
                for y in b.main[x]:
                    if y not in occ:
                        free += 1
                if left > 0 and free == 0:
                    v -= 3.0
                v += 0.1 * free
                if pit_lane is not None:
                    v -= 0.5 * abs(b.lane[x] - pit_lane)
                else:
                    d, ci, lims = ahead[b.seg[x]]
                    if ci >= 0 and d <= 6:
                        v += 0.02 * lims[b.lane[x]]  # the faster lane of the curve ahead
            if first or v > best_v:
                best, best_v, first = key, v, False
        return best

    def _ram_after(self, game: Any, car: Any, keys: list[str]) -> str:
        return max(keys, key=lambda k: self._ram_worth(game, car, k))

    def _bump(self, game: Any, car: Any, keys: list[str]) -> str:
        def worth(k: str) -> float:
            if k.startswith("ram "):
                return 10 + self._ram_worth(game, car, k)
            node = game.b.by_name[k.split()[1]]
            q = game.blocked().get(node)
            return -99.0 if q is None or game.cars[q].wreck else game.cars[q].progress
        return max(keys, key=worth)

    def _sabotage(self, game: Any, car: Any, keys: list[str]) -> str:
        drops = [k for k in keys if k != "done"]
        if not drops:
            return "done"
        # the square passed last: the car behind meets it soonest
        order = {game.where(x): i for i, x in enumerate(game.turn.passed)}
        return max(drops, key=lambda k: (order.get(k.split()[1], -1), k.split()[0] != "glue"))

    # --- the pit road --------------------------------------------------------------------------

    def _shop(self, game: Any, car: Any, keys: list[str]) -> str:
        for want in ("repair", "therapy"):
            if want in keys:
                return want
        if "equipment" in keys and len(car.equipment) < game.decks.setup.equipment_hold:
            return "equipment"
        tokens = [k for k in keys if k.startswith("token ")]
        if tokens:
            return min(tokens, key=lambda k: car.tokens.get(k.split()[1], 0))
        return "done"

    def _keep(self, game: Any, car: Any, keys: list[str]) -> str:
        return max(keys, key=lambda k: _equipment_worth(game, k.split()[1]))

    def _return(self, game: Any, car: Any, keys: list[str]) -> str:
        return min(keys, key=lambda k: _equipment_worth(game, k.split()[1]))


def _equipment_worth(game: Any, eid: str) -> float:
    e = game.equip_by_id[eid]
    return 3 * e.armour + 0.2 * e.grip + (1.0 if e.action else 0) + (1.0 if e.sane else 0) \
        + (0.5 if e.nitrous_safe else 0) + 0.5 * len(e.immune)


def _card(game: SpeedHazardGame, key: str) -> Any:
    kind, _, cid = key.partition(" ")
    if kind == "equip":
        return game.equip_by_id[cid].action
    return next(a for a in game.actions if a.id == cid)


def _side(game: SpeedHazardGame, car: Car) -> set[int]:
    b = game.b
    return set(b.diag_b[car.node] if car.reversed else b.diag[car.node]) | (set(b.level[car.node]) if game.o_beside else set())
