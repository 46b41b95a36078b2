"""Edits of the track/2 parts of track data, as pure functions (like engine/tracks/edits.py).

Corners, their stops and speed limits, links, the pit lane and its boxes, plain squares.
The first v2 feature an edit adds turns a track/1 file into track/2; a file without one keeps
its tag. Lists are kept in canonical order: corners by their first segment, links by the cell
they start from, boxes ascending. An edit that changes nothing returns the input itself.
"""

from __future__ import annotations

from typing import Any

from slipstream.engine.tracks import edits as te
from slipstream.engine.tracks.movegraph import geometry_successors
from slipstream.engine.tracks.track import PLAIN

Data = dict[str, Any]
V2_TAG = "track/2"
CORNER_KEYS = ("name", "from", "to", "stops", "speed", "chicane")
PIT_VALUES = ("lap_counts", "can_win", "side")


def _v2(data: Data) -> Data:
    """Data tagged track/2 (a copy when it was track/1)."""
    return data if data.get("slipstream") == V2_TAG else {**data, "slipstream": V2_TAG}


def _corners(data: Data) -> list[dict[str, Any]]:
    c = data.get("corners")
    return [dict(x) for x in c] if isinstance(c, list) else []


def _with(data: Data, key: str, value: Any) -> Data:
    """`data` with a v2 key set (removed when the value is empty); `data` itself if unchanged."""
    if value in (None, [], {}):
        if key not in data:
            return data
        return {k: v for k, v in data.items() if k != key}
    if data.get(key) == value:
        return data
    return {**_v2(data), key: value}


# --- plain squares -----------------------------------------------------------------------

def paint_plain(data: Data, lane: int, segment: int) -> Data:
    """Make the space at (lane, segment) a plain square (rulesets without gear colours)."""
    out = te.paint(data, lane, segment, PLAIN)
    return out if out is data else _v2(out)


# --- corners -----------------------------------------------------------------------------

def _corner_order(corners: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(corners, key=lambda c: (c.get("from", 0), c.get("to", 0)))


def mark_corner(data: Data, first: int, last: int, name: str | None = None) -> Data:
    """Add a corner from segment `first` to `last` (it may wrap the finish line).

    Marking exactly an existing corner's range again changes nothing.
    """
    corners = _corners(data)
    if any(c.get("from") == first and c.get("to") == last for c in corners):
        return data
    names = {c.get("name") for c in corners}
    if name is None:
        k = len(corners) + 1
        while f"Corner {k}" in names:
            k += 1
        name = f"Corner {k}"
    corners.append({"name": name, "from": first, "to": last})
    return _with(data, "corners", _corner_order(corners))


def remove_corner(data: Data, index: int) -> Data:
    corners = _corners(data)
    if not 0 <= index < len(corners):
        return data
    del corners[index]
    return _with(data, "corners", corners)


def set_corner(data: Data, index: int, key: str, value: Any) -> Data:
    """Set one field of a corner (name, from, to, stops, speed, chicane); None removes it."""
    if key not in CORNER_KEYS:
        raise ValueError(f"not a corner field: {key}")
    corners = _corners(data)
    if not 0 <= index < len(corners):
        return data
    c = corners[index]
    if key in ("name", "from", "to") and value is None:
        return data
    if value is None or (key == "chicane" and value is False):
        if key not in c:
            return data
        del c[key]
    elif c.get(key) == value:
        return data
    else:
        c[key] = value
    return _with(data, "corners", _corner_order(corners) if key in ("from", "to") else corners)


def set_lane_speed(data: Data, index: int, lane: int, value: int | None) -> Data:
    """Set (or clear with None) the speed limit of one lane through a corner."""
    corners = _corners(data)
    lanes = len(te.layout(data))
    if not 0 <= index < len(corners) or not 0 <= lane < lanes:
        return data
    c = corners[index]
    speeds = list(c.get("lane_speeds") or [])
    speeds += [None] * (lanes - len(speeds))
    if speeds[lane] == value:
        return data
    speeds[lane] = value
    if all(v is None for v in speeds):
        c.pop("lane_speeds", None)
    else:
        c["lane_speeds"] = speeds
    return _with(data, "corners", corners)


def set_space_speed(data: Data, index: int, space: str, value: int | None) -> Data:
    """Set (or clear with None) the speed limit of one space of a corner, e.g. `0:78`."""
    corners = _corners(data)
    if not 0 <= index < len(corners):
        return data
    c = corners[index]
    speeds = dict(c.get("space_speeds") or {})
    if speeds.get(space) == value:
        return data
    if value is None:
        del speeds[space]
    else:
        speeds[space] = value
    if speeds:
        c["space_speeds"] = {k: speeds[k] for k in sorted(speeds, key=_cell_key)}
    else:
        c.pop("space_speeds", None)
    return _with(data, "corners", corners)


def corner_at(data: Data, segment: int) -> int | None:
    """The index of the first corner that covers `segment`, or None."""
    n = te.segment_count(data)
    for i, c in enumerate(_corners(data)):
        a, b = c.get("from"), c.get("to")
        if isinstance(a, int) and isinstance(b, int) and n and (segment - a) % n <= (b - a) % n:
            return i
    return None


# --- links -------------------------------------------------------------------------------

def _cell_key(name: str) -> tuple[int, int]:
    lane, _, seg = name.partition(":")
    try:
        return (int(seg), -1 if lane == "pit" else int(lane))
    except ValueError:
        return (1 << 30, 0)


def _link_cells(link: Any) -> tuple[str, str] | None:
    if isinstance(link, dict):
        pair = link.get("add", link.get("remove"))
        if isinstance(pair, list) and len(pair) == 2:
            return str(pair[0]), str(pair[1])
    return None


def toggle_link(data: Data, src: str, dst: str) -> Data:
    """Add or remove a link from space `src` to space `dst`.

    When a link between the two already exists it is taken away; otherwise the link is an
    `add` where the geometry has no such step and a `remove` where it has one.
    """
    links = [dict(x) for x in data.get("links") or []]
    for i, link in enumerate(links):
        if _link_cells(link) == (src, dst):
            del links[i]
            return _with(data, "links", links)
    track = te.to_track(data)
    if track is None:
        return data
    a, b = track.space_named(src), track.space_named(dst)
    if a is None or b is None or a.lane < 0 or b.lane < 0 or a.index == b.index:
        return data
    kind = "remove" if b.index in geometry_successors(track)[a.index] else "add"
    links.append({kind: [src, dst]})
    links.sort(key=lambda x: tuple(_cell_key(c) for c in (_link_cells(x) or ("", ""))))
    return _with(data, "links", links)


# --- the pit lane ------------------------------------------------------------------------

def _pit(data: Data) -> dict[str, Any] | None:
    p = data.get("pit")
    return dict(p) if isinstance(p, dict) else None


def draw_pit(data: Data, entry: str, length: int, exit_: str) -> Data:
    """Draw the pit lane: `length` plain squares from main-track space `entry` to `exit_`.

    A pit lane already there is redrawn: its main entry and exit move, keeping their other
    fields (an entry speed limit, say); further entries and exits, boxes and options stay,
    those that would lie beyond the new last square are dropped.
    """
    if length < 1:
        raise ValueError("a pit lane has at least one square")
    old = _pit(data) or {}
    entries = [dict(e) for e in old.get("entries") or [] if isinstance(e, dict)]
    exits = [dict(x) for x in old.get("exits") or [] if isinstance(x, dict)]
    first_entry = {**(entries[0] if entries else {}), "from": entry}
    if not 0 <= first_entry.get("to", 0) < length:
        first_entry.pop("to")
    first_exit = {**(exits[0] if exits else {}), "from": length - 1, "to": exit_}
    inside = lambda v: isinstance(v, int) and 0 <= v < length  # noqa: E731
    pit: dict[str, Any] = {
        "layout": " ".join(["o"] * length),
        "entries": [first_entry] + [e for e in entries[1:] if inside(e.get("to", 0))],
        "exits": [first_exit] + [x for x in exits[1:] if inside(x.get("from", length - 1))],
    }
    boxes = [b for b in old.get("boxes") or [] if inside(b)]
    if boxes:
        pit["boxes"] = boxes
    for key in PIT_VALUES:
        pit[key] = old.get(key, {"lap_counts": True, "can_win": True, "side": "outside"}[key])
    for key, value in old.items():  # anything else a file had (kept as it was)
        pit.setdefault(key, value)
    return _with(data, "pit", pit)


def remove_pit(data: Data) -> Data:
    return _with(data, "pit", None)


def pit_length(data: Data) -> int:
    pit = _pit(data)
    if pit is None or not isinstance(pit.get("layout"), str):
        return 0
    return sum(k for _, k in te.lane_runs(pit["layout"]))


def toggle_box(data: Data, segment: int) -> Data:
    """Place a box on pit square `segment`, or take it away when there is one."""
    pit = _pit(data)
    if pit is None or not 0 <= segment < pit_length(data):
        return data
    boxes = [b for b in pit.get("boxes") or [] if b != segment]
    if len(boxes) == len(pit.get("boxes") or []):
        boxes = sorted([*boxes, segment])
    if boxes:
        pit["boxes"] = boxes
    else:
        pit.pop("boxes", None)
    return _with(data, "pit", pit)


def set_entry_speed(data: Data, index: int, value: int | None) -> Data:
    """Set (or clear with None) the speed limit of pit entry `index`."""
    pit = _pit(data)
    entries = [dict(e) for e in (pit or {}).get("entries") or [] if isinstance(e, dict)]
    if pit is None or not 0 <= index < len(entries) or entries[index].get("speed") == value:
        return data
    if value is None:
        del entries[index]["speed"]
    else:
        # keep the canonical field order: from, to, speed, main
        e = entries[index]
        entries[index] = {k: e[k] for k in ("from", "to") if k in e} | {"speed": value} | {
            k: e[k] for k in e if k not in ("from", "to", "speed")}
    pit["entries"] = entries
    return _with(data, "pit", pit)


def set_pit_value(data: Data, key: str, value: Any) -> Data:
    """Set `lap_counts`, `can_win` or `side` of the pit lane."""
    if key not in PIT_VALUES:
        raise ValueError(f"not a pit lane option: {key}")
    pit = _pit(data)
    if pit is None or pit.get(key) == value:
        return data
    pit[key] = value
    return _with(data, "pit", pit)
