"""What a ruleset needs from a track (RULES.md Appendix A.3), as data, and the check of it.

A ruleset's `track_checks` (engine/play/protocol.py) may simply run `check_needs` with its own
`TrackNeeds`. For rulesets named in the seeds but not installed yet, `KNOWN_NEEDS` holds their
track requirements so that a track meant for them is checked today; the layer above
(engine/packs/trackrules.py) reads it when `rulesets:` names such a ruleset.
Formula-de and speed-hazard keep theirs in their rulesets.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic, make
from slipstream.engine.core.yamlsource import SourceMap, json_path
from slipstream.engine.tracks.track import PLAIN, Track
from slipstream.engine.tracks.v2checks import speed_values

MAX_LISTED = 25


@dataclass(frozen=True, slots=True)
class TrackNeeds:
    """A ruleset's requirements on a track/2 track."""

    ruleset: str
    corner_stops: bool = False  # every corner has `stops`
    min_grid: int = 0  # at least this many grid slots
    corner_speed_limits: bool = False  # every corner has a speed limit
    speed_unit: int = 1  # speed limits are multiples of this
    gear_colours: bool = False  # every space has a gear colour (no plain squares)
    features: tuple[str, ...] = ()  # fixed board feature kinds the ruleset reads
    corners: bool = False  # races read corners: a track without any gets warning T157


KNOWN_NEEDS: dict[str, TrackNeeds] = {}  # every ruleset of the seeds is installed now


def _at(code: str, src: SourceMap, path: tuple[Any, ...], message: str, **kw: Any) -> Diagnostic:
    pos = src.value(path)
    return make(code, src.file, pos.line, pos.column, json_path(path), message, **kw)


def check_needs(track: Track, needs: TrackNeeds, data: Any, src: SourceMap) -> list[Diagnostic]:
    """Diagnostics for everything `needs` asks of the track that it lacks."""
    who = needs.ruleset
    diags: list[Diagnostic] = check_raceable(track, needs, src)
    for c in track.corners:
        if needs.corner_stops and c.stops is None and c.kind is None:  # a kind gives its stops
            diags.append(_at("T151", src, ("corners", c.index),
                             f"corner {c.name!r} has no `stops`; {who} needs stops on every corner"))
        if needs.corner_speed_limits and not c.has_speed_limit():
            diags.append(_at("T153", src, ("corners", c.index),
                             f"corner {c.name!r} has no speed limit; {who} needs one on every corner"))
        if needs.speed_unit > 1:
            for sub, v in speed_values(c):
                if v > 0 and v % needs.speed_unit:
                    diags.append(_at("T125", src, ("corners", c.index, *sub),
                                     f"corner {c.name!r}: speed limit {v} is not a multiple of {needs.speed_unit} ({who})"))
    if needs.speed_unit > 1 and track.pit is not None:
        for i, e in enumerate(track.pit.entries):
            if e.speed is not None and e.speed > 0 and e.speed % needs.speed_unit:
                diags.append(_at("T125", src, ("pit", "entries", i, "speed"),
                                 f"pit entry {i + 1}: speed limit {e.speed} is not a multiple of {needs.speed_unit} ({who})"))
    if len(track.grid) < needs.min_grid:
        diags.append(_at("T152", src, ("grid",),
                         f"the grid has {len(track.grid)} slots; {who} needs at least {needs.min_grid}"))
    if needs.gear_colours:
        diags += _plain_squares(track, who, data, src)
    return diags


def check_raceable(track: Track, needs: TrackNeeds, src: SourceMap) -> list[Diagnostic]:
    """Warning T157 when the track lacks what the ruleset's races read (any track version):
    corners, for a ruleset whose `needs.corners` says so."""
    if not needs.corners or track.corners:
        return []
    what = ("corners with stops" if needs.corner_stops else
            "corners with speed limits" if needs.corner_speed_limits else "corners")
    old = " (a track/1 has none; write a track/2)" if track.version < 2 else ""
    return [_at("T157", src, ("corners",), f"the track has no corners{old}; {needs.ruleset} races need "
                f"{what}, and on this track they run as a plain dash round the lanes",
                hint=f"start from `slipstream new track NAME --ruleset {needs.ruleset}`")]


def _plain_squares(track: Track, who: str, data: Any, src: SourceMap) -> list[Diagnostic]:
    from slipstream.engine.tracks.checks import _Locator

    loc = _Locator(data, src)
    out: list[Diagnostic] = []
    for lane in range(track.lanes):
        plain = [track.spaces[i] for i in track.lane_spaces[lane] if track.spaces[i].colour == PLAIN]
        if not plain:
            continue
        line, col, path = loc.space(lane, plain[0].first)
        names = [sp.name for sp in plain]
        label = f"space {names[0]} is" if len(names) == 1 else f"{len(names)} spaces of lane {lane} are"
        out.append(make("T154", src.file, line, col, path,
                        f"{label} plain; {who} needs a gear colour on every space",
                        spaces=names[:MAX_LISTED]))
    if track.pit is not None and any(sp.colour == PLAIN for sp in track.pit.spaces):
        pos = src.value(("pit", "layout"))
        out.append(make("T154", src.file, pos.line, pos.column, "$.pit.layout",
                        f"the pit lane has plain spaces; {who} needs a gear colour on every space"))
    return out


def check_feature_kinds(track: Track, declared: Iterable[str], src: SourceMap) -> list[Diagnostic]:
    """T155 for every board feature whose kind none of the track's rulesets declares."""
    known = set(declared)
    return [
        _at("T155", src, ("features", f.index, "kind"),
            f"no ruleset of this track declares board features of kind {f.kind!r}")
        for f in track.features if f.kind not in known
    ]
