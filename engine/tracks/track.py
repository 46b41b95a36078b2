"""The track model of track formats v1 and v2 (DESIGN §4, §4.1): lanes, spaces, cells, the grid,
and in v2 plain squares, corners, links, the pit lane and fixed board features.

One immutable `Track` serves the validator, the rules engine, the renderer and the editor.
Parsing never raises for user mistakes: it returns diagnostics that point into the YAML.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic, make
from slipstream.engine.core.limits import MAX_CELLS, MAX_SEGMENTS
from slipstream.engine.core.yamlsource import PathKey, SourceMap, json_path

FORMAT_TAG = "track/1"
GEAR_COLOURS = (3, 4, 5, 6)
PLAIN = 0  # the "colour" of a plain square (track/2 token `o`)
COLOUR_NAMES = {3: "white", 4: "light grey", 5: "dark grey", 6: "black", PLAIN: "plain"}
NO_SPACE = -1
PIT_LANE = -1  # the `lane` of the pit lane's spaces, named `pit:K`

_TOKEN = re.compile(r"^(?:([3-6])|(-))(?:x([1-9][0-9]{0,6}))?$")
_TOKEN_V2 = re.compile(r"^(?:([3-6o])|(-))(?:x([1-9][0-9]{0,6}))?$")


@dataclass(frozen=True, slots=True)
class Space:
    """One space: `length` consecutive segments of one lane in one gear colour."""

    index: int
    lane: int
    first: int
    length: int
    colour: int

    @property
    def last(self) -> int:
        return self.first + self.length - 1

    @property
    def name(self) -> str:
        return f"pit:{self.first}" if self.lane == PIT_LANE else f"{self.lane}:{self.first}"

    def segments(self) -> range:
        return range(self.first, self.first + self.length)


@dataclass(frozen=True, slots=True)
class GridSlot:
    lane: int
    segment: int
    money: int


@dataclass(frozen=True, slots=True)
class Geometry:
    centerline: tuple[tuple[float, float], ...]
    lane_width: float = 40.0
    smooth: bool = False


@dataclass(frozen=True, slots=True)
class Corner:
    """A corner zone (track/2) from segment `first` to `last` inclusive; it may wrap the finish."""

    index: int
    name: str
    first: int
    last: int
    stops: int | None = None
    speed: int | None = None
    lane_speeds: tuple[int | None, ...] = ()
    space_speeds: tuple[tuple[str, int], ...] = ()
    chicane: bool = False
    kind: str | None = None  # a corner kind of the racing pack (Formula Dé-style corner-kinds/1)

    def length(self, segments: int) -> int:
        """Number of segments the corner covers on a loop of `segments`."""
        return (self.last - self.first) % segments + 1

    def contains(self, segment: int, segments: int) -> bool:
        return (segment - self.first) % segments < self.length(segments)

    def has_speed_limit(self) -> bool:
        return self.speed is not None or any(v is not None for v in self.lane_speeds) or bool(self.space_speeds)


@dataclass(frozen=True, slots=True)
class Link:
    """A change to the move graph: add or remove the step from space `src` to space `dst`."""

    index: int
    add: bool
    src: str
    dst: str


@dataclass(frozen=True, slots=True)
class PitEntry:
    cell: str  # main-track space name
    to: int  # pit segment
    speed: int | None = None
    main: bool = True


@dataclass(frozen=True, slots=True)
class PitExit:
    source: int  # pit segment
    cell: str  # main-track space name
    main: bool = True


@dataclass(frozen=True, slots=True)
class PitLane:
    """The pit lane: its own spaces (lane PIT_LANE), entries, exits and boxes (pit segments)."""

    segments: int
    spaces: tuple[Space, ...]
    cells: tuple[int, ...]  # pit segment -> index into `spaces`, or NO_SPACE
    entries: tuple[PitEntry, ...]
    exits: tuple[PitExit, ...]
    boxes: tuple[int, ...] = ()
    lap_counts: bool = True
    can_win: bool = True
    side: str = "outside"

    def space_at(self, segment: int) -> Space | None:
        if not 0 <= segment < self.segments:
            return None
        idx = self.cells[segment]
        return None if idx == NO_SPACE else self.spaces[idx]


@dataclass(frozen=True, slots=True)
class Feature:
    """A fixed board feature a ruleset declares (e.g. a pit wall) on some spaces."""

    index: int
    kind: str
    spaces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Track:
    """A parsed track. `cells[lane][segment]` is a space index or NO_SPACE."""

    id: str
    name: str
    laps: int
    segments: int
    spaces: tuple[Space, ...]
    lane_spaces: tuple[tuple[int, ...], ...]
    cells: tuple[tuple[int, ...], ...]
    grid: tuple[GridSlot, ...]
    geometry: Geometry | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    version: int = 1
    rulesets: tuple[str, ...] = ()
    corners: tuple[Corner, ...] = ()
    links: tuple[Link, ...] = ()
    pit: PitLane | None = None
    features: tuple[Feature, ...] = ()

    @property
    def lanes(self) -> int:
        return len(self.lane_spaces)

    def space_at(self, lane: int, segment: int) -> Space | None:
        """The space covering a cell, or None where the lane does not exist."""
        if not 0 <= lane < self.lanes:
            return None
        idx = self.cells[lane][segment % self.segments]
        return None if idx == NO_SPACE else self.spaces[idx]

    def space_named(self, name: str) -> Space | None:
        lane_s, _, seg_s = name.partition(":")
        try:
            if lane_s == "pit":
                pit_sp = self.pit.space_at(int(seg_s)) if self.pit is not None else None
                return pit_sp if pit_sp is not None and pit_sp.first == int(seg_s) else None
            sp = self.space_at(int(lane_s), int(seg_s))
        except ValueError:
            return None
        return sp if sp is not None and sp.first == int(seg_s) else None

    def grid_progress(self, slot: GridSlot) -> int:
        """Progress of a grid slot: the grid stands behind the finish line (≤ 0, §8.35)."""
        return 0 if slot.segment == 0 else slot.segment - self.segments

    def progress(self, laps_done: int, segment: int) -> int:
        """Race progress (DESIGN §5): laps completed × N + segment."""
        return laps_done * self.segments + segment


def layout_tokens(text: str) -> list[tuple[int, str]]:
    """Split a lane string into (offset, token) pairs."""
    return [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]


def _token_value(
    tok: str, cache: dict[str, tuple[int, int] | None], pattern: re.Pattern[str] = _TOKEN
) -> tuple[int, int] | None:
    """(colour or NO_SPACE, length) of a layout token, or None when it is malformed."""
    if tok not in cache:
        m = pattern.match(tok)
        cache[tok] = None if not m else (
            (PLAIN if m.group(1) == "o" else int(m.group(1))) if m.group(1) else NO_SPACE,
            int(m.group(3) or 1),
        )
    return cache[tok]


def _parse_lane(
    text: str, lane: int, path: PathKey, src: SourceMap, diags: list[Diagnostic], plain: bool = False
) -> list[tuple[int, int, int]] | None:
    """Return (first, length, colour or NO_SPACE) runs of one lane, or None on token errors.

    `plain` (track/2) also accepts plain squares `o` / `oxK`.
    """
    pattern = _TOKEN_V2 if plain else _TOKEN
    cache: dict[str, tuple[int, int] | None] = {}
    runs: list[tuple[int, int, int]] = []
    seg = 0
    # every token covers a segment at least: a lane of more tokens than the limit is too long
    # before it is read to its end
    for i, tok in enumerate(text.split(None, MAX_SEGMENTS)):
        val = _token_value(tok, cache, pattern) if i < MAX_SEGMENTS else (NO_SPACE, 1)  # the rest
        if val is None:
            break
        runs.append((seg, val[1], val[0]))
        seg += val[1]
        if seg > MAX_SEGMENTS:
            pos = src.value(path)
            where = "the pit lane" if lane == PIT_LANE else f"lane {lane}"
            diags.append(make("T117", src.file, pos.line, pos.column, json_path(path),
                              f"{where} covers more than {MAX_SEGMENTS:,} segments, the most a track may have",
                              hint="split the track, or draw fewer, longer spaces"))
            return None
    else:
        return runs
    # Slow path, only for broken lanes: report every bad token with its column.
    seg = 0
    for offset, tok in layout_tokens(text):
        val = _token_value(tok, cache, pattern)
        if val is None:
            pos = src.in_scalar(path, offset)
            where = "pit lane" if lane == PIT_LANE else f"lane {lane}"
            what = "a gear colour 3-6, 'o' (plain) or '-'" if plain else "a gear colour 3-6 or '-'"
            diags.append(
                make(
                    "T101", src.file, pos.line, pos.column, json_path(path),
                    f"{where}: bad layout token {tok!r} at segment {seg}",
                    hint=f"tokens are {what}, optionally followed by xK for K segments",
                )
            )
            continue
        seg += val[1]
    return None


def parse_track(data: Any, src: SourceMap) -> tuple[Track | None, list[Diagnostic]]:
    """Build a Track from schema-valid data; report layout and grid problems."""
    diags: list[Diagnostic] = []
    file = src.file
    layout = data.get("layout", [])
    lane_runs: list[list[tuple[int, int, int]]] = []
    failed = False
    version = 2 if data.get("slipstream") == "track/2" else 1
    for lane, text in enumerate(layout):
        runs = _parse_lane(text, lane, ("layout", lane), src, diags, plain=version >= 2)
        if runs is None:
            failed = True
            lane_runs.append([])
        else:
            lane_runs.append(runs)
    declared = data.get("lanes")
    if declared is not None and declared != len(layout):
        pos = src.value(("lanes",))
        diags.append(
            make("T103", file, pos.line, pos.column, "$.lanes",
                 f"`lanes` says {declared} but `layout` has {len(layout)} lane strings")
        )
    if failed:
        return None, diags
    lengths = [sum(r[1] for r in runs) for runs in lane_runs]
    n = Counter(lengths).most_common(1)[0][0] if lengths else 0
    for lane, length in enumerate(lengths):
        if length != n:
            pos = src.value(("layout", lane))
            diags.append(
                make("T102", file, pos.line, pos.column, json_path(("layout", lane)),
                     f"lane {lane} covers {length} segments but the other lanes cover {n}",
                     hint="every lane string must cover the same number of segments")
            )
    if n == 0:
        for lane in range(len(lane_runs)):
            pos = src.value(("layout", lane))
            diags.append(make("T104", file, pos.line, pos.column, json_path(("layout", lane)),
                              f"lane {lane} has no spaces (the layout covers no segments)"))
    if any(length != n for length in lengths) or n == 0:
        return None, diags
    if n * len(lane_runs) > MAX_CELLS:
        pos = src.value(("layout",))
        diags.append(make("T117", file, pos.line, pos.column, "$.layout",
                          f"{len(lane_runs)} lanes of {n:,} segments make {n * len(lane_runs):,} cells; "
                          f"a track has at most {MAX_CELLS:,}", hint="split the track, or give it fewer lanes"))
        return None, diags

    spaces: list[Space] = []
    lane_spaces: list[tuple[int, ...]] = []
    cells: list[tuple[int, ...]] = []
    for lane, runs in enumerate(lane_runs):
        row = [NO_SPACE] * n
        ids: list[int] = []
        for first, length, colour in runs:
            if colour == NO_SPACE:
                continue
            sp = Space(len(spaces), lane, first, length, colour)
            spaces.append(sp)
            ids.append(sp.index)
            row[first : first + length] = [sp.index] * length
        if not ids:
            pos = src.value(("layout", lane))
            diags.append(make("T104", file, pos.line, pos.column, json_path(("layout", lane)),
                              f"lane {lane} has no spaces"))
        lane_spaces.append(tuple(ids))
        cells.append(tuple(row))

    grid: list[GridSlot] = []
    for slot in data.get("grid", []):
        grid.append(GridSlot(int(slot["lane"]), int(slot["segment"]), int(slot.get("money", 0))))

    geometry = None
    geo = data.get("geometry")
    if isinstance(geo, dict) and geo.get("centerline"):
        geometry = Geometry(
            tuple((float(x), float(y)) for x, y in geo["centerline"]),
            float(geo.get("lane_width", 40)),
            bool(geo.get("smooth", False)),
        )
    known = {"slipstream", "id", "name", "laps", "lanes", "layout", "grid", "geometry"}
    v2: dict[str, Any] = {}
    if version >= 2:
        known |= {"rulesets", "corners", "links", "pit", "features"}
        pit = _parse_pit(data.get("pit"), src, diags)
        if pit is False:
            return None, diags
        v2 = {
            "version": version,
            "rulesets": tuple(str(r) for r in data.get("rulesets", ())),
            "corners": tuple(_corner(i, c) for i, c in enumerate(data.get("corners", ()))),
            "links": tuple(_link(i, x) for i, x in enumerate(data.get("links", ()))),
            "pit": pit,
            "features": tuple(
                Feature(i, str(f["kind"]), tuple(str(s) for s in f["spaces"]))
                for i, f in enumerate(data.get("features", ()))
            ),
        }
    track = Track(
        id=str(data.get("id", "")),
        name=str(data.get("name", data.get("id", ""))),
        laps=int(data.get("laps", 3)),
        segments=n,
        spaces=tuple(spaces),
        lane_spaces=tuple(lane_spaces),
        cells=tuple(cells),
        grid=tuple(grid),
        geometry=geometry,
        extra={k: v for k, v in data.items() if k not in known},
        **v2,
    )
    return track, diags


def _speed(v: Any) -> int | None:
    return None if v is None else int(v)


def _corner(i: int, c: dict[str, Any]) -> Corner:
    return Corner(
        index=i,
        name=str(c.get("name", f"corner {i + 1}")),
        first=int(c["from"]),
        last=int(c["to"]),
        stops=_speed(c.get("stops")),
        speed=_speed(c.get("speed")),
        lane_speeds=tuple(_speed(v) for v in c.get("lane_speeds", ())),
        space_speeds=tuple((str(k), int(v)) for k, v in dict(c.get("space_speeds", {})).items()),
        chicane=bool(c.get("chicane", False)),
        kind=None if c.get("kind") is None else str(c["kind"]),
    )


def _link(i: int, x: dict[str, Any]) -> Link:
    add = "add" in x
    a, b = x["add"] if add else x["remove"]
    return Link(i, add, str(a), str(b))


def _parse_pit(pit: Any, src: SourceMap, diags: list[Diagnostic]) -> PitLane | None | bool:
    """The pit lane of a schema-valid `pit:` mapping; None without one, False on token errors."""
    if not isinstance(pit, dict):
        return None
    runs = _parse_lane(pit["layout"], PIT_LANE, ("pit", "layout"), src, diags, plain=True)
    if runs is None:
        return False
    n = sum(r[1] for r in runs)
    spaces: list[Space] = []
    cells = [NO_SPACE] * n
    for first, length, colour in runs:
        if colour == NO_SPACE:
            continue
        sp = Space(len(spaces), PIT_LANE, first, length, colour)
        spaces.append(sp)
        cells[first : first + length] = [sp.index] * length
    return PitLane(
        segments=n,
        spaces=tuple(spaces),
        cells=tuple(cells),
        entries=tuple(
            PitEntry(str(e["from"]), int(e.get("to", 0)), _speed(e.get("speed")), bool(e.get("main", True)))
            for e in pit["entries"]
        ),
        exits=tuple(
            PitExit(int(x.get("from", max(0, n - 1))), str(x["to"]), bool(x.get("main", True)))
            for x in pit["exits"]
        ),
        boxes=tuple(int(b) for b in pit.get("boxes", ())),
        lap_counts=bool(pit.get("lap_counts", True)),
        can_win=bool(pit.get("can_win", True)),
        side=str(pit.get("side", "outside")),
    )


def layout_string(track: Track, lane: int) -> str:
    """Write one lane back in the compact token form (`3 4x2 -x3 ...`)."""
    out: list[str] = []
    row = track.cells[lane]
    seg = 0
    n = track.segments
    while seg < n:
        idx = row[seg]
        if idx == NO_SPACE:
            end = seg
            while end < n and row[end] == NO_SPACE:
                end += 1
            k = end - seg
            out.append("-" if k == 1 else f"-x{k}")
            seg = end
        else:
            sp = track.spaces[idx]
            head = "o" if sp.colour == PLAIN else str(sp.colour)
            out.append(head if sp.length == 1 else f"{head}x{sp.length}")
            seg += sp.length
    return " ".join(out)
