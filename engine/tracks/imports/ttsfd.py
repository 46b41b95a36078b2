"""Tabletop Simulator Formula D track JSON (tts-formula-d-2.0, docs/track-format.md).

`spaces[]` hold `id`, `pos [x, y]` (image pixels), `lane` (1 = inside), explicit directed
`next` ids and a `corner` id; `corners[]` give `stops`; `start` lists grid spaces pole first;
`finish.line` the first space of each lane past the line. Our reading of `pit` (which the
format leaves open): `entry` and `exit` are the first and last spaces of the pit lane (a space
id or an index into `spaces`), the pit lane is the path of `next` steps between them, and
`pit.spaces` are its boxes.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from slipstream.engine.tracks.imports.source import (
    MAX_COORDINATE,
    MAX_EDGES,
    MAX_NODES,
    CornerInfo,
    JsonSource,
    Node,
    Problems,
    SourceGraph,
    coordinate_ok,
)


def _num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def read(text: str, file: str, p: Problems) -> SourceGraph:
    g = SourceGraph(file, "tts-fd", ident=PurePath(file).stem, lanes_ordered=True)
    js = JsonSource(text, file, p)
    d = js.data
    if js.data is None:
        return g
    if not isinstance(d, dict) or not isinstance(d.get("spaces"), list):
        p.add("I004", js.at(), "a TTS track is a JSON object with a `spaces` list")
        return g
    g.name = str(d.get("name") or "")
    g.ident = str(d.get("id") or g.ident)
    if isinstance(d.get("laps"), int) and not isinstance(d.get("laps"), bool) and d["laps"] > 0:
        g.laps = d["laps"]
    lanes = d.get("lanes")
    if not (isinstance(lanes, int) and 1 <= lanes <= 9):
        p.add("I004", js.at("lanes"), f"`lanes` must be a whole number 1-9, not {lanes!r}")
        return g
    ids: list[str] = []
    nexts: list[tuple[str, list[Any], int]] = []
    for i, s in enumerate(d["spaces"]):
        if not isinstance(s, dict):
            p.add("I004", js.at("spaces", i), "a space is a JSON object")
            continue
        sid, pos, lane = s.get("id"), s.get("pos"), s.get("lane")
        if not isinstance(sid, str) or not sid:
            p.add("I004", js.at("spaces", i, "id"), "a space needs a string `id`")
            continue
        if not (isinstance(pos, list) and len(pos) == 2 and all(coordinate_ok(v) for v in pos)):
            p.add("I004", js.at("spaces", i, "pos"), f"space {sid}: `pos` must be [x, y], finite numbers within "
                  f"±{MAX_COORDINATE:,}, not {pos!r}")
            continue
        if len(g.nodes) >= MAX_NODES:
            p.add("I004", js.at("spaces", i), f"the file has more than {MAX_NODES:,} spaces; the import stops here")
            break
        if sid in g.nodes:
            p.add("I004", js.at("spaces", i, "id"), f"space id {sid} is used twice")
            continue
        node = Node(sid, float(pos[0]), float(pos[1]), js.at("spaces", i))
        if lane is not None:
            if not (isinstance(lane, int) and not isinstance(lane, bool) and 1 <= lane <= lanes):
                p.add("I004", js.at("spaces", i, "lane"), f"space {sid}: `lane` must be 1-{lanes}, not {lane!r}")
                continue
            node.lane = lane - 1
        corner = s.get("corner")
        if corner is not None:
            node.corner = str(corner)
        nxt = s.get("next", [])
        if not isinstance(nxt, list):
            p.add("I004", js.at("spaces", i, "next"), f"space {sid}: `next` must be a list of space ids")
            nxt = []
        g.nodes[sid] = node
        ids.append(sid)
        nexts.append((sid, nxt, i))
    for sid, nxt, i in nexts:
        for j, t in enumerate(nxt):
            if t == sid:
                p.add("I004", js.at("spaces", i, "next", j), f"space {sid} leads to itself")
                continue
            if len(g.edges) >= MAX_EDGES:
                p.add("I004", js.at("spaces", i, "next", j), f"more than {MAX_EDGES:,} steps; the import stops here")
                return g
            if not isinstance(t, str) or t not in g.nodes:
                p.add("I003", js.at("spaces", i, "next", j), f"space {sid} leads to {t!r}, which is no space of the file")
                continue
            g.edges.append((sid, t, js.at("spaces", i, "next", j)))

    def ref(v: Any, *path: str | int) -> str | None:
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(d["spaces"]):
            s = d["spaces"][v]
            v = s.get("id") if isinstance(s, dict) else None
        if isinstance(v, str) and v in g.nodes:
            return v
        p.add("I003", js.at(*path), f"{v!r} names no space of the file")
        return None

    finish = d.get("finish", {}).get("line") if isinstance(d.get("finish"), dict) else None
    if not isinstance(finish, list):
        p.add("I004", js.at("finish"), "`finish.line` must list the first space of each lane past the line")
        return g
    for j, v in enumerate(finish):
        k = ref(v, "finish", "line", j)
        if k:
            g.nodes[k].finish = True
    for j, v in enumerate(js.items(d, "start", p)):
        k = ref(v, "start", j)
        if k:
            g.grid.append((k, js.at("start", j)))
    for j, c in enumerate(js.items(d, "corners", p)):
        if not isinstance(c, dict) or "id" not in c:
            p.add("I004", js.at("corners", j), "a corner is an object with an `id`")
            continue
        stops = c.get("stops")
        if stops is not None and stops not in (1, 2, 3):
            p.add("I004", js.at("corners", j, "stops"), f"corner {c['id']}: `stops` must be 1, 2 or 3, not {stops!r}")
            stops = None
        g.corners[str(c["id"])] = CornerInfo(str(c["id"]), js.at("corners", j), stops=stops)
    for k, nd in g.nodes.items():
        if nd.corner is not None and nd.corner not in g.corners:
            p.add("I003", nd.where, f"space {k} is in corner {nd.corner}, which `corners` does not list")
    pit = d.get("pit")
    if isinstance(pit, dict) and pit:
        _pit(g, pit, ref, p, js)
    for k, nd in g.nodes.items():
        if nd.lane is None and not nd.pit:
            p.add("I004", nd.where, f"space {k} has no `lane` and is not on the pit lane")
    return g


def _pit(g: SourceGraph, pit: dict[str, Any], ref: Any, p: Problems, js: JsonSource) -> None:
    a = ref(pit.get("entry"), "pit", "entry")
    b = ref(pit.get("exit"), "pit", "exit")
    if a is None or b is None:
        return
    path, k = [a], a
    while k != b:
        onward = [t for s, t, _ in g.edges if s == k and g.nodes[t].lane is None]
        if len(onward) != 1 or onward[0] in path:
            p.add("I008", js.at("pit"), f"no single path of `next` steps leads from pit entry {a} to pit exit {b}",
                  hint="pit spaces have no `lane`; each leads to the next one")
            return
        k = onward[0]
        path.append(k)
    for k in path:
        g.nodes[k].pit = True
    for j, v in enumerate(js.items(pit, "spaces", p, "pit")):
        k = ref(v, "pit", "spaces", j)
        if k and k in path:
            g.nodes[k].box = True
