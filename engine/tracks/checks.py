"""Track checks (DESIGN §5): grid, reachability, dead ends, lap cycle and colour warnings.

The checks of the track/2 parts (corners, links, pit lane, features) are in v2checks.py, the
ruleset-specific ones in needs.py.

Each check returns diagnostics that name the spaces (`lane:first_segment`) and point at the
token of the lane string in the YAML file (or the grid entry). All checks are linear in the
size of the move graph.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic, make
from slipstream.engine.core.yamlsource import SourceMap, json_path
from slipstream.engine.tracks.movegraph import crosses_finish, geometry_successors, successors
from slipstream.engine.tracks.track import (
    COLOUR_NAMES,
    GEAR_COLOURS,
    NO_SPACE,
    Track,
    layout_tokens,
)

# A gear colour counts as "in reach" of a space when a space of that colour lies at most this
# many steps ahead in the move graph (T115).
COLOUR_REACH_STEPS = 3
# At most this many runs are listed per code; the rest are summed up in one more diagnostic.
MAX_RUNS_PER_CODE = 25


@dataclass
class TrackAnalysis:
    """Derived facts about a track's move graph, computed once and shared by the checks."""

    track: Track

    @cached_property
    def succ(self) -> list[list[int]]:
        return successors(self.track)

    @cached_property
    def pred(self) -> list[list[int]]:
        pred: list[list[int]] = [[] for _ in self.track.spaces]
        for i, out in enumerate(self.succ):
            for j in out:
                pred[j].append(i)
        return pred

    @cached_property
    def grid_spaces(self) -> list[int]:
        out = []
        for slot in self.track.grid:
            if 0 <= slot.lane < self.track.lanes and 0 <= slot.segment < self.track.segments:
                idx = self.track.cells[slot.lane][slot.segment]
                if idx != NO_SPACE:
                    out.append(idx)
        return out

    @cached_property
    def reachable(self) -> bytearray:
        """1 for every space a car starting on the grid can reach (grid spaces included)."""
        return _bfs(self.succ, self.grid_spaces, len(self.track.spaces))

    @cached_property
    def crossing_sources(self) -> list[int]:
        """Spaces with a step across the finish line (only spaces ending at segment N-1)."""
        t = self.track
        last = t.segments - 1
        return [
            sp.index for sp in t.spaces
            if sp.last == last and any(crosses_finish(t, sp.index, j) for j in self.succ[sp.index])
        ]

    @cached_property
    def reaches_finish(self) -> bytearray:
        """1 for every space from which the finish line can still be crossed."""
        return _bfs(self.pred, self.crossing_sources, len(self.track.spaces))

    def colours_in_reach(self, steps: int) -> list[int]:
        """Per space, a bitmask of gear colours (bit c) found within `steps` steps ahead."""
        spaces = self.track.spaces
        bit = [1 << sp.colour for sp in spaces]
        succ = self.succ
        mask = [0] * len(spaces)
        for _ in range(steps):
            mask = [_or_all(bit, mask, out) for out in succ]
        return mask

    def has_lap_cycle(self) -> bool:
        """True when some finish-crossing step lies on a cycle of grid-reachable spaces.

        The spaces just past the finish line are at most one per lane. A forward pass labels every
        space with the set of those it can be reached from without crossing the line; crossing
        steps then give a small graph between them, and a lap cycle is a cycle in that graph.
        """
        t = self.track
        reach = self.reachable
        starts = [sp.index for sp in t.spaces if sp.first == 0 and reach[sp.index]]
        if not starts:
            return False
        bit_of = {idx: 1 << k for k, idx in enumerate(starts)}
        label = [0] * len(t.spaces)
        work = []
        for idx, b in bit_of.items():
            label[idx] = b
            work.append(idx)
        crossing = {i: [j for j in self.succ[i] if crosses_finish(t, i, j)] for i in self.crossing_sources}
        succ = self.succ
        while work:
            u = work.pop()
            lu = label[u]
            cross = crossing.get(u, ())
            for v in succ[u]:
                if v in cross:
                    continue
                if lu & ~label[v]:
                    label[v] |= lu
                    work.append(v)
        # lap graph between start spaces: f -> g when a lap from f ends by crossing into g
        lap: dict[int, set[int]] = {b: set() for b in bit_of.values()}
        for a, targets in crossing.items():
            for g in targets:
                if g in bit_of:
                    for f in bit_of.values():
                        if label[a] & f:
                            lap[f].add(bit_of[g])
        # Kahn-style pruning: drop nodes without successors until stable; a cycle remains
        alive = set(lap)
        changed = True
        while changed:
            changed = False
            for f in list(alive):
                if not (lap[f] & alive):
                    alive.discard(f)
                    changed = True
        return bool(alive)


class GeometryAnalysis(TrackAnalysis):
    """The same facts for the move graph of the geometry alone, before track/2 `links`."""

    @cached_property
    def succ(self) -> list[list[int]]:
        return geometry_successors(self.track)


def _or_all(bit: list[int], mask: list[int], out: list[int]) -> int:
    m = 0
    for w in out:
        m |= bit[w] | mask[w]
    return m


def _bfs(adj: Sequence[Sequence[int]], starts: Iterable[int], n: int) -> bytearray:
    seen = bytearray(n)
    stack = []
    for s in starts:
        if not seen[s]:
            seen[s] = 1
            stack.append(s)
    while stack:
        u = stack.pop()
        for v in adj[u]:
            if not seen[v]:
                seen[v] = 1
                stack.append(v)
    return seen


class _Locator:
    """Finds the YAML position of a space's token inside its lane string."""

    def __init__(self, data: Any, src: SourceMap) -> None:
        self.data = data
        self.src = src
        self._lanes: dict[int, tuple[list[int], list[int]]] = {}

    def _lane(self, lane: int) -> tuple[list[int], list[int]]:
        if lane not in self._lanes:
            firsts: list[int] = []
            offsets: list[int] = []
            seg = 0
            text = self.data["layout"][lane]
            for offset, tok in layout_tokens(text):
                firsts.append(seg)
                offsets.append(offset)
                _, _, k = tok.partition("x")
                seg += int(k) if k else 1
            self._lanes[lane] = (firsts, offsets)
        return self._lanes[lane]

    def space(self, lane: int, first: int) -> tuple[int, int, str]:
        firsts, offsets = self._lane(lane)
        i = max(0, bisect.bisect_right(firsts, first) - 1)
        pos = self.src.in_scalar(("layout", lane), offsets[i] if offsets else 0)
        return pos.line, pos.column, json_path(("layout", lane))


def _runs(track: Track, flagged: Iterable[int]) -> list[list[int]]:
    """Group flagged spaces into runs of neighbours within one lane."""
    by_lane: dict[int, list[int]] = {}
    for i in flagged:
        by_lane.setdefault(track.spaces[i].lane, []).append(i)
    runs: list[list[int]] = []
    for lane in sorted(by_lane):
        order = {idx: k for k, idx in enumerate(track.lane_spaces[lane])}
        items = sorted(by_lane[lane], key=order.__getitem__)
        run = [items[0]]
        for idx in items[1:]:
            prev = run[-1]
            if order[idx] == order[prev] + 1 and track.spaces[idx].first == track.spaces[prev].last + 1:
                run.append(idx)
            else:
                runs.append(run)
                run = [idx]
        runs.append(run)
    return runs


def _run_diags(
    code: str, runs: list[list[int]], track: Track, loc: _Locator, what: str, file: str
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for run in runs[:MAX_RUNS_PER_CODE]:
        first, last = track.spaces[run[0]], track.spaces[run[-1]]
        line, col, path = loc.space(first.lane, first.first)
        names = [track.spaces[i].name for i in run]
        label = f"space {first.name}" if len(run) == 1 else f"spaces {first.name} to {last.name} ({len(run)} spaces)"
        out.append(make(code, file, line, col, path, f"{label} {what}", spaces=names))
    if len(runs) > MAX_RUNS_PER_CODE:
        rest = runs[MAX_RUNS_PER_CODE:]
        names = [track.spaces[i].name for run in rest for i in run]
        first = track.spaces[rest[0][0]]
        line, col, path = loc.space(first.lane, first.first)
        out.append(make(code, file, line, col, path, f"{len(names)} more spaces {what}", spaces=names))
    return out


def check_grid(track: Track, src: SourceMap) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    file = src.file
    seen: dict[tuple[int, int], int] = {}
    prev = None
    for i, slot in enumerate(track.grid):
        pos = src.value(("grid", i))
        path = json_path(("grid", i))
        cell_ok = (
            0 <= slot.lane < track.lanes
            and 0 <= slot.segment < track.segments
            and track.cells[slot.lane][slot.segment] != NO_SPACE
        )
        if not cell_ok:
            why = (
                f"lane {slot.lane} does not exist" if not 0 <= slot.lane < track.lanes
                else f"segment {slot.segment} is outside 0..{track.segments - 1}"
                if not 0 <= slot.segment < track.segments
                else f"lane {slot.lane} has no space at segment {slot.segment}"
            )
            diags.append(make("T105", file, pos.line, pos.column, path, f"grid slot P{i + 1}: {why}"))
            continue
        cell = (slot.lane, slot.segment)
        if cell in seen:
            diags.append(make("T106", file, pos.line, pos.column, path,
                              f"grid slot P{i + 1} stands on cell {slot.lane}:{slot.segment}, like P{seen[cell] + 1}"))
            continue
        seen[cell] = i
        key = (track.grid_progress(slot), -slot.lane)
        if prev is not None and key > prev[0]:
            diags.append(make("T107", file, pos.line, pos.column, path,
                              f"grid slot P{i + 1} ({slot.lane}:{slot.segment}) stands ahead of P{prev[1] + 1}",
                              hint="list slots pole first; on the same segment the inner lane comes first"))
        elif prev is not None and slot.money < track.grid[prev[1]].money:
            diags.append(make("T109", file, pos.line, pos.column, path,
                              f"grid slot P{i + 1} offers ${slot.money}, less than P{prev[1] + 1} (${track.grid[prev[1]].money})"))
        if -track.grid_progress(slot) > track.segments // 2:
            diags.append(make("T116", file, pos.line, pos.column, path,
                              f"grid slot P{i + 1} is {-track.grid_progress(slot)} segments behind the finish line"))
        prev = (key, i)
    if not track.grid:  # no ruleset can start a race without a slot
        pos = src.value(("grid",))
        diags.append(make("T118", file, pos.line, pos.column, "$.grid", "the grid has no slots: no car can start",
                          hint="add a slot for each car, pole first, just behind the finish line"))
    elif len(track.grid) < 5:
        pos = src.value(("grid",))
        diags.append(make("T108", file, pos.line, pos.column, "$.grid",
                          f"the grid has {len(track.grid)} slots; 5 players need 5"))
    return diags


def check_track(track: Track, data: Any, src: SourceMap) -> list[Diagnostic]:
    """Run every geometry check on a parsed track."""
    file = src.file
    loc = _Locator(data, src)
    diags = check_grid(track, src)
    an = TrackAnalysis(track)
    if not an.grid_spaces:
        return diags

    reach = an.reachable
    unreachable = [i for i in range(len(track.spaces)) if not reach[i]]
    geo = GeometryAnalysis(track) if track.links else None
    if geo is not None:
        # spaces the geometry reaches but the links cut off: the links strand them (T134)
        geo_reach = geo.reachable
        stranded = [i for i in unreachable if geo_reach[i]]
        unreachable = [i for i in unreachable if not geo_reach[i]]
        diags += _run_diags("T134", _runs(track, stranded), track, loc,
                            "cannot be reached from the grid once the links are applied", file)
    diags += _run_diags("T110", _runs(track, unreachable), track, loc,
                        "cannot be reached from the grid", file)

    dead = [i for i in range(len(track.spaces)) if reach[i] and not an.succ[i]]
    diags += _run_diags("T112", [[i] for i in dead], track, loc, "has no space ahead (dead end)", file)
    dead_set = set(dead)
    fin = an.reaches_finish
    stuck = [i for i in range(len(track.spaces)) if reach[i] and not fin[i] and i not in dead_set]
    diags += _run_diags("T111", _runs(track, stuck), track, loc,
                        "can never reach the finish line again", file)

    if not an.has_lap_cycle():
        if geo is not None and geo.has_lap_cycle():
            pos = src.value(("links",))
            diags.append(make("T133", file, pos.line, pos.column, "$.links",
                              "the links break every route from the grid across the finish line and round again"))
        else:
            pos = src.value(("layout",))
            diags.append(make("T113", file, pos.line, pos.column, "$.layout",
                              "no route leads from the grid across the finish line and round again"))

    if track.version < 2:
        # track/2: colours are a ruleset's concern (Automobiles' track checks)
        diags += check_colours(track, an, loc, file)
    return diags


def colour_warnings(track: Track, data: Any, src: SourceMap) -> list[Diagnostic]:
    """The colour warnings (T114, T115) on their own, for rulesets that run them on track/2."""
    an = TrackAnalysis(track)
    return check_colours(track, an, _Locator(data, src), src.file) if an.grid_spaces else []


def check_colours(track: Track, an: TrackAnalysis, loc: _Locator, file: str) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    present = {sp.colour for sp in track.spaces}
    n = track.segments
    masks = an.colours_in_reach(COLOUR_REACH_STEPS)
    reach = an.reachable
    # per segment: colours in reach from some grid-reachable space covering it; -1 = no such space
    seg_mask = [-1] * n
    for row in track.cells:
        for s, idx in enumerate(row):
            if idx != NO_SPACE and reach[idx]:
                seg_mask[s] = masks[idx] if seg_mask[s] < 0 else seg_mask[s] | masks[idx]
    for colour in GEAR_COLOURS:
        name = COLOUR_NAMES[colour]
        if colour not in present:
            pos = loc.src.value(("layout",))
            diags.append(make("T114", file, pos.line, pos.column, "$.layout",
                              f"no space is {name} ({colour}): {name} gear cubes can never move a car"))
            continue
        bit = 1 << colour
        s = 0
        while s < n:
            if seg_mask[s] < 0 or seg_mask[s] & bit:
                s += 1
                continue
            e = s
            while e + 1 < n and seg_mask[e + 1] >= 0 and not seg_mask[e + 1] & bit:
                e += 1
            lane = next(ln for ln in range(track.lanes) if track.cells[ln][s] != NO_SPACE)
            sp = track.spaces[track.cells[lane][s]]
            line, col, path = loc.space(sp.lane, sp.first)
            names = sorted({track.spaces[track.cells[ln][x]].name for x in range(s, e + 1)
                            for ln in range(track.lanes) if track.cells[ln][x] != NO_SPACE})
            diags.append(make(
                "T115", file, line, col, path,
                f"from segments {s} to {e} no {name} space lies within {COLOUR_REACH_STEPS} steps",
                spaces=names,
            ))
            s = e + 1
    return diags
