"""GP Online / formulad `.dat` circuits (the text format read by formulad's map editor).

Blank-line-separated sections after a header line `IMAGE INFOBOX_CORNER [RAIN SHORTEST]`:
nodes `ID X Y TYPE [F]`, directed edges `FROM TO`, attributes `ID VALUE`, and optionally the
grid `ID ANGLE` (pole first). TYPE indexes UNKNOWN, STRAIGHT, CURVE_2, CURVE_1, BLOCKED,
FINISH, CURVE_3, PIT. Our reading: the finish-line nodes are the first spaces of the lap;
curve nodes joined by edges and of one stop count are one corner; an attribute of 1.0 on a PIT
node marks a box; BLOCKED nodes and their edges are left out.
"""

from __future__ import annotations

from pathlib import PurePath

from slipstream.engine.tracks.imports.source import (
    MAX_COORDINATE,
    MAX_EDGES,
    MAX_NODES,
    CornerInfo,
    Node,
    Problems,
    SourceGraph,
    Where,
    coordinate_ok,
)

TYPES = ("UNKNOWN", "STRAIGHT", "CURVE_2", "CURVE_1", "BLOCKED", "FINISH", "CURVE_3", "PIT")
STOPS = {2: 2, 3: 1, 6: 3}
BLOCKED, FINISH, PIT = 4, 5, 7


def _int(text: str, line: int, col: int, p: Problems, what: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        p.add("I001", Where(line, col), f"{what} {text!r} is not an integer")
        return None


def _float(text: str, line: int, col: int, p: Problems, what: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        p.add("I001", Where(line, col), f"{what} {text!r} is not a number")
        return None


def read(text: str, file: str, p: Problems) -> SourceGraph:
    g = SourceGraph(file, "gp-online", name=PurePath(file).stem, ident=PurePath(file).stem)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        p.add("I001", Where(1, 1), "the file has no header line (IMAGE INFOBOX_CORNER ...)")
        return g
    header = lines[0].split()
    g.image = header[0]
    types: dict[str, int] = {}
    attrs: dict[str, float] = {}
    edges: list[tuple[str, str, Where]] = []
    section = 0
    blocked: list[str] = []
    broken: set[str] = set()  # nodes already reported: their edges are not reported again
    for no, raw in enumerate(lines[1:], start=2):
        line = raw.strip()
        if not line:
            section += 1
            continue
        parts = line.split()
        cols = []
        pos = 0
        for part in parts:
            pos = raw.index(part, pos)
            cols.append(pos + 1)
            pos += len(part)
        if section == 0:
            if len(parts) not in (4, 5) or (len(parts) == 5 and parts[4] != "F"):
                p.add("I001", Where(no, 1), f"a node line is `ID X Y TYPE [F]`, not {line!r}")
                continue
            nid = _int(parts[0], no, cols[0], p, "node id")
            x = _float(parts[1], no, cols[1], p, "x")
            y = _float(parts[2], no, cols[2], p, "y")
            ty = _int(parts[3], no, cols[3], p, "node type")
            if nid is None or x is None or y is None or ty is None:
                if nid is not None:
                    broken.add(str(nid))
                continue
            key = str(nid)
            if not (coordinate_ok(x) and coordinate_ok(y)):
                p.add("I004", Where(no, cols[1]), f"node {key} lies at ({parts[1]}, {parts[2]}); a coordinate is a "
                      f"finite number within ±{MAX_COORDINATE:,}")
                broken.add(key)
                continue
            if len(g.nodes) >= MAX_NODES:
                p.add("I004", Where(no, 1), f"the file has more than {MAX_NODES:,} nodes; the import stops here")
                break
            if not 0 <= int(ty) < len(TYPES):
                broken.add(key)
                p.add("I002", Where(no, cols[3]), f"node {key} has type {ty}, which is none of 0-{len(TYPES) - 1} "
                      f"({', '.join(TYPES)})")
                continue
            if key in g.nodes or key in blocked:
                p.add("I004", Where(no, cols[0]), f"node {key} is defined twice")
                continue
            if ty == BLOCKED:
                blocked.append(key)
                continue
            if ty == 0:
                p.add("I002", Where(no, cols[3]), f"node {key} has type UNKNOWN; read as a straight",
                      severity="warning")
            g.nodes[key] = Node(key, float(x), float(y), Where(no, cols[0]), pit=ty == PIT,
                                finish=ty == FINISH or len(parts) == 5)
            types[key] = int(ty)
        elif section == 1:
            if len(parts) != 2:
                p.add("I001", Where(no, 1), f"an edge line is `FROM TO`, not {line!r}")
                continue
            a = _int(parts[0], no, cols[0], p, "node id")
            b = _int(parts[1], no, cols[1], p, "node id")
            if a is None or b is None:
                continue
            if a == b:
                p.add("I004", Where(no, cols[0]), f"edge {a} -> {b} leads from a node to itself")
                continue
            if len(edges) >= MAX_EDGES:
                p.add("I004", Where(no, 1), f"the file has more than {MAX_EDGES:,} edges; the import stops here")
                break
            edges.append((str(a), str(b), Where(no, cols[0])))
        elif section == 2:
            if len(parts) != 2:
                p.add("I001", Where(no, 1), f"an attribute line is `ID VALUE`, not {line!r}")
                continue
            a = _int(parts[0], no, cols[0], p, "node id")
            v = _float(parts[1], no, cols[1], p, "attribute")
            if a is None or v is None:
                continue
            if str(a) not in g.nodes and str(a) not in blocked and str(a) not in broken:
                p.add("I003", Where(no, cols[0]), f"an attribute names node {a}, which the file does not define")
                continue
            attrs[str(a)] = float(v)
        elif section == 3:
            if len(parts) != 2:
                p.add("I001", Where(no, 1), f"a grid line is `ID ANGLE`, not {line!r}")
                continue
            a = _int(parts[0], no, cols[0], p, "node id")
            if a is None:
                continue
            if str(a) in broken:
                continue
            if str(a) not in g.nodes:
                p.add("I003", Where(no, cols[0]), f"a grid slot names node {a}, which the file does not define"
                      + (" (it is BLOCKED)" if str(a) in blocked else ""))
                continue
            g.grid.append((str(a), Where(no, cols[0])))
        else:
            p.add("I001", Where(no, 1), "text after the grid section (a 5th section is not part of the format)")
            break
    dropped_edges = 0
    for src, dst, w in edges:
        if src in blocked or dst in blocked:
            dropped_edges += 1
            continue
        if src in broken or dst in broken:
            continue
        for k in (src, dst):
            if k not in g.nodes:
                p.add("I003", w, f"edge {src} -> {dst} names node {k}, which the file does not define")
                break
        else:
            g.edges.append((src, dst, w))
    if blocked:
        g.dropped.append(f"{len(blocked)} BLOCKED node(s) ({', '.join(blocked[:8])}) and {dropped_edges} edge(s)")
    for k, value in attrs.items():
        if k in g.nodes and g.nodes[k].pit and value == 1.0:
            g.nodes[k].box = True
    _corners(g, types)
    return g


def _corners(g: SourceGraph, types: dict[str, int]) -> None:
    """Curve nodes of one stop count joined by edges (either way) form one corner."""
    curve = {k for k, ty in types.items() if ty in STOPS}
    near: dict[str, set[str]] = {k: set() for k in curve}
    for a, b, _ in g.edges:
        if a in curve and b in curve and types[a] == types[b]:
            near[a].add(b)
            near[b].add(a)
    seen: set[str] = set()
    for k in g.nodes:
        if k not in curve or k in seen:
            continue
        group, todo = [], [k]
        seen.add(k)
        while todo:
            x = todo.pop()
            group.append(x)
            for y in near[x] - seen:
                seen.add(y)
                todo.append(y)
        key = f"c{k}"
        g.corners[key] = CornerInfo(key, g.nodes[k].where, stops=STOPS[types[k]])
        for x in group:
            g.nodes[x].corner = key
