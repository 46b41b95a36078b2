"""The content model of a ruleset whose packs hold only tracks (and rule scenarios).

A ruleset without data files of its own (its numbers live in its option spec) uses
`TracksOnly(RULESET_ID)` as its content model; its packs load as a `TrackPack`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.core.yamlsource import Loaded, SourceMap
from slipstream.engine.packs.data import FrozenMap, Origin
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


class TracksOnly:
    """A content model with no data kinds: the pack's tracks merged over its parents'."""

    data_kinds: tuple[str, ...] = ()
    item_lists: Mapping[str, ItemList] = {}

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset

    def build(self, b: Build) -> TrackPack:
        replaces = read_replaces(b)
        tracks, origins, owners = merge_tracks(b, replaces)
        report_unused_replaces(b, replaces, "a track")
        m = b.manifest.data
        sources: dict[str, Any] = {}
        for parent in b.parents:
            sources.update(parent.sources)
        sources.update(b.sources)
        return TrackPack(b.id, str(m.get("name", b.id)), str(m.get("version", "")),
                         str(m.get("description", "")), b.ruleset, b.root, b.lineage,
                         b.digest.hexdigest() if b.digest is not None else "", FrozenMap(tracks),
                         FrozenMap(owners), FrozenMap(origins), tuple(b.scenario_files),
                         FrozenMap(sources))

    def filter_schema(self, diags: list[Diagnostic], loaded: Loaded) -> list[Diagnostic]:
        return diags
