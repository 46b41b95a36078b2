"""Formula Dé-style rule scenarios (`fd-scenario/1`, docs/formula-de-scenarios.md).

A scenario sets up cars (square, gear, wear points, stops made, lap) or starts the race from
the grid, scripts the dice (a list of rolls per die, used in order), applies decisions or lets
a bot play, and compares the outcome: the cars (also their race-total losses and the route of
their last move), the events, the decision left, and the pack's own dice and wear tables. `slipstream test PACK` runs every scenario in the pack's
`tests/` folder. A malformed scenario gives coded diagnostics (schema, C1xx) with file, line,
column and JSON path; a failure names the line of the expectation or decision that differed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.core.schema import schema_diagnostics, whole_numbers
from slipstream.engine.core.yamlsource import PathKey, SourceMap
from slipstream.engine.packs.data import FrozenMap
from slipstream.engine.packs.trackpack import house_options
from slipstream.engine.play.scenarios import (
    DiceOut,
    Report,
    ScenarioResult,
    check_bot,
    check_events,
    check_expected_cars,
    check_options,
    check_options_and_result,
    check_over,
    check_pending,
    check_pending_car,
    corner_square,
    diag,
    line_of,
    play_scenario,
    race_laps,
    result_of,
    run_scenario_folder,
    sayer,
    scenario_track,
    turn_of,
)
from slipstream.engine.play.scenarios import Prepared as BasePrepared
from slipstream.engine.play.scenarios import run_file as run_scenario_file
from slipstream.engine.rulesets.formula_de.content import CATEGORIES, Tables, wear_for
from slipstream.engine.rulesets.formula_de.game import NO_CORNER, FormulaDeGame
from slipstream.engine.rulesets.formula_de.pitlane import SLOW_STOP_MAX_GEAR, box_for, pit_route
from slipstream.engine.rulesets.formula_de.routes import route_of
from slipstream.engine.rulesets.formula_de.ruleids import RULES
from slipstream.engine.tracks.corners import corner_at
from slipstream.engine.tracks.track import Track

KIND = "fd-scenario"
TAG = f"{KIND}/1"


class ScriptedDice:
    """Stands in for the game's generator: `randint` is the black die, `randrange` a gear die
    (the die of the moving car's gear); each returns the next scripted roll of its die."""

    def __init__(self, script: Mapping[str, Sequence[int]], tables: Tables) -> None:
        self.left = {k: list(v) for k, v in script.items()}
        self.tables = tables
        self.game: FormulaDeGame | None = None

    def _next(self, die: str) -> int:
        rolls = self.left.get(die)
        if not rolls:
            raise DiceOut(die)
        return rolls.pop(0)

    def randint(self, a: int, b: int) -> int:
        return self._next("black")

    def randrange(self, n: int) -> int:
        g = self.game
        gear = g.cars[g.turn.car].gear if g is not None and g.turn is not None else 0
        faces = self.tables.gears[gear - 1] if 1 <= gear <= len(self.tables.gears) else ()
        if len(faces) != n:  # not the mover's gear: the die of that size
            gear = next(i + 1 for i, f in enumerate(self.tables.gears) if len(f) == n)
            faces = self.tables.gears[gear - 1]
        return faces.index(self._next(f"gear-{gear}"))

    def weather(self, pile: Sequence[str]) -> int:
        """A weather card drawn: the next scripted name, among the cards left."""
        rolls = self.left.get("weather")
        if not rolls or str(rolls[0]) not in pile:
            raise DiceOut("weather" if not rolls else f"weather (no {rolls[0]!r} card left in the deck)")
        return list(pile).index(str(rolls.pop(0)))

    def unused(self) -> dict[str, list[int]]:
        return {k: v for k, v in self.left.items() if v}


@dataclass(slots=True)
class Prepared(BasePrepared):
    """A checked scenario, ready to run; `squares` holds per car its space index (`pit_node`
    for a pit square)."""

    tables: Tables  # the race's: the pack's, with the scenario's `race_wear`
    pack_tables: Tables  # the pack's own (`expect: pack:`)


def pit_node(segment: int) -> int:
    """The stand-in index of pit square `segment` among scenario squares (main squares count
    from 0, pit squares from -2 down)."""
    return -2 - segment


def pit_of(node: int | None) -> int:
    """The pit segment of a scenario square (-1: a main-track square)."""
    return -2 - node if node is not None and node <= -2 else -1


def resolve_square(track: Track, at: Any, car: int = -1) -> tuple[int | None, str]:
    """The space index a scenario square names (`pit_node(K)` for `pit:K`), or (None, why not).
    `box` is car `car`'s own pit box, `box N` box N of the pit lane (1 = the first)."""
    if isinstance(at, str) and (at == "box" or at.startswith("box ")):
        route = pit_route(track)
        if route is None:
            return None, f"{at}: the track has no pit lane with boxes the rules use"
        if at == "box":
            if car < 0:
                return None, "`box` names a car's own box: write `box N` here"
            return pit_node(box_for(route, car)), ""
        k = int(at[4:])
        if not 1 <= k <= len(route.boxes):
            return None, f"the pit lane has boxes 1 to {len(route.boxes)}, not {k}"
        return pit_node(route.boxes[k - 1]), ""
    if isinstance(at, dict):
        named, why = corner_square(track, at)
        if named is None:
            return None, why
        name = named
    elif at.startswith("grid "):
        slot = int(at[5:])
        if not 1 <= slot <= len(track.grid):
            return None, f"the track has grid slots 1 to {len(track.grid)}, not {slot}"
        gs = track.grid[slot - 1]
        name = f"{gs.lane}:{gs.segment}"
    else:
        name = at
    sp = track.space_named(name)
    if name.startswith("pit:"):
        route = pit_route(track)
        if sp is None or route is None:
            return None, f"{name} is not a square of the track's pit lane" + ("" if route else " (it has none the rules use)")
        if not route.first <= sp.first <= route.last:
            return None, f"{name} is off the pit route (pit squares {route.first} to {route.last})"
        return pit_node(sp.first), ""
    if sp is None or sp.index >= len(track.spaces) or track.spaces[sp.index] is not sp:
        return None, f"{name} is not a square of the track"
    return sp.index, ""


def check_scenario(data: Any, src: SourceMap, pack: Any, ruleset: Any) -> tuple[Prepared | None, list[Diagnostic]]:
    """Schema and reference checks of one scenario against a Formula Dé-style pack (`ruleset`:
    the ruleset object, for its options and bots)."""
    diags = schema_diagnostics(KIND, data, src)
    if diags:
        return None, diags
    data = whole_numbers(data)  # 2.0 counts as 2 (the schemas' integer)
    tables: Tables | None = pack.tables
    if tables is None:
        return None, [diag(src, "C100", (), "the pack has no gear dice or wear table (P043)")]
    design = tables.design
    items = {"category": list(design.names), "corner-kind": [k.id for k in design.kinds],
             "weather": [*(design.weather.conditions if design.weather is not None else ()),
                         *(("deck",) if design.weather is not None and design.weather.deck else ()),
                         *(("schedule",) if design.weather is not None and design.weather.schedule else ())]}
    for i, cov in enumerate(data["covers"]):
        what, _, rid = cov.partition(":")
        if what == "rule" and rid not in RULES:
            diags.append(diag(src, "C105", ("covers", i), f"covers unknown rule {rid!r}",
                               hint="rule ids: docs/formula-de-scenarios.md"))
        elif what != "rule" and rid not in items.get(what, ()):
            diags.append(diag(src, "C105", ("covers", i), f"covers {what} {rid!r}, which the pack does not have",
                               hint=f"{what}: " + (", ".join(items.get(what, ())) or "none")))
    diags += check_options(data, src, ruleset)
    cars = data["cars"]
    opts = {**house_options(pack), **(data.get("options") or {})}  # the pack's house rules, then its own
    per = opts.get("cars_per_player", 1)
    if isinstance(per, int) and per > 1 and len(cars) % per:
        diags.append(diag(src, "C106", ("cars",), f"{len(cars)} cars cannot be shared by players of {per} cars each"))
    # track
    track, tdiags = scenario_track(data, src, pack)
    diags += tdiags
    diags += check_bot(data, src, ruleset)
    diags += _check_dice(data, src, tables)
    options = opts
    diags += _wear_diags(src, ("race_wear",), data.get("race_wear", {}), options, tables.design.names)
    if track is None:
        return None, diags
    diags += _check_design_refs(data, src, track, tables)
    laps = race_laps(data, track)
    squares, cdiags = _check_cars(data, src, track, tables, laps)
    diags += cdiags
    n = len(cars)
    if data.get("turn", 0) >= n:
        diags.append(diag(src, "C106", ("turn",), f"turn names car {data['turn']} but there are {n} cars"))
    if "round" in data and squares and squares[0] is None:
        diags.append(diag(src, "C106", ("round",), "`round` needs cars set on squares (`at:`); a race from its grid starts in round 1"))
    if "turn" in data and squares and squares[0] is None:
        diags.append(diag(src, "C106", ("turn",), "`turn` needs cars set on squares (`at:`); from the grid the race order decides"))
    ex = data["expect"]
    diags += check_expected_cars(ex, src, n, ("grid", "standings"))
    diags += check_pending_car(ex, src, n)
    for i, want in enumerate(ex.get("cars", [])):
        if "at" in want:
            node, why = resolve_square(track, want["at"], i)
            if node is None:
                diags.append(diag(src, "C104", ("expect", "cars", i, "at"), why))
        for j, at in enumerate(want.get("route", ())):
            node, why = resolve_square(track, at, i)
            if node is not None and pit_of(node) >= 0:
                node, why = None, f"{at}: a route is of track squares (the moves of the pit lane have none)"
            if node is None:
                diags.append(diag(src, "C104", ("expect", "cars", i, "route", j), why))
        diags += _wear_diags(src, ("expect", "cars", i, "wear"), want.get("wear", {}), options, tables.design.names)
        diags += _lost_diags(src, ("expect", "cars", i, "lost"), want.get("lost", {}), tables.design.names)
    if diags:
        return None, diags
    opts = dict(options)
    race = _race_tables(tables, laps, data.get("race_wear"))
    return Prepared(data["id"], src.file, data, src, track, laps, opts, squares, tuple(data["covers"]), ruleset,
                    tables=race, pack_tables=tables), []


def _race_tables(tables: Tables, laps: int, race_wear: Mapping[str, int] | None) -> Tables:
    """The pack's tables with the scenario's starting wear for this race length (`race_wear`:
    the categories given, the others as the pack has them; `pool` for the basic rules)."""
    if not race_wear:
        return tables
    row = wear_for(tables, laps) | {k: v for k, v in race_wear.items() if k != "pool"}
    wear = FrozenMap({**dict(tables.wear.items()), laps: FrozenMap(row)})
    return Tables(tables.gears, tables.black_die, wear, race_wear.get("pool", tables.basic_pool), tables.design)


def _check_design_refs(data: dict[str, Any], src: SourceMap, track: Track, tables: Tables) -> list[Diagnostic]:
    """An inline board's corner kinds, scripted weather cards and an expected weather must be
    the pack's (C108, C110, C105)."""
    design = tables.design
    out: list[Diagnostic] = []
    kinds = [k.id for k in design.kinds]
    if isinstance(data.get("track"), dict):
        for c in track.corners:
            if c.kind is not None and c.kind not in kinds:
                out.append(diag(src, "C108", ("track", "corners", c.index, "kind"), f"no corner kind {c.kind!r} in the pack",
                                hint="corner kinds: " + ", ".join(kinds)))
    conds = list(design.weather.conditions) if design.weather is not None else []
    for i, w in enumerate((data.get("dice") or {}).get("weather", ())):
        if w not in conds:
            out.append(diag(src, "C110", ("dice", "weather", i), f"no weather {w!r} in the pack",
                            hint="conditions: " + (", ".join(conds) or "none (the pack has no weather/1)")))
    want = data["expect"].get("weather")
    if want is not None and want not in conds:
        out.append(diag(src, "C105", ("expect", "weather"), f"no weather {want!r} in the pack",
                        hint="conditions: " + (", ".join(conds) or "none (the pack has no weather/1)")))
    return out


def _check_dice(data: dict[str, Any], src: SourceMap, tables: Tables) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for die, rolls in (data.get("dice") or {}).items():
        if die == "weather":  # cards by name (_check_design_refs)
            continue
        if die == "black":
            faces: Sequence[int] = range(1, tables.black_die + 1)
        else:
            g = int(die.split("-")[1])
            if g > len(tables.gears):
                out.append(diag(src, "C110", ("dice", die), f"the pack has no gear {g} (gears 1 to {len(tables.gears)})"))
                continue
            faces = tables.gears[g - 1]
        for i, r in enumerate(rolls):
            if r not in faces:
                shown = f"1 to {tables.black_die}" if die == "black" else ", ".join(str(f) for f in sorted(set(faces)))
                out.append(diag(src, "C110", ("dice", die, i), f"{r} is not a face of the {die} die ({shown})"))
    return out


def _lost_diags(src: SourceMap, path: PathKey, lost: Mapping[str, int],
                names: Sequence[str] = CATEGORIES) -> list[Diagnostic]:
    """Losses are counted by category (`names`: the pack's), also with one wear pool."""
    return [diag(src, "C109", (*path, k), f"losses are counted by category, not {k!r}",
                  hint="categories: " + ", ".join(names)) for k in lost if k not in names]


def _wear_diags(src: SourceMap, path: PathKey, wear: Mapping[str, int], options: Mapping[str, Any],
                names: Sequence[str] = CATEGORIES) -> list[Diagnostic]:
    basic = options.get("wear_model") == "basic"
    allowed = ("pool",) if basic else tuple(names)
    return [diag(src, "C109", (*path, k), f"no {k!r} wear points in the {'basic' if basic else 'advanced'} rules",
                  hint="categories: " + ", ".join(allowed)) for k in wear if k not in allowed]


def _check_cars(data: dict[str, Any], src: SourceMap, track: Track, tables: Tables,
                laps: int) -> tuple[list[int | None], list[Diagnostic]]:
    cars = data["cars"]
    out: list[Diagnostic] = []
    placed = [("at" in c) for c in cars]
    squares: list[int | None] = [None] * len(cars)
    if not any(placed):
        for i, c in enumerate(cars):
            for k in c:
                if k not in ("name", "wear", "lost"):
                    out.append(diag(src, "C109", ("cars", i, k),
                                     f"a car on the grid takes only `name` and `wear`, not `{k}`",
                                     hint="give every car `at:` to set up a position"))
        if not track.grid:
            out.append(diag(src, "C104", ("cars",), "the track has no grid slot"))
    else:
        seen: dict[int, int] = {}
        for i, c in enumerate(cars):
            if "at" not in c:
                out.append(diag(src, "C104", ("cars", i), f"car {i} has no `at:` while other cars do",
                                 hint="give every car a square, or none to start from the grid"))
                continue
            node, why = resolve_square(track, c["at"], i)
            if node is None:
                out.append(diag(src, "C104", ("cars", i, "at"), why))
                continue
            route = pit_route(track)
            if route is not None and node == pit_node(box_for(route, i)) and c.get("serviced") is False:
                out.append(diag(src, "C109", ("cars", i, "serviced"),
                                 f"car {i} stands in its own box: it has had its tyres changed",
                                 hint="a car reaching its box is serviced at once; leave `serviced` out"))
            squares[i] = node
            off = c.get("finished") or c.get("out")
            if node in seen and not off:
                out.append(diag(src, "C104", ("cars", i, "at"), f"cars {seen[node]} and {i} stand on the same square"))
            if not off:
                seen[node] = i
            for k in c.get("next_gears", ()):
                if k > len(tables.gears):
                    out.append(diag(src, "C109", ("cars", i, "next_gears"), f"the pack has gears 1 to {len(tables.gears)}"))
            if pit_of(node) >= 0:
                corner = None
                seg = f"pit:{pit_of(node)}"
            else:
                if "serviced" in c:
                    out.append(diag(src, "C109", ("cars", i, "serviced"), f"car {i} is not in the pit lane"))
                seg = str(track.spaces[node].first)
                corner = corner_at(track, track.spaces[node].first)
            if c.get("stops", 0) and corner is None:
                out.append(diag(src, "C109", ("cars", i, "stops"), f"car {i} stands on {seg}, outside every corner: it has no stops"))
            elif corner is not None and c.get("stops", 0) >= (need := tables.design.corner_rules(corner.stops, corner.kind).stops) + 1:
                out.append(diag(src, "C109", ("cars", i, "stops"),
                                 f"corner {corner.name} needs {need} stops; a car in it has made at most that many"))
            if c.get("gear", 1) > len(tables.gears):
                out.append(diag(src, "C109", ("cars", i, "gear"), f"the pack has gears 1 to {len(tables.gears)}"))
            if c.get("lap", 1) > laps:
                out.append(diag(src, "C109", ("cars", i, "lap"), f"a {laps}-lap race has laps 0 to {laps}"))
    for i, c in enumerate(cars):
        out += _wear_diags(src, ("cars", i, "wear"), c.get("wear", {}), data.get("options") or {}, tables.design.names)
        out += _lost_diags(src, ("cars", i, "lost"), c.get("lost", {}), tables.design.names)
        if c.get("spun") and squares[i] is not None and pit_of(squares[i]) >= 0:
            out.append(diag(src, "C109", ("cars", i, "spun"), f"car {i} is in the pit lane: it cannot have spun there"))
    return squares, out


# --- running -------------------------------------------------------------------------------------

class ScenarioGame(FormulaDeGame):
    """The race of a scenario: a game that also notes, per car, the route of its last move
    (routes.py, worked out from the position before the move) and the wear it had lost when
    the scenario began (`lost`), for the expectations."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.routes: dict[int, list[tuple[int, int]]] = {}
        self.lost_before: dict[int, dict[str, int]] = {}

    def apply(self, key: str) -> Any:
        d, t = self.pending, self.turn
        route = route_of(self, key) if d is not None and d.kind == "move" and t is not None else []
        car = t.car if t is not None else -1
        got = super().apply(key)
        if got is None and route:
            self.routes[car] = route
        return got

    def lost(self, seat: int) -> dict[str, int]:
        """Wear points car `seat` lost in the race by category: before the scenario began, and
        those its `wear` events took since (points a car did not have are not counted)."""
        out = dict.fromkeys(self.design.names, 0) | self.lost_before.get(seat, {})
        for e in self.log:
            if e.get("ev") == "wear" and e.get("p") == seat:
                out[e["what"]] = out.get(e["what"], 0) + int(e["n"])
        return out


def build_game(sc: Prepared) -> tuple[ScenarioGame, ScriptedDice | None]:
    """The scenario's position: the race from its grid, or the cars set where it says, with
    the first car to move given the turn."""
    d = sc.data
    names = [c.get("name", f"P{i + 1}") for i, c in enumerate(d["cars"])]
    per = int(sc.options.get("cars_per_player", 1) or 1)
    if per > 1:  # the cars are those of len(cars) / per players, named by the game
        names = [f"P{i + 1}" for i in range(len(names) // per)]
    seed = d.get("seed", 0)
    dice = ScriptedDice(d["dice"], sc.tables) if "dice" in d else None
    from_grid = sc.squares[0] is None
    g = ScenarioGame(sc.track, sc.tables, names, seed, sc.laps, sc.options,
                     dice=dice if from_grid else None)
    if dice is not None:
        dice.game = g
    if not from_grid:
        g.rng = dice if dice is not None else random.Random(seed)
        g.log.clear()
        # the weather is set again for the placed cars, its cards drawn from the script
        g.wx_round, g.wx_pile = 0, []
        if g.design.weather is not None:
            g.weather = g.design.weather.start
        g.rounds = int(d.get("round", 1))
        _place(g, sc)
    full = g.race_wear()
    for i, c in enumerate(d["cars"]):
        car = g.cars[i]
        for k, v in c.get("wear", {}).items():
            car.wear[k] = v
        if "tyres_lost" in c:
            car.tyres_lost = car.tyre_toll = c["tyres_lost"]
        elif not g.pool:
            car.tyres_lost = car.tyre_toll = max(0, full["tyres"] - car.wear["tyres"])
        if "lost" in c:
            g.lost_before[i] = dict(c["lost"])
        elif not g.pool:  # what the car lacks of the race's figures (after the first box: give `lost`)
            g.lost_before[i] = {k: max(0, full[k] - car.wear[k]) for k in g.design.names}
    return g, dice


def _place(g: FormulaDeGame, sc: Prepared) -> None:
    n = g.track.segments
    for i, c in enumerate(sc.data["cars"]):
        car = g.cars[i]
        node = sc.squares[i]
        assert node is not None
        car.gear, car.started = c.get("gear", 1), c.get("started", True)
        car.next_gears = tuple(c.get("next_gears", ()))
        car.spun = bool(c.get("spun", False))
        pit = pit_of(node)
        if pit >= 0:  # in the pit lane: on its way from the entry square (checked: a route)
            route = g.pit_route
            assert route is not None
            car.node, car.pit, car.serviced = route.entry, pit, bool(c.get("serviced", False))
            if pit == g.box_of(car) and "serviced" not in c:
                # in its own box: the stop is made (reaching the box changes the tyres at once);
                # it waits there after a slow stop unless `next_gears` says otherwise
                car.serviced = True
                car.next_gears = car.next_gears or tuple(range(1, SLOW_STOP_MAX_GEAR + 1))
            car.pit_base = (c.get("lap", 1) - 1) * n + route.entry_segment
            car.progress = car.pit_base + route.offset(pit)
            car.corner, car.stops = NO_CORNER, 0
        else:
            seg = g.track.spaces[node].first
            car.node = node
            car.progress = (c.get("lap", 1) - 1) * n + seg
            corner = corner_at(g.track, seg)
            car.corner, car.stops = (corner.index, c.get("stops", 0)) if corner is not None else (NO_CORNER, 0)
        if c.get("finished"):
            car.finished = True
            g.finished.append(i)
        elif c.get("out"):
            car.out = c["out"]
            g.eliminated.append(i)
    g._start_round()
    first = sc.data.get("turn")
    if first is not None and g.turn is not None and g.turn.car != first and not (g.cars[first].out or g.cars[first].finished):
        order = [g.turn.car, *g.queue]
        order.remove(first)
        g.queue = [first, *order]
        g._next_car()


def run_prepared(sc: Prepared) -> ScenarioResult:
    problems: list[str] = []
    # where the game is: path and words (the grid roll of a race from its grid uses the dice)
    at: list[Any] = [("dice",), "the grid roll"]
    g: ScenarioGame | None = None
    dice: ScriptedDice | None = None
    try:
        g, dice = build_game(sc)
        at[:] = [("decisions",), "the setup"]
        problems += play_scenario(g, sc, at, _mover)
    except DiceOut as e:
        who = (f" ({turn_of(g, 'no turn')})" if g is not None
               else ": give a black roll for every car, and one more for each car of a tie")
        problems.append(f"line {line_of(sc.src, at[0])}: the script ran out of {e.die} rolls during {at[1]}{who}")
    if not problems and g is not None:
        problems += check_expect(g, sc)
        left = dice.unused() if dice is not None else {}
        if left:
            problems.append(f"line {line_of(sc.src, ('dice',))}: scripted rolls never used: "
                            + ", ".join(f"{k} {v}" for k, v in sorted(left.items())))
    return result_of(sc, problems)


def _mover(g: FormulaDeGame) -> str:
    """The car the pending decision moves (its player decides: `Decision.player` is the owner)."""
    return g.names[g.turn.car] if g.turn is not None else "nobody"


def _where(g: FormulaDeGame, car: Any) -> str:
    return f"pit:{car.pit}" if car.pit >= 0 else g.where(car.node)


def _events(g: FormulaDeGame) -> list[dict[str, Any]]:
    return [e for e in g.log if e.get("t") == "event"]


def check_expect(g: ScenarioGame, sc: Prepared) -> list[str]:
    """What differs from `expect:`, one line per difference, each naming its line."""
    ex, src = sc.data["expect"], sc.src
    out: list[str] = []
    say = sayer(src, out)

    n = g.track.segments
    for i, want in enumerate(ex.get("cars", [])):
        car, who = g.cars[i], g.names[i]
        if "at" in want:
            node, _ = resolve_square(g.track, want["at"], i)
            pit = pit_of(node)
            same = car.pit == pit if pit >= 0 else (car.pit < 0 and node == car.node)
            if not same:
                shown = f"pit:{pit}" if pit >= 0 else g.where(node) if node is not None else want["at"]
                say(("cars", i, "at"), f"{who} at: expected {shown}, got {_where(g, car)}")
        if "gear" in want and car.gear != want["gear"]:
            say(("cars", i, "gear"), f"{who} gear: expected {want['gear']}, got {car.gear}")
        for k, v in want.get("wear", {}).items():
            if car.wear.get(k) != v:
                say(("cars", i, "wear", k), f"{who} {k}: expected {v}, got {car.wear.get(k)}")
        if want.get("lost"):
            lost = g.lost(i)
            for k, v in want["lost"].items():
                if lost[k] != v:
                    say(("cars", i, "lost", k), f"{who} {k} lost in the race: expected {v}, got {lost[k]}")
        if "spun" in want and car.spun != want["spun"]:
            say(("cars", i, "spun"), f"{who} spun: expected {want['spun']}, got {car.spun}")
        if "route" in want:
            cells = [g.track.spaces[resolve_square(g.track, at, i)[0] or 0] for at in want["route"]]
            wanted = [f"{sp.lane}:{sp.first}" for sp in cells]
            got_route = [f"{lane}:{seg}" for lane, seg in g.routes.get(i, [])]
            if got_route != wanted:
                say(("cars", i, "route"), f"{who} route of its last move: expected {' '.join(wanted)}, "
                    f"got {' '.join(got_route) or 'no move'}")
        if "stops" in want and car.stops != want["stops"]:
            say(("cars", i, "stops"), f"{who} stops: expected {want['stops']}, got {car.stops}")
        if "corner" in want:
            got = g.track.corners[car.corner].name if car.corner != NO_CORNER else None
            if got != want["corner"]:
                say(("cars", i, "corner"), f"{who} corner: expected {want['corner']}, got {got}")
        if "lap" in want and car.progress // n + 1 != want["lap"]:
            say(("cars", i, "lap"), f"{who} lap: expected {want['lap']}, got {car.progress // n + 1}")
        if "finished" in want and car.finished != want["finished"]:
            say(("cars", i, "finished"), f"{who} finished: expected {want['finished']}, got {car.finished}")
        if "place" in want:
            got_place = g.finished.index(i) + 1 if i in g.finished else None
            if got_place != want["place"]:
                say(("cars", i, "place"), f"{who} place: expected {want['place']}, got {got_place}")
        if "out" in want:
            got_out: str | bool = car.out or False
            if got_out != want["out"]:
                say(("cars", i, "out"), f"{who} eliminated: expected {want['out']!r}, got {got_out!r}")
    if "weather" in ex and g.weather != ex["weather"]:
        say(("weather",), f"weather: expected {ex['weather']}, got {g.weather or 'none'}")
    if "pack" in ex:
        _check_pack(ex["pack"], sc.pack_tables, say)
    evs = _events(g)
    check_events(ex, evs, say)
    pend = g.pending
    check_pending(ex, pend, g.turn.car if g.turn is not None else -1, _mover(g), say)
    check_options_and_result(ex, g, pend, say)
    check_over(ex, pend, say)
    return out


def _check_pack(want: Mapping[str, Any], tables: Tables, say: Any) -> None:
    """`expect: pack:`: the pack's own data (not the scenario's `race_wear`): the faces of each
    die (as a multiset: their order is not data), the wear table's rows and the basic pool."""
    for die, faces in want.get("dice", {}).items():
        if die == "black":
            if faces != tables.black_die:
                say(("pack", "dice", die), f"the black die: expected {faces} faces, got {tables.black_die}")
            continue
        g = int(die.split("-")[1])
        got = sorted(tables.gears[g - 1]) if g <= len(tables.gears) else None
        if got != sorted(faces):
            say(("pack", "dice", die), f"the {die} die: expected faces {sorted(faces)}, "
                f"got {got if got is not None else f'no such die (gears 1 to {len(tables.gears)})'}")
    for j, row in enumerate(want.get("wear", [])):
        laps = row["laps"]
        have = tables.wear.get(laps)
        for k, v in row.items():
            if k == "laps":
                continue
            got_v = have[k] if have is not None else None
            if got_v != v:
                say(("pack", "wear", j, k), f"the {laps}-lap wear table, {k}: expected {v}, "
                    f"got {got_v if have is not None else f'no {laps}-lap row'}")
    if "basic_pool" in want and want["basic_pool"] != tables.basic_pool:
        say(("pack", "basic_pool"), f"the basic pool: expected {want['basic_pool']}, got {tables.basic_pool}")


def run_file(path: Path, pack: Any, ruleset: Any) -> tuple[ScenarioResult | None, list[Diagnostic]]:
    """Check and run one scenario file: its result, or None and the diagnostics."""
    return run_scenario_file(path, pack, ruleset, check_scenario, run_prepared)


def run_pack_scenarios(pack_path: str, ruleset: Any, select: str = "") -> Report:
    """Every scenario of the pack folder's `tests/` (`select`: ids containing it)."""
    return run_scenario_folder(pack_path, lambda f, pack: run_file(f, pack, ruleset),
                               lambda pack: getattr(pack, "tables", None) is not None, "no gear or wear tables", select)

