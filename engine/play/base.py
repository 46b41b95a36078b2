"""`BaseRuleset`: the core of the ruleset protocol most rulesets share, ready to inherit, and
the shared defaults of the capabilities a face falls back on.

A new ruleset subclasses `BaseRuleset` and writes what is its own (id, name, options, players,
bots, `new_game`, `make_bot`); the defaults play races with engine/play/races.py, replay their
logs with `replay_simple` and offer no capability. A ruleset that offers one sets the
attribute to an object of that capability (engine/play/protocol.py); `BaseRaceView`,
`BaseReports`, `BaseStats` and `BaseAuthoring` are ready to subclass. Faces reach a capability or its shared
default through `view_of`, `reports_of` and `stats_of`.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any

from slipstream.engine.play.options import house_rules_schema
from slipstream.engine.play.racelog import ReplayReport, header_of, replay_simple
from slipstream.engine.play.races import play_race
from slipstream.engine.play.stats import format_races, summarise_races

if TYPE_CHECKING:
    from pathlib import Path

    from slipstream.engine.packs.trackpack import TracksOnly
    from slipstream.engine.play.protocol import (
        Authoring,
        BatchStats,
        BotData,
        CardFace,
        CardRow,
        Cell,
        Championships,
        Checker,
        DataTable,
        FileKinds,
        Gauge,
        ItemKind,
        Mark,
        PackFile,
        RaceReports,
        RaceView,
        Ruleset,
        Scenarios,
        Setup,
        TrackTemplates,
    )


class BaseRuleset:
    """Defaults for the core of engine/play/protocol.py; every capability None.

    It is not a whole ruleset by itself (a subclass adds `new_game` and `make_bot`): the
    defaults that play or replay a race take `self` as the `Ruleset` the subclass makes."""

    id = ""
    name = ""
    options: Sequence[Any] = ()
    players = (2, 6)
    bots: Mapping[str, str] = {}
    default_bots: Sequence[str] = ()  # empty: one of each bot
    content: Any = None
    setup: Setup | None = None
    race_view: RaceView | None = None
    reports: RaceReports | None = None
    stats: BatchStats | None = None
    seasons: Championships | None = None
    scenarios: Scenarios | None = None
    authoring: Authoring | None = None
    templates: TrackTemplates | None = None
    files: FileKinds | None = None
    bot_data: BotData | None = None
    panels: Mapping[str, str] = {}  # no ruleset-specific panels: faces show their generic ones

    def track_checks(self, track: Any, data: Any, src: Any) -> list[Any]:
        return []

    def run_race(self: Ruleset, spec: Any) -> Any:
        return play_race(self, spec)

    def describe(self, event: Mapping[str, Any], context: Any = None) -> str | None:
        return None

    def view(self, game: Any, seat: int) -> list[tuple[str, str]]:
        return []

    def replay(self: Ruleset, lines: list[str], origin: Path | None = None) -> ReplayReport:
        """A race log, or a season log (its header says `t: season`) of its championships;
        `origin`: the log file's folder, its pack is looked for from there first."""
        if self.seasons is not None:
            head = header_of(lines)
            if not isinstance(head, ReplayReport) and head.get("t") == "season":
                return self.seasons.replay(lines, origin)
        return replay_simple(self, lines, origin)


class BaseRaceView:
    """A race view's defaults: one car a seat, no brief, route, gauges or marks; a subclass
    gives `cars`."""

    secret_kinds: Sequence[str] = ()

    def cars(self, game: Any) -> list[Cell]:
        return []  # a face then draws no cars

    def car_owners(self, game: Any) -> list[int]:
        return list(range(len(self.cars(game))))

    def car_of(self, game: Any) -> int:
        d = game.pending
        return -1 if d is None else int(d.player)

    def brief(self, game: Any, seat: int) -> str:
        return ""

    def route(self, game: Any, key: str) -> list[Cell]:
        return []

    def gauges(self, game: Any, seat: int) -> list[Gauge]:
        return []

    def marks(self, game: Any) -> list[Mark]:
        return []


NO_VIEW = BaseRaceView()


class BaseReports:
    """One race in words from the log and the ruleset's `describe`, and the shared JSON."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs

    def text(self, result: Any) -> str:
        told = [t for t in (self.rs.describe(e, result) for e in result.log) if t]
        names = result.result.get("standings") or [result.names[i] for i in result.standings]
        return "\n".join([*told, "", "final standings: " + ", ".join(names),
                          f"{result.rounds} rounds, {result.decisions} decisions"])

    def json(self, result: Any) -> dict[str, Any]:
        return {"seed": result.spec.seed, "track": result.spec.track,
                "standings": [{"place": i + 1, "name": result.names[p], "bot": result.bots[p]}
                              for i, p in enumerate(result.standings)],
                "rounds": result.rounds, "capped": result.capped, "decisions": result.decisions}


class BaseStats:
    """The shared statistics of many races (win rates by grid slot and bot, race length)."""

    def summarise(self, results: Sequence[Any]) -> dict[str, Any]:
        return summarise_races(results)

    def format_summary(self, summary: Mapping[str, Any]) -> str:
        return format_races(dict(summary))

    def heat(self, summary: Mapping[str, Any]) -> dict[str, dict[str, float]]:
        return {}

    def item_users(self, result: Any, kind: str, item_id: str) -> dict[str, list[bool]]:
        return {}

    def record(self, result: Any) -> dict[str, Any]:
        return {}

    def measures(self, result: Any) -> list[Any]:
        """The ruleset's own measures of one race (engine/play/measures.py; []: none)."""
        return []


SHARED_STATS = BaseStats()


class BaseAuthoring:
    """An `authoring` capability's defaults: no new-pack files, item kinds, tables or cards; a
    ruleset's own subclasses it and gives what it has."""

    item_kinds: Sequence[ItemKind] = ()
    card_kinds: Sequence[str] = ()
    sheet_kind = ""
    tables: Sequence[DataTable] = ()

    def pack_files(self, pid: str, name: str, extends: Sequence[str]) -> list[PackFile]:
        return []

    def item_groups(self, pack: Any, kind: str) -> tuple[str, list[tuple[str, str]]] | None:
        return None

    def completions(self, pack: Any, own: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, list[str]]:
        return {}

    def card_rows(self, pack: Any, sheet: str | None) -> list[CardRow]:
        if sheet is not None:
            raise KeyError(sheet)
        return []

    def card_face(self, pack: Any, item: Mapping[str, Any] | str, kind: str = "") -> CardFace | None:
        return None

    def sheets(self, pack: Any) -> list[tuple[str, str]]:
        return []

    def card_faces(self, pack: Any, sheet: str) -> tuple[str, list[CardFace]]:
        raise KeyError(sheet)


def view_of(rs: Ruleset) -> RaceView:
    """The ruleset's race view, or one that draws no cars."""
    return rs.race_view if rs.race_view is not None else NO_VIEW


def reports_of(rs: Ruleset) -> RaceReports:
    """The ruleset's race reports, or the shared ones (from the log and `describe`)."""
    return rs.reports if rs.reports is not None else BaseReports(rs)


def stats_of(rs: Ruleset) -> BatchStats:
    """The ruleset's batch statistics, or the shared ones."""
    return rs.stats if rs.stats is not None else SHARED_STATS


class OwnFileKinds:
    """A `files` capability: file kinds with their checkers, and their schemas, the files
    `names` (`KIND.schema.json`) of the package `package` (package data), plus those made at
    run time (`generated`: name -> schema, e.g. `house_rules_schemas(...)`)."""

    def __init__(self, kinds: Mapping[str, tuple[tuple[int, ...], Checker]], package: str = "",
                 names: Sequence[str] = (), generated: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.kinds = dict(kinds)
        self.package = package
        self.names = tuple(names)
        self.generated = dict(generated or {})

    def schemas(self) -> dict[str, Traversable]:
        out: dict[str, Traversable] = {}
        if self.package:
            root = resources.files(self.package)
            out = {n: root / n for n in self.names}
        for name, doc in self.generated.items():
            out.setdefault(name, SchemaText(name, json.dumps(doc, indent=2, ensure_ascii=False) + "\n"))
        return out


def house_rules_schemas(content: TracksOnly, name: str, options: Sequence[Any]) -> dict[str, dict[str, Any]]:
    """The schema of a ruleset's house-rules file (`RULESET-rules/1`, which a track-pack content
    model reads: engine/packs/trackpack.py `TracksOnly.rules_kind`), generated from its option spec, by file name; a
    ruleset (`name`, `options`) passes it to its `files` capability
    (`OwnFileKinds(..., generated=house_rules_schemas(CONTENT, NAME, OPTIONS))`)."""
    kind = content.rules_kind
    return {f"{kind}.schema.json": house_rules_schema(kind, name, list(options))}


class SchemaText(Traversable):
    """A schema made at run time, read like a schema file of a package."""

    def __init__(self, name: str, text: str) -> None:
        self._name, self._text = name, text

    @property
    def name(self) -> str:
        return self._name

    def read_text(self, encoding: str | None = None) -> str:
        return self._text

    def read_bytes(self) -> bytes:
        return self._text.encode("utf-8")

    def open(self, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        return io.BytesIO(self.read_bytes()) if "b" in mode else io.StringIO(self._text)

    def is_file(self) -> bool:
        return True

    def is_dir(self) -> bool:
        return False

    def iterdir(self) -> Iterator[Traversable]:
        return iter(())

    def joinpath(self, *descendants: Any) -> Traversable:
        raise FileNotFoundError(f"{self._name} is a file")

    def __truediv__(self, child: Any) -> Traversable:
        return self.joinpath(child)


class ShapeTemplates:
    """A `templates` capability over the shared track/2 shapes (engine/tracks/templates.py):
    `make(shape)` gives a ruleset's track of that shape."""

    def __init__(self, make: Any, names: Sequence[tuple[str, str]]) -> None:
        self._make = make
        self.names = tuple(names)

    def track(self, template: str) -> dict[str, Any]:
        if template not in dict(self.names):
            raise ValueError(f"unknown template {template!r}; choose one of {', '.join(k for k, _ in self.names)}")
        return dict(self._make(template))


def schema_only(kind: str) -> Checker:
    """A checker for a file of `kind` that stands alone (a data table, a scenario whose
    references need the pack): its schema only."""

    def check(data: Any, src: Any) -> Any:
        from slipstream.engine.core.schema import schema_diagnostics

        return schema_diagnostics(kind, data, src)

    return check


Who = Callable[[Any], str]
"""Names a seat in a sentence of the race log (`narrate`)."""


def narrate(e: Mapping[str, Any], names: Sequence[str] | None,
            sentences: Mapping[str, Callable[[Mapping[str, Any], Who], str]]) -> str | None:
    """One sentence for a log entry by the ruleset's `sentences` (per event kind, given the
    entry and a `who` that names a seat: by `names`, else P1, P2, ...); None for entries not
    worth telling (steps, decisions, events it has no sentence for)."""
    if e.get("t") != "event":
        return None

    def who(p: Any) -> str:
        return names[p] if names is not None and isinstance(p, int) and 0 <= p < len(names) else f"P{int(p) + 1}"

    fn = sentences.get(str(e.get("ev")))
    return fn(e, who) if fn is not None else None


def own_file(b: Any, kind: str, code: str) -> Any:
    """The pack's own file of data kind `kind` (None when it has none) while its content is
    built (`b`: the loader's Build); a second file of the kind is diagnostic `code`."""
    from slipstream.engine.core.diagnostics import make

    files = b.whole.get(kind, [])
    if len(files) > 1:
        b.diags.append(make(code, files[1].file, 1, 1, "$", f"a second {kind}/1 file in the pack",
                            hint="keep one file of each kind"))
    return files[0] if files else None
