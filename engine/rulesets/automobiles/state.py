"""The mutable state of one race: players' zones and cars, the stock, the turn in progress.

Zones hold cube counts per kind index (cubes of one kind are interchangeable, RULES §1.1).
Every cube is in exactly one zone of one player or in the stock. Copies are explicit and
shallow where data is immutable, so bots can afford to look ahead.

The classes are dataclasses (fields, equality, repr) with their `__init__` written out: the one
`dataclass` would generate is plain Python even in the compiled build, where a written one is
native (these are made at every turn, placement and look-ahead copy); each takes the fields
in their order, with the same defaults (a fresh list, dict or set where a field has a factory).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Final

from slipstream.engine.packs.data import FrozenMap

BAG: Final = 0  # the zones of a player, in this order (constants: compiled code inlines them)
ACTIVE: Final = 1
USED: Final = 2
DISCARD: Final = 3
REVEALED: Final = 4
ZONE_NAMES: Final = ("bag", "active", "used", "discard", "revealed")
ZONE_INDEX: Final = {n: i for i, n in enumerate(ZONE_NAMES)}


@dataclass(slots=True)
class Car:
    lane: int
    segment: int
    lap: int  # finish-line crossings; the grid stands on lap -1 unless at segment 0

    def __init__(self, lane: int, segment: int, lap: int) -> None:
        self.lane = lane
        self.segment = segment
        self.lap = lap

    def copy(self) -> Car:
        return Car(self.lane, self.segment, self.lap)


@dataclass(slots=True)
class Memory:
    """What effects remember beyond one turn: for one player, for the whole race."""

    counters: dict[str, int] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    once: set[Any] = field(default_factory=set)  # keys of `once` (per race, or (key, round))
    later: list[tuple[str, str, Any]] = field(default_factory=list)  # (at, key, effect list)
    # `watch` triggers armed by this player: (key, spec, turn stamp of the last firing, the
    # players behind the car when last looked), replaced whole, never changed in place
    watches: list[tuple[str, Any, int, frozenset[int]]] = field(default_factory=list)
    modifiers: list[Any] = field(default_factory=list)  # `modify_turn` args with `lasts: race`

    def __init__(self, counters: dict[str, int] | None = None, flags: set[str] | None = None,
                 once: set[Any] | None = None, later: list[tuple[str, str, Any]] | None = None,
                 watches: list[tuple[str, Any, int, frozenset[int]]] | None = None,
                 modifiers: list[Any] | None = None) -> None:
        self.counters = {} if counters is None else counters
        self.flags = set() if flags is None else flags
        self.once = set() if once is None else once
        self.later = [] if later is None else later
        self.watches = [] if watches is None else watches
        self.modifiers = [] if modifiers is None else modifiers

    def copy(self) -> Memory:
        return Memory(dict(self.counters), set(self.flags), set(self.once), self.later[:],
                      self.watches[:], self.modifiers[:])


@dataclass(slots=True)
class PlayerState:
    seat: int
    name: str
    bot: str
    zones: list[list[int]]
    car: Car
    driver: int | None = None
    sponsor: str | None = None
    # race-long effect state (race counters, flags, `once` keys, effects scheduled for a later
    # turn; docs/effects.md "State beyond the turn"); None until an effect first needs it
    memory: Memory | None = None

    def __init__(self, seat: int, name: str, bot: str, zones: list[list[int]], car: Car,
                 driver: int | None = None, sponsor: str | None = None,
                 memory: Memory | None = None) -> None:
        self.seat = seat
        self.name = name
        self.bot = bot
        self.zones = zones
        self.car = car
        self.driver = driver
        self.sponsor = sponsor
        self.memory = memory

    def copy(self) -> PlayerState:
        return PlayerState(self.seat, self.name, self.bot, [z[:] for z in self.zones],
                           self.car.copy(), self.driver, self.sponsor,
                           None if self.memory is None else self.memory.copy())

    def count(self, zone: int, kind: int | None = None) -> int:
        z = self.zones[zone]
        return sum(z) if kind is None else z[kind]


@dataclass(slots=True)
class Placement:
    """A cube placed on the track this turn: where it sits and the spaces entered to get there."""

    kind: int
    lane: int
    segment: int
    spaces: tuple[int, ...]  # space indices entered, in order
    crossings: int  # finish-line crossings on the way
    from_car: bool = False  # started from the car again (option placement_chain: false)

    def __init__(self, kind: int, lane: int, segment: int, spaces: tuple[int, ...], crossings: int,
                 from_car: bool = False) -> None:
        self.kind = kind
        self.lane = lane
        self.segment = segment
        self.spaces = spaces
        self.crossings = crossings
        self.from_car = from_car


_NO_POSITIONS: Final[dict[int, int]] = FrozenMap()  # `TurnState.positions_action` before it is set
_NO_HOOKS: Final[frozenset[str]] = frozenset()


@dataclass(slots=True)
class TurnState:
    """Everything that lives for one turn only (RULES §3)."""

    player: int
    stage: str = "start"  # start | action | buy | car | decline | end | after_end
    pit: bool = False
    placements: list[Placement] = field(default_factory=list)
    entered: list[int] = field(default_factory=list)  # spaces the car entered this turn
    counters: dict[str, int] = field(default_factory=dict)
    drafting_flag: bool = False
    gear_spaces: Any = None
    stand_in: dict[int, tuple[Any, Any]] = field(default_factory=dict)
    scheduled: dict[str, tuple[str, Any, Any]] = field(default_factory=dict)
    # (set whole at the Action phase's start and never changed in place: a copy shares it, and
    # until then it is one read-only empty map shared by every turn, not a dict made per turn)
    positions_action: dict[int, int] = _NO_POSITIONS
    position_car_start: int = 0
    decline_wear: int = 0
    # (replaced whole when a hook is used, never changed in place: shared by a copy, and one
    # empty set shared by every turn that uses none)
    hooks_used: frozenset[str] = _NO_HOOKS
    spent: int = 0
    moved: bool = False
    # turn-long state of the newer effect forms (flags, `once` keys, where the cars stood at
    # the start of the turn, ...); None in a turn that uses none of them
    extra: dict[str, Any] | None = None
    prices: dict[int, int] | None = None  # modify_turn.prices: kind -> change of its Buy price
    buy_limit: int | None = None  # modify_turn.buy_limit: purchases allowed in this Buy phase
    bought: int = 0  # purchases made in this Buy phase

    def __init__(self, player: int, stage: str = "start", pit: bool = False,
                 placements: list[Placement] | None = None, entered: list[int] | None = None,
                 counters: dict[str, int] | None = None, drafting_flag: bool = False,
                 gear_spaces: Any = None, stand_in: dict[int, tuple[Any, Any]] | None = None,
                 scheduled: dict[str, tuple[str, Any, Any]] | None = None,
                 positions_action: dict[int, int] | None = None, position_car_start: int = 0,
                 decline_wear: int = 0, hooks_used: frozenset[str] = _NO_HOOKS, spent: int = 0,
                 moved: bool = False, extra: dict[str, Any] | None = None,
                 prices: dict[int, int] | None = None, buy_limit: int | None = None,
                 bought: int = 0) -> None:
        self.player = player
        self.stage = stage
        self.pit = pit
        self.placements = [] if placements is None else placements
        self.entered = [] if entered is None else entered
        self.counters = {} if counters is None else counters
        self.drafting_flag = drafting_flag
        self.gear_spaces = gear_spaces
        self.stand_in = {} if stand_in is None else stand_in
        self.scheduled = {} if scheduled is None else scheduled
        self.positions_action = _NO_POSITIONS if positions_action is None else positions_action
        self.position_car_start = position_car_start
        self.decline_wear = decline_wear
        self.hooks_used = hooks_used
        self.spent = spent
        self.moved = moved
        self.extra = extra
        self.prices = prices
        self.buy_limit = buy_limit
        self.bought = bought

    def copy(self) -> TurnState:
        t = TurnState(self.player, self.stage, self.pit, [Placement(p.kind, p.lane, p.segment,
                      p.spaces, p.crossings, p.from_car) for p in self.placements], self.entered[:],
                      dict(self.counters), self.drafting_flag, self.gear_spaces,
                      dict(self.stand_in), dict(self.scheduled), self.positions_action,
                      self.position_car_start, self.decline_wear, self.hooks_used,
                      self.spent, self.moved,
                      None if self.extra is None else {k: (v.copy() if hasattr(v, "copy") else v)
                                                       for k, v in self.extra.items()})
        if self.prices is not None or self.buy_limit is not None or self.bought:
            t.prices = dict(self.prices) if self.prices is not None else None
            t.buy_limit, t.bought = self.buy_limit, self.bought
        return t


@dataclass(slots=True)
class RaceState:
    """The whole race at one moment (without the rules engine's control stack)."""

    players: list[PlayerState]
    stock: list[int]
    order: list[int]  # turn order (player indices)
    laps: int
    rng: random.Random
    round: int = 1
    turn_pos: int = 0
    turn: TurnState | None = None
    final_round: bool = False
    over: bool = False
    capped: bool = False
    turns_taken: int = 0
    stats: dict[str, Any] = field(default_factory=dict)

    def __init__(self, players: list[PlayerState], stock: list[int], order: list[int], laps: int,
                 rng: random.Random, round: int = 1, turn_pos: int = 0,
                 turn: TurnState | None = None, final_round: bool = False, over: bool = False,
                 capped: bool = False, turns_taken: int = 0,
                 stats: dict[str, Any] | None = None) -> None:
        self.players = players
        self.stock = stock
        self.order = order
        self.laps = laps
        self.rng = rng
        self.round = round
        self.turn_pos = turn_pos
        self.turn = turn
        self.final_round = final_round
        self.over = over
        self.capped = capped
        self.turns_taken = turns_taken
        self.stats = {} if stats is None else stats

    def copy(self, rng: random.Random | None = None) -> RaceState:
        """An independent copy; with `rng`, the copy draws from that generator instead of a copy
        of this race's (a look-ahead rollout seeds its own: no generator state is copied)."""
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        return RaceState([p.copy() for p in self.players], self.stock[:], self.order[:],
                         self.laps, rng, self.round, self.turn_pos,
                         self.turn.copy() if self.turn else None, self.final_round, self.over,
                         self.capped, self.turns_taken, {k: _copy_stat(v) for k, v in self.stats.items()})

    def total_cubes(self) -> list[int]:
        """Cubes per kind over the stock and every zone (constant in a race)."""
        tot = self.stock[:]
        for p in self.players:
            for z in p.zones:
                for k, n in enumerate(z):
                    tot[k] += n
        return tot


def _copy_stat(v: Any) -> Any:
    """A copy of one race count: a row per player, or a row of counts by kind per player (its
    rows copied too: what a copy plays or buys is not counted in the race it was copied from)."""
    if isinstance(v, list):
        # (most are rows of counts: one look for a row inside, then one slice)
        for r in v:
            if isinstance(r, list):
                return [r[:] if isinstance(r, list) else r for r in v]
        return v[:]
    return v.copy() if hasattr(v, "copy") else v
