"""Synthetic circuits of our own, written out in the three foreign formats the importer reads.

An oval of N lanes (lane 0 inside): the second half of the bottom straight (the finish line at
its start), a right-hand bend, the top straight, a left-hand bend, the first half of the bottom
straight. Outer lanes get `growth` more spaces per bend than the lane inside them, as on a
printed board. A step leads to the next space of the lane and to the first space of each
neighbouring lane that starts further along the section; `no_change` lists (lane, section)
pairs whose spaces may not change lanes (a bend that forbids it). Optional pit lane along the
bottom straight, outside, with boxes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field


@dataclass
class Space:
    key: int
    lane: int
    section: int
    j: int
    count: int
    x: float
    y: float

    @property
    def phase(self) -> float:
        return self.section + self.j / self.count


@dataclass
class Oval:
    lanes: int
    spaces: list[Space] = field(default_factory=list)
    edges: list[tuple[int, int]] = field(default_factory=list)
    pit: list[Space] = field(default_factory=list)
    boxes: list[int] = field(default_factory=list)
    grid: list[int] = field(default_factory=list)
    corners: dict[int, int] = field(default_factory=dict)  # section -> stops

    def lane(self, lane: int) -> list[Space]:
        return [s for s in self.spaces if s.lane == lane]

    @property
    def finish(self) -> list[Space]:
        return [s for s in self.spaces if s.section == 0 and s.j == 0]


def oval(lanes: int, straight: int = 6, bends: tuple[int, int] = (5, 4), growth: int = 1,
         pit: bool = True, no_change: tuple[tuple[int, int], ...] = (), stops: tuple[int, int] = (2, 3)) -> Oval:
    length, radius, width = 480.0, 120.0, 40.0
    counts = [lambda lane: straight, lambda lane: bends[0] + growth * lane, lambda lane: 2 * straight,
              lambda lane: bends[1] + growth * lane, lambda lane: straight]

    def point(section: int, lane: int, f: float) -> tuple[float, float]:
        r = radius + lane * width
        if section == 0:
            return (f * length / 2, r)
        if section == 1:
            t = f * math.pi
            return (length / 2 + r * math.sin(t), r * math.cos(t))
        if section == 2:
            return (length / 2 - f * length, -r)
        if section == 3:
            t = f * math.pi
            return (-length / 2 - r * math.sin(t), -r * math.cos(t))
        return (-length / 2 + f * length / 2, r)

    o = Oval(lanes, corners={1: stops[0], 3: stops[1]})
    key = 0
    for lane in range(lanes):
        for sec in range(5):
            n = counts[sec](lane)
            for j in range(n):
                x, y = point(sec, lane, (j + 0.5) / n)
                o.spaces.append(Space(key, lane, sec, j, n, round(x + 600), round(y + 400)))
                key += 1
    for lane in range(lanes):
        row = o.lane(lane)
        for i, s in enumerate(row):
            o.edges.append((s.key, row[(i + 1) % len(row)].key))
            if (lane, s.section) in no_change:
                continue
            for other in (lane - 1, lane + 1):
                if 0 <= other < lanes:
                    ahead = [t for t in o.lane(other) if t.phase > s.phase]
                    o.edges.append((s.key, (ahead[0] if ahead else o.lane(other)[0]).key))
    if pit:
        outer = o.lane(lanes - 1)
        entry, exit_ = outer[1], outer[straight - 2]
        y = 400 + radius + lanes * width + 10
        for i in range(straight - 2):
            o.pit.append(Space(key, -1, 0, i, straight - 2, round(600 + (i + 1.5) * length / 2 / straight), round(y)))
            key += 1
        o.edges.append((entry.key, o.pit[0].key))
        for a, b in zip(o.pit, o.pit[1:], strict=False):
            o.edges.append((a.key, b.key))
        o.edges.append((o.pit[-1].key, exit_.key))
        o.boxes = [o.pit[1].key, o.pit[2].key]
    back = sorted((s for s in o.spaces if s.section == 4), key=lambda s: (-s.j / s.count, s.lane))
    o.grid = [s.key for s in back[:10]]
    return o


def gp_online(o: Oval, blocked: bool = True) -> str:
    """The oval as a GP Online .dat file (types: 1 straight, 5 finish, 2/3/6 bends, 7 pit)."""
    curve_type = {1: 3, 2: 2, 3: 6}
    lines = ["board.png 0 0 0"]
    for s in o.spaces:
        ty = curve_type[o.corners[s.section]] if s.section in o.corners else 1
        if s.section == 0 and s.j == 0:
            # the finish line: type 5 on even lanes, the `F` flag on odd ones
            lines.append(f"{s.key} {s.x} {s.y} {5 if s.lane % 2 == 0 else ty}" + (" F" if s.lane % 2 else ""))
        else:
            lines.append(f"{s.key} {s.x} {s.y} {ty}")
    for s in o.pit:
        lines.append(f"{s.key} {s.x} {s.y} 7")
    spare = max([s.key for s in o.spaces] + [s.key for s in o.pit]) + 1
    if blocked:
        lines.append(f"{spare} 10 10 4")
    lines.append("")
    lines += [f"{a} {b}" for a, b in o.edges]
    if blocked:
        lines.append(f"{o.spaces[0].key} {spare}")
    lines.append("")
    lines += [f"{k} 1.0" for k in o.boxes]
    lines += [f"{s.key} 0.5" for s in o.spaces if s.section == 1][:2]  # distances into a bend
    lines.append("")
    lines += [f"{k} 90" for k in o.grid]
    return "\n".join(lines) + "\n"


LETTERS = "imo"


def tts_id(s: Space) -> str:
    sector = {0: "s1", 1: "c1", 2: "s2", 3: "c2", 4: "s3"}[s.section]
    return f"{LETTERS[s.lane]}.{sector}.{s.j}"


def tts(o: Oval) -> str:
    """The oval as a Tabletop Simulator Formula D track (3 lanes at most)."""
    ids = {s.key: tts_id(s) for s in o.spaces} | {s.key: f"p.{s.j}" for s in o.pit}
    nxt: dict[int, list[str]] = {}
    for a, b in o.edges:
        nxt.setdefault(a, []).append(ids[b])
    spaces = []
    for s in o.spaces:
        d = {"id": ids[s.key], "pos": [s.x, s.y], "rot": 0, "lane": s.lane + 1, "next": nxt[s.key],
             "sector": ids[s.key].split(".")[1]}
        if s.section in o.corners:
            d["corner"] = 1 if s.section == 1 else 2
        spaces.append(d)
    for s in o.pit:
        spaces.append({"id": ids[s.key], "pos": [s.x, s.y], "rot": 0, "next": nxt.get(s.key, [])})
    doc = {
        "id": "SynthOval", "name": "Synthetic Oval", "ruleset": "formula_de",
        "image": {"width": 1200, "height": 800}, "lanes": o.lanes, "laps": 2,
        "spaces": spaces,
        "corners": [{"id": 1, "stops": o.corners[1], "spaces": 0, "lanes": []},
                    {"id": 2, "stops": o.corners[3], "spaces": 0, "lanes": []}],
        "start": [ids[k] for k in o.grid],
        "finish": {"line": [ids[s.key] for s in o.finish]},
    }
    if o.pit:
        doc["pit"] = {"entry": ids[o.pit[0].key], "exit": ids[o.pit[-1].key], "spaces": [ids[k] for k in o.boxes]}
    return json.dumps(doc, indent=1)


def heat(positions: int = 40, corners: tuple[tuple[int, int, bool], ...] = ((9, 4, False), (20, 3, True), (22, 3, True),
                                                                       (31, 5, False)),
         flooded: tuple[int, ...] = ()) -> str:
    """A Heat circuit: an oval of `positions` positions, two cells each; corners (position,
    speed, chicane)."""
    cells = {}
    for p in range(positions):
        t = 2 * math.pi * p / positions
        for lane in (1, 2):
            r = 300 + 40 * (lane - 1)
            cells[str(2 * p + lane)] = {"lane": lane, "position": p, "x": round(600 + 1.6 * r * math.cos(t)),
                                        "y": round(400 + r * math.sin(t)), "a": round(math.degrees(t))}
    doc = {
        "id": "synth-heat", "name": "Synthetic Heat Oval", "jpgUrl": "synth-heat.jpg", "nbrLaps": 2,
        "stressCards": 3, "heatCards": 6,
        "startingCells": [str(2 * p + lane) for p in range(positions - 1, positions - 5, -1) for lane in (1, 2)],
        "corners": [{"position": p, "speed": v, "lane": 1, "legend": str(i + 1), "x": 0, "y": 0,
                     **({"chicane": True} if c else {})} for i, (p, v, c) in enumerate(corners)],
        "cells": cells,
    }
    if flooded:
        doc["floodedSpaces"] = [str(2 * p + 1) for p in flooded]
    return json.dumps(doc, indent=1)
