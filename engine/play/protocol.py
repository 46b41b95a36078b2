"""The ruleset plug-in protocol (DESIGN §3, §8): what a ruleset offers the faces and the tools.

A ruleset is one object (registered under the entry point group `slipstream.rulesets`, see
engine/play/registry.py) with the attributes and methods of `Ruleset`. A game it starts is a
state machine over one pending `Decision` at a time (`Game`). Faces, batches, replays and
sweeps use only what is declared here, so a new ruleset shows up in every command and in the
editor's Test race dock without code that names it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from slipstream.engine.core.diagnostics import Diagnostic
    from slipstream.engine.core.yamlsource import SourceMap
    from slipstream.engine.packs.loader import ContentModel, LoadedPack
    from slipstream.engine.play.decisions import Decision, Rejection
    from slipstream.engine.play.options import OptionSpec
    from slipstream.engine.play.racelog import ReplayReport
    from slipstream.engine.play.races import RaceSpec
    from slipstream.engine.play.scenarios import Report as ScenarioReport
    from slipstream.engine.tracks.track import Track


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in one seat: a display name and a bot name (`human` for a person)."""

    name: str
    bot: str = "human"


@runtime_checkable
class Game(Protocol):
    """One race of any ruleset: `pending` is the decision to make, `apply` makes it."""

    log: list[dict[str, Any]]

    @property
    def pending(self) -> Decision | None: ...
    def apply(self, key: str) -> Rejection | None: ...
    def copy(self) -> Game: ...
    def standings(self) -> list[int]: ...
    def result(self) -> dict[str, Any]:
        """The last line of the race log (`t: result`, standings, rounds, capped, ...)."""
        ...


class Bot(Protocol):
    """A strategy: picks the key of one legal option of the pending decision."""

    def choose(self, game: Any, decision: Decision) -> str: ...


class RaceResult(Protocol):
    """What a batch report reads of one finished race (every ruleset's result has these)."""

    spec: Any
    names: list[str]
    bots: list[str]
    grid: list[int]  # player index per grid slot, pole first
    standings: list[int]
    rounds: int
    capped: bool
    decisions: int
    stats: dict[str, Any]
    log: list[dict[str, Any]]
    header: dict[str, Any]
    result: dict[str, Any]


@runtime_checkable
class Ruleset(Protocol):
    """A racing system: its options, players, bots, pack content, track checks and games."""

    # Read-only for their users (properties here), so a ruleset may hold a narrower type, e.g.
    # a dict for a Mapping or a tuple for a Sequence, as a plain class attribute.
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property  # one spec drives schema, --option, scenarios, editor form
    def options(self) -> Sequence[OptionSpec]: ...
    @property  # fewest and most cars in a race
    def players(self) -> tuple[int, int]: ...
    @property  # bot name -> one line of help
    def bots(self) -> Mapping[str, str]: ...
    @property  # the field `race` uses without --bots
    def default_bots(self) -> Sequence[str]: ...
    @property  # the pack data kinds and how they merge (engine/packs/loader.py)
    def content(self) -> ContentModel: ...
    @property  # own file kinds, e.g. scenarios
    def file_kinds(self) -> Mapping[str, tuple[tuple[int, ...], Any]]: ...
    @property  # race settings beyond the options (e.g. `card_set`); () for none
    def setup_keys(self) -> Sequence[str]: ...
    # optional ruleset-specific panels of a face: face name (`editor`) -> "module:attribute";
    # a face loads them by this string and falls back to its generic panels without them
    @property
    def panels(self) -> Mapping[str, str]: ...

    def track_checks(self, track: Track, data: Any, src: SourceMap) -> list[Diagnostic]:
        """Diagnostics a track meant for this ruleset needs beyond the common checks."""
        ...

    def setup_problems(self, pack: LoadedPack, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        """(flag, message) for each race setting (e.g. a card set) the pack cannot give."""
        ...

    def setup_choices(self, pack: LoadedPack, key: str) -> list[tuple[str, str]]:
        """(value, label) of each choice a face may offer for the setup key `key` of
        `setup_keys` (empty: no list of choices, e.g. a setting per seat)."""
        ...

    def new_game(self, pack: LoadedPack, track: Track, seats: Sequence[SeatSpec], seed: int,
                 options: Mapping[str, Any], laps: int | None = None,
                 setup: Mapping[str, Any] | None = None, record: bool = True) -> Game:
        """A fresh race, all randomness from `seed`."""
        ...

    def make_bot(self, name: str, seed: int) -> Bot: ...

    def run_race(self, spec: RaceSpec) -> RaceResult:
        """Play one race of bots to the end (engine/play/races.py has a ready `play_race`)."""
        ...

    def describe(self, event: Mapping[str, Any], context: Any = None) -> str | None:
        """A plain sentence for a log entry (None for entries not worth narrating).

        `context` is the `Game` or `RaceResult` the entry belongs to, from which a ruleset may
        take seat and card names; without it the sentence names things by their ids."""
        ...

    def cars(self, game: Game) -> list[tuple[int, int]]:
        """(lane, segment) of each seat's car now, so a face can draw the race on its track."""
        ...

    def view(self, game: Game, seat: int) -> list[tuple[str, str]]:
        """Labelled values of one seat (a face shows them without knowing the ruleset)."""
        ...

    def race_text(self, result: RaceResult) -> str:
        """The turn-by-turn summary of one race for the terminal."""
        ...

    def race_json(self, result: RaceResult) -> dict[str, Any]:
        """One race as JSON (`race --format json`)."""
        ...

    def summarise(self, results: Sequence[RaceResult]) -> dict[str, Any]:
        """Statistics of many races (JSON-able)."""
        ...

    def format_summary(self, summary: Mapping[str, Any]) -> str: ...

    def run_scenarios(self, pack: str, select: str = "") -> ScenarioReport:
        """Run the rule scenarios of the pack folder `pack` (`slipstream test`)."""
        ...

    def item_users(self, result: RaceResult, kind: str, item_id: str) -> dict[str, list[bool]]:
        """For a sweep over an item (`card:manager`): per use (`bought`, `played`, `held`) a flag
        per seat saying whether that player used the item in the race ({} when not tracked)."""
        ...

    def replay(self, lines: list[str]) -> ReplayReport:
        """Re-run a race log of this ruleset and compare every line."""
        ...


# Optional: `schemas`, the JSON Schemas a ruleset generates (file name -> schema), registered
# with the bundled ones when it loads (engine/core/plugins.py). BaseRuleset gives the schema of
# its house rules file (`ID-rules/1`, engine/packs/trackpack.py) made from its option spec.
#
# Optional: a ruleset with championships also offers `season_tracks(pack)` and
# `run_season(pack_path, tracks, seed, bots, laps, options, setup)` (engine/play/sweeps.py).
# `slipstream season` runs the championships of a ruleset that also offers
# `season_tracks(pack, races)`, `run_season(..., record)` (`record`: the result keeps its
# season log in `lines`), `season_text(result)`, `season_json(result)`,
# `summarise_seasons(results)` and `format_season_summary(summary)` (cli/championship.py).
# engine/play/seasons.py's `ChampionshipRuleset` gives all of them for championships of
# points by place (its `championship`: a `PointsChampionship`).
#
# Optional, for a face showing a race: `brief(game, seat)` (one short line about a seat's car,
# e.g. its gear and last roll, for a table of the whole field) and `route(game, key)` (the
# (lane, segment) cells the car of the pending decision passes if option `key` is taken, its
# own cell first, so a face moves it square by square; [] when unknown). BaseRuleset: "" and [].
# A ruleset whose players may drive several cars also gives `car_owners(game)` (the seat of
# each car of `cars(game)`) and `car_of(game)` (the index in `cars(game)` of the car the
# pending decision moves; -1: none). BaseRuleset: car i is seat i, and the deciding seat's.
#
# Optional: `run_scenario_file(pack, path)` checks and runs one rule scenario file of a loaded
# pack (the editor's pack view runs a pack being edited file by file): (its ScenarioResult, or
# None when it cannot run, and the diagnostics). BaseRuleset: None and one C100 diagnostic.
#
# Optional: `heat(summary)` gives the heat maps of a batch, {map title: {key: value}}, where a
# key is `corner:INDEX` (a corner of the track, by its index) or `space:LANE:SEGMENT` (a space
# by its name); a face draws them over the track ({} or absent: no maps; BaseRuleset's default).
#
# Optional, for a face showing a race: `gauges(game, seat)` (the seat's gauges as (label, value,
# maximum, scale) tuples: a value may pass its maximum, e.g. a speed in nitrous mode, and `scale`
# is the dial's full range; a face draws them as small dials) and `marks(game)` (what lies on the
# track besides the cars, as (lane, segment, kind, label) tuples, e.g. hazard tokens and wrecks;
# a face draws a symbol per kind with a legend). `secret_kinds`: the decision kinds a seat makes
# in secret (a face playing a human seat never shows another seat's choice of such a kind).
# BaseRuleset: [], [] and ().
REQUIRED = ("id", "name", "options", "players", "bots", "default_bots", "content", "file_kinds",
            "setup_keys", "panels", "track_checks", "setup_problems", "setup_choices",
            "new_game", "make_bot", "run_race", "describe", "cars", "view",
            "race_text", "race_json", "summarise", "format_summary", "run_scenarios",
            "item_users", "replay")


def missing_parts(obj: Any) -> list[str]:
    """The protocol attributes `obj` lacks (empty for a complete ruleset)."""
    return [name for name in REQUIRED if not hasattr(obj, name)]


@runtime_checkable
class SeasonRuns(Protocol):
    """The optional part a season sweep uses (engine/play/sweeps.py): one bot season whose
    result reads like a race result."""

    def season_tracks(self, pack: LoadedPack) -> list[str]: ...
    def run_season(self, pack_path: str, tracks: Sequence[str], seed: int, bots: Sequence[str],
                   laps: int | None = None, options: Sequence[tuple[str, Any]] = (),
                   setup: Sequence[tuple[str, Any]] = ()) -> Any: ...


@runtime_checkable
class Championships(Protocol):
    """The optional parts `slipstream season` uses for championships (cli/championship.py)."""

    def season_tracks(self, pack: LoadedPack, races: int | None = None) -> list[str]: ...
    def run_season(self, pack_path: str, tracks: Sequence[str], seed: int, bots: Sequence[str],
                   laps: int | None = None, options: Sequence[tuple[str, Any]] = (),
                   setup: Sequence[tuple[str, Any]] = (), record: bool = False) -> Any:
        """One championship; with `record` the result keeps its season log in `lines`."""
        ...

    def season_text(self, result: Any) -> str: ...
    def season_json(self, result: Any) -> dict[str, Any]: ...
    def summarise_seasons(self, results: Sequence[Any]) -> dict[str, Any]: ...
    def format_season_summary(self, summary: Mapping[str, Any]) -> str: ...
