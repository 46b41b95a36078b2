"""The content model of a ruleset whose packs hold only tracks, house rules and rule scenarios.

A ruleset without data files of its own (its numbers live in its option spec) uses
`TracksOnly(RULESET_ID)` as its content model; its packs load as a `TrackPack`. A ruleset with
data files subclasses it and lists them in `kinds`.

Every such pack may hold one house-rules file, `RULESET-rules/1` (e.g. `formula-de-rules/1`):
`options:` gives rule options their value for every race of the pack. Its schema is generated
from the ruleset's option spec (engine/play/options.py, `house_rules_schema`), so a bad value is
a schema diagnostic at its line and column. A pack that extends another inherits its house
rules and gives only what it changes; a command's `--option` overrides them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from slipstream.engine.core import plugins
from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.core.yamlsource import Loaded, SourceMap
from slipstream.engine.packs.data import FrozenMap, Origin, freeze
from slipstream.engine.packs.loader import Build, ItemList
from slipstream.engine.packs.merge import merge_tracks, read_replaces, report_unused_replaces
from slipstream.engine.tracks.track import Track


@dataclass(frozen=True, slots=True)
class TrackPack:
    """A loaded pack of tracks, with everything it inherits merged in."""

    id: str
    name: str
    version: str
    description: str
    ruleset: str
    root: Path
    lineage: tuple[str, ...]
    digest: str
    tracks: Mapping[str, Track]
    track_owners: Mapping[str, str]
    track_origins: Mapping[str, Origin]
    scenario_files: tuple[Path, ...]
    sources: Mapping[str, SourceMap] = field(compare=False)
    house_options: Mapping[str, Any] = FrozenMap()  # option -> value, from the house-rules files


def rules_kind(ruleset: str) -> str:
    """The file kind of a ruleset's house rules (`formula-de` -> `formula-de-rules`)."""
    return f"{ruleset}-rules"


def house_options(pack: Any) -> Mapping[str, Any]:
    """The option values a pack's house rules set (empty for a pack without any)."""
    return getattr(pack, "house_options", None) or FrozenMap()


class TracksOnly:
    """A content model whose packs hold tracks, house rules and the data kinds in `kinds`:
    the pack's tracks and house rules merged over its parents'."""

    kinds: tuple[str, ...] = ()  # the ruleset's own data kinds
    # the data kinds whose items (cards, table rows) an extending pack adds, changes or removes
    # one by one (engine/packs/merge.py's `rows`); the others replace the inherited file whole
    row_kinds: tuple[str, ...] = ()
    item_lists: Mapping[str, ItemList] = {}

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self.rules_kind = rules_kind(ruleset)
        self.data_kinds: tuple[str, ...] = (*self.kinds, self.rules_kind)

    pack_type: type[TrackPack] = TrackPack  # a subclass adding the fields `build_data` gives
    replaced: str = "a track"  # what may replace an inherited item (P025's hint)

    def build(self, b: Build) -> TrackPack:
        replaces = read_replaces(b)
        tracks, origins, owners = merge_tracks(b, replaces)
        data = self.build_data(b, replaces)
        report_unused_replaces(b, replaces, self.replaced)
        m = b.manifest.data
        sources: dict[str, Any] = {}
        for parent in b.parents:
            sources.update(parent.sources)
        sources.update(b.sources)
        return self.pack_type(b.id, str(m.get("name", b.id)), str(m.get("version", "")),
                              str(m.get("description", "")), b.ruleset, b.root, b.lineage,
                              b.digest.hexdigest() if b.digest is not None else "", FrozenMap(tracks),
                              FrozenMap(owners), FrozenMap(origins), tuple(b.scenario_files),
                              FrozenMap(sources), merge_house_rules(b, self.rules_kind), **data)

    def build_data(self, b: Build, replaces: dict[str, tuple[int, bool]]) -> dict[str, Any]:
        """The fields of `pack_type` beyond a TrackPack's, from the ruleset's data kinds (an
        item listed under `replaces:` that replaces one marks that entry used)."""
        return {}

    def filter_schema(self, diags: list[Diagnostic], loaded: Loaded) -> list[Diagnostic]:
        return diags


def merge_house_rules(b: Build, kind: str) -> FrozenMap:
    """The house options of the pack: its parents' (in `extends` order), then its own file's.

    A second file of the kind is P035. A value its schema refuses is left out (the schema
    diagnostic says why, at its line and column), so the pack keeps the inherited value."""
    out: dict[str, Any] = {}
    for parent in b.parents:
        out.update(house_options(parent))
    files = b.whole.get(kind, [])
    for i, loaded in enumerate(files):
        if i:
            b.diag("P035", loaded.file, ("slipstream",),
                   f"a second house rules file in one pack (the first is {files[0].file})",
                   hint=f"keep one {kind}/1 file per pack")
            continue
        data = loaded.data if isinstance(loaded.data, dict) else {}
        own = data.get("options")
        if not isinstance(own, dict):
            continue
        rs = plugins.load(b.ruleset)
        specs = {s.name: s for s in getattr(rs, "options", ())}
        for name, value in own.items():
            spec = specs.get(name)
            if spec is None or not spec.in_rules_file or spec.problem(value) is not None:
                continue  # reported by the schema (generated from the same spec)
            out[name] = freeze(value)
    return FrozenMap(out)
