"""What a Formula Dé-style designer varies beyond the gear dice and wear rows, as plain data:
wear categories and what takes points of each, corner kinds, weather (docs/rules/formula-de.md,
"Designing new content").

The race (game.py) reads only the tuples `Design` prepares here, so a pack that declares just
the printed categories and kinds plays exactly as the rules in code did (the same wear events
in the same order): a cost dict lists its categories in the order the pack declares them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from slipstream.engine.tracks.track import Track

# the categories the printed rules name, each with rules of its own beyond its costs: tyres
# (overshoots, spins, the box), brakes (braking), transmission (no skip without a
# point), body and engine; a pack's categories must include them
PRINTED: Final = ("tyres", "brakes", "transmission", "body", "engine")
MAX_SKIP: Final = 3  # a downshift skips at most 3 gears (rules.MAX_SKIP)


@dataclass(frozen=True, slots=True)
class Category:
    """One wear category: its costs per event (`turn`: by gear, 1st first; `downshift`: by gears
    skipped; `blocked`: by squares lost; the others per square or per hit), what happens when
    its last point goes (`out`: the car is eliminated with `cause`), the highest gear a car
    with none left may take (`limp_gear`, 0: no limit) and whether the box restores it."""

    id: str
    turn: tuple[int, ...] = ()
    brake: int = 0
    overshoot: int = 0
    downshift: tuple[int, ...] = ()
    blocked: tuple[int, ...] = ()
    collision: int = 0
    blocking: int = 0
    engine_damage: int = 0
    out: bool = False
    cause: str = ""
    limp_gear: int = 0
    box: bool = False


def category(data: Mapping[str, Any]) -> Category:
    costs = data.get("costs") or {}
    return Category(str(data["id"]), tuple(int(x) for x in costs.get("turn", ())), int(costs.get("brake", 0)),
                    int(costs.get("overshoot", 0)), tuple(int(x) for x in costs.get("downshift", ())),
                    tuple(int(x) for x in costs.get("blocked", ())), int(costs.get("collision", 0)),
                    int(costs.get("blocking", 0)), int(costs.get("engine_damage", 0)),
                    data.get("empty", "none") == "out",
                    str(data.get("cause") or data["id"]) if data.get("empty", "none") == "out" else "",
                    int(data.get("limp_gear", 0)), bool(data.get("box", False)))


# the printed categories in the form a pack declares them (content/formula-de/categories.yaml
# holds the same): declared gearbox first, then brakes, tyres, so that a downshift costs
# transmission, brakes, engine and a blocked lane brakes, tyres, in the order the rules list them
PRINTED_CATEGORIES: Final = (
    Category("transmission", downshift=(1, 1, 1)),
    Category("brakes", brake=1, downshift=(0, 1, 1), blocked=(1, 2, 3, 3, 3, 3, 3)),
    Category("tyres", overshoot=1, blocked=(0, 0, 0, 1, 2, 3, 4), box=True),
    Category("body", collision=1, blocking=1, out=True, cause="collision"),
    Category("engine", downshift=(0, 0, 1), engine_damage=1, out=True, cause="engine"),
)


@dataclass(frozen=True, slots=True)
class CornerKind:
    """A kind of corner: the stops it requires, the fewest a car may have made when it
    overshoots without being eliminated (`least`), the highest gear a stop counts in
    (`max_gear`, 0: any) and the wear a stop made too fast costs (`too_fast`), and whether it
    is the kind of every corner of `stops` stops that names none (`default`)."""

    id: str
    stops: int
    least: int
    max_gear: int = 0
    too_fast: tuple[tuple[str, int], ...] = ()
    default: bool = False


def corner_kind(data: Mapping[str, Any]) -> CornerKind:
    return CornerKind(str(data["id"]), int(data["stops"]), int(data["least_stops"]), int(data.get("max_gear", 0)),
                      tuple((str(k), int(v)) for k, v in (data.get("too_fast") or {}).items()),
                      bool(data.get("default", False)))


# the printed corners: 1 stop (an overshoot costs tyres only), 2 stops (none made: out), 3 stops
# (none or one made: out)
PRINTED_KINDS: Final = (CornerKind("one-stop", 1, 0, default=True), CornerKind("two-stop", 2, 1, default=True),
                        CornerKind("three-stop", 3, 2, default=True))


@dataclass(frozen=True, slots=True)
class Condition:
    """A weather condition: the highest gear while it holds (0: any), the wear each turn costs
    by category and gear, and the highest black-die roll of a collision that hits (1 dry)."""

    id: str
    max_gear: int = 0
    turn: tuple[tuple[str, tuple[int, ...]], ...] = ()
    collision_hits: int = 1


@dataclass(frozen=True, slots=True)
class Weather:
    """The weather of a race: its conditions by id, the one it starts in, and how it changes:
    a schedule (`(lap or round, n, condition)`: from the round in which the leader starts lap n,
    or from round n; the last entry reached holds) or a deck drawn from every `every` rounds,
    from round 1 (each draw one card of those left, all back when none is left)."""

    conditions: Mapping[str, Condition]
    start: str
    schedule: tuple[tuple[str, int, str], ...] = ()
    deck: tuple[str, ...] = ()
    every: int = 0


def weather(data: Mapping[str, Any], conditions: Sequence[Mapping[str, Any]]) -> Weather:
    conds = {str(c["id"]): Condition(str(c["id"]), int(c.get("max_gear", 0)),
                                     tuple((str(k), tuple(int(x) for x in v)) for k, v in (c.get("turn") or {}).items()),
                                     int(c.get("collision_hits", 1)))
             for c in conditions}
    sched = tuple(("lap" if "lap" in e else "round", int(e.get("lap", e.get("round", 1))), str(e["weather"]))
                  for e in data.get("schedule") or ())
    deck_d = data.get("deck") or {}
    deck = tuple(str(c["weather"]) for c in deck_d.get("cards", ()) for _ in range(int(c.get("count", 1))))
    return Weather(conds, str(data.get("start") or next(iter(conds), "")), sched, deck, int(deck_d.get("every", 0)))


@dataclass(frozen=True, slots=True)
class Design:
    """The categories, corner kinds and weather of a pack, with what the race looks up made once:
    the categories' names in the order of a car's wear (the printed first), the cost dicts of a
    downshift by gears skipped and of a blocked lane by squares lost, the (category, points)
    taken per event, and whether any category or condition limits gears or costs per turn."""

    categories: tuple[Category, ...] = PRINTED_CATEGORIES
    kinds: tuple[CornerKind, ...] = PRINTED_KINDS
    weather: Weather | None = None
    names: tuple[str, ...] = field(init=False)
    shifts: tuple[dict[str, int], ...] = field(init=False)
    blocks: tuple[dict[str, int], ...] = field(init=False)
    per: Mapping[str, tuple[tuple[str, int], ...]] = field(init=False)
    turns: tuple[tuple[tuple[str, int], ...], ...] = field(init=False)
    outs: Mapping[str, str] = field(init=False)
    limps: tuple[tuple[str, int], ...] = field(init=False)
    boxes: tuple[str, ...] = field(init=False)
    tyres_per: int = field(init=False)
    brake_per: int = field(init=False)
    # per track (by identity): the track with its corners' kinds resolved, and their rules
    cache: dict[int, tuple[Track, Track, tuple[CornerKind, ...]]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        cats = self.categories
        extra = tuple(c.id for c in cats if c.id not in PRINTED)
        put = object.__setattr__
        put(self, "names", (*PRINTED, *extra))

        def table(attr: str, n: int) -> tuple[dict[str, int], ...]:
            return tuple({c.id: getattr(c, attr)[i] for c in cats if i < len(getattr(c, attr)) and getattr(c, attr)[i]}
                         for i in range(n))

        put(self, "shifts", table("downshift", MAX_SKIP))
        put(self, "blocks", table("blocked", max((len(c.blocked) for c in cats), default=0)))
        put(self, "per", {k: tuple((c.id, getattr(c, k)) for c in cats if getattr(c, k) and
                                   not (k == "overshoot" and c.id == "tyres"))
                          for k in ("brake", "overshoot", "collision", "blocking", "engine_damage")})
        gears = max((len(c.turn) for c in cats), default=0)
        put(self, "turns", tuple(tuple((c.id, c.turn[g]) for c in cats if g < len(c.turn) and c.turn[g])
                                 for g in range(gears)))
        put(self, "outs", {c.id: c.cause for c in cats if c.out})
        put(self, "limps", tuple((c.id, c.limp_gear) for c in cats if c.limp_gear))
        put(self, "boxes", tuple(c.id for c in cats if c.box and c.id != "tyres"))
        by = {c.id: c for c in cats}
        put(self, "tyres_per", by["tyres"].overshoot if "tyres" in by else 1)
        put(self, "brake_per", by["brakes"].brake if "brakes" in by else 1)
        put(self, "cache", {})

    def _resolved(self, track: Track) -> tuple[Track, tuple[CornerKind, ...]]:
        hit = self.cache.get(id(track))
        if hit is not None and (hit[0] is track or hit[1] is track):
            return hit[1], hit[2]
        kinds = tuple(self.corner_rules(c.stops, c.kind) for c in track.corners)
        out = track
        if any(c.kind is not None for c in track.corners):  # a kind gives its corner's stops
            corners = tuple(replace(c, stops=k.stops) for c, k in zip(track.corners, kinds, strict=True))
            out = replace(track, corners=corners)
        if len(self.cache) >= 16:
            self.cache.pop(next(iter(self.cache)))
        self.cache[id(track)] = (track, out, kinds)
        self.cache[id(out)] = (track, out, kinds)
        return out, kinds

    def corner_table(self, track: Track) -> tuple[CornerKind, ...]:
        """The kind of each corner of `track` (by corner index)."""
        return self._resolved(track)[1]

    def downshift_cost(self, old: int, new: int) -> dict[str, int] | None:
        """Wear a shift from gear `old` to `new` costs ({} free), or None when it skips more than
        MAX_SKIP gears (the dict is shared: never change it)."""
        skip = old - new - 1
        if skip <= 0:
            return {}
        return None if skip > MAX_SKIP else self.shifts[skip - 1]

    def blocked_cost(self, absorbed: int) -> dict[str, int] | None:
        """Wear for `absorbed` squares a blocked car could not drive; None when that is more
        than the longest `blocked` list (the car is eliminated)."""
        if absorbed <= 0:
            return {}
        return None if absorbed > len(self.blocks) else self.blocks[absorbed - 1]

    def corner_rules(self, stops: int | None, kind: str | None) -> CornerKind:
        """The kind of a corner: the one it names, else the default kind of its stops, else the
        printed rule for that many stops."""
        if kind is not None:
            found = next((k for k in self.kinds if k.id == kind), None)
            if found is not None:
                return found
        n = stops if stops is not None else 1
        found = next((k for k in self.kinds if k.default and k.stops == n), None)
        if found is not None:
            return found
        return CornerKind(f"{n}-stop", n, 0 if n <= 1 else 1 if n == 2 else 2)


PRINTED_DESIGN: Final = Design()


def design_track(track: Track, design: Design) -> Track:
    """`track` with each corner that names a kind given that kind's stops (the same track when
    no corner names one)."""
    return design._resolved(track)[0]
