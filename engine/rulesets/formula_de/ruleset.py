"""The Formula Dé-style ruleset object (id `formula-de`): what the faces and tools see.

Races are played by engine/play/races.py (`play_race`) and replayed by `replay_simple`
(BaseRuleset); the rules live in game.py and rules.py, the bots in bots.py
(greedy's ratings in scoring.py, the look-ahead bot in lookahead.py). Its capabilities (race
view, reports, statistics, scenarios, file kinds) are the classes below; its championships are
engine/play/seasons.py's points by place with this ruleset's house values (seasons.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from slipstream.engine.core.schemafiles import SCHEMA_PACKAGE
from slipstream.engine.packs.trackpack import house_options
from slipstream.engine.play.base import (
    BaseRaceView,
    BaseReports,
    BaseRuleset,
    BaseStats,
    OwnFileKinds,
    house_rules_schemas,
    schema_only,
)
from slipstream.engine.play.options import OptionSpec
from slipstream.engine.play.seasons import PointsSeasons
from slipstream.engine.rulesets.formula_de.authoring import AUTHORING
from slipstream.engine.rulesets.formula_de.content import CONTENT, RULESET_ID
from slipstream.engine.rulesets.formula_de.narration import describe
from slipstream.engine.rulesets.formula_de.seasons import CHAMPIONSHIP
from slipstream.engine.rulesets.formula_de.templates import TEMPLATES
from slipstream.engine.tracks.needs import TrackNeeds, check_needs, check_raceable
from slipstream.engine.tracks.track import PIT_LANE, Track

# RULES.md A.2: stops on every corner; the base game seats 10 cars
NEEDS = TrackNeeds(RULESET_ID, corner_stops=True, min_grid=10, corners=True)



OPTIONS = (
    OptionSpec("cars_per_player", "int", 1,
               "How many cars each player drives (each has its own grid roll and box; a player "
               "is placed by their best car).", minimum=1, maximum=5),
    OptionSpec("collision_diagonal", "bool", True,
               "A car diagonally behind the mover counts for collisions (Readings)."),
    OptionSpec("downshift_needs_points", "bool", True,
               "A downshift skip needing a wear point the car no longer has is not allowed "
               "(false: allowed, and the car is eliminated)."),
    OptionSpec("flying_start_swerve", "choice", "two-lanes",
               "How far a flying start may swerve: two-lanes (every square of its 4 at most 2 lanes "
               "from its start lane, the seed's \"1 or 2 lanes\") or each-step (diagonal steps as "
               "usual plus one step across two lanes, with no limit in all).",
               choices=("two-lanes", "each-step")),
    OptionSpec("pit_entry_max_gear", "int", 0,
               "The highest gear a car may enter the pit lane in (0: no limit, as in the seed; "
               "several base-game sources say 4).", minimum=0, maximum=6),
    OptionSpec("stall_first_gear", "bool", True,
               "After a stall at the start the next turn is in 1st gear only, as the seed says "
               "(false: 1st or 2nd, as if the stalled turn had been driven in 1st)."),
    OptionSpec("tyre_limit_counts", "choice", "overshoots",
               "What the 1-lap tyre limit counts: the tyre points overshoots demand (overshoots, the "
               "seed's \"at once or over several corners\") or every tyre point lost (all: the "
               "blocked lane's too).", choices=("overshoots", "all")),
    OptionSpec("wear_model", "choice", "advanced",
               "Wear points by category (advanced) or one pool (basic).",
               choices=("advanced", "basic")),
)


class FormulaDeBotData:
    """The options of a decision as values for external bots (docs/bots.md): a gear and the
    wear a downshift costs, a move's stop (cell, squares driven, squares braked, squares lost
    behind a blocking car, a flying start's swerve), the pit lane's squares and box."""

    def option_values(self, game: Any, decision: Any) -> list[dict[str, Any]]:
        t = game.turn
        if t is None:
            return [{} for _ in decision.options]
        out: list[dict[str, Any]] = []
        for o in decision.options:
            key = o.key
            if t.phase == "gear":
                g = int(key.split()[1])
                out.append({"gear": g, "costs": dict(game.design.downshift_cost(game.cars[t.car].gear, g) or {})})
            elif t.phase == "pit":
                out.append({"pit": key == "pit", "squares": t.pit_steps if key == "pit" else 0})
            else:
                tg = t.targets[key]
                sp = game.track.spaces[tg.node]
                out.append({"cell": [sp.lane, sp.first], "squares": tg.steps, "brake": tg.brake,
                            "blocked": tg.absorbed, "swerve": tg.swerve})
        return out


class FormulaDe(BaseRuleset):
    id = RULESET_ID
    name = "Formula Dé-style racing"
    content = CONTENT
    options = OPTIONS + CHAMPIONSHIP.options
    players = (1, 10)
    bots = {"random": "picks any legal option", "greedy": "best expected progress for the wear and risk",
            "lookahead": "expectimax over its next roll on copies of the race, greedy's best destinations "
                         "played out (lookahead:N plays N a roll, default 3)"}
    default_bots = ("greedy", "greedy", "greedy", "random", "random", "random")

    def __init__(self) -> None:
        own = ("gears", "wear", "wear-categories", "corner-kinds", "weather", "fd-scenario")
        self.files = OwnFileKinds({k: ((1,), schema_only(k)) for k in own},
                                  SCHEMA_PACKAGE, tuple(f"{k}.schema.json" for k in own),
                                  generated=house_rules_schemas(self.content, self.name, self.options))  # formula-de-rules/1
        self.race_view = FormulaDeView()
        self.bot_data = FormulaDeBotData()
        self.reports = FormulaDeReports(self)
        self.stats = FormulaDeStats()
        self.seasons = PointsSeasons(self, CHAMPIONSHIP)  # points by place (engine/play/seasons.py)
        self.scenarios = FormulaDeScenarios(self)
        self.authoring = AUTHORING  # authoring.py: the pack editor's items and tables
        self.templates = TEMPLATES

    def track_checks(self, track: Any, data: Any, src: Any) -> list[Any]:
        """A track/2 track for this ruleset needs stops on every corner and 10 grid slots; any
        track raced by it needs corners (warning T157)."""
        return check_needs(track, NEEDS, data, src) if track.version >= 2 else check_raceable(track, NEEDS, src)

    def new_game(self, pack: Any, track: Track, seats: Sequence[Any], seed: int,
                 options: Mapping[str, Any], laps: int | None = None,
                 setup: Mapping[str, Any] | None = None, record: bool = True) -> Any:
        from slipstream.engine.rulesets.formula_de.tally import TalliedGame

        if pack.tables is None:
            raise ValueError(f"pack {pack.id!r} has no gear dice or wear table (P043)")
        options = {**house_options(pack), **options}  # the pack's house rules, then the race's
        return TalliedGame(track, pack.tables, [s.name for s in seats], seed, laps or track.laps,
                             options, record)

    def make_bot(self, name: str, seed: int) -> Any:
        from slipstream.engine.rulesets.formula_de.bots import make_bot

        return make_bot(name, seed)

    def describe(self, event: Mapping[str, Any], context: Any = None) -> str | None:
        result = getattr(context, "result", None)
        names = result.get("car_names") if isinstance(result, dict) else None
        return describe(event, names or getattr(context, "names", None))

    def view(self, game: Any, seat: int) -> list[tuple[str, str]]:
        """The player's car about to move (their first car still racing, else their first)."""
        mine = [c for c in game.cars if game.owner[c.seat] == seat]
        turn = game.turn
        c = next((x for x in mine if turn is not None and x.seat == turn.car), None) \
            or next((x for x in mine if not x.out and not x.finished), mine[0])
        rows = _car_view(game, c.seat)
        if c.pit >= 0 and not c.out:
            boxes = game.pit_route.boxes
            state = f"in box {boxes.index(c.pit) + 1}" if c.serviced and c.pit == game.box_of(c) else "in the pit lane"
            rows = [(k, state if k == "state" else v) for k, v in rows]
        return rows if game.per == 1 else [("car", game.names[c.seat]), *rows]


def _car_view(game: Any, seat: int) -> list[tuple[str, str]]:
    c = game.cars[seat]
    n = game.track.segments
    lap = min(game.laps, max(1, c.progress // n + 1))
    stops = ""
    if c.corner >= 0:
        corner = game.track.corners[c.corner]
        stops = f"{c.stops} of {corner.stops or 1} ({corner.name})"
    state = "eliminated: " + c.out if c.out else ("finished" if c.finished else "running")
    return [("gear", str(c.gear)), ("last roll", _last_roll(game, seat)), *((k, str(v)) for k, v in c.wear.items()),
            ("stops in this corner", stops or "-"), ("lap", f"{lap} of {game.laps}"), ("state", state)]


class FormulaDeView(BaseRaceView):
    """The cars (pit lane included), their owners with several cars a player, a line per
    player and the squares a move passes."""

    def cars(self, game: Any) -> list[tuple[int, int]]:
        """(lane, segment) of every car; a car in the pit lane is on (PIT_LANE, pit segment)."""
        out = []
        for c in game.cars:
            if c.pit >= 0:
                out.append((PIT_LANE, c.pit))
                continue
            sp = game.track.spaces[c.node]
            out.append((sp.lane, sp.first))
        return out

    def car_owners(self, game: Any) -> list[int]:
        """The player of each car (several cars a player: `cars_per_player`)."""
        return list(game.owner)

    def car_of(self, game: Any) -> int:
        """The car of the turn (the pending decision's `player` is its owner)."""
        return game.turn.car if game.turn is not None else -1

    def brief(self, game: Any, seat: int) -> str:
        """One line per player for a face's table of the field: gear, last roll and state of
        each of their cars (`#2 ...` per car with several cars a player)."""
        parts = []
        for c in (x for x in game.cars if game.owner[x.seat] == seat):
            where = " in the pit lane" if c.pit >= 0 and not (c.out or c.finished) else ""
            state = f"out ({c.out})" if c.out else "finished" if c.finished else ""
            parts.append(", ".join(x for x in (f"gear {c.gear}", f"rolled {_last_roll(game, c.seat)}{where}", state) if x))
        if game.per == 1:
            return parts[0] if parts else ""
        return "; ".join(f"#{j + 1} {p}" for j, p in enumerate(parts))

    def route(self, game: Any, key: str) -> list[tuple[int, int]]:
        """The squares the moving car passes if the pending `move` option `key` is taken."""
        from slipstream.engine.rulesets.formula_de.routes import route_of

        return route_of(game, key)


class FormulaDeReports(BaseReports):
    """The shared race text and JSON, plus every car in race order."""

    def text(self, result: Any) -> str:
        cars = (result.result or {}).get("car_standings")
        text = super().text(result)
        return text + ("\ncars in race order: " + ", ".join(cars) if cars else "")

    def json(self, result: Any) -> dict[str, Any]:
        out = super().json(result)
        cars = (result.result or {}).get("car_standings")
        return out | ({"cars": [{"place": i + 1, "name": n} for i, n in enumerate(cars)]} if cars else {})


class FormulaDeStats(BaseStats):
    """Finish rate, eliminations, pit stops and per-corner counts, with heat maps by corner."""

    def summarise(self, results: Sequence[Any]) -> dict[str, Any]:
        """The shared win rates plus finish rate, eliminations by cause and, per corner (by
        index, first corner 0), the stops made, the overshoots and the stops missed."""
        s = super().summarise(results)
        out: Counter[str] = Counter()
        over: Counter[str] = Counter()
        per: dict[str, Counter[str]] = {k: Counter() for k in _CORNER_STATS}
        cars = finished = 0
        for r in results:
            out.update(r.stats.get("out", {}))
            over.update(r.stats.get("overshoots", {}))
            for k in _CORNER_STATS:
                per[k].update(r.stats.get(k, {}))
            cars += int(r.stats.get("cars", len(r.names)))
            finished += int(r.stats.get("finished", 0))
        cars = sum(int(r.stats.get("cars", len(r.names))) for r in results)  # several cars a player
        s["finish_rate"] = round(finished / cars, 4) if cars else 0.0
        pits = sum(int(r.stats.get("pit_stops", 0)) for r in results)
        s["pit_stops_per_race"] = round(pits / len(results), 3) if results else 0.0
        s["eliminations_by_cause"] = dict(sorted(out.items()))
        s["overshoots_by_corner"] = dict(sorted(over.items()))
        names = _corner_names(results)
        keys = sorted({k for c in per.values() for k in c} | {str(i) for i in range(len(names))}, key=int)
        s["corners"] = [{"index": int(k), "name": names[int(k)] if int(k) < len(names) else f"corner {int(k) + 1}",
                         **{label: per[stat][k] for stat, label in _CORNER_STATS.items()}} for k in keys]
        s["stops_missed_by_corner"] = {c["name"]: c["stops_missed"] for c in s["corners"] if c["stops_missed"]}
        return s

    def format_summary(self, summary: Mapping[str, Any]) -> str:
        lines = [super().format_summary(summary),
                 f"finish rate: {100 * summary['finish_rate']:.1f}% of cars; "
                 f"pit stops: {summary.get('pit_stops_per_race', 0.0):.2f} per race",
                 "eliminations by cause: " + (", ".join(f"{k} {v}" for k, v in summary["eliminations_by_cause"].items()) or "none"),
                 "overshoots by corner: " + (", ".join(f"{k} {v}" for k, v in summary["overshoots_by_corner"].items()) or "none"),
                 "stops missed by corner: " + (", ".join(f"{k} {v}" for k, v in summary.get("stops_missed_by_corner", {}).items()) or "none")]
        corners = summary.get("corners", [])
        if corners:
            races = max(1, int(summary.get("races", 1)))
            lines.append("per corner, per race: stops made, overshoots, stops missed")
            lines += [f"  {c['index'] + 1:>2} {c['name']:<20} {c['stops'] / races:7.2f} {c['overshoots'] / races:7.2f} "
                      f"{c['stops_missed'] / races:7.2f}" for c in corners]
        return "\n".join(lines)

    def measures(self, result: Any) -> list[Any]:
        """Finish rate (cars), pit stops, eliminations by cause, and per corner by name the
        stops missed and the overshoots, per race."""
        from slipstream.engine.play.measures import MEAN, RATE, Measure, corner_label, corner_names

        st = result.stats
        names = corner_names(result)
        out = [Measure("finish_rate", "finish rate (cars that finish)", RATE, float(st.get("finished", 0)),
                       float(st.get("cars", len(result.names))), "cars"),
               Measure("pit_stops", "pit stops per race", MEAN, float(st.get("pit_stops", 0)), unit="stops")]
        out += [Measure(f"eliminations.{k}", f"eliminations by {k} per race", MEAN, float(v), unit="cars")
                for k, v in sorted(st.get("out", {}).items())]
        out += [Measure(f"stops_missed.{corner_label(names, k)}", f"stops missed at {corner_label(names, k)} per race",
                        MEAN, float(v), unit="stops") for k, v in sorted(st.get("missed_at", {}).items())]
        out += [Measure(f"overshoots.{corner_label(names, k)}", f"overshoots at {corner_label(names, k)} per race",
                        MEAN, float(v), unit="overshoots") for k, v in sorted(st.get("overshoots_at", {}).items())]
        return out

    def heat(self, summary: Mapping[str, Any]) -> dict[str, dict[str, float]]:
        """Per-race means of the corner counts of a batch, as maps keyed `corner:INDEX`."""
        races = max(1, int(summary.get("races", 1)))
        return {title: {f"corner:{c['index']}": round(c[stat] / races, 4) for c in summary.get("corners", [])}
                for stat, title in _HEAT_TITLES.items()}


class FormulaDeScenarios:
    """Rule scenarios (fd-scenario/1): a pack folder's, or one file of a loaded pack."""

    kinds = ("fd-scenario",)

    def __init__(self, rs: FormulaDe) -> None:
        self.rs = rs

    def run_folder(self, pack: str, select: str = "") -> Any:
        from slipstream.engine.rulesets.formula_de.scenarios import run_pack_scenarios

        return run_pack_scenarios(pack, self.rs, select)

    def run_file(self, pack: Any, path: Any) -> tuple[Any, list[Any]]:
        from pathlib import Path

        from slipstream.engine.rulesets.formula_de.scenarios import run_file

        return run_file(Path(path), pack, self.rs)


# per-corner stats of a race (engine/rulesets/formula_de/tally.py) -> their summary names
_CORNER_STATS = {"stops_at": "stops", "overshoots_at": "overshoots", "missed_at": "stops_missed"}
_HEAT_TITLES = {"stops": "Stops made per race", "overshoots": "Overshoots per race",
                "stops_missed": "Stops missed per race"}


def _last_roll(game: Any, seat: int) -> str:
    roll = getattr(game, "last_roll", {}).get(seat)
    return "-" if roll is None else str(roll)


def _corner_names(results: Sequence[Any]) -> list[str]:
    """The corner names of the batch's track (the pack's track of that id; [] if unknown)."""
    if not results:
        return []
    spec = results[0].spec
    try:
        from slipstream.engine.play.registry import load_pack

        track = load_pack(str(getattr(spec, "pack", ""))).tracks.get(getattr(spec, "track", ""))
    except (ValueError, RuntimeError, OSError, AttributeError):
        return []
    return [c.name for c in track.corners] if track is not None else []

RULESET = FormulaDe()

if TYPE_CHECKING:  # the type check proves it a whole ruleset (engine/play/protocol.py)
    from slipstream.engine.play.protocol import Ruleset

    _WHOLE: Ruleset = RULESET

