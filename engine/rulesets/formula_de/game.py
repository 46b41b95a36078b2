"""A Formula Dé-style race as a state machine of decisions (docs/rules/formula-de.md).

Each turn a car first chooses its gear (`gear N`), then the engine rolls the die of that gear
(the black die on the first turn: the start roll) and the car chooses where to stop among the
squares it can reach (`to LANE:SEGMENT`). Everything after the move (stops, overshoot, blocked
lane, collisions, engine damage, the finish) follows from the rules. All dice come from the
seeded generator in the state, so a race is fixed by its seed and its decisions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import FunctionType
from typing import Any, Final

from mypy_extensions import mypyc_attr

from slipstream.engine.play.decisions import Decision, Option, Rejection
from slipstream.engine.rulesets.formula_de import rules
from slipstream.engine.rulesets.formula_de.content import Tables, wear_for
from slipstream.engine.rulesets.formula_de.designdata import CornerKind, design_track
from slipstream.engine.rulesets.formula_de.moves import (
    ByTrack,
    Frontiers,
    exits,
    reach,
    reach_from,
    reach_swerving,
)
from slipstream.engine.rulesets.formula_de.pitlane import (
    QUICK_STOP_GEAR,
    QUICK_STOP_NEXT,
    SLOW_STOP_MAX_GEAR,
    box_for,
    pit_exit,
    pit_route,
)
from slipstream.engine.tracks.corners import corner_at
from slipstream.engine.tracks.neighbours import (
    cell_ahead,
    cells_beside,
    cells_diagonal,
)
from slipstream.engine.tracks.track import Track

ROUND_CAP: Final = 400


def _neighbours_(track: Track) -> tuple[list[list[int]], list[list[int]]]:
    """Per square the squares beside, directly ahead (and diagonally ahead), in rolling order:
    without and with the diagonal."""
    out: tuple[list[list[int]], list[list[int]]] = ([], [])
    for sp in track.spaces:
        cells = [*cells_beside(track, sp.lane, sp.first)]
        ahead = cell_ahead(track, sp.lane, sp.first)
        cells += [ahead] if ahead else []
        diag = cells + cells_diagonal(track, sp.lane, sp.first, 1)
        for k, group in enumerate((cells, diag)):
            nodes = [track.space_at(*c) for c in group]
            out[k].append([x.index for x in nodes if x is not None])
    return out


_neighbour_nodes = ByTrack(_neighbours_)
# per square: the corner its segment is in (`corner_at`, an interpreted call), else None
_corner_of = ByTrack(lambda track: [corner_at(track, sp.first) for sp in track.spaces])
_target_keys = ByTrack(lambda track: [f"to {sp.lane}:{sp.first}" for sp in track.spaces])  # per square
_pit_routes = ByTrack(pit_route)
# the options `pending` offers, made once (their texts are a function of what they stand for):
# a gear's per pack design (its downshift costs) and (gear now, gear chosen), a destination's per
# track and (square, squares driven, braked, absorbed, swerve)
_gear_options: dict[tuple[int, int, int], tuple[Any, Option]] = {}


# per pack design (its id, checked by identity) and gear now: `design.downshift_cost(gear, g)` for
# g = 0..gear + 1 (an interpreted call; the dicts are the design's own, never changed)
_shift_tables: dict[tuple[int, int], tuple[Any, list[dict[str, int] | None]]] = {}


def _shift_costs(design: Any, gear: int) -> list[dict[str, int] | None]:
    hit = _shift_tables.get((id(design), gear))
    if hit is None or hit[0] is not design:
        if len(_shift_tables) > 256:
            _shift_tables.clear()
        hit = _shift_tables[id(design), gear] = (design, [design.downshift_cost(gear, g) for g in range(gear + 2)])
    return hit[1]


def _new_target_options(track: Track) -> dict[tuple[int, int, int, int, bool], Option]:
    return {}


_target_options = ByTrack(_new_target_options)  # a frozen route, worked out once per track (copies make games)


# the layers of `reach` on the empty track for the largest roll asked so far, the step at which
# each square is reached and the states after each step (`moves.reach`'s frontiers)
FreeReach = tuple[int, list[list[int]], dict[int, int], Frontiers]


def _new_free_reach(track: Track) -> dict[tuple[int, int, int], FreeReach]:
    return {}


# per (square, corner, stops made): `FreeReach`. Squares with cars on them only take squares
# out of a move, so where no car stands on a square reached within the roll, the move's layers
# are these (cut to the roll: a smaller roll's layers are the first ones); where one does, the
# move is the same up to the step before the first such square (`moves.reach_from`).
_free_reach = ByTrack(_new_free_reach)


def _reach_free(track: Track, car: Car, roll: int) -> FreeReach:
    start = track.spaces[car.node].first
    lock = {roll - e.past + 1 for e in exits(track, start, roll, car.corner, car.stops)}
    frontiers: Frontiers = []
    layers = reach(track, car.node, roll, (), lock, None, frontiers)
    return roll, layers, {node: k for k, layer in enumerate(layers) for node in layer}, frontiers


def _copy_car(car: Car) -> Car:
    """An independent copy of `car`: its wear points copied, every other field shared (ints,
    strings, booleans and a tuple of ints). A plain constructor call, which a compiled `Car`
    (the accelerator, engine/core/accel.py) accepts where `object.__new__` is refused."""
    return Car(car.seat, car.node, car.gear, dict(car.wear), car.progress, car.corner, car.stops,
               car.tyres_lost, car.started, car.finished, car.out, car.pit, car.pit_base, car.serviced,
               car.next_gears, car.spun, car.tyre_toll)


def _refill_car(car: Car, src: Car) -> None:
    """Make `car` an independent copy of `src` (as `_copy_car`, in place)."""
    car.seat, car.node, car.gear, car.wear, car.progress = src.seat, src.node, src.gear, dict(src.wear), src.progress
    car.corner, car.stops, car.tyres_lost, car.started = src.corner, src.stops, src.tyres_lost, src.started
    car.finished, car.out, car.pit, car.pit_base, car.serviced = src.finished, src.out, src.pit, src.pit_base, src.serviced
    car.next_gears, car.spun, car.tyre_toll = src.next_gears, src.spun, src.tyre_toll


NO_CORNER: Final = -1


# The classes below write their own __init__ (init=False): compiled, a dataclass's generated
# __init__ stays interpreted (an interpreted call and, frozen, object.__setattr__ per field),
# where one written in the class is native; rollouts make cars, turns and targets by the
# thousand. The arguments are the fields, in order, with the same defaults.


@dataclass(slots=True, init=False)
class Car:
    """One car's state: where it stands, its gear, wear points and the stops of its corner."""

    seat: int
    node: int  # space index (the last square once finished or eliminated)
    gear: int
    wear: dict[str, int]
    progress: int  # segments driven from the grid's reference (the finish line is laps x N)
    corner: int = NO_CORNER  # the corner the car stands in
    stops: int = 0  # stops made in that corner
    tyres_lost: int = 0
    started: bool = False  # made its start roll
    finished: bool = False
    out: str = ""  # the cause of elimination, "" while running
    pit: int = -1  # the pit segment the car stands on, -1 off the pit lane
    pit_base: int = 0  # progress on the pit entry square, while in the pit lane
    serviced: bool = False  # tyres changed: on its way out of the pit lane
    next_gears: tuple[int, ...] = ()  # the gears allowed next turn (after a pit stop or a stall)
    spun: bool = False  # spun and facing the wrong way: the next turn is in 1st gear only
    tyre_toll: int = 0  # tyre points counted for the 1-lap tyre limit (demanded, not only paid)

    def __init__(self, seat: int, node: int, gear: int, wear: dict[str, int], progress: int,
                 corner: int = NO_CORNER, stops: int = 0, tyres_lost: int = 0, started: bool = False,
                 finished: bool = False, out: str = "", pit: int = -1, pit_base: int = 0, serviced: bool = False,
                 next_gears: tuple[int, ...] = (), spun: bool = False, tyre_toll: int = 0) -> None:
        self.seat, self.node, self.gear, self.wear, self.progress = seat, node, gear, wear, progress
        self.corner, self.stops, self.tyres_lost, self.started = corner, stops, tyres_lost, started
        self.finished, self.out, self.pit, self.pit_base, self.serviced = finished, out, pit, pit_base, serviced
        self.next_gears, self.spun, self.tyre_toll = next_gears, spun, tyre_toll


@dataclass(frozen=True, slots=True, init=False)
class Target:
    """One destination of the move decision and what ending there costs."""

    node: int
    steps: int
    brake: int  # squares braked (not driven although the way was free)
    absorbed: int  # squares a blocked car could not drive
    swerve: bool = False  # only reached by the flying start's swerve

    def __init__(self, node: int, steps: int, brake: int, absorbed: int, swerve: bool = False) -> None:
        # native when compiled; pure Python, `_target_init` below (the fields are frozen)
        self.node = node  # type: ignore[misc]
        self.steps = steps  # type: ignore[misc]
        self.brake = brake  # type: ignore[misc]
        self.absorbed = absorbed  # type: ignore[misc]
        self.swerve = swerve  # type: ignore[misc]


def _setter(name: str) -> Any:
    """The slot descriptor's own setter of a Target field (not the frozen __setattr__)."""
    return vars(Target)[name].__set__


_set_node, _set_steps, _set_brake = _setter("node"), _setter("steps"), _setter("brake")
_set_absorbed, _set_swerve = _setter("absorbed"), _setter("swerve")


def _target_init(self: Target, node: int, steps: int, brake: int, absorbed: int, swerve: bool = False) -> None:
    _set_node(self, node)
    _set_steps(self, steps)
    _set_brake(self, brake)
    _set_absorbed(self, absorbed)
    _set_swerve(self, swerve)


if isinstance(_target_init, FunctionType):  # pure Python (as engine/play/decisions.py does)
    _target_init.__qualname__ = "Target.__init__"
    Target.__init__ = _target_init  # type: ignore[method-assign]


@dataclass(slots=True, init=False)
class Turn:
    car: int
    phase: str  # "gear" | "pit" | "move"
    roll: int = 0
    targets: dict[str, Target] = field(default_factory=dict)
    strained: bool = False  # the roll strains every engine in 5th or 6th
    owed: int = 0  # tyre points owed for an overshoot this turn
    pit_steps: int = -1  # squares to the pit entry when the car may enter the pit lane
    pit_rest: int = 0  # squares left for the pit lane once the car has chosen to enter it
    flying: bool = False  # the move is a flying start's (its squares within the swerve)

    def __init__(self, car: int, phase: str, roll: int = 0, targets: dict[str, Target] | None = None,
                 strained: bool = False, owed: int = 0, pit_steps: int = -1, pit_rest: int = 0,
                 flying: bool = False) -> None:
        self.car, self.phase, self.roll = car, phase, roll
        self.targets = {} if targets is None else targets
        self.strained, self.owed, self.pit_steps, self.pit_rest, self.flying = strained, owed, pit_steps, pit_rest, flying


@mypyc_attr(allow_interpreted_subclasses=True)  # tally.TalliedGame
class FormulaDeGame:
    """One race; `pending` is the decision to make, `apply` makes it."""

    def __init__(self, track: Track, tables: Tables, names: Sequence[str], seed: int, laps: int,
                 options: Mapping[str, Any], record: bool = True, dice: Any = None) -> None:
        # the pack's categories, corner kinds and weather (designdata.py); a corner of a kind
        # gets the kind's stops, so the moves count them as any corner's
        self.design = design = tables.design
        track = design_track(track, design)
        self.track, self.tables, self.names, self.laps = track, tables, list(names), laps
        self.corner_kinds: tuple[CornerKind, ...] = design.corner_table(track)
        self.weather = design.weather.start if design.weather is not None else ""
        self.wx_pile: list[str] = []  # weather cards left in the deck
        self.wx_round = 0  # the round whose weather is set
        self.hit_max = 1  # the highest collision roll that hits (the weather may raise it)
        self.gear_caps = bool(design.limps) or design.weather is not None
        self.pool = options.get("wear_model", "advanced") == "basic"
        self.diagonal = bool(options.get("collision_diagonal", True))
        self.needs_points = bool(options.get("downshift_needs_points", True))
        self.stall_first = bool(options.get("stall_first_gear", True))
        self.toll_all = options.get("tyre_limit_counts", "overshoots") == "all"
        self.swerve_total = options.get("flying_start_swerve", "two-lanes") == "two-lanes"
        # `dice`: a stand-in for the generator (scripted rolls of a rule scenario)
        self.rng: Any = random.Random(seed) if dice is None else dice
        self.record = record
        # a bot's rollout (`rollout`): no log, no statistics, no faces' tallies, only the rules
        self.quiet = False
        self.log: list[dict[str, Any]] = []
        self.stats: dict[str, Any] = {"out": Counter(), "overshoots": Counter(), "spins": 0, "finished": 0,
                                      "pit_stops": 0}
        self.rounds = 1
        self.capped = False
        self.finished: list[int] = []
        self.eliminated: list[int] = []
        self.queue: list[int] = []
        # corners left per (start, steps, corner, stops), a pure function of the track: for bots
        self.exit_cache: dict[tuple[int, int, int, int], Any] = {}
        self.turn: Turn | None = None
        # the last `layers` worked out: (square, corner, stops, occupied squares), roll, layers
        self.reached: tuple[tuple[int, int, int, tuple[int, ...]], int, list[list[int]]] | None = None
        self.pit_max_gear = int(options.get("pit_entry_max_gear", 0) or 0)
        self.pit_route = _pit_routes.get(track)
        # each player drives `per` cars: cars are seats of the race, players decide for them
        self.per = max(1, int(options.get("cars_per_player", 1) or 1))
        self.players = list(names)
        if self.per > 1:
            self.names = [f"{n} #{j + 1}" for n in names for j in range(self.per)]
        self.owner = [c // self.per for c in range(len(self.names))]
        self.stats["cars"] = len(self.names)
        full = self._full_wear()
        order, records = rules.grid_order(range(len(self.names)), self.black)
        self.grid_cars = order
        # the grid by player (who owns the car in each slot), as the race statistics count it
        self.grid = [self.owner[c] for c in order]
        for r in records:
            self.event("grid-roll", cars=r["cars"], rolls=r["rolls"])
        self.cars: list[Car] = [Car(i, -1, 1, dict(full), 0) for i in range(len(self.names))]
        for slot, p in enumerate(order):
            self.cars[p].node, self.cars[p].progress = self._grid_square(slot)
        self.event("grid", order=order)
        self._start_round()

    # --- plumbing -----------------------------------------------------------------------------

    def _grid_square(self, slot: int) -> tuple[int, int]:
        """(space, progress) of grid slot `slot`; cars beyond the track's slots line up behind
        its last row in the same pattern (house rule, for several cars per player)."""
        track = self.track
        grid = track.grid
        gs = grid[slot % len(grid)]
        depth = len({g.segment for g in grid})
        back = depth * (slot // len(grid))
        for extra in range(track.segments):  # a missing square: further back in that lane
            sp = track.space_at(gs.lane, gs.segment - back - extra)
            if sp is not None:
                return sp.index, track.grid_progress(gs) - back - extra
        raise ValueError(f"lane {gs.lane} of the grid has no square")

    def _full_wear(self) -> dict[str, int]:
        if self.pool:
            return {"pool": self.tables.basic_pool}
        return self.race_wear()

    def race_wear(self) -> dict[str, int]:
        """The wear points by category the table gives this race length."""
        return wear_for(self.tables, self.laps)

    def black(self) -> int:
        return self.rng.randint(1, self.tables.black_die)

    def event(self, ev: str, **data: Any) -> None:
        if self.record and not self.quiet:
            self.log.append({"t": "event", "ev": ev, **data})

    def cat(self, category: str) -> str:
        """The wear pool a category draws on (one pool in the basic rules)."""
        return "pool" if self.pool else category

    def points(self, car: Car, category: str) -> int:
        return car.wear[self.cat(category)]

    def lose(self, car: Car, category: str, n: int, why: str) -> None:
        if n <= 0:
            return
        key = self.cat(category)
        paid = min(n, car.wear[key])
        car.wear[key] -= paid
        if category == "tyres":
            car.tyres_lost += paid
        # a point the car does not have is never taken: the rule that asked for it eliminates
        # the car (`short` in the log, checked by the tests)
        extra = {"short": n - paid} if paid < n else {}
        self.event("wear", p=car.seat, what=category, n=paid, why=why, left=car.wear[key], **extra)

    def eliminate(self, car: Car, cause: str) -> None:
        if car.out or car.finished:
            return
        car.out = cause
        self.eliminated.append(car.seat)
        self.stats["out"][cause] += 1
        self.event("out", p=car.seat, cause=cause)

    def running(self) -> list[Car]:
        return [c for c in self.cars if not c.out and not c.finished]

    def occupied(self, but: int = -1) -> dict[int, int]:
        """Main-track squares with a car on them (cars in the pit lane stand on none)."""
        return {c.node: c.seat for c in self.running() if c.seat != but and c.pit < 0}

    def pit_occupied(self, but: int = -1) -> set[int]:
        """Pit segments with a car on them."""
        return {c.pit for c in self.running() if c.seat != but and c.pit >= 0}

    def box_of(self, car: Car) -> int:
        """The pit segment of `car`'s box (one box per car, in seat order)."""
        assert self.pit_route is not None
        return box_for(self.pit_route, car.seat)

    def where(self, node: int) -> str:
        sp = self.track.spaces[node]
        return f"{sp.lane}:{sp.first}"

    # --- turn order -----------------------------------------------------------------------------

    def _start_round(self) -> None:
        # the leader moves first, each turn (base game); level cars: the inner lane first
        spaces = self.track.spaces
        if self.design.weather is not None and self.names:
            self._weather_round()
        self.queue = [c.seat for c in sorted(self.running(), key=lambda c: (-c.progress, spaces[c.node].lane))]
        self._next_car()

    def _weather_round(self) -> None:
        """The weather of the round starting: by the schedule (the last entry reached: the
        leader's lap or the round), or a card drawn from the deck every `every` rounds."""
        wx = self.design.weather
        assert wx is not None
        if self.wx_round == self.rounds:
            return
        self.wx_round = self.rounds
        now = self.weather
        if wx.deck:
            if (self.rounds - 1) % max(1, wx.every) == 0:
                if not self.wx_pile:
                    self.wx_pile = list(wx.deck)
                draw = getattr(self.rng, "weather", None)  # a scenario's script names the card
                pick = draw(self.wx_pile) if draw is not None else self.rng.randrange(len(self.wx_pile))
                now = self.wx_pile.pop(pick)
        elif wx.schedule:
            n = self.track.segments
            lap = max((c.progress // n + 1 for c in self.running()), default=1)
            now = wx.start
            for what, k, cond in wx.schedule:
                if (lap if what == "lap" else self.rounds) >= k:
                    now = cond
        changed = now != self.weather or self.rounds == 1
        self.weather = now
        c = wx.conditions.get(now)
        self.hit_max = c.collision_hits if c is not None else 1
        if changed:
            self.event("weather", weather=now, round=self.rounds)

    def _next_car(self) -> None:
        while self.queue:
            p = self.queue.pop(0)
            if not self.cars[p].out and not self.cars[p].finished:
                self.turn = Turn(p, "gear")
                return
        self.turn = None
        if not self.running():
            return
        if self.rounds >= ROUND_CAP:
            self.capped = True
            return
        self.rounds += 1
        self._start_round()

    # --- decisions --------------------------------------------------------------------------------

    @property
    def pending(self) -> Decision | None:
        t = self.turn
        if t is None:
            return None
        who = self.owner[t.car]  # the player decides for each of their cars
        if t.phase == "gear":
            car = self.cars[t.car]
            gear_opts = []
            design = self.design
            for g in self.gears(t.car):
                hit = _gear_options.get((id(design), car.gear, g))
                if hit is None or hit[0] is not design:
                    if len(_gear_options) > 512:
                        _gear_options.clear()
                    hit = _gear_options[id(design), car.gear, g] = (design, Option(f"gear {g}", self._gear_text(car, g)))
                gear_opts.append(hit[1])
            return Decision(who, "gear", tuple(gear_opts), f"{self.names[t.car]}: choose your gear")
        if t.phase == "pit":
            box = self.pit_route.boxes.index(self.box_of(self.cars[t.car])) + 1 if self.pit_route else 0
            opts = (Option("pit", f"enter the pit lane after {t.pit_steps} squares (box {box})"),
                    Option("stay out", "stay on the track"))
            return Decision(who, "pit", opts, f"{self.names[t.car]} rolled {t.roll}: enter the pit lane?")
        made = _target_options.get(self.track)
        move_opts = []
        for k, v in t.targets.items():
            o = made.get((v.node, v.steps, v.brake, v.absorbed, v.swerve))
            if o is None or o.key != k:
                o = made[v.node, v.steps, v.brake, v.absorbed, v.swerve] = Option(k, self._target_text(v))
            move_opts.append(o)
        return Decision(who, "move", tuple(move_opts), f"{self.names[t.car]} rolled {t.roll}: choose where to stop")

    def _gear_text(self, car: Car, g: int) -> str:
        cost = self.design.downshift_cost(car.gear, g) or {}
        extra = ", ".join(f"{v} {k}" for k, v in cost.items())
        return f"gear {g}" + (f" (costs {extra})" if extra else "")

    def _target_text(self, t: Target) -> str:
        sp = self.track.spaces[t.node]
        text = f"stop on lane {sp.lane}, square {sp.first} ({t.steps} squares)"
        if t.brake:
            text += f", brake {t.brake}"
        if t.absorbed:
            text += f", blocked: {t.absorbed} squares lost"
        if t.swerve:
            text += ", swerving"
        return text

    def gears(self, p: int) -> list[int]:
        """The gears car `p` may choose now ("Gear" and "Downshifts")."""
        car = self.cars[p]
        if not car.started or car.spun:  # the start, and the turn after a spin: 1st only
            return [1]
        top = len(self.tables.gears)
        if self.gear_caps:  # a category run dry or the weather limits the gear
            return self._capped(car, self._gears(car, top))
        return self._gears(car, top)

    def _gears(self, car: Car, top: int) -> list[int]:
        if car.next_gears:  # after a pit stop or a stall
            return [g for g in car.next_gears if g <= top]
        if car.pit >= 0:  # downshift costs are suspended in the pit lane
            return list(range(1, min(top, car.gear + 1) + 1))
        out = []
        costs = _shift_costs(self.design, car.gear)
        view: dict[str, int] | None = None  # `wear_view`, made once when a shift costs
        for g in range(top, 0, -1):
            if g > car.gear + 1:
                continue
            cost = costs[g] if g < len(costs) else self.design.downshift_cost(car.gear, g)
            if cost is None:
                continue
            if cost and self.points(car, "transmission") == 0:
                continue  # with no transmission points left a car can no longer skip gears
            if cost and self.needs_points:
                if view is None:
                    view = self.wear_view(car)
                if not rules.can_pay(view, cost, self.pool):
                    continue
            out.append(g)
        return sorted(out)

    def _capped(self, car: Car, gears: list[int]) -> list[int]:
        """`gears` with the limits of a category the car has no point of left (`limp_gear`) and
        of the weather (`max_gear`); when none is low enough, the lowest of them."""
        top = 1 << 20
        for cat, limp in self.design.limps:
            if self.points(car, cat) == 0:
                top = min(top, limp)
        cond = self.condition()
        if cond is not None and cond.max_gear:
            top = min(top, cond.max_gear)
        low = [g for g in gears if g <= top]
        return low or gears[:1]

    def _cap_text(self, car: Car) -> str:
        """Why a gear the rules allow is above this turn's limit."""
        why = [f"with no {cat} left, gear {limp} at most" for cat, limp in self.design.limps if self.points(car, cat) == 0]
        cond = self.condition()
        if cond is not None and cond.max_gear:
            why.append(f"in the {cond.id}, gear {cond.max_gear} at most")
        return "; ".join(why) or "the gear is limited this turn"

    def condition(self) -> Any:
        """The weather condition now (None without weather)."""
        wx = self.design.weather
        return wx.conditions.get(self.weather) if wx is not None else None

    def wear_view(self, car: Car) -> dict[str, int]:
        """The car's points by category (each category reads the one pool in the basic rules)."""
        return {k: car.wear[self.cat(k)] for k in self.design.names} | ({"pool": car.wear["pool"]} if self.pool else {})

    def apply(self, key: str) -> Rejection | None:
        t = self.turn
        # the keys `pending` offers, checked without building its options' texts
        if t is None or not self._legal(t, key):
            d = self.pending
            if d is None:
                return Rejection("race-over", "the race is over")
            return Rejection("not-an-option", f"{key!r} is not an option now{self._refusal(d, key)}",
                             tuple(d.keys()))
        phase = t.phase  # the decision's kind
        if not self.quiet:
            self.log.append({"t": "decision", "p": self.owner[t.car], "kind": phase, "choice": key})
        if phase == "gear":
            self._shift(t, int(key.split()[1]))
        elif phase == "pit":
            self._pit_choice(t, key == "pit")
        else:
            self._move(t, t.targets[key])
        return None

    def _legal(self, t: Turn, key: str) -> bool:
        """Whether `key` is one of the options `pending` gives for `t`."""
        phase = t.phase
        if phase == "move":
            return key in t.targets
        if phase == "gear":
            return key in [f"gear {g}" for g in self.gears(t.car)]
        if phase == "pit":
            return key == "pit" or key == "stay out"
        return False

    def _refusal(self, d: Decision, key: str) -> str:
        """Why `key` is not a legal gear or square now ("" when there is nothing to add)."""
        assert self.turn is not None  # `d.player` is the car's owner: the car is the turn's
        car, parts = self.cars[self.turn.car], key.split()
        if len(parts) != 2:
            return ""
        if d.kind == "gear" and parts[0] == "gear" and parts[1].isdigit():
            g = int(parts[1])
            cost = self.design.downshift_cost(car.gear, g)
            if self.gear_caps and g in self._gears(car, len(self.tables.gears)):
                reason = self._cap_text(car)
            elif not car.started:
                reason = "the first turn is driven in 1st gear"
            elif car.spun:
                reason = "a car that spun drives on in 1st gear"
            elif car.next_gears and g not in car.next_gears:
                reason = "this turn the car may take gears " + ", ".join(map(str, car.next_gears))
            elif not 1 <= g <= len(self.tables.gears):
                reason = f"there is no gear {g}"
            elif g > car.gear + 1:
                reason = f"a car shifts up one gear at most (from {car.gear} to {car.gear + 1})"
            elif cost is None:
                reason = f"{car.gear} to {g} skips {car.gear - g - 1} gears, more than {rules.MAX_SKIP}"
            elif self.points(car, "transmission") == 0:
                reason = "with no transmission point left the car cannot skip gears"
            else:
                reason = "the skip costs " + ", ".join(f"{v} {k}" for k, v in cost.items()) + \
                         ", more than the car has left"
            return ": " + reason
        t = self.turn
        sp = self.track.space_named(parts[1]) if d.kind == "move" and parts[0] == "to" else None
        if t is None or sp is None or sp.index >= len(self.track.spaces) or self.track.spaces[sp.index] is not sp:
            return ""
        if sp.index in self.occupied(car.seat):
            return f": a car stands on {parts[1]}"
        layers = self.layers(car, t.roll)
        k = next((k for k, layer in enumerate(layers) if sp.index in layer), None)
        if k is None:
            return f": {parts[1]} cannot be reached with {t.roll} squares"
        if len(layers) - 1 < t.roll:
            return f": the car is blocked and must drive as far as it can ({len(layers) - 1} squares)"
        return f": stopping there brakes {t.roll - k} squares, and the car has {self.points(car, 'brakes')} brake points"

    # --- the turn ---------------------------------------------------------------------------------

    def _shift(self, t: Turn, gear: int) -> None:
        car = self.cars[t.car]
        costs = _shift_costs(self.design, car.gear)
        cost = {} if car.pit >= 0 else (costs[gear] if gear < len(costs) else self.design.downshift_cost(car.gear, gear)) or {}
        short = not rules.can_pay(self.wear_view(car), cost, self.pool)
        car.next_gears, car.spun = (), False
        for what, v in cost.items():
            self.lose(car, what, v, "downshift")
        car.gear = gear
        self.event("gear", p=car.seat, gear=gear)
        outs = self.design.outs
        ran_out = next((outs[k] for k in cost if k in outs and self.points(car, k) == 0), "")
        if short or ran_out:
            # the cause names the category whose last point went (the engine's, as engine damage)
            self.eliminate(car, ran_out or "downshift")
            return self._end_turn()
        if self.design.turns or self.design.weather is not None:
            self._turn_costs(car)
            if car.out:
                return self._end_turn()
        if not car.started:
            car.started = True
            roll = self.black()
            kind = rules.start_roll(roll, self.tables.black_die)
            self.event("start", p=car.seat, roll=roll, result=kind)
            if kind == "stall":
                if self.stall_first:  # it starts the next turn in 1st gear (option)
                    car.next_gears = (1,)
                return self._end_turn()
            if kind == "flying":
                t.roll, t.flying = rules.FLYING_START_SQUARES, True
                t.targets = self.swerve_targets(car, t.roll)
                t.phase = "move"
                return None
            t.roll = self._gear_roll(car)
        else:
            t.roll = self._gear_roll(car)
            if car.pit >= 0:  # engine damage is suspended in the pit lane
                return self._pit_drive(t, t.roll)
            t.strained = rules.engine_strained(car.gear, t.roll, self.tables.gears[car.gear - 1])
        t.targets = self.targets(car, t.roll)
        t.phase = "move"
        k = self.pit_steps(car, t.roll)
        if k is not None:
            t.phase, t.pit_steps = "pit", k
        return None

    def _turn_costs(self, car: Car) -> None:
        """The wear the turn costs in the car's gear: its categories' (`turn`), then the
        weather's."""
        g = car.gear - 1
        turns = self.design.turns
        if g < len(turns):
            self._take(car, turns[g], "turn")
        cond = self.condition()
        if cond is not None and cond.turn:
            self._take(car, tuple((k, v[g]) for k, v in cond.turn if g < len(v) and v[g]), "weather")

    def _take(self, car: Car, costs: Sequence[tuple[str, int]], why: str, times: int = 1) -> None:
        """Take `costs` (category, points) `times` over; a category with `empty: out` whose last
        point goes eliminates the car."""
        outs = self.design.outs
        for cat, n in costs:
            if car.out:
                return
            self.lose(car, cat, n * times, why)
            if cat in outs and self.points(car, cat) == 0:
                self.eliminate(car, outs[cat])

    def _gear_roll(self, car: Car) -> int:
        faces = self.tables.gears[car.gear - 1]
        roll = faces[self.rng.randrange(len(faces))]
        self.event("roll", p=car.seat, gear=car.gear, roll=roll)
        return roll

    def layers(self, car: Car, roll: int, occupied: dict[int, int] | None = None) -> list[list[int]]:
        """The squares `car` reaches in exactly k steps, for k = 0..roll (fewer when blocked).
        The layers of a roll also give those of every smaller roll: where the car must keep to
        its lane depends on the corners, not on the roll. The last one worked out is kept for
        the same square, corner, stops and occupied squares (a greedy car's gear choice and
        then its move ask for the same); callers never change them. `occupied`: the squares
        of the other cars, `occupied(car.seat)`, when the caller has them."""
        if occupied is None:
            occupied = self.occupied(car.seat)
        key = (car.node, car.corner, car.stops, tuple(occupied))
        memo = self.reached
        if memo is not None and memo[1] >= roll and memo[0] == key:
            return memo[2][: roll + 1]
        free = _free_reach.get(self.track)
        at = (car.node, car.corner, car.stops)
        hit = free.get(at)
        if hit is None or hit[0] < roll:
            hit = free[at] = _reach_free(self.track, car, roll)
        first = hit[2]
        met = roll + 1  # the fewest steps to a square with a car on it
        for o in occupied:
            k = first.get(o, met)
            if k < met:
                met = k
        if met <= roll:  # a car in the way: the move as on the empty track up to the step before
            start = self.track.spaces[car.node].first
            lock = {roll - e.past + 1 for e in exits(self.track, start, roll, car.corner, car.stops)}
            out = reach_from(self.track, hit[1], hit[3], met, roll, occupied, lock) if met else \
                reach(self.track, car.node, roll, occupied, lock)
        else:
            out = hit[1][: roll + 1]
        self.reached = (key, roll, out)
        return out

    def targets(self, car: Car, roll: int, layers: list[list[int]] | None = None) -> dict[str, Target]:
        """The squares `car` may stop on with `roll`: any it reaches in exactly `roll` steps,
        or fewer by braking (1 brake point a square); when blocked, as far as it can get.
        `layers` may be those of a larger roll (`layers`)."""
        layers = self.layers(car, roll) if layers is None else layers[: roll + 1]
        far = len(layers) - 1
        brakes = self.points(car, "brakes")
        if self.design.brake_per != 1:  # squares the brake points pay for
            brakes = brakes // self.design.brake_per if self.design.brake_per else 1 << 20
        names = _target_keys.get(self.track)  # `f"to {self.where(node)}"`
        out: dict[str, Target] = {}
        if far == roll:
            for k in range(roll, -1, -1):
                if roll - k > brakes:
                    break
                for node in layers[k]:
                    out[names[node]] = Target(node, k, roll - k, 0)
        else:  # blocked: the car moves as far as it can and pays for the rest
            for node in layers[far]:
                out[names[node]] = Target(node, far, 0, roll - far)
        return out

    def swerve_targets(self, car: Car, roll: int) -> dict[str, Target]:
        """The flying start's squares: those of any move of `roll`, and those only a swerve
        across two lanes (one step of the move) reaches."""
        plain = self.targets(car, roll)
        layers = reach_swerving(self.track, car.node, roll, self.occupied(car.seat), self.swerve_lanes(car))
        out = self.targets(car, roll, layers)
        return {k: (v if k in plain else Target(v.node, v.steps, v.brake, v.absorbed, True)) for k, v in out.items()}

    def swerve_lanes(self, car: Car) -> int:
        """How far from its lane a flying start may take the car (option `flying_start_swerve`:
        2 lanes in all, or -1: no limit beyond the move's own steps)."""
        return rules.SWERVE_LANES if self.swerve_total else -1

    # --- the pit lane (docs/rules/formula-de.md, "Pit stop") -------------------------------------

    def pit_steps(self, car: Car, roll: int) -> int | None:
        """The squares to the pit entry when `car` may enter the pit lane with `roll`, else None:
        a race of 2 laps or more, a lap that does not end in the pit lane, the entry reachable
        short of the roll, the first pit square free, and the gear limit if the option sets one."""
        r = self.pit_route
        if r is None or self.laps < 2 or car.pit >= 0:
            return None
        if self.pit_max_gear and car.gear > self.pit_max_gear:
            return None
        n = self.track.segments
        k = (r.entry_segment - self.track.spaces[car.node].first) % n
        if k >= roll or car.progress + k + r.span >= self.laps * n or r.first in self.pit_occupied():
            return None
        layers = self.layers(car, roll)
        return k if k < len(layers) and r.entry in layers[k] else None

    def _pit_choice(self, t: Turn, enter: bool) -> None:
        if not enter:
            t.phase = "move"
            return
        assert self.pit_route is not None
        t.pit_rest = t.roll - t.pit_steps
        self._move(t, Target(self.pit_route.entry, t.pit_steps, 0, 0))

    def _enter_pit(self, t: Turn) -> None:
        """The car turns into the pit lane with the squares left of its roll."""
        car = self.cars[t.car]
        assert self.pit_route is not None
        rest, t.pit_rest, t.owed = t.pit_rest, 0, 0
        car.pit_base, car.pit, car.serviced = car.progress, self.pit_route.first - 1, False
        car.corner, car.stops = NO_CORNER, 0
        self.event("pit-in", p=car.seat)
        self._pit_drive(t, rest)

    def _pit_drive(self, t: Turn, steps: int) -> None:
        """Drive up to `steps` squares along the pit lane: to the box (squares beyond it are
        dropped), or out of the lane once serviced; never past a car ahead, and with no loss for
        squares not driven (the blocked-lane and brake rules are suspended there)."""
        car = self.cars[t.car]
        r = self.pit_route
        assert r is not None
        pos = car.pit
        goal = r.last if car.serviced else self.box_of(car)
        ahead = min((q for q in self.pit_occupied(car.seat) if q > pos), default=None)
        stop = min(pos + steps, goal, ahead - 1 if ahead is not None else goal)
        if stop > pos:
            car.pit, car.progress = stop, car.pit_base + r.offset(stop)
            self.event("pit-move", p=car.seat, to=stop, steps=stop - pos, roll=t.roll)
        if not car.serviced and stop == goal:
            return self._box(t)
        if car.serviced and stop == r.last and pos + steps > r.last and r.exit not in self.occupied(car.seat):
            rest = pos + steps - r.last - 1
            car.pit, car.node, car.progress = -1, r.exit, car.pit_base + r.span
            self.event("pit-out", p=car.seat, to=self.where(r.exit), rest=rest)
            t.owed = 0
            if rest == 0:
                return self._overshoot_loss(t)
            t.roll, t.targets, t.phase = rest, self.targets(car, rest), "move"
            return None
        return self._after_move(t)

    def _box(self, t: Turn) -> None:
        """In its box the car gets fresh tyres, then rolls the black die for the stop's length."""
        car = self.cars[t.car]
        assert self.pit_route is not None
        if self.pool:  # one pool: the points lost on tyres come back
            gain = min(car.tyres_lost, self.tables.basic_pool - car.wear["pool"])
        else:
            gain = self._full_wear()["tyres"] - car.wear["tyres"]
        car.wear[self.cat("tyres")] += gain
        car.tyres_lost, car.serviced = 0, True
        self.stats["pit_stops"] += 1
        box = self.pit_route.boxes.index(car.pit) + 1
        more: dict[str, Any] = {}
        if self.design.boxes and not self.pool:  # the pack's other categories the box restores
            full = self._full_wear()
            more["restored"] = {k: full[k] - car.wear[k] for k in self.design.boxes}
            for k in self.design.boxes:
                car.wear[k] = full[k]
        self.event("box", p=car.seat, box=box, tyres=gain, left=car.wear[self.cat("tyres")], **more)
        roll = self.black()
        kind, squares = pit_exit(roll)
        self.event("pit-exit", p=car.seat, roll=roll, result=kind, squares=squares)
        if kind == "quick":
            car.gear, car.next_gears = QUICK_STOP_GEAR, QUICK_STOP_NEXT
            self.event("gear", p=car.seat, gear=car.gear)
            return self._pit_drive(t, squares)
        car.next_gears = tuple(range(1, SLOW_STOP_MAX_GEAR + 1))
        return self._after_move(t)

    def _move(self, t: Turn, target: Target) -> None:
        car = self.cars[t.car]
        track = self.track
        start = track.spaces[car.node].first
        ex = exits(track, start, target.steps, car.corner, car.stops)
        car.node, car.progress = target.node, car.progress + target.steps
        swerve = {"swerve": True} if target.swerve else {}
        self.event("move", p=car.seat, to=self.where(target.node), steps=target.steps, roll=t.roll, **swerve)
        if target.brake:
            self._take(car, self.design.per["brake"], "brake", target.brake)
            if car.out:
                return self._after_move(t)
        if target.absorbed and not self._blocked(car, target):
            return self._after_move(t)
        owed = 0
        for e in ex:
            self.stats["overshoots"][track.corners[e.corner].name] += 1
            self.event("overshoot", p=car.seat, corner=e.corner, required=e.required, made=e.made, past=e.past)
            if e.made < self.corner_kinds[e.corner].least:
                self.eliminate(car, "stops missed")
                return self._after_move(t)
            owed += e.past
        if owed and self.design.per["overshoot"]:  # categories besides the tyres an overshoot costs
            self._take(car, self.design.per["overshoot"], "overshoot", owed)
            if car.out:
                return self._after_move(t)
        # the whole loss is on the tyres: a car shares it with its brakes by braking, a brake
        # point for each square not driven (the squares braked are no longer driven past the
        # corner), which the move's braked squares already offer
        t.owed = owed * self.design.tyres_per
        self._overshoot_loss(t)

    def _overshoot_loss(self, t: Turn) -> None:
        """Take an overshoot's loss, `t.owed` tyre points (spin on the last tyre point, out
        beyond it), then finish the turn: the stop (none after an overshoot), the finish,
        collisions."""
        car = self.cars[t.car]
        spun = False
        tyres = t.owed
        if tyres:
            have = self.points(car, "tyres")
            left, outcome = rules.tyre_loss(have, tyres)
            self.lose(car, "tyres", have - left, "overshoot")
            car.tyre_toll += tyres  # all the overshoot demands, also beyond the points left
            if self._over_tyre_limit(car):
                self.eliminate(car, "tyre limit")
                return self._after_move(t)
            if outcome == "out":
                self.eliminate(car, "overshoot")
                return self._after_move(t)
            spun = outcome == "spin"
        if spun:
            self.stats["spins"] += 1
            self.event("spin", p=car.seat)
            car.gear, car.spun = 1, True
        elif t.pit_rest:
            return self._enter_pit(t)
        self._count_stop(car, t.owed > 0)
        if car.progress >= self.laps * self.track.segments:
            car.finished = True
            self.finished.append(car.seat)
            self.stats["finished"] += 1
            self.event("finish", p=car.seat, place=len(self.finished))
            return self._after_move(t)
        self._collisions(car)
        self._after_move(t)

    def _blocked(self, car: Car, target: Target) -> bool:
        """Pay for the squares a blocked car could not drive; False when it is eliminated (and
        the car directly ahead that blocked it loses a body point)."""
        cost = self.design.blocked_cost(target.absorbed)
        self.event("blocked", p=car.seat, absorbed=target.absorbed)
        if cost is not None and rules.can_pay(self.wear_view(car), cost, self.pool):
            self._take(car, tuple(cost.items()), "blocked")
            if car.out:  # a category of the pack ran out
                return False
            if self.toll_all and cost.get("tyres", 0):  # option: the blocked lane's tyres count too
                car.tyre_toll += cost["tyres"]
                if self._over_tyre_limit(car):
                    self.eliminate(car, "tyre limit")
                    return False
            return True
        sp = self.track.spaces[target.node]
        ahead = cell_ahead(self.track, sp.lane, sp.first)
        self.eliminate(car, "blocked")
        if ahead is not None:
            ahead_sp = self.track.space_at(*ahead)
            blocker = self.occupied().get(ahead_sp.index) if ahead_sp is not None else None
            if blocker is not None:
                self._take(self.cars[blocker], self.design.per["blocking"], "blocking")
        return False

    def _over_tyre_limit(self, car: Car) -> bool:
        """In a 1-lap race with wear by category: more tyre points counted than the limit."""
        return self.laps == 1 and not self.pool and car.tyre_toll > rules.ONE_LAP_TYRE_LIMIT

    def _count_stop(self, car: Car, nocount: bool) -> None:
        """A turn that ends inside a corner counts one stop there (not after an overshoot)."""
        c = _corner_of.get(self.track)[car.node]  # `corner_at` the square's segment
        if c is None:
            car.corner, car.stops = NO_CORNER, 0
            return
        if c.index != car.corner:
            car.corner, car.stops = c.index, 0
        kind = self.corner_kinds[c.index]
        if not nocount and kind.max_gear and car.gear > kind.max_gear:  # too fast: no stop
            self.event("too-fast", p=car.seat, corner=c.index, gear=car.gear, max_gear=kind.max_gear)
            self._take(car, kind.too_fast, "too fast", car.gear - kind.max_gear)
            return
        if not nocount:
            car.stops += 1
            self.event("stop", p=car.seat, corner=c.index, stops=car.stops)

    def _body_hit(self, car: Car, why: str) -> None:
        """A collision roll that hits: the wear it costs (the printed: 1 body point, and out
        with the last)."""
        self._take(car, self.design.per["collision"], why)

    def neighbours(self, car: Car) -> list[int]:
        """Seats of the cars `car` ends beside or behind (and diagonally behind, an option), in
        the order they roll: beside (inner lane first), directly ahead, diagonally ahead."""
        return self.neighbours_at(car.node, car.seat)

    def neighbours_at(self, node: int, seat: int, occ: Mapping[int, int] | None = None) -> list[int]:
        """The cars a car `seat` standing on `node` would risk a collision with (`occ`: the
        occupied squares, when the caller has them)."""
        occ = self.occupied(seat) if occ is None else occ
        return [occ[m] for m in self.neighbour_table()[node] if m in occ and occ[m] != seat]

    def neighbour_table(self) -> list[list[int]]:
        """Per square the squares whose cars a car standing there risks a collision with."""
        return _neighbour_nodes.get(self.track)[self.diagonal]

    def _collisions(self, car: Car) -> None:
        """Every neighbour rolls once, then the mover once per neighbour, last; a neighbour
        eliminated by its roll costs the mover a body point instead of a roll."""
        near = self.neighbours(car)
        if not near:
            return
        self.event("collision-check", p=car.seat, near=near)
        for q in near:
            roll = self.black()
            self.event("collision-roll", p=q, roll=roll)
            if roll <= self.hit_max:  # a 1 (rules.collision_hit), or what the weather says
                self._body_hit(self.cars[q], "collision")
        for q in near:
            if car.out:
                return
            if self.cars[q].out:
                self._body_hit(car, "collision")
                continue
            roll = self.black()
            self.event("collision-roll", p=car.seat, roll=roll)
            if roll <= self.hit_max:
                self._body_hit(car, "collision")

    def _engine_damage(self, roller: int) -> None:
        """Every car in 5th or 6th gear, the roller first, rolls the black die; 1-4 costs an
        engine point, and the last engine point lost eliminates the car."""
        cars = sorted(self.running(), key=lambda c: (c.seat != roller, c.seat))
        self.event("engine-strain", p=roller)
        for c in cars:
            if c.gear < 5 or c.pit >= 0:  # engine damage is suspended in the pit lane
                continue
            roll = self.black()
            self.event("engine-roll", p=c.seat, roll=roll)
            if rules.engine_damage(roll):
                self._take(c, self.design.per["engine_damage"], "engine")

    def _after_move(self, t: Turn) -> None:
        if t.strained:
            self._engine_damage(t.car)
        self._end_turn()

    def _end_turn(self) -> None:
        self._next_car()

    # --- the protocol -----------------------------------------------------------------------------

    def rollout(self, dice: Any, into: FormulaDeGame | None = None) -> FormulaDeGame:
        """A copy of the game for a bot to play on (lookahead.py): in the same state, rolling
        `dice` and `quiet`: it logs and tallies nothing (a rollout reads neither; its log and
        statistics start empty); the lists no rule changes (names, owners, grid) are shared,
        not copied. The same race as `copy` from there, for the same dice. `into`: a rollout of
        a game of this race, done with, to fill again instead of making a new game (its cars
        are refilled too)."""
        if (into is None or type(into) is not type(self) or into.track is not self.track
                or into.tables is not self.tables or into.laps != self.laps or len(into.cars) != len(self.cars)):
            new = type(self)(self.track, self.tables, (), 0, self.laps, {}, record=False, dice=dice)
            new.cars = [_copy_car(c) for c in self.cars]
            new.quiet = True
        else:
            new = into
            new.rng, new.log, new.reached = dice, [], None
            for mine, c in zip(new.cars, self.cars, strict=True):
                _refill_car(mine, c)
        new.names, new.players = self.names, self.players
        self._take_play_state(new)
        new.per, new.owner = self.per, self.owner
        new.grid_cars, new.grid = self.grid_cars, self.grid
        return new

    def _take_play_state(self, new: FormulaDeGame) -> None:
        """What `copy` and `rollout` both take from this game into `new`, at the depth play
        changes it: the rule switches, the round, the order lists, the turn, the pit and the
        weather."""
        new.pool, new.diagonal, new.needs_points = self.pool, self.diagonal, self.needs_points
        new.stall_first, new.toll_all, new.swerve_total = self.stall_first, self.toll_all, self.swerve_total
        new.rounds, new.capped = self.rounds, self.capped
        new.finished, new.eliminated, new.queue = list(self.finished), list(self.eliminated), list(self.queue)
        new.exit_cache = self.exit_cache
        t = self.turn  # a shallow copy: its targets are replaced, never changed
        new.turn = None if t is None else Turn(t.car, t.phase, t.roll, t.targets, t.strained, t.owed,
                                                 t.pit_steps, t.pit_rest, t.flying)
        new.pit_max_gear, new.pit_route = self.pit_max_gear, self.pit_route  # a frozen route
        new.weather, new.wx_pile, new.wx_round, new.hit_max = self.weather, list(self.wx_pile), self.wx_round, self.hit_max

    def copy(self) -> FormulaDeGame:
        """An independent game in the same state (the track, the tables and the caches shared),
        for bots that look ahead: the cars, the turn, the dice and the records are copied at
        the depth they change; the rest is immutable or a list of plain values. A game of no
        cars, then every field taken from this one (not `object.__new__`, which a compiled
        game refuses: engine/core/accel.py)."""
        new = type(self)(self.track, self.tables, (), 0, self.laps, {}, record=self.record, dice=self.rng)
        new.names, new.players = list(self.names), list(self.players)
        rng = random.Random.__new__(random.Random)  # no seeding: the state is set at once
        rng.setstate(self.rng.getstate())
        new.rng = rng
        new.log = list(self.log)  # events are never changed once logged
        new.stats = {s: x.copy() if isinstance(x, dict) else x for s, x in self.stats.items()}
        self._take_play_state(new)
        new.per, new.owner = self.per, list(self.owner)
        new.grid_cars, new.grid = list(self.grid_cars), list(self.grid)
        new.cars = [_copy_car(c) for c in self.cars]
        return new

    def car_standings(self) -> list[int]:
        """Cars in race order: finishers, cars still running by progress, eliminated cars."""
        running = sorted(self.running(), key=lambda c: -c.progress)
        return self.finished + [c.seat for c in running] + list(reversed(self.eliminated))

    def standings(self) -> list[int]:
        """Players in race order, each placed by their best car (Readings: cars per player)."""
        order = self.car_standings()
        if self.per == 1:
            return order
        return list(dict.fromkeys(self.owner[c] for c in order))

    def result(self) -> dict[str, Any]:
        out = {"t": "result", "standings": [self.players[i] for i in self.standings()],
               "rounds": self.rounds, "capped": self.capped,
               "out": {self.names[i]: self.cars[i].out for i in self.eliminated}}
        if self.per > 1:
            out["car_names"] = list(self.names)
            out["car_standings"] = [self.names[i] for i in self.car_standings()]
        return out
