"""BGA Heat custom circuits (the `.json` / `.heat` files of bga-heat's circuit editor).

`cells` maps a cell id to `{lane: 1|2, position, x, y, a}`: two cells per position, and a car
steps from position p to p+1 in either lane (the adjacency is implicit). `corners[]` carry
`position` and `speed` (the corner's limit), optionally `chicane`; `startingCells` is the grid
pole first; `floodedSpaces`, `tunnelsSpaces` and `gravelSpaces` list special cells. Our
reading: position 0 is the first position past the finish line, and a corner covers the
single segment of its position.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from slipstream.engine.tracks.imports.source import (
    MAX_COORDINATE,
    MAX_NODES,
    CornerInfo,
    JsonSource,
    Node,
    Problems,
    SourceGraph,
    coordinate_ok,
)

MAX_LISTED = 8
SPEED_UNIT = 10  # km/h per unit of a Heat corner's speed (a speed-hazard limit moves in tens)
SPECIAL = {"floodedSpaces": "flooded", "tunnelsSpaces": "tunnel", "gravelSpaces": "gravel"}


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def read(text: str, file: str, p: Problems) -> SourceGraph:
    g = SourceGraph(file, "heat", ident=PurePath(file).stem)
    js = JsonSource(text, file, p)
    d = js.data
    if d is None:
        return g
    if not isinstance(d, dict) or not isinstance(d.get("cells"), dict):
        p.add("I004", js.at(), "a Heat circuit is a JSON object with a `cells` object")
        return g
    g.name = str(d.get("name") or "")
    g.ident = str(d.get("id") or g.ident)
    laps = d.get("nbrLaps")
    if isinstance(laps, int) and not isinstance(laps, bool) and laps > 0:
        g.laps = laps
    if isinstance(d.get("jpgUrl"), str) and d["jpgUrl"]:
        g.image = d["jpgUrl"]
    by_pos: dict[int, dict[int, str]] = {}
    for cid, c in d["cells"].items():
        where = js.at("cells", cid)
        if not isinstance(c, dict):
            p.add("I004", where, f"cell {cid} is not an object")
            continue
        lane, pos, x, y = c.get("lane"), c.get("position"), c.get("x"), c.get("y")
        if not isinstance(lane, int) or isinstance(lane, bool) or lane not in (1, 2):
            p.add("I004", js.at("cells", cid, "lane"), f"cell {cid} has lane {lane!r}; a Heat cell is in lane 1 or 2")
            continue
        if not isinstance(pos, int) or isinstance(pos, bool) or pos < 0:
            p.add("I004", js.at("cells", cid, "position"), f"cell {cid} has position {pos!r}; it must be a whole number ≥ 0")
            continue
        if not (isinstance(x, int | float) and isinstance(y, int | float) and coordinate_ok(x) and coordinate_ok(y)):
            p.add("I004", where, f"cell {cid} needs numbers `x` and `y`, finite and within ±{MAX_COORDINATE:,}")
            continue
        if len(g.nodes) >= MAX_NODES:
            p.add("I004", where, f"the circuit has more than {MAX_NODES:,} cells; the import stops here")
            break
        row = by_pos.setdefault(pos, {})
        if lane in row:
            p.add("I004", where, f"cells {row[lane]} and {cid} are both in lane {lane} at position {pos}")
            continue
        row[lane] = cid
        g.nodes[cid] = Node(cid, float(x), float(y), where, lane=lane - 1, segment=pos, finish=pos == 0)
    if p.failed:
        return g
    n = max(by_pos) + 1 if by_pos else 0
    half = [pos for pos, row in sorted(by_pos.items()) if len(row) != 2]
    for pos in half[:MAX_LISTED]:
        p.add("I004", g.nodes[next(iter(by_pos[pos].values()))].where,
              f"position {pos} has 1 cell; a Heat circuit has two at every position")
    if len(by_pos) != n:  # a position with no cell at all: list the first few
        missing = [pos for pos in range(min(n, len(by_pos) + MAX_LISTED + 1)) if pos not in by_pos][:MAX_LISTED]
        p.add("I004", js.at("cells"), f"{n - len(by_pos):,} position(s) between 0 and {n - 1} have no cells "
              f"(first: {', '.join(map(str, missing))}); a Heat circuit has two cells at every position")
    if p.failed or n < 2:
        if n < 2 and not p.failed:
            p.add("I004", js.at("cells"), "the circuit has fewer than 2 positions")
        return g
    for pos in range(n):
        for cid in by_pos[pos].values():
            for t in by_pos[(pos + 1) % n].values():
                g.edges.append((cid, t, g.nodes[cid].where))
    g.notes.append(f"steps: implicit, from each position to the next in either lane ({len(g.edges)})")
    for j, c in enumerate(js.items(d, "corners", p)):
        where = js.at("corners", j)
        cpos = c.get("position") if isinstance(c, dict) else None
        if not isinstance(c, dict) or not isinstance(cpos, int) or cpos not in by_pos:
            p.add("I004", where, f"corner {j} needs a `position` of the circuit (0-{n - 1})")
            continue
        speed = c.get("speed")
        if not isinstance(speed, int) or isinstance(speed, bool) or speed <= 0:
            p.add("I004", js.at("corners", j, "speed"), f"corner {j}: `speed` must be a whole number > 0, not {speed!r}")
            continue
        key = str(j)
        legend = c.get("legend")
        g.corners[key] = CornerInfo(key, where, speed=speed * SPEED_UNIT, chicane=bool(c.get("chicane")),
                                    name=f"Corner {legend}" if isinstance(legend, str | int) and legend != "" else None)
        for cid in by_pos[cpos].values():
            if g.nodes[cid].corner is not None:
                p.add("I009", where, f"two corners at position {cpos}; the later one is kept")
            g.nodes[cid].corner = key
    for j, cid in enumerate(js.items(d, "startingCells", p)):
        if str(cid) not in g.nodes:
            p.add("I003", js.at("startingCells", j), f"starting cell {cid!r} is no cell of the circuit")
            continue
        g.grid.append((str(cid), js.at("startingCells", j)))
    for key, kind in SPECIAL.items():
        for j, cid in enumerate(js.items(d, key, p)):
            if str(cid) not in g.nodes:
                p.add("I003", js.at(key, j), f"{key} names {cid!r}, which is no cell of the circuit")
                continue
            g.nodes[str(cid)].features.append(kind)
    kept_out = [f"{k} {d[k]}" for k in ("stressCards", "heatCards") if k in d]
    if kept_out:
        g.notes.append(f"not carried over: {', '.join(kept_out)} (the speed-hazard pack has its own decks)")
    return g
