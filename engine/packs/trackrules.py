"""The ruleset checks of a track/2 track, keyed by its `rulesets:` (DESIGN §4.1).

engine/tracks cannot import the rulesets, so this layer adds them to the track checks
(engine/tracks/load.py `add_track_checks`): each installed ruleset named in `rulesets:` runs
its `track_checks` (engine/play/protocol.py); a ruleset not installed but listed in
engine/tracks/needs.py `KNOWN_NEEDS` is checked from that data; any other id is T150. Board
features must be of a kind one of the rulesets declares (`track_features` on the ruleset
object, or `features` in its needs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from slipstream.engine.core import plugins
from slipstream.engine.core.diagnostics import Diagnostic, make
from slipstream.engine.core.yamlsource import json_path

if TYPE_CHECKING:
    from slipstream.engine.core.yamlsource import SourceMap
    from slipstream.engine.tracks.track import Track


def checked_track(ruleset: str, data: Any, src: SourceMap) -> tuple[Track | None, list[Diagnostic]]:
    """A track document checked as a pack of `ruleset` checks its tracks: the track checks, those
    of its `rulesets:`, and for a track that does not list `ruleset`, that ruleset's own too
    (it is raced by it; for a track/1, warning T157 for a ruleset of corners)."""
    from slipstream.engine.tracks.load import add_track_checks, check_track_data

    add_track_checks(ruleset_track_checks)
    track, diags = check_track_data(data, src)
    if track is not None and ruleset not in track.rulesets:
        rs = plugins.load(ruleset)
        diags += list(rs.track_checks(track, data, src)) if rs else []
    return track, diags


def ruleset_track_checks(track: Track, data: Any, src: SourceMap) -> list[Diagnostic]:
    """Every check the track's rulesets ask for, and T150 for ids nobody knows."""
    from slipstream.engine.tracks.needs import KNOWN_NEEDS, check_feature_kinds, check_needs

    diags: list[Diagnostic] = []
    declared: set[str] = set()
    for i, rid in enumerate(track.rulesets):
        obj = plugins.load(rid) if rid in plugins.ruleset_ids() else None
        if obj is not None:
            diags += list(obj.track_checks(track, data, src))
            declared |= set(getattr(obj, "track_features", ()) or ())
        elif rid in KNOWN_NEEDS:
            needs = KNOWN_NEEDS[rid]
            diags += check_needs(track, needs, data, src)
            declared |= set(needs.features)
        else:
            pos = src.value(("rulesets", i))
            diags.append(make("T150", src.file, pos.line, pos.column, json_path(("rulesets", i)),
                              f"ruleset {rid!r} is not installed and its track needs are unknown; "
                              "its checks did not run",
                              hint="installed rulesets: " + ", ".join(plugins.ruleset_ids())))
    if track.features:
        diags += check_feature_kinds(track, declared, src)
    return diags


def race_track_warnings(rs: Any, pack: Any, track_id: str) -> list[Diagnostic]:
    """The warnings the ruleset `rs` gives the pack's track `track_id` before a race on it
    (e.g. T157: the track lacks what the ruleset's races read), at the lines of its file."""
    from pathlib import Path

    from slipstream.engine.core.yamlsource import load_file

    track = pack.tracks.get(track_id)
    if track is None:
        return []
    for file in pack.sources:
        if Path(file).stem != track_id or not Path(file).is_file():
            continue
        loaded = load_file(Path(file), display=file)
        if isinstance(loaded.data, dict) and loaded.data.get("id") == track_id:
            return [d for d in rs.track_checks(track, loaded.data, loaded.source) if not d.is_error]
    return []
