"""Edits of track data (the plain YAML data of format v1), as pure functions.

Each function takes track data and returns new data; the input is never changed, and parts
that an edit does not touch are shared (a lane string that is not edited keeps its exact text,
so an unchanged file writes back byte for byte). An edit that changes nothing returns the
input object itself. The editor wraps these in commands (engine/editing/commands.py).
"""

from __future__ import annotations

import math
from typing import Any

from slipstream.engine.core.yamlsource import SourceMap
from slipstream.engine.tracks.drawing import TrackDrawing, stadium_centerline
from slipstream.engine.tracks.track import GEAR_COLOURS, NO_SPACE, PLAIN, Track, parse_track

Data = dict[str, Any]
GAP = NO_SPACE
DEFAULT_COLOUR = 3
FIRST_MONEY = 10
MAX_GRID_SLOTS = 12  # the track schema's limit on `grid`

EMPTY_TRACK: Data = {
    "slipstream": "track/1",
    "id": "untitled",
    "name": "Untitled",
    "laps": 3,
    "lanes": 1,
    "layout": [""],
    "grid": [],
}


def new_track() -> Data:
    """An empty track: one lane without segments, no grid."""
    return {k: (list(v) if isinstance(v, list) else v) for k, v in EMPTY_TRACK.items()}


# --- lanes as runs and cells -------------------------------------------------------------

def lane_runs(text: str) -> list[tuple[int, int]]:
    """(colour or GAP, length) for each token of a valid lane string."""
    out: list[tuple[int, int]] = []
    for tok in text.split():
        head, _, k = tok.partition("x")
        out.append((GAP if head == "-" else PLAIN if head == "o" else int(head), int(k) if k else 1))
    return out


def runs_text(runs: list[tuple[int, int]]) -> str:
    """The canonical lane string of runs (neighbouring gaps are joined)."""
    out: list[str] = []
    pending_gap = 0
    for colour, k in runs:
        if k <= 0:
            continue
        if colour == GAP:
            pending_gap += k
            continue
        if pending_gap:
            out.append("-" if pending_gap == 1 else f"-x{pending_gap}")
            pending_gap = 0
        head = "o" if colour == PLAIN else str(colour)
        out.append(head if k == 1 else f"{head}x{k}")
    if pending_gap:
        out.append("-" if pending_gap == 1 else f"-x{pending_gap}")
    return " ".join(out)


def expand(text: str) -> tuple[list[int], list[int]]:
    """Per segment: a space id (GAP where the lane is missing) and a colour."""
    ids: list[int] = []
    colours: list[int] = []
    for n, (colour, k) in enumerate(lane_runs(text)):
        ids += [GAP if colour == GAP else n] * k
        colours += [colour] * k
    return ids, colours


def collapse(ids: list[int], colours: list[int]) -> str:
    """Inverse of `expand`: neighbouring segments with one id form one space."""
    runs: list[tuple[int, int]] = []
    prev = None
    for sid, colour in zip(ids, colours, strict=True):
        if runs and sid == prev and (sid != GAP or runs[-1][0] == GAP):
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((GAP if sid == GAP else colour, 1))
        prev = sid
    return runs_text(runs)


def layout(data: Data) -> list[str]:
    lay = data.get("layout")
    return list(lay) if isinstance(lay, list) else []


def segment_count(data: Data) -> int:
    lay = layout(data)
    return sum(k for _, k in lane_runs(lay[0])) if lay else 0


def _locate(runs: list[tuple[int, int]], seg: int) -> tuple[int, int]:
    start = 0
    for i, (_, k) in enumerate(runs):
        if start <= seg < start + k:
            return i, start
        start += k
    raise IndexError(f"segment {seg} outside the lane")


def _replace(data: Data, **changes: Any) -> Data:
    """New data with some top-level keys replaced; returns `data` itself when nothing changes."""
    if all(k in data and data[k] == v for k, v in changes.items()):
        return data
    out = dict(data)
    out.update(changes)
    return out


def _with_lanes(data: Data, lanes: dict[int, str]) -> Data:
    lay = layout(data)
    changed = False
    for lane, text in lanes.items():
        if lay[lane] != text:
            lay[lane] = text
            changed = True
    return _replace(data, layout=lay) if changed else data


def to_track(data: Data) -> Track | None:
    """The track model of data (None when the layout cannot be read), without diagnostics."""
    try:
        track, _ = parse_track(data, SourceMap("<edit>"))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return track


# --- spaces --------------------------------------------------------------------------------

def paint(data: Data, lane: int, segment: int, colour: int) -> Data:
    """Give the space at (lane, segment) a gear colour (or PLAIN, see v2edits.paint_plain);
    on a gap, create a 1-segment space."""
    if colour not in GEAR_COLOURS and colour != PLAIN:
        raise ValueError(f"not a gear colour: {colour}")
    runs = lane_runs(layout(data)[lane])
    i, start = _locate(runs, segment)
    c, k = runs[i]
    if c == colour:
        return data
    if c == GAP:
        runs[i : i + 1] = [(GAP, segment - start), (colour, 1), (GAP, start + k - segment - 1)]
    else:
        runs[i] = (colour, k)
    return _with_lanes(data, {lane: runs_text(runs)})


def split(data: Data, lane: int, boundary: int) -> Data:
    """Cut the space that covers segment `boundary` so that a new space starts there."""
    runs = lane_runs(layout(data)[lane])
    i, start = _locate(runs, boundary)
    c, k = runs[i]
    if c == GAP or start == boundary:
        return data
    runs[i : i + 1] = [(c, boundary - start), (c, start + k - boundary)]
    return _with_lanes(data, {lane: runs_text(runs)})


def merge_next(data: Data, lane: int, segment: int) -> Data:
    """Join the space at (lane, segment) with the next space of its lane (not across the finish)."""
    runs = lane_runs(layout(data)[lane])
    i, _ = _locate(runs, segment)
    if runs[i][0] == GAP or i + 1 >= len(runs) or runs[i + 1][0] == GAP:
        return data
    runs[i : i + 2] = [(runs[i][0], runs[i][1] + runs[i + 1][1])]
    return _with_lanes(data, {lane: runs_text(runs)})


def set_lane_present(
    data: Data, lane: int, first: int, last: int, present: bool, colour: int = DEFAULT_COLOUR
) -> Data:
    """Remove a lane over segments first..last (narrowing), or restore it as 1-segment spaces."""
    ids, colours = expand(layout(data)[lane])
    n = len(ids)
    fresh = max([i for i in ids if i != GAP], default=0) + 1
    for s in range(first, last + 1):
        s %= n
        if not present:
            ids[s], colours[s] = GAP, GAP
        elif ids[s] == GAP:
            ids[s], colours[s] = fresh, colour
            fresh += 1
    return _with_lanes(data, {lane: collapse(ids, colours)})


def set_lane_count(data: Data, count: int) -> Data:
    """Add lanes on the outside (copies of the outermost lane) or remove outer lanes."""
    if count < 1:
        raise ValueError("a track has at least one lane")
    lay = layout(data)
    if not lay:
        lay = [""]
    while len(lay) < count:
        lay.append(lay[-1])
    del lay[count:]
    return _replace(data, lanes=count, layout=lay)


def resize(data: Data, at: int, delta: int, colour: int = DEFAULT_COLOUR) -> Data:
    """Insert `delta` segments before segment `at` (or delete -delta from `at` on).

    A space that straddles the insertion point grows; at a space boundary new 1-segment spaces
    of `colour` appear (gaps stay gaps). Grid slots behind the change keep their cells.
    """
    if delta == 0:
        return data
    n = segment_count(data)
    at = max(0, min(at, n if delta > 0 else n - 1))
    lay = layout(data)
    new_lay: list[str] = []
    for text in lay:
        ids, colours = expand(text)
        if delta > 0:
            before = ids[at - 1] if at > 0 else None
            after = ids[at] if at < n else None
            if before is not None and before == after and before != GAP:
                add_ids, add_col = [before] * delta, [colours[at]] * delta
            elif (before in (None, GAP)) and (after in (None, GAP)) and n > 0:
                add_ids, add_col = [GAP] * delta, [GAP] * delta
            else:
                base = max([i for i in ids if i != GAP], default=0) + 1
                add_ids, add_col = list(range(base, base + delta)), [colour] * delta
            ids[at:at] = add_ids
            colours[at:at] = add_col
        else:
            del ids[at : at - delta]
            del colours[at : at - delta]
        new_lay.append(collapse(ids, colours))
    grid = []
    for slot in data.get("grid", []):
        seg = slot.get("segment", 0)
        if isinstance(seg, int) and seg >= at:
            seg = seg + delta if delta > 0 or seg >= at - delta else at
            slot = {**slot, "segment": max(0, seg)}
        grid.append(slot)
    return _replace(data, layout=new_lay, grid=grid)


def set_segment_count(data: Data, count: int, at: int | None = None) -> Data:
    """Make every lane cover `count` segments, inserting or deleting at `at` (default: mid-lap)."""
    n = segment_count(data)
    if count < 1 or count == n:
        return data
    if at is None:
        at = n // 2
    if count < n:
        at = min(at, count)
    return resize(data, at, count - n)


def move_finish(data: Data, segment: int) -> Data:
    """Move the finish line to the start of `segment`; the numbering follows.

    Spaces that straddle the new line are cut there (a space may not cross the finish line).
    Grid slots keep their cells; the centreline gets a point at the new line and starts there.
    """
    n = segment_count(data)
    k = segment % n if n else 0
    if k == 0:
        return data
    new_lay = []
    for text in layout(data):
        ids, colours = expand(text)
        if ids[k] != GAP and ids[k - 1] == ids[k]:
            fresh = max(ids) + 1
            s = k
            while s < n and ids[s] == ids[k - 1]:
                ids[s] = fresh
                s += 1
        new_lay.append(collapse(ids[k:] + ids[:k], colours[k:] + colours[:k]))
    grid = [
        {**slot, "segment": (slot["segment"] - k) % n} if isinstance(slot.get("segment"), int) else slot
        for slot in data.get("grid", [])
    ]
    out = _replace(data, layout=new_lay, grid=grid)
    geo = data.get("geometry")
    if isinstance(geo, dict) and geo.get("centerline"):
        out["geometry"] = _rotate_centerline(data, k)
    return out


def _num(v: float) -> float | int:
    """Round a drawing coordinate to 0.1 and write whole numbers as integers."""
    r = round(v, 1)
    return int(r) if r == int(r) else r


def _rotate_centerline(data: Data, k: int) -> dict[str, Any]:
    geo = dict(data["geometry"])
    track = to_track(data)
    pts = [list(p) for p in geo["centerline"]]
    if track is None:
        return geo
    d = TrackDrawing(track)
    t = d.segment_t(k)
    p, _ = d.at(t)
    new = [_num(p[0]), _num(p[1])]
    # which control span holds arc length t: path index, mapped back to control points
    cum = d.cumulative
    i = 0
    while i + 1 < len(cum) - 1 and cum[i + 1] <= t:
        i += 1
    span = i // 12 if geo.get("smooth") and len(pts) >= 3 else i
    span = min(span, len(pts) - 1)
    nearest = min(range(len(pts)), key=lambda j: math.dist(pts[j], new))
    if math.dist(pts[nearest], new) < 1e-6:
        start = nearest
    else:
        pts.insert(span + 1, new)
        start = span + 1
    geo["centerline"] = pts[start:] + pts[:start]
    return geo


# --- grid ----------------------------------------------------------------------------------

def _grid(data: Data) -> list[dict[str, Any]]:
    g = data.get("grid")
    return list(g) if isinstance(g, list) else []


def add_slot(data: Data, lane: int, segment: int, money: int | None = None) -> Data:
    """Add a grid slot at the back of the grid (no-op when the cell has one or the grid is full)."""
    grid = _grid(data)
    if len(grid) >= MAX_GRID_SLOTS or any(s.get("lane") == lane and s.get("segment") == segment for s in grid):
        return data
    if money is None:
        monies = [int(s["money"]) for s in grid if isinstance(s.get("money"), int)]
        money = max(monies) + 1 if monies else FIRST_MONEY
    grid.append({"lane": lane, "segment": segment, "money": money})
    return _replace(data, grid=grid)


def remove_slot(data: Data, index: int) -> Data:
    grid = _grid(data)
    if not 0 <= index < len(grid):
        return data
    del grid[index]
    return _replace(data, grid=grid)


def move_slot(data: Data, index: int, to: int) -> Data:
    """Reorder the grid: slot `index` moves to position `to` (money stays with the position)."""
    grid = _grid(data)
    if not (0 <= index < len(grid) and 0 <= to < len(grid)) or index == to:
        return data
    monies = [s.get("money") for s in grid]
    slot = grid.pop(index)
    grid.insert(to, slot)
    grid = [{**s, "money": m} if "money" in s and m is not None else s for s, m in zip(grid, monies, strict=True)]
    return _replace(data, grid=grid)


def set_slot(data: Data, index: int, **fields: int) -> Data:
    """Change fields (lane, segment, money) of one grid slot."""
    grid = _grid(data)
    if not 0 <= index < len(grid):
        return data
    slot = {**grid[index], **fields}
    if slot == grid[index]:
        return data
    grid[index] = slot
    return _replace(data, grid=grid)


# --- properties and geometry ---------------------------------------------------------------

def set_value(data: Data, key: str, value: Any) -> Data:
    """Set a top-level value such as `id`, `name` or `laps`."""
    return _replace(data, **{key: value})


def default_centerline(data: Data) -> list[list[float | int]]:
    """The stadium the drawing uses when a track has no geometry, as editable points."""
    n = max(1, segment_count(data))
    lanes = max(1, len(layout(data)))
    return [[_num(x), _num(y)] for x, y in stadium_centerline(n, lanes)]


def _geometry(data: Data) -> dict[str, Any]:
    geo = data.get("geometry")
    if isinstance(geo, dict) and geo.get("centerline"):
        return dict(geo)
    return {"centerline": default_centerline(data), "lane_width": 40}


def set_geometry_value(data: Data, key: str, value: Any) -> Data:
    """Set `lane_width` or `smooth`; a track without geometry gets its stadium as centreline."""
    geo = _geometry(data)
    if geo.get(key) == value and "geometry" in data:
        return data
    geo[key] = value
    return _replace(data, geometry=geo)


def set_centerline(data: Data, points: list[list[float | int]]) -> Data:
    geo = _geometry(data)
    geo["centerline"] = [[_num(float(x)), _num(float(y))] for x, y in points]
    if "geometry" in data and data["geometry"] == geo:
        return data
    return _replace(data, geometry=geo)


def centerline(data: Data) -> list[list[float | int]]:
    return [list(p) for p in _geometry(data)["centerline"]]


def add_point(data: Data, index: int, point: tuple[float, float]) -> Data:
    pts = centerline(data)
    pts.insert(index, [point[0], point[1]])
    return set_centerline(data, pts)


def move_point(data: Data, index: int, point: tuple[float, float]) -> Data:
    pts = centerline(data)
    pts[index] = [point[0], point[1]]
    return set_centerline(data, pts)


def delete_point(data: Data, index: int) -> Data:
    pts = centerline(data)
    if len(pts) <= 3:
        return data
    del pts[index]
    return set_centerline(data, pts)


def smooth_points(data: Data) -> Data:
    """Relax the control points once (each moves halfway to the mean of its neighbours)."""
    pts = centerline(data)
    n = len(pts)
    out = []
    for i in range(n):
        a, b, c = pts[i - 1], pts[i], pts[(i + 1) % n]
        out.append([b[0] * 0.5 + (a[0] + c[0]) * 0.25, b[1] * 0.5 + (a[1] + c[1]) * 0.25])
    return set_centerline(data, out)
