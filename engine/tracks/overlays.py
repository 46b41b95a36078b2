"""SVG layers of the track/2 parts: corner zones with stop flags and speed limits, links that
differ from the geometry (arrows), the pit lane with its boxes, entries and exits, and board
features (outlined)."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from slipstream.engine.tracks.drawing import Point, TrackDrawing
from slipstream.engine.tracks.movegraph import geometry_successors
from slipstream.engine.tracks.pitdrawing import place_pit
from slipstream.engine.tracks.track import PIT_LANE, Track

CORNER_INK = "#e63946"
ADDED_INK = "#1b9e3f"
REMOVED_INK = "#e63946"
PIT_FILL = "#b9c4cf"
BOX_INK = "#1d70b8"


def _pts(points: list[Point]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def corner_layer(d: TrackDrawing, font: float) -> str:
    track = d.track
    n = track.segments
    out = ['<g id="corners">']
    for c in track.corners:
        if not (0 <= c.first < n and 0 <= c.last < n):
            continue
        end = c.first + c.length(n)
        outline = _zone(d, c.first, end)
        dash = ' stroke-dasharray="8 4"' if c.chicane else ""
        out.append(f'<polygon points="{_pts(outline)}" fill="{CORNER_INK}" fill-opacity="0.10" '
                   f'stroke="{CORNER_INK}" stroke-width="3"{dash}><title>{escape(c.name)}</title></polygon>')
        # flag beside the inner lane at the entry: stop count (and C for a chicane)
        fx, fy = d.point(-0.9, c.first + 0.5)
        label = (f"{c.stops}" if c.stops is not None else "") + (" C" if c.chicane else "")
        if label:
            out.append(f'<g class="stops"><rect x="{fx - font:.1f}" y="{fy - font:.1f}" width="{2 * font:.1f}" '
                       f'height="{2 * font:.1f}" fill="{CORNER_INK}" stroke="#fff"/>'
                       f'<text x="{fx:.1f}" y="{fy + font * 0.35:.1f}" font-size="{font:.1f}" fill="#fff" '
                       f'text-anchor="middle" font-weight="bold">{escape(label.strip())}</text></g>')
        # speed limits: one roundel per lane at the corner's entry (per-space limits on their space)
        from slipstream.engine.tracks.corners import speed_limit

        for lane in range(track.lanes):
            sp = track.space_at(lane, c.first)
            if sp is None:
                continue
            v = speed_limit(track, lane, c.first)
            if v is not None:
                out.append(_roundel(d.point(lane, c.first + 0.5), v, font))
        for name, v in c.space_speeds:
            sp = track.space_named(name)
            if sp is not None and sp.first != c.first:
                out.append(_roundel(d.point(sp.lane, sp.first + sp.length / 2), v, font))
    out.append("</g>")
    return "\n".join(out)


def _zone(d: TrackDrawing, first: float, end: float) -> list[Point]:
    """Outline of all lanes from segment `first` to `end`."""
    lanes = d.track.lanes
    inner = d.band(0, first, end)
    outer = d.band(lanes - 1, first, end)
    k = len(inner) // 2
    # inner edge of lane 0, then the outer edge of the outermost lane backwards
    return inner[:k] + outer[k:]


def _roundel(c: Point, v: int, font: float) -> str:
    r = font * 1.15
    return (f'<g class="speed"><circle cx="{c[0]:.1f}" cy="{c[1]:.1f}" r="{r:.1f}" fill="#fff" '
            f'stroke="{CORNER_INK}" stroke-width="{r * 0.25:.1f}"/>'
            f'<text x="{c[0]:.1f}" y="{c[1] + font * 0.3:.1f}" font-size="{font * 0.85:.1f}" '
            f'text-anchor="middle" fill="#000" font-weight="bold">{v}</text></g>')


def _arrow(a: Point, b: Point, ink: str, width: float, dashed: bool = False) -> str:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    h = width * 3.5
    p1 = (b[0] - h * math.cos(ang - 0.45), b[1] - h * math.sin(ang - 0.45))
    p2 = (b[0] - h * math.cos(ang + 0.45), b[1] - h * math.sin(ang + 0.45))
    dash = f' stroke-dasharray="{width * 2:.1f} {width * 1.5:.1f}"' if dashed else ""
    return (f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" stroke="{ink}" '
            f'stroke-width="{width:.1f}"{dash}/><polygon points="{_pts([b, p1, p2])}" fill="{ink}"/>')


def _centre(d: TrackDrawing, track: Track, name: str) -> Point | None:
    sp = track.space_named(name)
    if sp is None or sp.lane == PIT_LANE:
        return None
    return d.point(sp.lane, sp.first + sp.length / 2)


def link_layer(d: TrackDrawing, width: float) -> str:
    """Arrows for links that differ from the geometry: added green, removed red and dashed."""
    track = d.track
    geo = geometry_successors(track)
    out = ['<g id="links">']
    for link in track.links:
        a, b = track.space_named(link.src), track.space_named(link.dst)
        pa, pb = _centre(d, track, link.src), _centre(d, track, link.dst)
        if a is None or b is None or pa is None or pb is None:
            continue
        if (b.index in geo[a.index]) == link.add:
            continue  # the link changes nothing: nothing to show
        out.append(_arrow(pa, pb, ADDED_INK if link.add else REMOVED_INK, width, dashed=not link.add))
        if not link.add:
            m = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
            s = width * 2
            out.append(f'<path d="M{m[0] - s:.1f},{m[1] - s:.1f} L{m[0] + s:.1f},{m[1] + s:.1f} '
                       f'M{m[0] - s:.1f},{m[1] + s:.1f} L{m[0] + s:.1f},{m[1] - s:.1f}" '
                       f'stroke="{REMOVED_INK}" stroke-width="{width:.1f}"/>')
    out.append("</g>")
    return "\n".join(out)


def pit_layer(d: TrackDrawing, font: float) -> str:
    """The pit lane's squares, boxes (numbered), entry and exit arrows."""
    place = place_pit(d)
    track = d.track
    if place is None or track.pit is None:
        return ""
    pit = track.pit
    out = ['<g id="pit" stroke="#111" stroke-width="1">']
    boxes = {b: k for k, b in enumerate(pit.boxes)}
    for sp in pit.spaces:
        out.append(f'<polygon points="{_pts(place.space_polygon(sp))}" fill="{PIT_FILL}">'
                   f"<title>{sp.name}</title></polygon>")
        for s in sp.segments():
            if s in boxes:
                c = place.point(s + 0.5)
                out.append(f'<circle cx="{c[0]:.1f}" cy="{c[1]:.1f}" r="{font * 0.9:.1f}" fill="{BOX_INK}"/>'
                           f'<text x="{c[0]:.1f}" y="{c[1] + font * 0.3:.1f}" font-size="{font * 0.8:.1f}" '
                           f'fill="#fff" text-anchor="middle" stroke="none">{boxes[s] + 1}</text>')
    w = max(2.0, d.lane_width * 0.07)
    for e in pit.entries:
        a = _centre(d, track, e.cell)
        if a is not None and pit.space_at(e.to) is not None:
            out.append(_arrow(a, place.point(e.to + 0.5), "#f2a900" if e.main else "#777", w, dashed=not e.main))
            if e.speed is not None:
                out.append(_roundel(a, e.speed, font))
    for x in pit.exits:
        b = _centre(d, track, x.cell)
        if b is not None and pit.space_at(x.source) is not None:
            out.append(_arrow(place.point(x.source + 0.5), b, "#f2a900" if x.main else "#777", w, dashed=not x.main))
    out.append("</g>")
    return "\n".join(out)


def feature_layer(d: TrackDrawing) -> str:
    """Board features (a pit wall): a thick dark outline on their spaces."""
    track = d.track
    place = place_pit(d)
    out = ['<g id="features" fill="none" stroke="#2b2b2b" stroke-linejoin="round">']
    w = max(2.0, d.lane_width * 0.12)
    for f in track.features:
        for name in f.spaces:
            sp = track.space_named(name)
            if sp is None:
                continue
            if sp.lane == PIT_LANE:
                if place is None:
                    continue
                poly = place.space_polygon(sp)
            else:
                poly = d.space_polygon(sp)
            out.append(f'<polygon points="{_pts(poly)}" stroke-width="{w:.1f}"><title>{escape(f.kind)}</title></polygon>')
    out.append("</g>")
    return "\n".join(out)


def overlays(track: Track, d: TrackDrawing, font: float) -> str:
    """Every track/2 layer, or the empty string for a track without them."""
    if track.version < 2:
        return ""
    parts = [pit_layer(d, font), feature_layer(d) if track.features else "", corner_layer(d, font),
             link_layer(d, max(2.0, d.lane_width * 0.06))]
    return "\n".join(p for p in parts if p)
