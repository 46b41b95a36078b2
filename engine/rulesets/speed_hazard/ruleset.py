"""The speed-and-hazard ruleset object (id `speed-hazard`): what the faces and tools see.

Races are played by engine/play/races.py (`play_race`) and replayed by `replay_simple`
(BaseRuleset); the rules live in game.py and rules.py, the bots in bots.py. Its championships
are engine/play/seasons.py's points by place with this ruleset's house values (seasons.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from slipstream.engine.core.schemafiles import SCHEMA_PACKAGE
from slipstream.engine.packs.trackpack import house_options
from slipstream.engine.play.base import (
    BaseRaceView,
    BaseRuleset,
    BaseStats,
    OwnFileKinds,
    house_rules_schemas,
    schema_only,
)
from slipstream.engine.play.options import OptionSpec
from slipstream.engine.play.seasons import PointsSeasons
from slipstream.engine.rulesets.speed_hazard import views
from slipstream.engine.rulesets.speed_hazard.authoring import AUTHORING
from slipstream.engine.rulesets.speed_hazard.content import CONTENT, KINDS, RULESET_ID
from slipstream.engine.rulesets.speed_hazard.narration import describe
from slipstream.engine.rulesets.speed_hazard.seasons import CHAMPIONSHIP
from slipstream.engine.rulesets.speed_hazard.templates import TEMPLATES
from slipstream.engine.tracks.needs import TrackNeeds, check_needs, check_raceable
from slipstream.engine.tracks.track import PIT_LANE, Track

# RULES.md A.1: speed limits in km/h on every curve, moved in steps of 10; the pit wall
NEEDS = TrackNeeds(RULESET_ID, corner_speed_limits=True, speed_unit=10, features=("pit-wall",),
                   corners=True)



OPTIONS = (
    OptionSpec("check_leaving_curve", "bool", False,
               "Stepping off a curve above its limit also draws hazard cards (Readings 2)."),
    OptionSpec("ram_beside", "bool", False, "A car level beside may be side-rammed (Readings 3)."),
    OptionSpec("nitrous_until", "choice", "turn", "Nitrous ignores the maximum until the end of the turn or of the curve "
               "(Readings 5).", choices=("turn", "curve")),
    OptionSpec("curve_accel_hazards", "choice", "accelerated", "Accelerating in a curve draws per 10 km/h accelerated "
               "or per 10 km/h over the limit (Readings 6).", choices=("accelerated", "over")),
    OptionSpec("sabotage_start_square", "bool", True, "The square a car starts its turn on counts as passed for "
               "Sabotage (Readings 10)."),
    OptionSpec("pit_wall_slide", "bool", True, "A car side-rammed beside the pit road hits the pit wall (Readings 12)."),
    OptionSpec("all_pit_entries", "bool", False, "Every pit entry and exit is open, not only the main ones (Readings 25)."),
    OptionSpec("u_turn", "bool", False, "Deal the optional U-turn card."),
    OptionSpec("u_turn_lanes", "choice", "inner-outer", "The U-turn card only from the inner or outer lane, or its "
               "skid turn from any lane (Readings 31).", choices=("inner-outer", "skid-any-lane")),
    OptionSpec("reverse_laps", "choice", "count-down", "Crossing the line backwards after a U-turn counts a lap down "
               "or leaves the lap count unchanged (Readings 33).", choices=("count-down", "unchanged")),
)


class SpeedHazard(BaseRuleset):
    id = RULESET_ID
    name = "Speed-and-hazard racing"
    content = CONTENT
    options = OPTIONS + CHAMPIONSHIP.options
    players = (1, 6)
    bots = {"random": "picks any legal option", "greedy": "manages its speed against the curves ahead, rams when it pays, "
            "pits when damaged",
            "lookahead:4": "tries each card and speed 4 times on copies of the race (greedy play one round on)",
            "lookahead:8": "the same with 8 rollouts per option",
            "lookahead:16": "the same with 16 rollouts per option"}
    default_bots = ("greedy", "greedy", "random", "random")
    track_features = NEEDS.features

    def __init__(self) -> None:
        self.files = OwnFileKinds({**{k: ((1,), schema_only(k)) for k in KINDS},
                                   "sh-scenario": ((1,), schema_only("sh-scenario"))},
                                  SCHEMA_PACKAGE, tuple(f"{k}.schema.json" for k in (*KINDS, "sh-scenario", "sh-effect")),
                                  generated=house_rules_schemas(self.content, self.name, self.options))  # speed-hazard-rules/1
        self.race_view = SpeedHazardView()
        self.bot_data = SpeedHazardBotData()
        self.stats = SpeedHazardStats()
        self.scenarios = SpeedHazardScenarios(self)
        self.seasons = PointsSeasons(self, CHAMPIONSHIP)  # points by place (engine/play/seasons.py)
        self.authoring = AUTHORING  # authoring.py: the pack editor's items and tables, the cards
        self.templates = TEMPLATES

    def track_checks(self, track: Any, data: Any, src: Any) -> list[Any]:
        """A track/2 track for this ruleset needs a speed limit on every curve, in steps of 10."""
        if getattr(track, "version", 1) < 2:
            return check_raceable(track, NEEDS, src)  # corners with speed limits (warning T157)
        return check_needs(track, NEEDS, data, src)

    def new_game(self, pack: Any, track: Track, seats: Sequence[Any], seed: int,
                 options: Mapping[str, Any], laps: int | None = None,
                 setup: Mapping[str, Any] | None = None, record: bool = True) -> Any:
        from slipstream.engine.rulesets.speed_hazard.game import SpeedHazardGame

        if getattr(pack, "decks", None) is None:
            raise ValueError(f"pack {pack.id!r} has no usable speed-and-hazard data (P044)")
        options = {**house_options(pack), **options}  # the pack's house rules, then the race's
        return SpeedHazardGame(track, pack.decks, [s.name for s in seats], seed, laps or track.laps, options, record)

    def make_bot(self, name: str, seed: int) -> Any:
        from slipstream.engine.rulesets.speed_hazard.bots import make_bot

        return make_bot(name, seed)

    def describe(self, event: Mapping[str, Any], context: Any = None) -> str | None:
        return describe(event, getattr(context, "names", None))

    def view(self, game: Any, seat: int) -> list[tuple[str, str]]:
        c = game.cars[seat]
        n = game.track.segments
        lap = min(game.laps, max(1, c.progress // n + 1))
        state = "wreck" if c.wreck else "winner" if game.winner == seat else "in the pit road" if c.in_pit else "running"
        speed = f"{c.speed} km/h" + (" (nitrous)" if c.nitrous else "")
        return [("speed", speed), ("maximum", f"{c.maximum} km/h"),
                ("damage", f"{(game.decks.setup.maximum - c.maximum) // 10} points"),
                ("tokens", ", ".join(f"{k} {v}" for k, v in c.tokens.items())), ("luck", str(c.luck)),
                ("equipment", ", ".join(c.equipment) or "-"),
                ("insanity", ", ".join(game.decks.hazards[i].id for i in c.insanity) or "-"),
                ("lap", f"{lap} of {game.laps}"), ("state", state)]


class SpeedHazardBotData:
    """The options of a decision as values for external bots (botdata.py, docs/bots.md)."""

    def option_values(self, game: Any, decision: Any) -> list[dict[str, Any]]:
        from slipstream.engine.rulesets.speed_hazard.botdata import option_values

        return option_values(game, decision)


class SpeedHazardView(BaseRaceView):
    """What a face shows of a race (views.py): cars, a line per seat, routes, dials, marks."""

    secret_kinds = ("card",)  # the card is chosen in secret, revealed when all have chosen

    def cars(self, game: Any) -> list[tuple[int, int]]:
        out = []
        for c in game.cars:
            if c.in_pit:
                out.append((PIT_LANE, c.pit_node))
            else:
                sp = game.track.spaces[max(c.node, 0)]
                out.append((sp.lane, sp.first))
        return out

    def brief(self, game: Any, seat: int) -> str:
        return views.brief(game, seat)

    def route(self, game: Any, key: str) -> list[tuple[int, int]]:
        return views.route(game, key)

    def gauges(self, game: Any, seat: int) -> list[tuple[str, float, float, float]]:
        return views.gauges(game, seat)

    def marks(self, game: Any) -> list[tuple[int, int, str, str]]:
        return views.marks(game)


class SpeedHazardScenarios:
    """Rule scenarios (sh-scenario/1) of a pack folder."""

    kinds = ("sh-scenario",)

    def __init__(self, rs: SpeedHazard) -> None:
        self.rs = rs

    def run_folder(self, pack: str, select: str = "") -> Any:
        from slipstream.engine.rulesets.speed_hazard.scenarios import run_pack_scenarios

        return run_pack_scenarios(pack, self.rs, select)

    def run_file(self, pack: Any, path: Any) -> tuple[Any, list[Any]]:
        """One file of a loaded pack: not run here (the pack editor says so)."""
        from slipstream.engine.core.diagnostics import make

        return None, [make("C100", str(path), 1, 1, "$", f"the {self.rs.id} ruleset runs no scenario files")]


class SpeedHazardStats(BaseStats):
    """Wrecks, pit visits, hazards by curve and rams, with heat maps (views.py)."""

    def heat(self, summary: Mapping[str, Any]) -> dict[str, dict[str, float]]:
        return views.heat(summary)

    def measures(self, result: Any) -> list[Any]:
        """Wrecks, pit visits, hazard cards (all, by curve name, by card name), damage, rams
        by kind, forced rear-ends and nitrous, per race; races a car finished."""
        from slipstream.engine.play.measures import MEAN, RATE, Measure, corner_label, corner_names

        st = result.stats
        names = corner_names(result)
        out = [Measure("finished", "races a car finished (not all wrecked)", RATE, float(bool(st.get("finished", 0)))),
               Measure("wrecks", "wrecks per race", MEAN, float(st.get("wrecks", 0)), unit="cars"),
               Measure("pit_visits", "pit visits per race", MEAN, float(st.get("pit_visits", 0)), unit="visits"),
               Measure("hazards", "hazard cards owed per race", MEAN, float(st.get("hazards", 0)), unit="cards"),
               Measure("bumps", "forced rear-ends per race", MEAN, float(st.get("bumps", 0)), unit="bumps"),
               Measure("nitrous", "nitrous used per race", MEAN, float(st.get("nitrous", 0)), unit="uses")]
        if "damage" in st:
            out.append(Measure("damage", "damage points taken per race", MEAN, float(st["damage"]), unit="points"))
        if "luck_spent" in st:
            out.append(Measure("luck_spent", "luck tokens spent per race", MEAN, float(st["luck_spent"]), unit="tokens"))
        out += [Measure(f"hazards.{corner_label(names, k)}", f"hazard cards at {corner_label(names, k)} per race",
                        MEAN, float(v), unit="cards") for k, v in sorted(st.get("hazards_by_corner", {}).items())]
        out += [Measure(f"hazard_cards.{k}", f"hazard card {k} taken per race", MEAN, float(v), unit="cards")
                for k, v in sorted(st.get("hazard_cards", {}).items())]
        out += [Measure(f"rams.{k}", f"rams ({k}) per race", MEAN, float(v), unit="rams")
                for k, v in sorted(st.get("rams", {}).items())]
        return out

    def summarise(self, results: Sequence[Any]) -> dict[str, Any]:
        s = super().summarise(results)
        by_corner: Counter[str] = Counter()
        rams: Counter[str] = Counter()
        wrecks_at: Counter[str] = Counter()
        rams_at: Counter[str] = Counter()
        wrecks = pits = hazards = bumps = won = 0
        for r in results:
            st = r.stats
            by_corner.update(st.get("hazards_by_corner", {}))
            rams.update(st.get("rams", {}))
            wrecks_at.update(st.get("wrecks_at", {}))
            rams_at.update(st.get("rams_at", {}))
            wrecks += int(st.get("wrecks", 0))
            pits += int(st.get("pit_visits", 0))
            hazards += int(st.get("hazards", 0))
            bumps += int(st.get("bumps", 0))
            won += int(st.get("finished", 0))
        races = len(results) or 1
        s["wrecks"] = wrecks
        s["wrecks_per_race"] = round(wrecks / races, 3)
        s["pit_visits"] = pits
        s["hazards"] = hazards
        s["bumps"] = bumps
        s["rams"] = dict(sorted(rams.items()))
        s["races_won"] = won
        s["wrecks_at"] = dict(sorted(wrecks_at.items()))  # by square name, for heat maps
        s["rams_at"] = dict(sorted(rams_at.items()))
        # keyed by corner index ("pit" for pit entries), for per-corner heat maps
        s["hazards_by_corner"] = dict(sorted(by_corner.items(), key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0, kv[0])))
        return s

    def format_summary(self, summary: Mapping[str, Any]) -> str:
        corners = ", ".join(f"{'curve ' + str(int(k) + 1) if k.isdigit() else k} {v}" for k, v in summary["hazards_by_corner"].items())
        lines = [super().format_summary(summary),
                 f"races won outright: {summary['races_won']} of {summary['races']}",
                 f"wrecks: {summary['wrecks']} ({summary['wrecks_per_race']} per race)",
                 f"pit visits: {summary['pit_visits']}",
                 f"hazard cards drawn: {summary['hazards']}; by curve: {corners or 'none'}",
                 "rams: " + (", ".join(f"{k} {v}" for k, v in summary["rams"].items()) or "none")
                 + f"; forced rear-ends: {summary['bumps']}"]
        return "\n".join(lines)


RULESET = SpeedHazard()

if TYPE_CHECKING:  # the type check proves it a whole ruleset (engine/play/protocol.py)
    from slipstream.engine.play.protocol import Ruleset

    _WHOLE: Ruleset = RULESET
