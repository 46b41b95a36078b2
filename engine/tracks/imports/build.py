"""Lay a `SourceGraph` out as a track/2 document: lanes × segments, links, pit lane, corners.

1. **Lanes.** Every main-track space gets one successor in its own lane. A format that names
   lanes gives it; otherwise the lanes are the cheapest way to give every space exactly one
   successor and one predecessor along the source's own steps (a min-cost perfect matching,
   cost = pixel distance): straight-ahead steps are short, lane changes long. Each lane is
   then a loop through exactly one finish-line space. Lane 0 is the loop enclosing the least
   area (the inside), unless the format orders lanes itself.
2. **Segments.** A format that numbers positions gives them. Otherwise a space's first
   segment is the longest chain of steps from the finish line to it, so every step of the
   source leads forward and a lane with fewer spaces (the inside of a bend) gets longer spaces.
3. **Links.** The move graph derived from the layout (DESIGN §5) is compared with the
   source's steps; each difference becomes a `links:` entry, so the move graph equals the
   source's adjacency edge by edge (a step that would lead backwards cannot be a link and is
   reported, I007).
4. **Pit lane, corners, grid, features, geometry** follow from the nodes' marks and positions.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.tracks.imports.source import CornerInfo, Node, Problems, SourceGraph, Where

MAX_LISTED = 8
DEFAULT_LAPS = 2  # HOUSE VALUE: the race length when the source file gives none
GRID_SLOTS = 10  # slots inferred when the source has no grid (a Formula Dé-style race needs 10)


@dataclass(slots=True)
class Imported:
    """The result of an import: the track/2 document (None on errors), the report and the
    problems, and for each source node key the name of its space (`lane:first`, `pit:K`)."""

    data: dict[str, Any] | None
    report: list[str]
    diagnostics: list[Diagnostic]
    names: dict[str, str] = field(default_factory=dict)
    edges: set[tuple[str, str]] = field(default_factory=set)  # the source steps kept, by node key
    image: str | None = None  # the board image the source names (its pixel coordinates are ours)


def _listed(items: list[str]) -> str:
    more = f" and {len(items) - MAX_LISTED} more" if len(items) > MAX_LISTED else ""
    return ", ".join(items[:MAX_LISTED]) + more


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "imported"


def _area(points: list[tuple[float, float]]) -> float:
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True))


def _inside(pt: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    x, y = pt
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


class _Builder:
    def __init__(self, g: SourceGraph, ruleset: str, problems: Problems) -> None:
        self.g = g
        self.ruleset = ruleset
        self.p = problems
        self.report: list[str] = []
        self.succ: dict[str, list[str]] = {k: [] for k in g.nodes}
        self.edge_at: dict[tuple[str, str], Where] = {}
        for a, b, w in g.edges:
            if a in self.succ and b in self.succ and b not in self.succ[a]:
                self.succ[a].append(b)
                self.edge_at[(a, b)] = w
        self.main = [k for k, n in g.nodes.items() if not n.pit]
        self.pits = [k for k, n in g.nodes.items() if n.pit]

    def node(self, k: str) -> Node:
        return self.g.nodes[k]

    # --- lanes -------------------------------------------------------------------------
    def lanes(self) -> list[list[str]] | None:
        finish = [k for k in self.main if self.node(k).finish]
        if not finish:
            self.p.add("I005", Where(), "no space marks the finish line, so the lanes cannot be found",
                       hint="mark the spaces just past the finish line (one per lane)")
            return None
        if all(self.node(k).lane is not None for k in self.main):
            nxt = self._next_by_lane()
        else:
            nxt = self._next_by_matching()
        if nxt is None:
            return None
        chains: list[list[str]] = []
        seen: set[str] = set()
        for f in finish:
            chain = [f]
            seen.add(f)
            k = nxt[f]
            while k != f:
                if k in seen or self.node(k).finish:
                    self.p.add("I005", self.node(k).where,
                               f"the lane through finish space {f} runs into space {k}, which belongs to "
                               "another lane or crosses the finish line twice")
                    return None
                chain.append(k)
                seen.add(k)
                k = nxt[k]
            chains.append(chain)
        stray = [k for k in self.main if k not in seen]
        if stray:
            self.p.add("I005", self.node(stray[0]).where,
                       f"{len(stray)} space(s) lie on no lane that crosses the finish line: {_listed(stray)}",
                       hint="every lane must be a loop through one finish-line space")
            return None
        return self._order(chains)

    def _next_by_lane(self) -> dict[str, str] | None:
        nxt: dict[str, str] = {}
        for k in self.main:
            lane = self.node(k).lane
            own = [s for s in self.succ[k] if not self.node(s).pit and self.node(s).lane == lane]
            if len(own) != 1:
                what = "no next space" if not own else f"{len(own)} next spaces ({_listed(own)})"
                self.p.add("I005", self.node(k).where, f"space {k} has {what} in its own lane",
                           hint="each space leads on to exactly one space of its lane")
                return None
            nxt[k] = own[0]
        return nxt

    def _next_by_matching(self) -> dict[str, str] | None:
        import networkx as nx

        flow: nx.DiGraph = nx.DiGraph()
        for k in self.main:
            flow.add_node(("o", k), demand=-1)
            flow.add_node(("i", k), demand=1)
        for k in self.main:
            a = self.node(k)
            for s in self.succ[k]:
                b = self.node(s)
                if not b.pit:
                    flow.add_edge(("o", k), ("i", s), capacity=1,
                                  weight=round(math.hypot(b.x - a.x, b.y - a.y) * 10))
        try:
            result = nx.min_cost_flow(flow)
        except nx.NetworkXUnfeasible:
            lonely = [k for k in self.main if not any(not self.node(s).pit for s in self.succ[k])]
            lonely += [k for k in self.main if not any(k in self.succ[o] for o in self.main)]
            where = self.node(lonely[0]).where if lonely else Where()
            self.p.add("I005", where,
                       "the spaces cannot be split into lanes: no way gives every space one next and one "
                       "previous space of its own lane" + (f" (look at {_listed(lonely)})" if lonely else ""),
                       hint="a dead end, or a space nothing leads into, usually causes this")
            return None
        nxt: dict[str, str] = {}
        for (_, k), out in result.items():
            if _ == "o":
                for (_, s), f in out.items():
                    if f:
                        nxt[k] = s
        return nxt

    def _order(self, chains: list[list[str]]) -> list[list[str]]:
        if self.g.lanes_ordered:
            return sorted(chains, key=lambda c: self.node(c[0]).lane or 0)
        if all(self.node(c[0]).lane is not None for c in chains):
            chains = sorted(chains, key=lambda c: self.node(c[0]).lane or 0)
        elif len(chains) > 1:
            pts = [(self.node(c[0]).x, self.node(c[0]).y) for c in chains]
            i, j = max(((i, j) for i in range(len(pts)) for j in range(len(pts))),
                       key=lambda ij: math.dist(pts[ij[0]], pts[ij[1]]))
            dx, dy = pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]
            chains = [c for _, c in sorted(zip(pts, chains, strict=True),
                                           key=lambda pc: (pc[0][0] * dx + pc[0][1] * dy))]
        if len(chains) > 1:
            def area(c: list[str]) -> float:
                return abs(_area([(self.node(k).x, self.node(k).y) for k in c]))

            if area(chains[0]) > area(chains[-1]):
                chains.reverse()
        return chains

    # --- segments ----------------------------------------------------------------------
    def segments(self, chains: list[list[str]]) -> tuple[dict[str, int], int] | None:
        given = [self.node(k).segment for k in self.main]
        if all(s is not None for s in given):
            pos = {k: int(self.node(k).segment or 0) for k in self.main}
            for c in chains:
                if pos[c[0]] != 0 or any(pos[b] <= pos[a] for a, b in zip(c, c[1:], strict=False)):
                    self.p.add("I006", self.node(c[0]).where,
                               f"the positions along the lane through {c[0]} do not rise from 0 round the lap")
                    return None
            return pos, max(pos.values()) + 1
        last = {c[-1] for c in chains}
        finish = {c[0] for c in chains}
        preds: dict[str, list[str]] = {k: [] for k in self.main}
        for k in self.main:
            if k in last:
                continue
            for s in self.succ[k]:
                if s in preds and s not in finish:
                    preds[s].append(k)
        import networkx as nx

        dag: nx.DiGraph = nx.DiGraph()
        dag.add_nodes_from(self.main)
        dag.add_edges_from((a, b) for b, ps in preds.items() for a in ps)
        try:
            order = list(nx.topological_sort(dag))
        except nx.NetworkXUnfeasible:
            cycle = nx.find_cycle(dag)
            a, b = cycle[0][0], cycle[0][1]
            self.p.add("I006", self.edge_at.get((a, b), self.node(a).where),
                       f"the steps {' -> '.join(str(e[0]) for e in cycle)} -> {cycle[0][0]} go round in a "
                       "circle without crossing the finish line: one of them leads backwards")
            return None
        t: dict[str, int] = {}
        for k in order:
            t[k] = max((t[a] + 1 for a in preds[k]), default=0)
        n = max(t[c[-1]] + 1 for c in chains)
        return t, n

    # --- the document ------------------------------------------------------------------
    def build(self) -> Imported:
        g = self.g
        if len(self.main) < 2:
            self.p.add("I005", Where(), "the file holds fewer than 2 spaces of main track")
            return Imported(None, self.report, self.p.items)
        chains = self.lanes()
        if chains is None:
            return Imported(None, self.report, self.p.items)
        seg = self.segments(chains)
        if seg is None:
            return Imported(None, self.report, self.p.items)
        t, n = seg
        first: dict[str, int] = {}
        lastseg: dict[str, int] = {}
        lane_of: dict[str, int] = {}
        names: dict[str, str] = {}
        layout: list[str] = []
        for lane, c in enumerate(chains):
            toks = []
            for i, k in enumerate(c):
                a = t[k]
                b = t[c[i + 1]] - 1 if i + 1 < len(c) else n - 1
                first[k], lastseg[k], lane_of[k] = a, b, lane
                names[k] = f"{lane}:{a}"
                toks.append("o" if b == a else f"ox{b - a + 1}")
            layout.append(" ".join(toks))
        lanes = len(chains)
        self.report.append(f"lanes: {lanes} (finish line spaces: {_listed([c[0] for c in chains])}, "
                           "inside first)")
        self.report.append(f"segments: {n}; spaces per lane: {', '.join(str(len(c)) for c in chains)}")

        data: dict[str, Any] = {
            "slipstream": "track/2",
            "id": slug(g.ident or g.name or "imported"),
            "name": g.name or g.ident or "Imported circuit",
            "laps": g.laps or DEFAULT_LAPS,
            "rulesets": [self.ruleset],
            "lanes": lanes,
            "layout": layout,
        }
        if not g.laps:
            self.report.append(f"laps: {DEFAULT_LAPS} (house value: the file gives none)")
        data["grid"] = self._grid(chains, first, lane_of, n)
        corners = self._corners(first, lastseg, n)
        if corners:
            data["corners"] = corners
        main_edges = self._main_edges(names)
        pit, pit_names = self._pit(names, chains, lane_of)
        names.update(pit_names)
        links = self._links(data, main_edges, names, first, lastseg, n)
        if links:
            data["links"] = links
        if pit:
            data["pit"] = pit
        features = self._features(names)
        if features:
            data["features"] = features
        data["geometry"] = self._geometry(chains, first, lastseg, t, n)
        if g.image:
            self.report.append(f"board image named by the file: {g.image}")
        if g.dropped:
            self.report.append(f"dropped: {_listed(g.dropped)}")
        self.report.extend(g.notes)
        kept = {(a, b) for a, bs in self.succ.items() for b in bs if a in names and b in names}
        kept -= self.lost
        return Imported(None if self.p.failed else data, self.report, self.p.items, names, kept, g.image)

    lost: set[tuple[str, str]]

    def _main_edges(self, names: dict[str, str]) -> dict[str, set[str]]:
        self.lost = set()
        return {names[k]: {names[s] for s in self.succ[k] if not self.node(s).pit} for k in self.main}

    def _grid(self, chains: list[list[str]], first: dict[str, int], lane_of: dict[str, int],
              n: int) -> list[dict[str, int]]:
        def prog(k: str) -> int:
            return 0 if first[k] == 0 else first[k] - n

        keys: list[str] = []
        for k, w in self.g.grid:
            if k not in first:
                self.p.add("I004", w, f"grid slot {k} is not a space of the main track; skipped",
                           severity="warning")
            elif k in keys:
                self.p.add("I004", w, f"grid slot {k} is listed twice; the second is skipped",
                           severity="warning")
            else:
                keys.append(k)
        how = "from the file"
        if not keys:
            back = sorted((k for c in chains for k in c if first[k] >= n // 2),
                          key=lambda k: (-first[k], lane_of[k]))
            keys = back[:GRID_SLOTS]
            how = "inferred: the spaces just behind the finish line, inside lane first"
        ordered = sorted(keys, key=lambda k: (-prog(k), lane_of[k]))
        if ordered != keys:
            how += "; put in order pole first"
        self.report.append(f"grid: {len(ordered)} slots ({how})")
        return [{"lane": lane_of[k], "segment": first[k]} for k in ordered]

    def _corners(self, first: dict[str, int], last: dict[str, int], n: int) -> list[dict[str, Any]]:
        members: dict[str, list[str]] = {}
        for k in self.main:
            c = self.node(k).corner
            if c is not None:
                members.setdefault(c, []).append(k)
        spans: list[tuple[int, int, CornerInfo]] = []
        for key, info in self.g.corners.items():
            ks = members.get(key, [])
            if not ks:
                self.p.add("I004", info.where, f"corner {key} has no space of the main track; skipped",
                           severity="warning")
                continue
            lo, hi = min(first[k] for k in ks), max(last[k] for k in ks)
            if hi - lo > n // 2:  # the corner spans the finish line
                lo = min(first[k] for k in ks if first[k] > n // 2)
                hi = max(last[k] for k in ks if last[k] <= n // 2)
            spans.append((lo, hi, info))
        spans.sort(key=lambda s: s[0])
        out: list[dict[str, Any]] = []
        prev_hi: int | None = None
        for lo, hi, info in spans:
            if prev_hi is not None and lo <= prev_hi and lo <= hi:
                if prev_hi + 1 > hi:
                    self.p.add("I009", info.where, f"corner {info.key} lies inside the corner before it; "
                               "dropped")
                    continue
                self.p.add("I009", info.where, f"corner {info.key} shares segments {lo}-{prev_hi} with the "
                           f"corner before it; it now starts at segment {prev_hi + 1}")
                lo = prev_hi + 1
            zone: dict[str, Any] = {"name": info.name or f"Corner {len(out) + 1}", "from": lo, "to": hi}
            if info.stops is not None:
                zone["stops"] = info.stops
            if info.speed is not None:
                zone["speed"] = info.speed
            if info.chicane:
                zone["chicane"] = True
            out.append(zone)
            prev_hi = hi if hi >= lo else None
        if out:
            what = "; ".join(
                f"{c['name']} {c['from']}-{c['to']}"
                + (f", {c['stops']} stop{'s' * (c['stops'] != 1)}" if "stops" in c else "")
                + (f", {c['speed']} km/h" if "speed" in c else "") + (", chicane" if c.get("chicane") else "")
                for c in out)
            self.report.append(f"corners: {len(out)} ({what})")
        else:
            self.report.append("corners: none")
        return out

    def _pit(self, names: dict[str, str], chains: list[list[str]],
             lane_of: dict[str, int]) -> tuple[dict[str, Any] | None, dict[str, str]]:
        if not self.pits:
            self.report.append("pit lane: none")
            return None, {}
        pset = set(self.pits)
        nxt = {k: [s for s in self.succ[k] if s in pset] for k in self.pits}
        prv: dict[str, list[str]] = {k: [] for k in self.pits}
        for k, ss in nxt.items():
            for s in ss:
                prv[s].append(k)
        starts = [k for k in self.pits if not prv[k]]
        bad = [k for k in self.pits if len(nxt[k]) > 1 or len(prv[k]) > 1]
        if len(starts) != 1 or bad:
            where = self.node((bad or self.pits)[0]).where
            self.p.add("I008", where, "the pit spaces do not form one lane"
                       + (f": {_listed(bad)} branch" if bad else f" ({len(starts)} starts)"),
                       hint="the pit lane is a single path from its entries to its exits")
            return None, {}
        order = [starts[0]]
        while nxt[order[-1]]:
            order.append(nxt[order[-1]][0])
        if len(order) != len(self.pits):
            self.p.add("I008", self.node(self.pits[0]).where, "the pit spaces do not form one lane")
            return None, {}
        idx = {k: i for i, k in enumerate(order)}
        pit_names = {k: f"pit:{i}" for k, i in idx.items()}
        entries = [{"from": names[k], "to": idx[s]} for k in self.main for s in self.succ[k] if s in pset]
        exits = [{"from": idx[k], "to": names[s]} for k in order for s in self.succ[k] if s in names]
        if not entries or not exits:
            self.p.add("I008", self.node(order[0]).where,
                       "the pit lane has no " + ("entry from" if not entries else "exit to") + " the main track")
            return None, {}
        pit: dict[str, Any] = {"layout": " ".join("o" for _ in order), "entries": entries, "exits": exits}
        boxes = [idx[k] for k in order if self.node(k).box]
        if boxes:
            pit["boxes"] = boxes
        pit["lap_counts"] = True
        inner = [(self.node(k).x, self.node(k).y) for k in chains[0]]
        mid = (sum(self.node(k).x for k in order) / len(order), sum(self.node(k).y for k in order) / len(order))
        pit["side"] = "inside" if _inside(mid, inner) else "outside"
        self.report.append(f"pit lane: {len(order)} spaces, {len(entries)} entr{'y' if len(entries) == 1 else 'ies'}, "
                           f"{len(exits)} exit{'s' * (len(exits) != 1)}, boxes: {len(boxes)} ({pit['side']})")
        return pit, pit_names

    def _links(self, data: dict[str, Any], main_edges: dict[str, set[str]], names: dict[str, str],
               first: dict[str, int], last: dict[str, int], n: int) -> list[dict[str, list[str]]]:
        from slipstream.engine.core.yamlsource import SourceMap
        from slipstream.engine.tracks.movegraph import geometry_successors
        from slipstream.engine.tracks.track import parse_track

        track, _ = parse_track(data, SourceMap(self.g.file))
        if track is None:  # cannot happen for a layout built above; report rather than fail
            self.p.add("I005", Where(), "the lanes built from the file do not form a track")
            return []
        geo = geometry_successors(track)
        key_of = {v: k for k, v in names.items()}
        out: list[dict[str, list[str]]] = []
        removed = added = 0
        for sp, succ in zip(track.spaces, geo, strict=True):
            a = sp.name
            have = {track.spaces[j].name for j in succ}
            want = main_edges.get(a, set())
            for b in sorted(have - want, key=lambda s: tuple(map(int, s.split(":")))):
                out.append({"remove": [a, b]})
                removed += 1
            for b in sorted(want - have, key=lambda s: tuple(map(int, s.split(":")))):
                ka, kb = key_of[a], key_of[b]
                d = (last[kb] - last[ka]) % n
                if not 1 <= d <= n // 2:
                    self.p.add("I007", self.edge_at.get((ka, kb), self.node(ka).where),
                               f"the step from {ka} to {kb} leads {'sideways' if d == 0 else 'backwards'} "
                               f"once laid out ({a} -> {b}); it is left out")
                    self.lost.add((ka, kb))
                    continue
                out.append({"add": [a, b]})
                added += 1
        self.report.append(f"links: {removed} removed, {added} added (so the move graph is the file's steps)")
        return out

    def _features(self, names: dict[str, str]) -> list[dict[str, Any]]:
        kinds: dict[str, list[str]] = {}
        for k, nd in self.g.nodes.items():
            for f in nd.features:
                if k in names:
                    kinds.setdefault(f, []).append(names[k])
        if kinds:
            self.report.append("features: " + ", ".join(f"{k} ({len(v)})" for k, v in kinds.items()))
        return [{"kind": k, "spaces": v} for k, v in kinds.items()]

    def _geometry(self, chains: list[list[str]], first: dict[str, int], last: dict[str, int],
                  t: dict[str, int], n: int) -> dict[str, Any]:
        per_lane: list[list[tuple[float, float]]] = []
        for c in chains:
            pts: list[tuple[float, float]] = [(0.0, 0.0)] * n
            for i, k in enumerate(c):
                a, b = self.node(k), self.node(c[(i + 1) % len(c)])
                span = last[k] - first[k] + 1
                for j in range(span):
                    f = j / span
                    pts[first[k] + j] = (a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f)
            per_lane.append(pts)
        centre = [(sum(p[s][0] for p in per_lane) / len(per_lane), sum(p[s][1] for p in per_lane) / len(per_lane))
                  for s in range(n)]
        widths = [math.dist(per_lane[i][s], per_lane[i + 1][s]) for i in range(len(per_lane) - 1) for s in range(n)]
        width = sum(widths) / len(widths) if widths else 40.0
        return {"centerline": [[round(x), round(y)] for x, y in centre],
                "lane_width": max(1, round(width)), "smooth": True}


def build_track(g: SourceGraph, ruleset: str, problems: Problems) -> Imported:
    """The track/2 document of a source graph, the import report and its problems."""
    if problems.failed:
        return Imported(None, [], problems.items)
    return _Builder(g, ruleset, problems).build()
