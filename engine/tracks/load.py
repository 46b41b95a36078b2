"""Reading a track document: schema, layout model and track checks in one step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slipstream.engine.core.collector import collector_paused
from slipstream.engine.core.diagnostics import Diagnostic, make, sort_key

if TYPE_CHECKING:
    from slipstream.engine.core.yamlsource import Loaded, SourceMap
    from slipstream.engine.tracks.track import Track

# PyYAML, the schema and the track checks are imported where they are used: importing this
# module stays cheap for a cached `slipstream validate`.
TRACK_VERSIONS = (1, 2)
SCHEMA_OF_VERSION = {1: "track", 2: "track2"}

# Checks a layer above adds for track/2 files (the ruleset checks keyed by `rulesets:`,
# engine/packs/trackrules.py): engine/tracks cannot import the rulesets itself.
TrackCheck = Callable[["Track", Any, "SourceMap"], "list[Diagnostic]"]
_EXTRA_CHECKS: list[TrackCheck] = []


def add_track_checks(check: TrackCheck) -> None:
    """Run `check(track, data, src)` on every parsed track/2 track from now on."""
    if check not in _EXTRA_CHECKS:
        _EXTRA_CHECKS.append(check)


@dataclass(slots=True)
class TrackResult:
    track: Track | None
    loaded: Loaded
    diagnostics: list[Diagnostic]


def check_track_data(data: Any, src: SourceMap) -> tuple[Track | None, list[Diagnostic]]:
    """Schema, layout and geometry checks of one track document."""
    # The checks allocate many small objects that all stay alive; pausing the cyclic garbage
    # collector keeps big tracks linear instead of rescanning them again and again.
    with collector_paused():
        return _check_track_data(data, src)


def _check_track_data(data: Any, src: SourceMap) -> tuple[Track | None, list[Diagnostic]]:
    from slipstream.engine.core.schema import schema_diagnostics
    from slipstream.engine.tracks.checks import check_track
    from slipstream.engine.tracks.track import parse_track

    version = 2 if isinstance(data, dict) and data.get("slipstream") == "track/2" else 1
    diags = schema_diagnostics(SCHEMA_OF_VERSION[version], data, src)
    if diags:
        # The model needs schema-valid data; layout token errors are still worth reporting.
        if isinstance(data, dict) and isinstance(data.get("layout"), list) and all(
            isinstance(x, str) for x in data["layout"]
        ):
            _, more = parse_track({"slipstream": data.get("slipstream"), "layout": data["layout"]}, src)
            diags += [d for d in more if d.code == "T101"]
        return None, diags
    track, more = parse_track(data, src)
    diags += more
    if track is not None:
        diags += check_track(track, data, src)
        if version >= 2:
            from slipstream.engine.tracks.v2checks import check_v2_parts

            diags += check_v2_parts(track, data, src)
            for extra in _EXTRA_CHECKS:
                diags += extra(track, data, src)
    return track, diags


def track_checker(data: Any, src: SourceMap) -> list[Diagnostic]:
    """The checker of `track/1` and `track/2` files (registered by engine/packs/validate.py)."""
    return check_track_data(data, src)[1]


def load_track(path: str | Path) -> TrackResult:
    """Load and check a track file; the track is None when it has errors that stop the model."""
    from slipstream.engine.core.yamlsource import load_file

    loaded = load_file(path)
    if loaded.data is None:
        return TrackResult(None, loaded, loaded.diagnostics)
    tag_diags = _track_tag_problem(loaded)
    if tag_diags:
        return TrackResult(None, loaded, tag_diags)
    track, diags = check_track_data(loaded.data, loaded.source)
    return TrackResult(track, loaded, sorted(diags, key=sort_key))


def _track_tag_problem(loaded: Loaded) -> list[Diagnostic]:
    data = loaded.data
    f = loaded.file
    if not isinstance(data, dict) or "slipstream" not in data:
        return [make("F003", f, 1, 1, "$", "missing `slipstream:` format tag",
                     hint="start the file with `slipstream: track/1`")]
    tag = data["slipstream"]
    kind, _, ver = str(tag).partition("/")
    pos = loaded.source.value(("slipstream",))
    if kind == "track" and ver.isdigit() and int(ver) in TRACK_VERSIONS:
        return []
    return [make("F003", f, pos.line, pos.column, "$.slipstream",
                 f"expected a track file, found {tag!r}",
                 hint="known track tags: " + ", ".join(f"track/{n}" for n in TRACK_VERSIONS))]
