"""The `automobiles` ruleset as the engine's plug-in protocol sees it (engine/play/protocol.py):
the core, and its capabilities (setup keys, race view, reports, statistics, seasons in
championships.py, scenarios, authoring in authoring.py, file kinds).

Loading this module must stay cheap: `slipstream validate` loads every ruleset to learn its
file kinds, so the game, bots and scenarios are imported only when a race or test needs them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from slipstream.engine.core.schemafiles import SCHEMA_PACKAGE
from slipstream.engine.play.base import BaseRaceView, BaseRuleset, OwnFileKinds, schema_only
from slipstream.engine.play.protocol import SetupKey
from slipstream.engine.rulesets.automobiles.contentcheck import CONTENT
from slipstream.engine.rulesets.automobiles.options import OPTIONS

SCHEMAS = ("cards", "cardsets", "cubes", "drivers", "effect", "rules", "scenario", "season-scenario", "sponsors")


class Automobiles(BaseRuleset):
    """Dice-bag building on coloured spaces (RULES.md): the first ruleset."""

    id = "automobiles"
    name = "Automobiles"
    content = CONTENT
    options = OPTIONS
    players = (2, 5)
    bots = {"random": "picks any legal option", "greedy": "plays its best move each turn",
            "lookahead": "greedy with Monte Carlo rollouts at the turn choice and the buys "
                         "(lookahead:N = N rollouts a decision)"}
    default_bots = ("greedy", "greedy", "greedy", "random")
    # the editor's Automobiles panels: piles and money, cube chips, heat maps of the batch report
    panels = {"editor": "slipstream.editor.rulesets.automobiles:PANELS",
              # the pack editor's: the effect editor and the cards' cost, value and wear strip
              "editor-pack": "slipstream.editor.rulesets.automobiles.packpanels:PACK_PANELS"}

    def __init__(self) -> None:
        from slipstream.engine.rulesets.automobiles.authoring import AUTHORING
        from slipstream.engine.rulesets.automobiles.championships import AutomobilesSeasons

        self.files = OwnFileKinds({"scenario": ((1,), schema_only("scenario")),
                                   "season-scenario": ((1,), schema_only("season-scenario"))},
                                  SCHEMA_PACKAGE, tuple(f"{k}.schema.json" for k in SCHEMAS))
        self.setup = AutomobilesSetup()
        self.race_view = AutomobilesView()
        self.bot_data = AutomobilesBotData()
        self.reports = AutomobilesReports()
        self.stats = AutomobilesStats()
        self.seasons = AutomobilesSeasons()
        self.scenarios = AutomobilesScenarios()
        self.authoring = AUTHORING

    def track_checks(self, track: Any, data: Any, src: Any) -> list[Any]:
        """track/2 tracks for Automobiles need gear colours; the colour warnings of track/1
        (T114, T115) then run here, since a track/2 file may be meant for other rulesets."""
        if getattr(track, "version", 1) < 2:
            return []
        from slipstream.engine.tracks.checks import colour_warnings
        from slipstream.engine.tracks.needs import TrackNeeds, check_needs

        diags = check_needs(track, TrackNeeds(self.id, gear_colours=True), data, src)
        return diags or colour_warnings(track, data, src)

    def new_game(self, pack: Any, track: Any, seats: Sequence[Any], seed: int,
                 options: Mapping[str, Any], laps: int | None = None,
                 setup: Mapping[str, Any] | None = None, record: bool = True) -> Any:
        from slipstream.engine.rulesets.automobiles.game import Game, Seat
        from slipstream.engine.rulesets.automobiles.racesetup import card_set_of, rules_for

        setup = setup or {}
        rules = rules_for(pack, card_set_of(pack, setup.get("card_set") or "", seed), options)
        drivers = tuple(setup.get("drivers") or ())
        game_seats = [Seat(s.name, s.bot, drivers[i] if i < len(drivers) else None)
                      for i, s in enumerate(seats)]
        return Game(rules, track, game_seats, seed=seed, laps=laps, record=record)

    def make_bot(self, name: str, seed: int) -> Any:
        from slipstream.engine.rulesets.automobiles.roster import make_bot

        return make_bot(name, seed)

    def describe(self, event: Mapping[str, Any], context: Any = None) -> str | None:
        from slipstream.engine.rulesets.automobiles.narration import narrator_of

        return narrator_of(context)(event)

    def view(self, game: Any, seat: int) -> list[tuple[str, str]]:
        from slipstream.engine.rulesets.automobiles.state import ACTIVE, BAG, DISCARD

        p = game.race.players[seat]
        wear = next((k.index for k in game.rules.kinds if k.role == "wear"), None)
        owned = sum(p.count(z, wear) for z in range(len(p.zones))) if wear is not None else 0
        return [("position", str(game.position_of(seat, False))),
                ("lap", str(max(p.car.lap, 0))),
                ("cell", f"{p.car.lane}:{p.car.segment}"),
                ("bag", str(p.count(BAG))), ("active", str(p.count(ACTIVE))),
                ("discard", str(p.count(DISCARD))), ("wear owned", str(owned))]

    def replay(self, lines: list[str], origin: Any = None) -> Any:
        """A race log or a season log (racelog.py tells them apart by the header)."""
        from slipstream.engine.rulesets.automobiles.racelog import replay_lines

        return replay_lines(lines, origin)


class AutomobilesSetup:
    """The card set of a race (by id or name, or `random` by seed) and drivers by seat."""

    keys = (SetupKey("card_set", "--set", "NAME|random",
                     "Card set by id or name, or `random` (default: the pack's first set)."),
            SetupKey("drivers", "--drivers", "ID,ID,...", "Drivers by seat (empty entries for none).",
                     per_seat=True))

    def problems(self, pack: Any, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        cs = setup.get("card_set") or ""
        if cs and cs != "random":
            try:
                pack.card_set(cs)
            except KeyError:
                out.append(("--set", f"no card set {cs!r}; sets: {', '.join(sorted(pack.card_sets))}"))
        for d in setup.get("drivers") or ():
            if d and d not in pack.drivers:
                out.append(("--drivers", f"unknown driver {d!r}; drivers: {', '.join(sorted(pack.drivers))}"))
        return out

    def choices(self, pack: Any, key: str) -> list[tuple[str, str]]:
        if key != "card_set":
            return []  # drivers are a setting per seat
        sets = [(str(sid), str(getattr(cs, "name", "") or sid)) for sid, cs in pack.card_sets.items()]
        return [*sets, ("random", "random (by seed)")]

    def pack_options(self, pack: Any) -> dict[str, Any]:
        """The value of every rule option in the pack (its rules file over the defaults), which
        the editor's own panels show as the form's starting values."""
        from slipstream.engine.rulesets.automobiles.racesetup import rules_for

        sets = list(pack.card_sets)
        opts = rules_for(pack, sets[0] if sets else "", {}).options
        return {s.name: getattr(opts, s.name, s.default) for s in OPTIONS}

    def log_header(self, head: dict[str, Any], spec: Any, pack: Any, track: Any) -> dict[str, Any]:
        from slipstream.engine.rulesets.automobiles.racesetup import log_header

        return log_header(head, spec, pack, track)

    def resolved(self, game: Any) -> dict[str, Any]:
        from slipstream.engine.rulesets.automobiles.racesetup import resolved

        return resolved(game)


class AutomobilesBotData:
    """The options of a decision as values for external bots (botdata.py, docs/bots.md)."""

    def option_values(self, game: Any, decision: Any) -> list[dict[str, Any]]:
        from slipstream.engine.rulesets.automobiles.botdata import option_values

        return option_values(game, decision)


class AutomobilesView(BaseRaceView):
    """Where the cars are; for the editor's own Automobiles panels also turn frames (a frame
    per turn of many decisions, with the planned cube route) and each player's piles."""

    def cars(self, game: Any) -> list[tuple[int, int]]:
        return [(p.car.lane, p.car.segment) for p in game.race.players]

    def frames(self, game: Any) -> Any:
        """A recorder of turn frames beside `game` (raceframes.py)."""
        from slipstream.engine.rulesets.automobiles.raceframes import FrameRecorder

        return FrameRecorder(game)

    def piles(self, game: Any, seat: int) -> Any:
        from slipstream.engine.rulesets.automobiles.raceframes import piles_of

        return piles_of(game, seat)

    def wear_owned(self, game: Any, seat: int) -> int:
        from slipstream.engine.rulesets.automobiles.raceframes import wear_owned

        return wear_owned(game, seat)


class AutomobilesReports:
    """Every turn of a race in words (narration.py), and its JSON."""

    def text(self, result: Any) -> str:
        from slipstream.engine.rulesets.automobiles.narration import race_text

        return race_text(result)

    def json(self, result: Any) -> dict[str, Any]:
        from slipstream.engine.rulesets.automobiles.narration import race_json

        return race_json(result)


class AutomobilesStats:
    """Wear, pit stops, cubes bought and played (stats.py), and who used an item."""

    def summarise(self, results: Sequence[Any]) -> dict[str, Any]:
        from slipstream.engine.rulesets.automobiles.stats import summarise

        return summarise(list(results))

    def format_summary(self, summary: Mapping[str, Any]) -> str:
        from slipstream.engine.rulesets.automobiles.stats import format_summary

        return format_summary(dict(summary))

    def heat(self, summary: Mapping[str, Any]) -> dict[str, dict[str, float]]:
        return {}  # the heat per space comes with the batch (heat_batch) for the editor's report

    def heat_batch(self, pool: Any, specs: Sequence[Any], track: Any, progress: Any = None,
                   cancelled: Any = None) -> tuple[list[Any], Any, bool]:
        """Race `specs` on `track` in the pool's workers, counting where things happen per
        space from each race's log (heatmap.py): (results, heat, cancelled)."""
        from slipstream.engine.rulesets.automobiles.heatmap import BatchPool

        batch = BatchPool(pool=pool).run(list(specs), track, progress=progress, cancelled=cancelled)
        return batch.results, batch.heat, batch.cancelled

    def heat_from_dict(self, d: Any) -> Any:
        from slipstream.engine.rulesets.automobiles.heatmap import Heat

        return Heat.from_dict(d)

    def item_users(self, result: Any, kind: str, item_id: str) -> dict[str, list[bool]]:
        """Who bought and who played the cubes of a card or cube kind; who drove a driver; who
        held a sponsor during a season."""
        from slipstream.engine.play.registry import load_pack
        from slipstream.engine.rulesets.automobiles.racesetup import drivers_of, kind_ids

        n = len(result.bots)
        if kind == "sponsor":
            held = getattr(result, "sponsors_held", None)
            return {"held": [item_id in h for h in held]} if held is not None else {}
        if kind == "driver":
            return {"held": [d == item_id for d in (drivers_of(result) or [None] * n)]}
        colour = item_id
        if kind == "card":
            card = load_pack(result.spec.pack).cards.get(item_id) if hasattr(result, "spec") else None
            if card is None:
                return {}
            colour = card.colour
        elif kind != "cube":
            return {}
        ids = kind_ids(result)
        if colour not in ids:
            return {"bought": [False] * n, "played": [False] * n}
        k = ids.index(colour)
        stats = result.stats
        return {"bought": [row[k] > 0 for row in stats["bought"]],
                "played": [row[k] > 0 for row in stats["plays"]]}

    def measures(self, result: Any) -> list[Any]:
        """Wear and pit stops per player, drafting and standing-still rates, and the cubes
        bought and played by kind, per race (stats.race_measures)."""
        from slipstream.engine.rulesets.automobiles.stats import race_measures

        return race_measures(result)

    def record(self, result: Any) -> dict[str, Any]:
        """The cube kinds of the race's counts and the drivers, for `summarise` of stored races."""
        from slipstream.engine.rulesets.automobiles.racesetup import drivers_of, kind_ids

        return {"kind_ids": kind_ids(result), "drivers": drivers_of(result)}


class AutomobilesScenarios:
    """Rule scenarios (scenario/1 and season-scenario/1, scenarios.py)."""

    kinds = ("scenario", "season-scenario")

    def run_folder(self, pack: str, select: str = "") -> Any:
        from slipstream.engine.rulesets.automobiles.scenarios import run_pack_scenarios

        return run_pack_scenarios(pack, select)

    def run_file(self, pack: Any, path: Any) -> tuple[Any, list[Any]]:
        """One scenario file (scenario/1 or season-scenario/1) of the loaded `pack`."""
        from pathlib import Path

        from slipstream.engine.rulesets.automobiles.scenarios import run_file

        return run_file(Path(path), pack)


RULESET = Automobiles()

if TYPE_CHECKING:  # the type check proves it a whole ruleset (engine/play/protocol.py)
    from slipstream.engine.play.protocol import Ruleset

    _WHOLE: Ruleset = RULESET
