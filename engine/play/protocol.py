"""The ruleset plug-in protocol (DESIGN §3, §8): a small required core plus typed capabilities.

A ruleset is one object (registered under the entry point group `slipstream.rulesets`, see
engine/play/registry.py) with the members of `Ruleset`. A game it starts is a state machine
over one pending `Decision` at a time (`Game`). Faces, batches, replays and sweeps use only
what is declared here, so a new ruleset shows up in every command and in the editor's Test
race dock without code that names it.

The core is what every ruleset has: id, name, options, players, bots, its pack content model,
`new_game`, `make_bot` and `describe` (plus a per-seat `view`, its track checks, and the race
runner and replay, which `BaseRuleset` gives ready). Everything else is a **capability**: an
attribute holding a small object of one of the protocols below, or None when the ruleset
lacks it. A face asks `rs.seasons is None`; it never probes a ruleset for a member:

    setup       Setup           race settings beyond the options (card set, drivers)
    race_view   RaceView        cars on the track, a line per seat, routes, gauges, marks
    reports     RaceReports     one race as text and JSON (default: from the log and describe)
    stats       BatchStats      figures of many races, heat maps, who used an item
    seasons     Championships   bot championships: tracks, run, reports, season-log replay
    scenarios   Scenarios       rule scenarios: a pack folder, or one file of a loaded pack
    authoring   Authoring       new-pack files, item kinds and tables of the pack editor, cards
    templates   TrackTemplates  starting tracks with what the ruleset needs (corners, pit lane)
    files       FileKinds       own file kinds with their checkers and JSON Schemas
    bot_data    BotData         options as structured values for external bots (docs/bots.md)

`panels` (face name -> "module:attribute") names optional ruleset-specific panels of a face;
the registry loads them by that string (`registry.panels`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable
    from pathlib import Path

    from slipstream.engine.core.diagnostics import Diagnostic
    from slipstream.engine.core.yamlsource import SourceMap
    from slipstream.engine.packs.loader import ContentModel, LoadedPack
    from slipstream.engine.play.decisions import Decision, Rejection
    from slipstream.engine.play.options import OptionSpec
    from slipstream.engine.play.racelog import ReplayReport
    from slipstream.engine.play.races import RaceSpec
    from slipstream.engine.play.scenarios import Report as ScenarioReport
    from slipstream.engine.play.scenarios import ScenarioResult
    from slipstream.engine.tracks.track import Track

Cell = tuple[int, int]  # (lane, segment) of a space; lane PIT_LANE for the pit lane
Gauge = tuple[str, float, float, float]  # label, value, maximum, scale (the dial's full range)
Mark = tuple[int, int, str, str]  # lane, segment, kind, label


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

    @property
    def rounds(self) -> int:
        """The round the race is in (the whole race's rounds once it is over)."""
        ...

    @property
    def grid(self) -> Sequence[int]:
        """The seat in each grid slot, pole first."""
        ...

    @property
    def stats(self) -> Mapping[str, Any]:
        """The race's own figures so far (JSON-able), for batch statistics."""
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
    setup: dict[str, Any]  # the settings as the game resolved them (`Setup.resolved`)


# ---------------------------------------------------------------------------------------------
# Capabilities
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SetupKey:
    """One race setting beyond the rule options (e.g. a card set), as every command takes it.

    The commands that race (`race`, `ladder`, `sweep`, `season`) offer a flag `flag` for every
    setup key of the installed rulesets; the value goes into `RaceSpec.setup` under `name`.
    A `per_seat` key takes a comma-separated value per seat (empty entries: none); seasons,
    which deal such things themselves, do not take it."""

    name: str
    flag: str
    metavar: str
    help: str
    per_seat: bool = False


class Setup(Protocol):
    """Race settings beyond the options: what they are, what a pack offers, what it lacks."""

    @property
    def keys(self) -> Sequence[SetupKey]: ...

    def problems(self, pack: LoadedPack, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        """(flag, message) for each setting (e.g. a card set) the pack cannot give."""
        ...

    def choices(self, pack: LoadedPack, key: str) -> list[tuple[str, str]]:
        """(value, label) of each choice a face may offer for `key` ([]: no list of choices,
        e.g. a setting per seat)."""
        ...

    def log_header(self, head: dict[str, Any], spec: RaceSpec, pack: LoadedPack, track: Track) -> dict[str, Any]:
        """The race log's header with the settings written in as this ruleset records them
        (`head` is the shared header, with the settings as given under `setup`)."""
        ...

    def resolved(self, game: Any) -> dict[str, Any]:
        """The settings a race was run with, as the game resolved them (the card set a
        `random` drew, the drivers dealt): a race result's `setup`."""
        ...


class RaceView(Protocol):
    """What a face draws of a race in progress, beyond the seat's `view`."""

    @property  # decision kinds a seat makes in secret (never shown to others)
    def secret_kinds(self) -> Sequence[str]: ...

    def cars(self, game: Any) -> list[Cell]:
        """(lane, segment) of each car now, so a face can draw the race on its track."""
        ...

    def car_owners(self, game: Any) -> list[int]:
        """The seat of each car of `cars(game)` (several cars a seat in some rulesets)."""
        ...

    def car_of(self, game: Any) -> int:
        """The index in `cars(game)` of the car the pending decision moves (-1: none)."""
        ...

    def brief(self, game: Any, seat: int) -> str:
        """One short line about a seat's car (its gear and last roll ...) for a table of the
        whole field ("": none)."""
        ...

    def route(self, game: Any, key: str) -> list[Cell]:
        """The cells the car of the pending decision passes if option `key` is taken, its
        own cell first, so a face moves it square by square ([]: unknown)."""
        ...

    def gauges(self, game: Any, seat: int) -> list[Gauge]:
        """A seat's gauges as (label, value, maximum, scale): a value may pass its maximum
        (a speed in nitrous mode); `scale` is the dial's full range."""
        ...

    def marks(self, game: Any) -> list[Mark]:
        """What lies on the track besides the cars (hazard tokens, wrecks ...)."""
        ...


class RaceReports(Protocol):
    """One finished race in words and as JSON (`race`, `race --format json`)."""

    def text(self, result: Any) -> str: ...
    def json(self, result: Any) -> dict[str, Any]: ...


class BatchStats(Protocol):
    """Statistics of many races: the figures, their text, heat maps, who used an item."""

    def summarise(self, results: Sequence[Any]) -> dict[str, Any]:
        """Statistics of many races (JSON-able), the shared win rates included."""
        ...

    def format_summary(self, summary: Mapping[str, Any]) -> str: ...

    def heat(self, summary: Mapping[str, Any]) -> dict[str, dict[str, float]]:
        """Heat maps of a batch, {map title: {key: value}}, a key being `corner:INDEX` or
        `space:LANE:SEGMENT`; a face draws them over the track ({}: none)."""
        ...

    def item_users(self, result: Any, kind: str, item_id: str) -> dict[str, list[bool]]:
        """For a sweep over an item (`card:manager`): per use (`bought`, `played`, `held`) a
        flag per seat saying whether that player used the item ({}: not tracked)."""
        ...

    def record(self, result: Any) -> dict[str, Any]:
        """What a sweep's store keeps of one race beyond the shared fields, for `summarise`
        to read back ({}: nothing)."""
        ...

    def measures(self, result: Any) -> list[Any]:
        """The ruleset's own figures of one race as `engine/play/measures.Measure`s, with
        names, labels, units and how they add up (a rate of trials, or a mean per race); the
        shared ones (win rates, race length, lead changes) are not repeated here."""
        ...


class Scenarios(Protocol):
    """Rule scenarios (`slipstream test`, the pack editor's Scenarios panel)."""

    @property  # the file kinds of its scenario files (e.g. `fd-scenario`)
    def kinds(self) -> Sequence[str]: ...

    def run_folder(self, pack: str, select: str = "") -> ScenarioReport:
        """Every scenario of the pack folder `pack` (ids containing `select`)."""
        ...

    def run_file(self, pack: LoadedPack, path: Any) -> tuple[ScenarioResult | None, list[Diagnostic]]:
        """One scenario file of a loaded pack: its result (None when it cannot run) and the
        diagnostics."""
        ...


@dataclass(frozen=True, slots=True)
class SeasonSetting:
    """A setting of a ruleset's championships that `slipstream season` takes as a flag.

    `type`: `text` (a value), `choice` (one of `choices`) or `switch` (`--x/--no-x`: True,
    False, or None when not given)."""

    name: str
    flag: str  # `--draft`; a switch names its pair, `--drivers/--no-drivers`
    help: str
    type: str = "text"
    choices: tuple[str, ...] = ()
    default: Any = None
    metavar: str = ""


@dataclass(frozen=True, slots=True)
class SeasonPlan:
    """Everything that determines one bot championship (picklable, for worker processes)."""

    pack: str  # a pack folder, or "" for the bundled base pack
    tracks: tuple[str, ...]
    seed: int
    bots: tuple[str, ...]
    laps: int | None = None
    options: tuple[tuple[str, Any], ...] = ()  # race and season options of the ruleset
    setup: tuple[tuple[str, Any], ...] = ()  # setup keys (e.g. a card set)
    settings: tuple[tuple[str, Any], ...] = ()  # the ruleset's own season settings
    record: bool = True  # keep the season log (`lines`); False for big batches and sweeps
    ruleset: str = ""  # the ruleset's id, so that a worker finds it


class Championships(Protocol):
    """Bot championships of several races with points (`slipstream season`, season sweeps);
    engine/play/seasons.py's `PointsSeasons` is one for championships of points by place.

    A season result reads like a race result (names, bots, grid = the first race's grid,
    standings, rounds, capped, decisions, stats), plus `lines` (its log) when recorded."""

    @property  # what the reports call one: `season` or `championship`
    def noun(self) -> str: ...
    @property  # its own flags of `slipstream season`
    def settings(self) -> Sequence[SeasonSetting]: ...
    @property  # whether `--against` can compare the seasons of two packs
    def compares(self) -> bool: ...
    @property  # the fewest and the most races of one season (`--tracks` names that many)
    def races(self) -> tuple[int, int]: ...

    def tracks(self, pack: LoadedPack, options: Mapping[str, Any]) -> list[str]:
        """The tracks of a season when none are named."""
        ...

    def problems(self, pack: LoadedPack, plan: SeasonPlan) -> list[tuple[str, str]]:
        """(flag, message) for each part of `plan` this pack cannot run (tracks, settings)."""
        ...

    def run(self, plan: SeasonPlan) -> Any: ...
    def text(self, result: Any, pack: LoadedPack) -> str: ...
    def json(self, result: Any) -> dict[str, Any]: ...
    def summarise(self, results: Sequence[Any]) -> dict[str, Any]: ...
    def format_summary(self, summary: Mapping[str, Any], pack: LoadedPack) -> str: ...

    def compare(self, summary: Mapping[str, Any], other: Mapping[str, Any]) -> dict[str, Any]:
        """What differs between the seasons of two packs on the same seeds (JSON-able; the
        JSON report shows it under `against` beside the other pack's name)."""
        ...

    def format_comparison(self, comparison: Any, a: str, b: str) -> str: ...

    def replay(self, lines: list[str], origin: Path | None = None) -> ReplayReport:
        """Re-run a season log (its header says `t: season`); `origin` as for `Ruleset.replay`."""
        ...


@dataclass(frozen=True, slots=True)
class ItemKind:
    """An item kind the pack editor can add: its data file kind, one item's name, the group.

    The items of an item list of the content model (`ContentModel.item_lists`) need no `path`.
    A data file the content model reads whole (a deck, a table) may still list items the editor
    shows one by one: `path` says where that list is in the file (`("cards",)`,
    `("tokens", "kinds")`). A new such item goes into the pack's own file of that kind, or into
    a copy of the inherited one (a whole file replaces the inherited file), or, for a kind whose
    items an extending pack changes one by one (the content model's `row_kinds`), into a new
    file of its own."""

    kind: str  # the data file kind that lists it (`cards`)
    title: str  # one item (`card`)
    group: str  # the tree group (`Cards`)
    path: tuple[str, ...] = ()  # where a whole file lists its items (() : the content model's list)


@dataclass(frozen=True, slots=True)
class DataTable:
    """Numbers of a data file the pack editor shows and edits as a table.

    The rows are a list of mappings at `path` (a wear row per race length: `columns` are the
    fields shown, `spread` a list field shown one cell per entry, e.g. a die's faces), or a
    mapping of numbers (a price list: one row per key, the key in a column headed `key`)."""

    kind: str  # the data file kind (`wear`)
    path: tuple[str, ...]  # where the rows are in the file (`("races",)`)
    title: str  # `Wear table`
    columns: tuple[str, ...] = ()  # the fields of a row shown, in order (list rows)
    spread: str = ""  # a list field of a row shown one cell per entry (`faces`)
    key: str = ""  # for a mapping: the heading of its key column (`price of`)
    value: str = "value"  # for a mapping: the heading of its value column


@dataclass(frozen=True, slots=True)
class CardFace:
    """What a card shows, for a preview or a print sheet (colours as `#rrggbb`)."""

    name: str
    colour: str  # the kind (e.g. cube kind) id
    colour_hex: str
    kind_name: str  # e.g. "Blue (Engine)"
    cost: int | None
    value: int | None
    wear: int | None  # wear gained for sure when played; None when it depends on the game
    text: str
    ident: str = ""
    buyable: bool = True
    wear_hex: str = "#9a9a9a"  # the colour of the wear marks
    # the numbers a card of a ruleset without cost, value and wear shows, as (label, value);
    # a face with figures shows them in place of the cost, value and wear strip
    figures: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class CardRow:
    """One line of `slipstream cards`: a card with its kind, cost, value and text."""

    id: str  # qualified (`pack:card`)
    name: str
    kind: str  # the kind id
    kind_label: str  # how players name the kind (`white`)
    cost: int
    value: int
    supply: int
    buyable: bool
    fixed: bool
    text: str
    effect: Any
    own: bool  # defined in the listed pack itself (not inherited)
    house: bool  # its notes say it holds house values
    # the columns `slipstream cards` shows for a ruleset whose cards have no cost, value and
    # supply, as (heading, JSON-able value or None for none), the same headings in every row;
    # () : cost, value, supply
    cells: tuple[tuple[str, Any], ...] = ()
    does: str = ""  # what the card does, in words made from its numbers ("": its text says it)


@dataclass(frozen=True, slots=True)
class PackFile:
    """One file of a new pack: its path in the pack, its schema file name ("": none), its text."""

    rel: str
    schema: str
    text: str


class Authoring(Protocol):
    """What the authoring tools need of a ruleset: new packs, new items, card faces."""

    @property  # what the pack editor's New item adds, in menu order
    def item_kinds(self) -> Sequence[ItemKind]: ...
    @property  # the item kinds whose items are cards with faces (empty: the ruleset has no cards)
    def card_kinds(self) -> Sequence[str]: ...
    @property  # the item kind each print sheet of cards is made from, e.g. card sets ("": none)
    def sheet_kind(self) -> str: ...
    @property  # numbers the pack editor edits as tables (dice faces, wear tables, price lists)
    def tables(self) -> Sequence[DataTable]: ...

    def pack_files(self, pid: str, name: str, extends: Sequence[str]) -> list[PackFile]:
        """The starting files of a new pack besides its manifest, schemas and folders."""
        ...

    def item_groups(self, pack: LoadedPack | None, kind: str) -> tuple[str, list[tuple[str, str]]] | None:
        """How the pack editor groups items of `kind` in its tree: by the value of one field,
        the values in order with their labels (None: not grouped)."""
        ...

    def completions(self, pack: LoadedPack | None,
                    own: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, list[str]]:
        """Ids a form offers while a field of a given name is typed (`colour`, `cards` ...):
        those of the loaded pack and of `own`, the items of the open pack's files by kind."""
        ...

    def card_rows(self, pack: LoadedPack, sheet: str | None) -> list[CardRow]:
        """The cards of a pack (or those of a game with `sheet`, e.g. a card set), in table
        order; KeyError for an unknown sheet."""
        ...

    def card_face(self, pack: LoadedPack | None, item: Mapping[str, Any] | str,
                  kind: str = "") -> CardFace | None:
        """The face of a card of item kind `kind` ("": the first of `card_kinds`) written as
        data, or of the pack's card of that id (None: no such card); colours from `pack`, else
        from the ruleset's bundled pack."""
        ...

    def sheets(self, pack: LoadedPack) -> list[tuple[str, str]]:
        """(id, name) of each print sheet the pack offers (e.g. its card sets)."""
        ...

    def card_faces(self, pack: LoadedPack, sheet: str) -> tuple[str, list[CardFace]]:
        """(title, faces) of one print sheet, a face per card to cut out (e.g. every card in
        play with a card set, or one face per copy of a deck's cards); KeyError for an unknown
        sheet."""
        ...


class TrackTemplates(Protocol):
    """Starting tracks of a ruleset (`slipstream new track --ruleset`, the editor's File > New):
    each holds what the ruleset races on (corners with stops, speed limits, a pit lane, a grid)
    and validates clean. A ruleset without it starts from the shared colour-track shapes of
    engine/tracks/templates.py."""

    @property  # (id, label) of each template, the default first
    def names(self) -> Sequence[tuple[str, str]]: ...

    def track(self, template: str) -> dict[str, Any]:
        """The track data of a template (id and name to be set by the caller); ValueError for
        an unknown template."""
        ...


Checker = Callable[[Any, "SourceMap"], "list[Diagnostic]"]


class FileKinds(Protocol):
    """A ruleset's own file kinds (beyond its pack data kinds) and its JSON Schemas."""

    @property  # kind -> (versions, checker)
    def kinds(self) -> Mapping[str, tuple[tuple[int, ...], Checker]]: ...

    def schemas(self) -> Mapping[str, Traversable]:
        """Its schema files by name (`KIND.schema.json`): package data of its own package, or
        made at run time (its house-rules schema, from its option spec: engine/play/base.py's
        `house_rules_schemas` and `OwnFileKinds`)."""
        ...


class BotData(Protocol):
    """What an external bot (engine/play/extbots.py, docs/bots.md) is told of each option
    beyond its key and label: structured values, e.g. where a move stops, how many squares it
    drives, what it costs. Without it a bot reads the keys and labels."""

    def option_values(self, game: Any, decision: Decision) -> list[dict[str, Any]]:
        """A JSON-able mapping per option of `decision` (the game's pending one), in its order;
        only what the deciding seat may know."""
        ...


# ---------------------------------------------------------------------------------------------
# The ruleset
# ---------------------------------------------------------------------------------------------


@runtime_checkable
class Ruleset(Protocol):
    """A racing system: the required core, then its capabilities (None where it has none)."""

    # Read-only for their users (properties here), so a ruleset may hold a narrower type, e.g.
    # a dict for a Mapping, or its own capability class, as a plain attribute.
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
    @property  # the field `race` uses without --bots (empty: one of each)
    def default_bots(self) -> Sequence[str]: ...
    @property  # the pack data kinds and how they merge (engine/packs/loader.py)
    def content(self) -> ContentModel: ...

    # capabilities
    @property
    def setup(self) -> Setup | None: ...
    @property
    def race_view(self) -> RaceView | None: ...
    @property
    def reports(self) -> RaceReports | None: ...
    @property
    def stats(self) -> BatchStats | None: ...
    @property
    def seasons(self) -> Championships | None: ...
    @property
    def scenarios(self) -> Scenarios | None: ...
    @property
    def authoring(self) -> Authoring | None: ...
    @property
    def templates(self) -> TrackTemplates | None: ...
    @property
    def files(self) -> FileKinds | None: ...
    @property
    def bot_data(self) -> BotData | None: ...
    @property  # ruleset-specific panels of a face: face name (`editor`) -> "module:attribute"
    def panels(self) -> Mapping[str, str]: ...

    def new_game(self, pack: LoadedPack, track: Track, seats: Sequence[SeatSpec], seed: int,
                 options: Mapping[str, Any], laps: int | None = None,
                 setup: Mapping[str, Any] | None = None, record: bool = True) -> Game:
        """A fresh race, all randomness from `seed`."""
        ...

    def make_bot(self, name: str, seed: int) -> Bot: ...

    def describe(self, event: Mapping[str, Any], context: Any = None) -> str | None:
        """A plain sentence for a log entry (None for entries not worth narrating).

        `context` is the `Game` or `RaceResult` the entry belongs to, from which a ruleset may
        take seat and card names; without it the sentence names things by their ids."""
        ...

    def view(self, game: Game, seat: int) -> list[tuple[str, str]]:
        """Labelled values of one seat (a face shows them without knowing the ruleset)."""
        ...

    def track_checks(self, track: Track, data: Any, src: SourceMap) -> list[Diagnostic]:
        """Diagnostics a track meant for this ruleset needs beyond the common checks."""
        ...

    def run_race(self, spec: RaceSpec) -> RaceResult:
        """Play one race of bots to the end (BaseRuleset: engine/play/races.py's `play_race`)."""
        ...

    def replay(self, lines: list[str], origin: Path | None = None) -> ReplayReport:
        """Re-run a race log of this ruleset and compare every line (BaseRuleset:
        `replay_simple`, and season logs through `seasons.replay`); `origin` is the folder of
        the log file, from which its recorded pack folder is found first
        (engine/play/logcheck.py `find_pack`)."""
        ...


CORE = ("id", "name", "options", "players", "bots", "default_bots", "content",
        "new_game", "make_bot", "describe", "view", "track_checks", "run_race", "replay")
CAPABILITIES = ("setup", "race_view", "reports", "stats", "seasons", "scenarios", "authoring",
                "templates", "files", "bot_data", "panels")
REQUIRED = CORE + CAPABILITIES


def missing_parts(obj: Any) -> list[str]:
    """The protocol members `obj` lacks (empty for a complete ruleset; a capability it does
    not offer is there as None)."""
    have = set(dir(obj))
    return [name for name in REQUIRED if name not in have]
