"""A race as a state machine over one pending decision at a time (DESIGN §8).

    game = Game(ruleset, track, seats, seed=7)
    while not game.over:
        d = game.pending                # who, kind, options, text
        game.apply(d.options[0].key)    # or a Rejection comes back

All randomness comes from the generator inside the race state; the same ruleset, track,
seats, seed and decisions give the same race and the same log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from slipstream.engine.core.byidentity import ByIdentity
from slipstream.engine.play.decisions import Decision, Option, Rejection, opt
from slipstream.engine.rulesets.automobiles import movement as mv
from slipstream.engine.rulesets.automobiles.effects import (
    Ctx,
    EffectList,
    Frame,
    reactive_forms,
    watch_events,
)
from slipstream.engine.rulesets.automobiles.phases import RaceFrame
from slipstream.engine.rulesets.automobiles.rules import Ruleset
from slipstream.engine.rulesets.automobiles.state import (
    ACTIVE,
    BAG,
    DISCARD,
    REVEALED,
    USED,
    Car,
    PlayerState,
    RaceState,
)
from slipstream.engine.tracks.track import Track

UNLIMITED_WEAR: Final = 100_000


class RulesTables:
    """What every game of one ruleset derives from it: the `play` and `buy` options, kind by
    option key, cube values, and the decisions that depend on nothing but their key (phases.py
    keys them by kind, player, driver ability and the kinds held or sold out), shared by every
    race of the ruleset."""

    __slots__ = ("rules", "play_option", "buy_option", "play_kind", "buy_kind", "values", "decisions",
                 "for_sale", "affordable", "top_cost", "watch", "play_if", "actions", "action_rows", "buys", "turns")

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules  # held, so its id is not reused while these tables live
        self.play_option = [opt(f"play {k.id}", f"play {k.name}") for k in rules.kinds]
        self.buy_option = [opt(f"buy {k.id}", f"buy {k.name} for ${k.cost}") for k in rules.kinds]
        self.play_kind = {o.key: k for k, o in enumerate(self.play_option)}  # "play ID" → kind
        self.buy_kind = {o.key: k for k, o in enumerate(self.buy_option)}  # "buy ID" → kind
        self.values = [k.value for k in rules.kinds]
        self.decisions: dict[tuple[Any, ...], Decision] = {}
        # the Action decisions (phases.py), by 2 * player + (1 with the driver's ability), then
        # by the kinds held (one bit each)
        self.actions: list[dict[int, Decision]] = []
        # the same decisions of a pattern below phases.ACTION_ROW, by 2 * player + (1 with the
        # ability), then at the pattern's index in a row
        self.action_rows: list[list[Decision | None]] = []
        # the Buy decisions (phases.py), by 2 * player + (1 with the driver's ability), then by
        # the kinds sold out (one bit each) and the money
        self.buys: list[dict[int, Decision]] = []
        self.turns: list[Decision] = []  # the standard-or-pit decision of each player (phases.py)
        # (kind, buy option) of every kind for sale, and of those that `money` buys, by money
        self.for_sale = tuple((k, self.buy_option[k]) for k, _cost in rules.for_sale)
        self.top_cost = max((cost for _k, cost in rules.for_sale), default=0)
        self.affordable = [tuple((k, self.buy_option[k]) for k, cost in rules.for_sale if cost <= m)
                           for m in range(min(self.top_cost, 255) + 1)]
        # whether any effect arms a `watch` trigger, and the play conditions (`play_if`) of the
        # kinds that have one: worked out once, so rules without them pay nothing in a race
        self.watch, self.play_if = reactive_forms(rules)


_TABLES: ByIdentity[Ruleset, RulesTables] = ByIdentity(RulesTables)


def rules_tables(rules: Ruleset) -> RulesTables:
    """The one RulesTables of `rules`, shared by its games (as movement.track_index for tracks)."""
    return _TABLES.get(rules)


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    bot: str = "human"
    driver: str | None = None


class Game:
    """One race: the state, the control stack, the pending decision and the log."""

    # the fields, declared here: __init__ sets them either from its arguments or from the game
    # it copies (`copy`)
    rules: Ruleset
    track: Track
    ix: mv.TrackIndex
    seed: int
    record: bool
    log: list[dict[str, Any]]
    decision_count: int
    stack: list[Frame]
    pending: Decision | None
    race: RaceState
    starting_order: tuple[int, ...]
    seats: tuple[Seat, ...]
    play_option: list[Option]
    buy_option: list[Option]
    play_kind: dict[str, int]
    buy_kind: dict[str, int]
    values: list[int]
    decisions: dict[tuple[Any, ...], Decision]
    tables: RulesTables
    drivers_draft: bool
    # A look-ahead's held hands (`LookaheadBot._opening`): whether the End-phase hands are held
    # back, the players whose hand is held (in the order they were due), and whether something
    # has since needed one (read a holder's piles, or acted for them). Only a look-ahead's own
    # copies hold.
    holding: bool
    held: list[int]
    broke: bool
    # A look-ahead rollout's end (`LookaheadBot._play_on`): the rollout is scored when this
    # player has ended `last_turns` turns; -1: not a rollout. Its last turn may stop short of
    # what no score reads (`TurnFrame.run_stage`, `rollout_over`).
    last_player: int
    last_turns: int

    def __init__(self, rules: Ruleset, track: Track, seats: Sequence[Seat], seed: int = 0,
                 laps: int | None = None, record: bool = True, drivers: bool | None = None,
                 setup: bool = True, fork: Game | None = None,
                 fork_rng: random.Random | None = None) -> None:
        if fork is not None:  # `fork.copy(record, rng)`: the state, stack and log copied, the rest shared
            g = fork
            self.rules = g.rules
            self.track = g.track
            self.ix = g.ix
            self.seed = g.seed
            self.record = record
            self.log = list(g.log) if record else []
            self.decision_count = g.decision_count
            memo: dict[int, Any] = {}
            self.stack = [f.clone(memo) for f in g.stack]
            self.pending = g.pending
            self.race = g.race.copy(fork_rng)
            self.starting_order = g.starting_order
            self.seats = g.seats
            self.play_option, self.buy_option = g.play_option, g.buy_option
            self.play_kind, self.buy_kind = g.play_kind, g.buy_kind
            self.values = g.values
            self.decisions = g.decisions
            self.tables = g.tables
            self.drivers_draft = g.drivers_draft
            self.holding = self.broke = False
            self.held = []
            self.last_player, self.last_turns = -1, 0
            return
        self.rules = rules
        self.track = track
        self.ix = mv.track_index(track)
        self.seed = seed
        self.record = record
        self.log = []
        self.decision_count = 0
        self.stack = []
        self.pending = None
        self.holding = self.broke = False
        self.held = []
        self.last_player, self.last_turns = -1, 0
        n = len(seats)
        rng = random.Random(seed)
        order = list(range(n))
        rng.shuffle(order)
        nk = len(rules.kinds)
        stock = [k.supply for k in rules.kinds]
        if rules.wear >= 0 and rules.options.unlimited_wear:
            stock[rules.wear] = UNLIMITED_WEAR
        players = []
        for i, seat in enumerate(seats):
            slot = track.grid[order.index(i)] if order.index(i) < len(track.grid) else track.grid[-1]
            lap = 0 if slot.segment == 0 else -1
            drv = rules.driver(seat.driver) if seat.driver else None
            players.append(PlayerState(i, seat.name, seat.bot, [[0] * nk for _ in range(5)],
                                       Car(slot.lane, slot.segment, lap), drv))
        self.race = RaceState(players, stock, order, laps or track.laps, rng)
        self.starting_order = tuple(order)
        self.race.stats = {"plays": [[0] * nk for _ in range(n)],
                           "bought": [[0] * nk for _ in range(n)],
                           "wear": [0] * n, "pits": [0] * n, "drafts": [0] * n,
                           "moves": [0] * n, "turns": [0] * n}
        self.seats = tuple(seats)
        tables = rules_tables(rules)
        self.play_option, self.buy_option = tables.play_option, tables.buy_option
        self.play_kind, self.buy_kind = tables.play_kind, tables.buy_kind
        self.values = tables.values
        self.decisions = tables.decisions
        self.tables = tables
        self.drivers_draft = bool(rules.drivers) and (
            drivers if drivers is not None else rules.options.drivers_in_single_races
        ) and not any(s.driver for s in seats)
        if setup:
            for p in players:
                for kid, cnt in rules.starting_bag.items():
                    try:
                        k = rules.kind(kid)
                    except KeyError:
                        continue
                    take = min(cnt, stock[k])
                    stock[k] -= take
                    p.zones[BAG][k] += take
            self.stack.append(RaceFrame())
            self.advance()

    # ----------------------------------------------------------------------------- API
    @property
    def over(self) -> bool:
        return self.race.over and self.pending is None

    def legal(self) -> tuple[Option, ...]:
        return self.pending.options if self.pending else ()

    def apply(self, choice: str | Option) -> Rejection | None:
        """Apply one option of the pending decision; a Rejection says why not."""
        key = choice if type(choice) is str else choice.key if isinstance(choice, Option) else choice
        d = self.pending
        if d is None:
            return Rejection("race-over", "the race is over; no decision is pending")
        opts = d.options
        if not opts or opts[-1].key != key:  # the last option first: `end` or `stop`, often chosen
            for o in opts:
                if o.key == key:
                    break
            else:
                return Rejection("not-an-option", f"{key!r} is not a legal option of this "
                                 f"{d.kind} decision", tuple(d.keys()))
        if self.record:
            self.log.append({"t": "decision", "n": self.decision_count, "p": d.player,
                             "kind": d.kind, "choice": key})
        self.decision_count += 1
        stack = self.stack
        stack[-1].choose(self, key)
        while stack:  # advance (inlined: this runs once per decision)
            d = stack[-1].run(self)
            if d is not None:
                self.pending = d
                return None
        self.pending = None
        self.race.over = True
        return None

    def advance(self) -> None:
        stack = self.stack
        while stack:
            d = stack[-1].run(self)
            if d is not None:
                self.pending = d
                return
        self.pending = None
        self.race.over = True

    def copy(self, record: bool = False, rng: random.Random | None = None) -> Game:
        """A cheap independent copy (for bots that look ahead); with `rng`, the copy draws from
        that generator instead of a copy of this game's."""
        # made by __init__ from this game (not object.__new__, which a compiled Game refuses:
        # engine/core/accel.py), without setting up a race of its own first
        return Game(self.rules, self.track, (), self.seed, record=record, fork=self, fork_rng=rng)

    def snapshot(self) -> dict[str, Any]:
        """The public race state as plain JSON-able data (zones by kind id, cars, stock, turn)."""
        kinds = self.rules.kinds

        def zone(z: list[int]) -> dict[str, int]:
            return {kinds[k].id: n for k, n in enumerate(z) if n}

        race = self.race
        t = race.turn
        d = self.pending
        return {
            "round": race.round, "final_round": race.final_round, "over": race.over,
            "order": list(race.order), "standings": self.standings(),
            "stock": zone(race.stock),
            "players": [{"name": p.name, "car": [p.car.lane, p.car.segment, p.car.lap],
                         "driver": self.rules.drivers[p.driver].id if p.driver is not None else None,
                         **{name: zone(p.zones[i]) for i, name in enumerate(_ZN)}}
                        for p in race.players],
            "turn": None if t is None else {
                "player": t.player, "stage": t.stage, "pit": t.pit,
                "placed": [f"{pl.lane}:{pl.segment}" for pl in t.placements]},
            "pending": None if d is None else {"player": d.player, "kind": d.kind, "text": d.text,
                                               "options": d.keys()},
        }

    def emit(self, ev: str, **data: Any) -> None:
        if self.record:
            t = self.race.turn
            self.log.append({"t": "event", "ev": ev, "round": self.race.round,
                             "phase": t.stage if t else "setup", **data})

    # ----------------------------------------------------------------------------- queries
    def occupancy(self, exclude: int | None = None) -> dict[tuple[int, int], int]:
        """Cell → player of every car but `exclude`."""
        return mv.occupancy(self.race, exclude)

    def positions(self, at_action_start: bool) -> dict[int, int]:
        t = self.race.turn
        if at_action_start and t is not None and t.positions_action:
            return t.positions_action
        return mv.positions(self.race, self.ix, self.rules.options)

    def position_of(self, player: int, at_action_start: bool) -> int:
        t = self.race.turn
        if at_action_start and t is not None and t.positions_action:
            return t.positions_action[player]
        return mv.position_of(self.race, self.ix, self.rules.options, player)

    def result(self) -> dict[str, Any]:
        """The result line of the race log: standings by name, distances, rounds, round cap."""
        race = self.race
        return {"t": "result", "standings": [race.players[i].name for i in self.standings()],
                "distance": [self.distance(i) for i in range(len(race.players))],
                "rounds": race.round, "capped": race.capped}

    # what every ruleset's game tells (engine/play/protocol.py `Game`)
    @property
    def rounds(self) -> int:
        return self.race.round

    @property
    def grid(self) -> list[int]:
        """The seat in each grid slot, pole first: the random starting order (RULES §2.3)."""
        return list(self.starting_order)

    @property
    def stats(self) -> dict[str, Any]:
        return self.race.stats

    def standings(self) -> list[int]:
        return mv.standings(self.race, self.ix, self.rules.options)

    def distance(self, player: int) -> int:
        return mv.distance(self.ix, self.race.players[player].car, self.rules.options)

    def money(self, player: int) -> int:
        race = self.race
        values = self.values
        active = race.players[player].zones[ACTIVE]
        value = 0
        for k in range(min(len(values), len(active))):  # (a loop: native code when compiled)
            n = active[k]
            if n:
                value += values[k] * n
        t = race.turn
        return value - t.spent if t is not None and t.player == player else value

    def grid_money(self, player: int) -> int:
        slot = self.race.order.index(player)
        return self.track.grid[slot].money if slot < len(self.track.grid) else 0

    def buy_options(self, money: int) -> list[Option]:
        """The Buy options of the kinds in stock that cost at most `money`, in kind order."""
        stock = self.race.stock
        tables = self.tables
        if money >= tables.top_cost:
            cands = tables.for_sale
        elif 0 <= money < len(tables.affordable):
            cands = tables.affordable[money]
        else:
            return [self.buy_option[k] for k, cost in self.rules.for_sale if stock[k] > 0 and cost <= money]
        return [o for k, o in cands if stock[k] > 0]

    def drawable(self, player: int) -> int:
        z = self.race.players[player].zones
        return _cubes(z[BAG]) + (_cubes(z[DISCARD]) if self.rules.options.refill_on_any_draw else 0)

    def playable(self, player: int, kind: int) -> bool:
        """Strict mode (RULES §3.1.1 e): the first dependent selection of the card can be made."""
        from slipstream.engine.rulesets.automobiles.effects import kind_filter, zones_of

        for eff in self.rules.kinds[kind].effect:
            (name, arg), = eff.items()
            if name in ("remove", "move_cubes", "select") and isinstance(arg, dict) and arg.get("as") \
                    and not (isinstance(arg.get("count"), dict) and "up_to" in arg["count"]) \
                    and arg.get("from") != "played":
                allowed = kind_filter(self, arg)
                p = self.race.players[player]
                z = [zz for zz in zones_of(arg["from"])]
                have = sum(p.zones[zz][k] - (1 if zz == ACTIVE and k == kind else 0)
                           for zz in z for k in range(len(self.rules.kinds))
                           if allowed is None or k in allowed)
                return have > 0
        return True

    # ----------------------------------------------------------------------------- cube moves
    def gain(self, player: int, kind: int, n: int, why: str, zone: int | None = None) -> int:
        """Take up to n cubes of `kind` from the stock into the gain zone; returns how many."""
        if kind < 0 or n <= 0:
            return 0
        race, rules = self.race, self.rules
        stock = race.stock
        have = stock[kind]
        take = n if n < have else have
        if zone is None:
            if race.turn is None:
                zone = BAG
            else:
                zone = DISCARD if self.rules.options.gains_to == "discard" else USED
        stock[kind] = have - take
        # (`row[i] = row[i] + n`, not `row[i] += n`: compiled, an augmented assignment to an
        # item is a generic in-place operation on objects; this is native int arithmetic)
        row = race.players[player].zones[zone]
        row[kind] = row[kind] + take
        if kind == rules.wear:
            wear: list[int] = race.stats["wear"]
            wear[player] = wear[player] + take
        if why == "buy":
            bought_of: list[list[int]] = race.stats["bought"]  # (typed: see ActionPhase.choose)
            bought = bought_of[player]
            bought[kind] = bought[kind] + take
        if take and self.record:
            self.emit("gain", p=player, kind=self.rules.kinds[kind].id, n=take, why=why)
        return take

    def remove(self, player: int, zone: int, kind: int) -> None:
        z = self.race.players[player].zones[zone]
        assert z[kind] > 0, "remove from an empty zone"
        if zone == USED:
            self.unplace(player, kind)
        z[kind] = z[kind] - 1  # (not `-=`: see `gain`)
        stock = self.race.stock
        stock[kind] = stock[kind] + 1
        if self.record:
            self.emit("remove", p=player, kind=self.rules.kinds[kind].id, zone=_ZN[zone])

    def move_cube(self, player: int, src: int, dst: int, kind: int) -> None:
        z = self.race.players[player].zones
        assert z[src][kind] > 0, "move from an empty zone"
        if src == USED and dst != USED:
            self.unplace(player, kind)
        zs, zd = z[src], z[dst]  # (not `-=` and `+=`: see `gain`)
        zs[kind] = zs[kind] - 1
        zd[kind] = zd[kind] + 1
        if self.record:
            self.emit("move", p=player, kind=self.rules.kinds[kind].id, src=_ZN[src], dst=_ZN[dst])

    def unplace(self, player: int, kind: int) -> None:
        """A used cube of `kind` leaves: keep the track placements within the used count."""
        t = self.race.turn
        if t is None or t.player != player or not t.placements:
            return
        placed = 0  # placements of `kind`, and the index of the last of them
        last = i = 0
        for pl in t.placements:
            if pl.kind == kind:
                placed += 1
                last = i
            i += 1
        if placed and placed >= self.race.players[player].zones[USED][kind]:
            del t.placements[last]

    def draw(self, player: int, zone: int, end_phase: bool = False) -> int | None:
        """Draw one random cube from the bag, refilling from the discard pile (RULES §3.7)."""
        if self.held and player in self.held:  # (a held hand's bag: see `draw_hand`)
            self.broke = True
        z = self.race.players[player].zones
        bag = z[BAG]
        total = _cubes(bag)
        if total == 0 and (end_phase or self.rules.options.refill_on_any_draw):
            disc = z[DISCARD]
            if _cubes(disc):
                for k, n in enumerate(disc):
                    bag[k] = bag[k] + n  # (not `+=`: see `gain`)
                    disc[k] = 0
                total = _cubes(bag)
                self.emit("refill", p=player, n=total)
        if total == 0:
            return None
        k = _kind_at(bag, _below(self.race.rng.getrandbits, total))
        bag[k] = bag[k] - 1  # (not `-=` and `+=`: see `gain`)
        to = z[zone]
        to[k] = to[k] + 1
        return k

    def draw_hand(self, player: int) -> None:
        """The End phase's draws: `hand_size` times `draw(player, ACTIVE, end_phase=True)`.

        On a look-ahead's copy that holds the hands (`holding`), the hand is held back instead:
        the copy plays on as if it had been drawn, until something needs one (`broke`); the
        look-ahead draws them later, in the same order from the same generator state (nothing
        may have drawn in between), which gives the same hands (lookahead.py `_opening`)."""
        if self.holding:
            if player not in self.held:
                self.held.append(player)
                return
            self.broke = True  # (a second hand of the same player: drawn, spoiling the copy)
        z = self.race.players[player].zones
        bag, active = z[BAG], z[ACTIVE]
        getrandbits = self.race.rng.getrandbits
        # the cubes in the bag; each draw takes the r-th of them in kind order, as `draw` does
        # (found by walking the counts: no list of the cubes made and popped from)
        total = _cubes(bag)
        for _ in range(self.rules.hand_size):
            if not total:  # a refill (or nothing left to draw): the one-cube draw does it
                self.draw(player, ACTIVE, end_phase=True)
                total = _cubes(bag)
                continue
            k = _kind_at(bag, _below(getrandbits, total))
            bag[k] = bag[k] - 1  # (not `-=` and `+=`: see `gain`)
            active[k] = active[k] + 1
            total -= 1

    # ----------------------------------------------------------------------------- phases
    def pit_stop(self, player: int) -> None:
        """RULES §3.3: remove the active wear, the rest of the active pile to the discard."""
        z = self.race.players[player].zones
        w = self.rules.wear
        removed = z[ACTIVE][w] if w >= 0 else 0
        if removed:
            z[ACTIVE][w] = 0
            stock = self.race.stock
            stock[w] = stock[w] + removed  # (not `+=`: see `gain`)
        active, disc = z[ACTIVE], z[DISCARD]
        for k, n in enumerate(active):
            disc[k] = disc[k] + n
            active[k] = 0
        pits: list[int] = self.race.stats["pits"]
        pits[player] = pits[player] + 1
        self.emit("pit", p=player, wear_removed=removed)

    def car_phase(self, player: int) -> None:
        """RULES §3.4: the car follows the planned route to the last placed cube."""
        t = self.race.turn
        assert t is not None
        race = self.race
        t.position_car_start = mv.position_of(race, self.ix, self.rules.options, player)
        placements = t.placements
        if not placements:
            return
        car = race.players[player].car
        src = (car.lane, car.segment)
        start = 0  # the last placement from the car: laps count along the route from there
        i = 0
        for pl in placements:
            if pl.from_car:
                start = i
            i += 1
        entered = t.entered
        i = 0
        for pl in placements:
            entered.extend(pl.spaces)
            if i >= start:  # laps count along the route the car finally follows
                car.lap += pl.crossings
            i += 1
        last = placements[-1]
        car.lane, car.segment = last.lane, last.segment
        t.moved = True
        if self.record:
            self.emit("car", p=player, src=f"{src[0]}:{src[1]}", dst=f"{car.lane}:{car.segment}",
                      spaces=len(t.entered), lap=car.lap)
        self.after_car_moved(player)

    def drive_step(self, player: int, lane: int, seg: int, space: int, crossed: bool) -> None:
        car = self.race.players[player].car
        car.lane, car.segment = lane, seg
        if crossed:
            car.lap += 1
        t = self.race.turn
        if t is not None and t.player == player and t.stage in ("action", "buy", "car"):
            t.entered.append(space)
            t.moved = True
        self.emit("drive", p=player, dst=f"{lane}:{seg}", lap=car.lap)

    def after_car_moved(self, player: int, spaces: Sequence[int] | None = None) -> None:
        """After a car move (`spaces`: those it entered; None: this turn's Car-phase route)."""
        race = self.race
        for i, a, b in mv.momentum(race, self.ix, self.rules.options):
            self.emit("momentum", p=i, src=a, dst=b)
        if self.tables.watch:  # `watch` triggers of the other players (docs/effects.md)
            if self.held:  # (a held hand's owner may react: not worked out, taken as needing it)
                self.broke = True
            watch_events(self, player, spaces)
        if race.final_round:
            return
        n = self.track.segments
        goal = race.laps * n
        for p in race.players:
            c = p.car
            if c.lap * n + c.segment >= goal:
                race.final_round = True
                self.emit("final_round", p=player)
                return

    def decline_phase(self, player: int) -> None:
        """RULES §3.5: wear by the darkest shade entered, unless drafting."""
        t = self.race.turn
        assert t is not None
        if t.pit or not t.entered:
            return
        # the darkest shade entered (a loop: compiled, `max(map(...))` made a map object and
        # called a bound method for every space)
        ix = self.ix
        colours = ix.colours
        darkest = colours[t.entered[0]]
        for i in t.entered:
            c = colours[i]
            if c > darkest:
                darkest = c
        race = self.race
        drafting = t.drafting_flag or mv.drafting(race, ix, self.rules.options, player)
        stats = race.stats
        moves: list[int] = stats["moves"]  # (not `+=` on the item: see `gain`)
        moves[player] = moves[player] + 1
        if drafting:
            drafts: list[int] = stats["drafts"]
            drafts[player] = drafts[player] + 1
            if self.record:
                self.emit("decline", p=player, darkest=darkest, wear=0, drafting=True)
            return
        want = self.rules.wear_by_gear.get(darkest, 0)
        t.decline_wear = self.gain(player, self.rules.wear, want, "decline")
        if self.record:
            self.emit("decline", p=player, darkest=darkest, wear=t.decline_wear, drafting=False)

    def cleanup(self, player: int) -> None:
        """End-phase clean-up: active, used (track included) and revealed → discard."""
        t = self.race.turn
        assert t is not None
        t.placements.clear()
        z = self.race.players[player].zones
        disc, active, used, revealed = z[DISCARD], z[ACTIVE], z[USED], z[REVEALED]
        # (a loop: native code when compiled, where `map` and `operator.add` are calls by object;
        # over the hand's counts, which a compiled loop reads unchecked, where an index is
        # checked against the list's length; the zones all have one count per kind)
        k = 0
        for a in active:
            u = used[k]
            if a or u:
                r = revealed[k]
                disc[k] = disc[k] + a + u + r  # (not `+=`: see `gain`)
                active[k] = used[k] = revealed[k] = 0
            elif revealed[k]:
                disc[k] = disc[k] + revealed[k]
                revealed[k] = 0
            k += 1

    def finish_turn(self, player: int) -> None:
        race = self.race
        race.turns_taken += 1
        turns: list[int] = race.stats["turns"]  # (not `+=` on the item: see `gain`)
        turns[player] = turns[player] + 1
        race.turn = None
        last = race.turn_pos == len(race.order) - 1
        if last and race.final_round:
            race.over = True
            self.emit("race_over", standings=[self.race.players[i].name for i in self.standings()])
            return
        if last:
            if race.round >= self.rules.options.max_rounds:
                race.over = race.capped = True
                self.emit("race_over", capped=True,
                          standings=[self.race.players[i].name for i in self.standings()])
                return
            race.turn_pos = 0
            race.round += 1
            if self.rules.options.turn_order == "position":
                race.order = self.standings()
        else:
            race.turn_pos += 1

    # ----------------------------------------------------------------------------- effects
    def run_effects(self, player: int, effects: Sequence[Any], source: str = "") -> None:
        """Push an effect list for `player` and advance (scenarios, sponsors)."""
        self.stack.append(EffectList(effects, Ctx(player, None, source)))
        self.advance()


_ZN: Final = ("bag", "active", "used", "discard", "revealed")


_BIT_LENGTH: Final = tuple(n.bit_length() for n in range(256))


def _cubes(row: list[int]) -> int:
    """The cubes of a zone's counts (a loop: compiled, `sum` of a list is a generic call)."""
    n = 0
    for x in row:
        n += x
    return n


def _kind_at(bag: list[int], r: int) -> int:
    """The kind of the r-th cube of a bag's counts (0 <= r < its cubes), its cubes in kind order:
    the cube a draw of r takes (`draw`, `draw_hand`)."""
    k = 0
    for n in bag:
        if r < n:
            return k
        r -= n
        k += 1
    raise AssertionError("no r-th cube in the bag")


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """What `Random._randbelow(n)` (and so `randrange(n)`) returns for n > 0, without its checks,
    from the generator's `getrandbits`: the same draws of the same generator."""
    bits = _BIT_LENGTH[n] if n < 256 else n.bit_length()
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r


def position_game(rules: Ruleset, track: Track, players: Sequence[dict[str, Any]], *,
                  turn: int = 0, order: Sequence[int] | None = None, start: str = "turn",
                  seed: int = 0, laps: int | None = None, stock: dict[str, int] | None = None,
                  round_: int = 1, record: bool = True) -> Game:
    """A game set up at a given position (scenarios, tests): cars, zones, whose turn.

    `players` items: `car: {lane, segment, lap}`, zone counts `bag`/`active`/`used`/`discard`
    by kind id, optional `name`, `driver`. The stock is the supply minus what players hold,
    unless `stock` gives counts. `start`: `turn` (the pit/standard choice), `action`, or
    `none` (no turn: for running effects directly, e.g. sponsors).
    """
    from slipstream.engine.rulesets.automobiles.effects import record_turn_start
    from slipstream.engine.rulesets.automobiles.phases import RaceFrame, TurnFrame
    from slipstream.engine.rulesets.automobiles.state import ZONE_INDEX, TurnState

    seats = [Seat(str(p.get("name", f"P{i + 1}")), "scenario", p.get("driver")) for i, p in
             enumerate(players)]
    g = Game(rules, track, seats, seed=seed, laps=laps, record=record, setup=False, drivers=False)
    race = g.race
    race.order = list(order) if order is not None else [(turn + i) % len(players)
                                                       for i in range(len(players))]
    race.turn_pos = race.order.index(turn)
    g.starting_order = tuple(race.order)
    race.round = round_
    for i, spec in enumerate(players):
        pl = race.players[i]
        car = spec.get("car", {})
        pl.car = Car(int(car.get("lane", 0)), int(car.get("segment", 0)), int(car.get("lap", 0)))
        for zname in ("bag", "active", "used", "discard"):
            for kid, n in (spec.get(zname) or {}).items():
                pl.zones[ZONE_INDEX[zname]][rules.kind(kid)] += int(n)
    held = race.total_cubes()
    for k in range(len(rules.kinds)):
        held[k] -= race.stock[k]
    for k in range(len(rules.kinds)):
        race.stock[k] = max(0, race.stock[k] - held[k])
    for kid, n in (stock or {}).items():
        race.stock[rules.kind(kid)] = int(n)
    if start == "none":
        return g
    g.stack.append(RaceFrame("turns"))
    tf = TurnFrame(turn)
    if start == "action":
        race.turn = TurnState(turn)
        record_turn_start(g)
        tf.stage = "action"
    g.stack.append(tf)
    g.advance()
    return g
