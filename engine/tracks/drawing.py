"""Where each cell of a track lies on paper: the shared drawing geometry (DESIGN §4).

Segments are spaced evenly by arc length along the closed centreline; lanes are offset from it,
lane 0 on the inside of the loop's turning direction. Without `geometry` the loop is laid out
as a stadium. The SVG renderer, the PDF export and the editor canvas all use this module.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from functools import cached_property

from slipstream.engine.tracks.track import Geometry, Space, Track

Point = tuple[float, float]

DEFAULT_LANE_WIDTH = 40.0
# the schemas' bounds of a drawing (track/1 and track/2): beyond them, or not finite, a
# geometry cannot be drawn and the stadium is drawn instead (a file that breaks them is invalid,
# but the editor still opens it)
MAX_COORDINATE = 1_000_000.0
MAX_LANE_WIDTH = 100_000.0


def drawable(geometry: Geometry | None) -> bool:
    """Whether a track's geometry is within the bounds a drawing needs."""
    if geometry is None:
        return False
    if not (0 < geometry.lane_width <= MAX_LANE_WIDTH):  # False for NaN too
        return False
    return all(-MAX_COORDINATE <= c <= MAX_COORDINATE for p in geometry.centerline for c in p)


def stadium_centerline(segments: int, lanes: int, lane_width: float = DEFAULT_LANE_WIDTH) -> list[Point]:
    """A stadium loop sized so that a segment is about as long as a lane is wide."""
    seg_len = lane_width * 1.1
    total = max(segments * seg_len, 2 * math.pi * lanes * lane_width * 1.2)
    radius = max(lanes * lane_width * 1.2, total / (2 * math.pi) * 0.35)
    straight = max(0.0, (total - 2 * math.pi * radius) / 2)
    pts: list[Point] = []
    # Start in the middle of the bottom straight, travelling right (counter-clockwise on screen).
    half = straight / 2
    pts.append((0.0, radius))
    pts.append((half, radius))
    for k in range(1, 16):
        a = math.pi / 2 - math.pi * k / 16
        pts.append((half + radius * math.cos(a), radius * math.sin(a)))
    pts.append((half, -radius))
    pts.append((-half, -radius))
    for k in range(1, 16):
        a = -math.pi / 2 - math.pi * k / 16
        pts.append((-half + radius * math.cos(a), radius * math.sin(a)))
    pts.append((-half, radius))
    return pts


def catmull_rom(points: list[Point], per_span: int = 12) -> list[Point]:
    """A closed Catmull-Rom curve through the control points."""
    n = len(points)
    out: list[Point] = []
    for i in range(n):
        p0, p1, p2, p3 = points[i - 1], points[i], points[(i + 1) % n], points[(i + 2) % n]
        for k in range(per_span):
            t = k / per_span
            t2, t3 = t * t, t * t * t
            out.append(tuple(  # type: ignore[arg-type]
                0.5 * ((2 * p1[j]) + (-p0[j] + p2[j]) * t + (2 * p0[j] - 5 * p1[j] + 4 * p2[j] - p3[j]) * t2
                       + (-p0[j] + 3 * p1[j] - 3 * p2[j] + p3[j]) * t3)
                for j in range(2)
            ))
    return out


@dataclass
class TrackDrawing:
    """Arc-length parametrised centreline with lane offsets for one track."""

    track: Track

    @cached_property
    def geometry(self) -> Geometry | None:
        """The track's geometry when it can be drawn, else None (the stadium)."""
        g = self.track.geometry
        return g if drawable(g) else None

    @cached_property
    def lane_width(self) -> float:
        g = self.geometry
        return g.lane_width if g else DEFAULT_LANE_WIDTH

    @cached_property
    def path(self) -> list[Point]:
        g = self.geometry
        if g is None:
            pts = stadium_centerline(self.track.segments, self.track.lanes, self.lane_width)
        else:
            pts = list(g.centerline)
            if g.smooth and len(pts) >= 3:
                pts = catmull_rom(pts)
        # drop repeated points, which have no direction
        clean = [pts[0]]
        for p in pts[1:]:
            if math.dist(p, clean[-1]) > 1e-9:
                clean.append(p)
        if len(clean) > 1 and math.dist(clean[0], clean[-1]) < 1e-9:
            clean.pop()
        return clean

    @cached_property
    def cumulative(self) -> list[float]:
        pts = self.path
        acc = [0.0]
        for i in range(len(pts)):
            acc.append(acc[-1] + math.dist(pts[i], pts[(i + 1) % len(pts)]))
        return acc

    @property
    def length(self) -> float:
        return self.cumulative[-1]

    @cached_property
    def inward(self) -> float:
        """+1 when the inside of the loop is on the left of travel, -1 when on the right."""
        pts = self.path
        area = sum(pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1]
                   for i in range(len(pts)))
        return 1.0 if area > 0 else -1.0

    def _edge_normal(self, i: int) -> Point:
        pts = self.path
        a, b = pts[i % len(pts)], pts[(i + 1) % len(pts)]
        d = math.dist(a, b) or 1.0
        dx, dy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
        s = self.inward
        return (-dy * s, dx * s)  # left normal times the inward sign

    def _vertex_normal(self, i: int) -> Point:
        n1, n2 = self._edge_normal(i - 1), self._edge_normal(i)
        x, y = n1[0] + n2[0], n1[1] + n2[1]
        d = math.hypot(x, y)
        if d < 1e-9:
            return n2
        x, y = x / d, y / d
        # miter: keep the lane width constant through the corner (bounded for sharp turns)
        cos_half = max(0.35, x * n2[0] + y * n2[1])
        return (x / cos_half, y / cos_half)

    def at(self, t: float) -> tuple[Point, Point]:
        """Point and inward normal at arc length t (taken modulo the loop length)."""
        L = self.length
        t %= L
        cum = self.cumulative
        i = min(bisect.bisect_right(cum, t) - 1, len(self.path) - 1)
        seg_len = cum[i + 1] - cum[i]
        f = (t - cum[i]) / seg_len if seg_len else 0.0
        a, b = self.path[i], self.path[(i + 1) % len(self.path)]
        p = (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
        if f < 1e-9:
            return p, self._vertex_normal(i)
        return p, self._edge_normal(i)

    def segment_t(self, segment: float) -> float:
        return self.length * segment / self.track.segments

    def offset(self, lane: float) -> float:
        """Inward offset of a lane's centre from the centreline (lane 0 innermost)."""
        return ((self.track.lanes - 1) / 2 - lane) * self.lane_width

    def point(self, lane: float, segment: float) -> Point:
        """Drawing position of fractional (lane, segment) coordinates; centre of a cell at +0.5."""
        p, n = self.at(self.segment_t(segment))
        o = self.offset(lane)
        return (p[0] + n[0] * o, p[1] + n[1] * o)

    def _samples(self, t0: float, t1: float) -> list[float]:
        """t0, the path vertices strictly between, t1 (no wrap handling beyond one lap)."""
        cum = self.cumulative
        L = self.length
        out = [t0]
        base = 0.0
        last = len(cum) - 1  # cum[:-1] are the vertices
        for _lap in range(2):
            # the vertices in range found by bisection (one to spare on each side), then kept by
            # the exact test, so the samples are those a scan of every vertex keeps
            lo = max(0, bisect.bisect_left(cum, t0 - base, 0, last) - 1)
            hi = min(last, bisect.bisect_right(cum, t1 - base, 0, last) + 1)
            for c in cum[lo:hi]:
                t = c + base
                if t0 + 1e-9 < t < t1 - 1e-9:
                    out.append(t)
            base += L
        out.append(t1)
        return sorted(out)

    def band(self, lane: int, first: float, end: float) -> list[Point]:
        """Polygon of lane `lane` from segment `first` to segment `end` (exclusive)."""
        t0, t1 = self.segment_t(first), self.segment_t(end)
        ts = self._samples(t0, t1)
        o = self.offset(lane)
        hw = self.lane_width / 2
        inner, outer = [], []
        for t in ts:
            p, n = self.at(t)
            inner.append((p[0] + n[0] * (o + hw), p[1] + n[1] * (o + hw)))
            outer.append((p[0] + n[0] * (o - hw), p[1] + n[1] * (o - hw)))
        return inner + outer[::-1]

    def space_polygon(self, space: Space) -> list[Point]:
        return self.band(space.lane, space.first, space.first + space.length)

    def cross_line(self, segment: float, lane: int | None = None) -> tuple[Point, Point]:
        """The line across one lane (or all lanes) at a segment boundary."""
        p, n = self.at(self.segment_t(segment))
        hw = self.lane_width / 2
        if lane is None:
            lo = self.offset(self.track.lanes - 1) - hw
            hi = self.offset(0) + hw
        else:
            lo, hi = self.offset(lane) - hw, self.offset(lane) + hw
        return ((p[0] + n[0] * hi, p[1] + n[1] * hi), (p[0] + n[0] * lo, p[1] + n[1] * lo))

    def direction(self, segment: float) -> float:
        """Angle (radians) of the direction of travel at a segment position."""
        t = self.segment_t(segment)
        a, _ = self.at(t - 0.5)
        b, _ = self.at(t + 0.5)
        return math.atan2(b[1] - a[1], b[0] - a[0])

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """min x, min y, max x, max y of everything drawn."""
        xs: list[float] = []
        ys: list[float] = []
        for lane in (0, self.track.lanes - 1):
            for k in range(0, 256):
                seg = self.track.segments * k / 256
                for side in (-0.5, 0.5):
                    x, y = self.point(lane + side, seg)
                    xs.append(x)
                    ys.append(y)
        for x, y in self.path:
            xs.append(x)
            ys.append(y)
        return min(xs), min(ys), max(xs), max(ys)
