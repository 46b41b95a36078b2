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
