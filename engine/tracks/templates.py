"""Starting points for a new track: an oval, a road course and a figure of eight.

Each template is valid track data (no errors, no warnings). The spaces are laid out the way
the bundled tracks are: white 1-segment, light grey 2-segment, dark grey 3-segment and black
4-segment spaces, chosen by a fixed seed and re-drawn until the track checks clean.
"""

from __future__ import annotations

import math
import random
from typing import Any

from slipstream.engine.core.yamlsource import SourceMap
from slipstream.engine.tracks.checks import check_track
from slipstream.engine.tracks.track import parse_track

TEMPLATES = ("oval", "road-course", "figure-eight")
TEMPLATE_NAMES = {"oval": "Oval", "road-course": "Road course", "figure-eight": "Figure of eight"}

_TOKENS = ((3, 1), (4, 2), (5, 3), (6, 4))


def _lane(rng: random.Random, n: int) -> str:
    out: list[str] = []
    left = n
    while left:
        colour, k = rng.choice([t for t in _TOKENS if t[1] <= left])
        out.append(str(colour) if k == 1 else f"{colour}x{k}")
        left -= k
    return " ".join(out)


def _points(name: str) -> list[list[int]]:
    if name == "oval":
        return [[0, 220], [370, 220], [520, 110], [520, -110], [370, -220],
                [-370, -220], [-520, -110], [-520, 110], [-370, 220]]
    if name == "road-course":
        return [[0, 360], [460, 360], [820, 290], [980, 90], [880, -120], [640, -170],
                [520, -340], [280, -420], [0, -330], [-220, -210], [-480, -290],
                [-760, -200], [-860, 40], [-700, 260], [-400, 360]]
    pts = []
    for k in range(16):  # a lemniscate, starting on the lower edge of one loop
        t = -math.pi / 4 + 2 * math.pi * k / 16
        s = 1 + math.sin(t) ** 2
        pts.append([round(700 * math.cos(t) / s), round(700 * math.sin(t) * math.cos(t) / s)])
    return pts


def template(name: str) -> dict[str, Any]:
    """Track data of a template (see TEMPLATES)."""
    if name not in TEMPLATES:
        raise ValueError(f"unknown template {name!r}; choose one of {', '.join(TEMPLATES)}")
    pts = _points(name)
    length = sum(math.dist(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts)))
    n = max(24, round(length / 44))
    lanes = 3
    grid = [
        {"lane": 0, "segment": n - 1, "money": 10},
        {"lane": 1, "segment": n - 1, "money": 11},
        {"lane": 2, "segment": n - 1, "money": 12},
        {"lane": 0, "segment": n - 3, "money": 13},
        {"lane": 1, "segment": n - 3, "money": 14},
    ]
    rng = random.Random(f"slipstream-{name}")
    data: dict[str, Any] = {}
    for _attempt in range(200):
        lay = [_lane(rng, n) for _ in range(lanes)]
        data = {
            "slipstream": "track/1",
            "id": name,
            "name": TEMPLATE_NAMES[name],
            "laps": 3,
            "lanes": lanes,
            "layout": lay,
            "grid": [dict(s) for s in grid],
            "geometry": {"centerline": pts, "lane_width": 40, "smooth": True},
        }
        src = SourceMap("<template>")
        track, diags = parse_track(data, src)
        if track is not None and not diags and not check_track(track, data, src):
            break
    return data


# ---------------------------------------------------------------------------------------------
# track/2 starting points: plain squares, corners, a pit lane (rulesets give their own values)
# ---------------------------------------------------------------------------------------------

SHAPES = ("oval", "road-course")
SHAPE_NAMES = {"oval": "Oval", "road-course": "Road course"}
# where the corners of each shape lie, as (first, last) fractions of the lap
SHAPE_CORNERS = {
    "oval": ((0.18, 0.30), (0.43, 0.55), (0.68, 0.80), (0.86, 0.93)),
    "road-course": ((0.10, 0.16), (0.22, 0.30), (0.36, 0.42), (0.50, 0.58), (0.64, 0.70),
                    (0.76, 0.82), (0.87, 0.92)),
}


def squares_track(shape: str, *, squares: int, lanes: int, grid: int, laps: int,
                  corner: Any, pit: dict[str, Any] | None, rulesets: tuple[str, ...]) -> dict[str, Any]:
    """A track/2 of plain squares on a template shape (see SHAPES): `squares` a lane, `grid`
    slots just behind the line (pole first), a corner where the shape turns with the fields
    `corner(index)` gives it (stops, speed limits ...), and the pit lane `pit` as is."""
    if shape not in SHAPES:
        raise ValueError(f"unknown template {shape!r}; choose one of {', '.join(SHAPES)}")
    row = " ".join(["o"] * squares)
    slots = [{"lane": k % lanes, "segment": squares - 1 - k // lanes} for k in range(grid)]
    corners = []
    for i, (a, b) in enumerate(SHAPE_CORNERS[shape]):
        corners.append({"name": f"Turn {i + 1}", "from": round(a * squares), "to": round(b * squares),
                        **corner(i)})
    data: dict[str, Any] = {
        "slipstream": "track/2", "id": shape, "name": SHAPE_NAMES[shape], "laps": laps,
        "rulesets": list(rulesets), "lanes": lanes, "layout": [row] * lanes, "grid": slots,
        "corners": corners,
    }
    if pit is not None:
        data["pit"] = pit
    data["geometry"] = {"centerline": _points(shape), "lane_width": 40, "smooth": True}
    return data
