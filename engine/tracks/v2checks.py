"""Checks of the parts track/2 adds (DESIGN §4.1): corners, links, the pit lane, board features.

The move-graph checks (reachability, lap cycle; T134 and T133 when the links cause them) run in
checks.py; the checks that belong to a ruleset run through needs.py. Every check here is linear
in the number of corners, links, pit spaces and feature spaces.
"""

from __future__ import annotations

from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic, make
from slipstream.engine.core.yamlsource import PathKey, SourceMap, json_path
from slipstream.engine.tracks.movegraph import geometry_successors
from slipstream.engine.tracks.track import Corner, Space, Track

MAX_STOPS = 3


def check_v2_parts(track: Track, data: Any, src: SourceMap) -> list[Diagnostic]:
    """Corners, links, pit lane and feature checks of a parsed track/2 track."""
    return (
        check_corners(track, src)
        + check_links(track, src)
        + check_pit(track, src)
        + check_features(track, src)
    )


def _at(code: str, src: SourceMap, path: PathKey, message: str, **kw: Any) -> Diagnostic:
    pos = src.value(path)
    return make(code, src.file, pos.line, pos.column, json_path(path), message, **kw)


def _main_space(track: Track, name: str) -> Space | None:
    sp = track.space_named(name)
    return sp if sp is not None and sp.lane >= 0 else None


def forward_distance(track: Track, a: int, b: int) -> int:
    """Segments from segment a forward to segment b on the loop (0 when equal)."""
    return (b - a) % track.segments


def leads_forward(track: Track, src: Space, dst: Space) -> bool:
    """A step from `src` to `dst` leads forward: dst ends ahead of src, within half a lap."""
    d = forward_distance(track, src.last, dst.last)
    return 1 <= d <= track.segments // 2


def check_corners(track: Track, src: SourceMap) -> list[Diagnostic]:
    n = track.segments
    diags: list[Diagnostic] = []
    valid: list[Corner] = []
    for c in track.corners:
        base = ("corners", c.index)
        bad = False
        for key, seg in (("from", c.first), ("to", c.last)):
            if not 0 <= seg < n:
                diags.append(_at("T120", src, (*base, key),
                                 f"corner {c.name!r}: segment {seg} is outside 0..{n - 1}"))
                bad = True
        if c.stops is not None and not 1 <= c.stops <= MAX_STOPS:
            diags.append(_at("T123", src, (*base, "stops"),
                             f"corner {c.name!r} asks for {c.stops} stops; stops are 1, 2 or 3"))
        elif c.stops is not None and not bad and c.stops > c.length(n):
            diags.append(_at("T124", src, (*base, "stops"),
                             f"corner {c.name!r} asks for {c.stops} stops but covers {c.length(n)} segments"))
        diags += _speed_values(track, c, src, unit=1)
        if not bad:
            diags += _speed_places(track, c, src)
            valid.append(c)
    # overlap: sort by entry; each corner must end before the next one starts (on the loop)
    order = sorted(valid, key=lambda c: c.first)
    pairs: set[tuple[int, int]] = set()
    for k, c in enumerate(order):
        nxt = order[(k + 1) % len(order)]
        if nxt is c:
            continue
        if c.contains(nxt.first, n) or nxt.contains(c.first, n):
            pair = (min(c.index, nxt.index), max(c.index, nxt.index))
            if pair in pairs:
                continue
            pairs.add(pair)
            later = max(c, nxt, key=lambda x: x.index)
            other = nxt if later is c else c
            diags.append(_at("T121", src, ("corners", later.index),
                             f"corner {later.name!r} overlaps corner {other.name!r}"))
    # running order: the entries rise round the loop, with at most one step back (the finish)
    firsts = [c.first for c in valid]
    descents = sum(1 for i in range(len(firsts)) if firsts[i] > firsts[(i + 1) % len(firsts)])
    if len(firsts) > 2 and descents > 1:
        bad_i = next(i for i in range(1, len(valid)) if firsts[i] < firsts[i - 1])
        diags.append(_at("T122", src, ("corners", valid[bad_i].index),
                         f"corner {valid[bad_i].name!r} comes before corner {valid[bad_i - 1].name!r} on the lap"))
    return diags


def speed_values(corner: Corner) -> list[tuple[PathKey, int]]:
    """Every speed limit of a corner with its path below the corner."""
    out: list[tuple[PathKey, int]] = []
    if corner.speed is not None:
        out.append((("speed",), corner.speed))
    out += [(("lane_speeds", i), v) for i, v in enumerate(corner.lane_speeds) if v is not None]
    out += [(("space_speeds", name), v) for name, v in corner.space_speeds]
    return out


def _speed_values(track: Track, c: Corner, src: SourceMap, unit: int) -> list[Diagnostic]:
    out = []
    for sub, v in speed_values(c):
        if v <= 0 or v % unit:
            what = "a positive number" if unit == 1 else f"a positive multiple of {unit}"
            out.append(_at("T125", src, ("corners", c.index, *sub),
                           f"corner {c.name!r}: speed limit {v} is not {what}"))
    return out


def _speed_places(track: Track, c: Corner, src: SourceMap) -> list[Diagnostic]:
    out = []
    if len(c.lane_speeds) > track.lanes:
        out.append(_at("T126", src, ("corners", c.index, "lane_speeds", track.lanes),
                       f"corner {c.name!r} lists {len(c.lane_speeds)} lane limits; the track has {track.lanes} lanes"))
    for name, _ in c.space_speeds:
        sp = _main_space(track, name)
        if sp is None or not any(c.contains(s, track.segments) for s in sp.segments()):
            why = "no such space" if sp is None else "the space lies outside the corner"
            out.append(_at("T126", src, ("corners", c.index, "space_speeds", name),
                           f"corner {c.name!r}: speed limit for {name}: {why}"))
    return out


def check_links(track: Track, src: SourceMap) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    if not track.links:
        return diags
    geo = geometry_successors(track)
    added: set[tuple[int, int]] = set()
    for link in track.links:
        key = "add" if link.add else "remove"
        base = ("links", link.index, key)
        a, b = _main_space(track, link.src), _main_space(track, link.dst)
        missing = False
        for k, (name, sp) in enumerate(((link.src, a), (link.dst, b))):
            if sp is None:
                diags.append(_at("T130", src, (*base, k), f"link {key} names {name}: no such space"))
                missing = True
        if missing or a is None or b is None:
            continue
        if link.add and not leads_forward(track, a, b):
            d = forward_distance(track, a.last, b.last)
            way = "sideways" if d == 0 else "backwards"
            diags.append(_at("T131", src, (*base, 1), f"link add {a.name} -> {b.name} points {way}",
                             spaces=[a.name, b.name]))
            continue
        has = b.index in geo[a.index] or (a.index, b.index) in added
        if link.add == has:
            what = "adds a step the move graph already has" if link.add else "removes a step the move graph does not have"
            diags.append(_at("T132", src, ("links", link.index),
                             f"link {key} {a.name} -> {b.name} {what}", spaces=[a.name, b.name]))
        if link.add:
            added.add((a.index, b.index))
    return diags


def check_pit(track: Track, src: SourceMap) -> list[Diagnostic]:
    pit = track.pit
    if pit is None:
        return []
    diags: list[Diagnostic] = []
    n_pit = pit.segments
    # pit segment -> how far along the pit lane a car can get from it (walking its spaces)
    reach_end = [-1] * n_pit
    for s in range(n_pit - 1, -1, -1):
        if pit.cells[s] == -1:
            continue
        sp = pit.spaces[pit.cells[s]]
        nxt = sp.last + 1
        reach_end[s] = reach_end[nxt] if nxt < n_pit and pit.cells[nxt] != -1 else sp.last
    entries: list[tuple[int, Space, int]] = []
    for i, e in enumerate(pit.entries):
        base = ("pit", "entries", i)
        cell = _main_space(track, e.cell)
        if cell is None:
            diags.append(_at("T140", src, (*base, "from"), f"pit entry {i + 1}: no main-track space {e.cell}"))
        if pit.space_at(e.to) is None:
            diags.append(_at("T140", src, (*base, "to"),
                             f"pit entry {i + 1}: segment {e.to} is not a space of the pit lane"))
        elif cell is not None:
            entries.append((i, cell, e.to))
        if e.speed is not None and e.speed <= 0:
            diags.append(_at("T125", src, (*base, "speed"),
                             f"pit entry {i + 1}: speed limit {e.speed} is not a positive number"))
    exits: list[tuple[int, int, Space]] = []
    for i, x in enumerate(pit.exits):
        base = ("pit", "exits", i)
        cell = _main_space(track, x.cell)
        if cell is None:
            diags.append(_at("T140", src, (*base, "to"), f"pit exit {i + 1}: no main-track space {x.cell}"))
        if pit.space_at(x.source) is None:
            diags.append(_at("T140", src, (*base, "from"),
                             f"pit exit {i + 1}: segment {x.source} is not a space of the pit lane"))
        elif cell is not None:
            exits.append((i, x.source, cell))
    for i, cell, to in entries:
        if not any(to <= s <= reach_end[to] for _, s, _ in exits):
            diags.append(_at("T141", src, ("pit", "entries", i),
                             f"pit entry {i + 1} ({cell.name}) reaches no exit of the pit lane",
                             spaces=[cell.name]))
    for i, s, cell in exits:
        feeding = [(ei, ec) for ei, ec, to in entries if to <= s <= reach_end[to]]
        behind = [ec for _, ec in feeding if not leads_forward(track, ec, cell)]
        if feeding and len(behind) == len(feeding):
            diags.append(_at("T142", src, ("pit", "exits", i, "to"),
                             f"pit exit {i + 1} rejoins at {cell.name}, not ahead of entry {behind[0].name}",
                             spaces=[cell.name, behind[0].name]))
    for i, box in enumerate(pit.boxes):
        if pit.space_at(box) is None:
            diags.append(_at("T143", src, ("pit", "boxes", i),
                             f"pit box {i + 1} at segment {box} is not a space of the pit lane"
                             + (f" (0..{n_pit - 1})" if n_pit else " (it has no segments)")))
    return diags


def check_features(track: Track, src: SourceMap) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for f in track.features:
        for k, name in enumerate(f.spaces):
            if track.space_named(name) is None:
                diags.append(_at("T156", src, ("features", f.index, "spaces", k),
                                 f"feature {f.kind!r} names {name}: no such space"))
    return diags
