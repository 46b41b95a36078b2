"""Pure-Python SVG picture of a track: spaces in gear colours, ticks, finish line, grid, and in
track/2 the corners, links and pit lane (overlays.py)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple
from xml.sax.saxutils import escape

from slipstream.engine.tracks.drawing import Point, TrackDrawing
from slipstream.engine.tracks.pitdrawing import label_lane, place_pit
from slipstream.engine.tracks.track import COLOUR_NAMES, PLAIN, Track

FILL = {3: "#f6f5ef", 4: "#c2c4c6", 5: "#6b6f73", 6: "#202225", PLAIN: "#9aa0a6"}
INK = {3: "#202225", 4: "#202225", 5: "#f6f5ef", 6: "#f6f5ef", PLAIN: "#202225"}
CAR_COLOURS = ("#d62828", "#1d70b8", "#2a9d3f", "#f2a900", "#7b3fa0")


def _pts(points: Iterable[Point]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


Box = tuple[float, float, float, float]  # min x, min y, max x, max y in drawing units


class Piece(NamedTuple):
    """One line of `track_svg`: the box of what it draws (None: a tag opening or closing a
    group, or a part drawn whatever the view), and its kind (`space`, `tick`, `grid`, `car`,
    `label`; "" for the others). Strokes may reach a few units beyond the box."""

    box: Box | None
    text: str
    kind: str = ""


def _box(points: Iterable[Point], pad: float = 0.0) -> Box:
    pts = list(points)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def track_svg(
    track: Track,
    *,
    highlight: Sequence[str] = (),
    cars: Sequence[tuple[int, int]] = (),
    title: bool = True,
    margin: float = 40.0,
    underlay: str = "",
) -> str:
    """An SVG document of the track. `highlight` marks spaces by name, `cars` places cars;
    `underlay` is SVG drawn over the background and under the track (a backdrop image)."""
    return "\n".join(p.text for p in svg_pieces(track, highlight=highlight, cars=cars, title=title,
                                                     margin=margin, underlay=underlay))


def svg_pieces(
    track: Track,
    *,
    highlight: Sequence[str] = (),
    cars: Sequence[tuple[int, int]] = (),
    title: bool = True,
    margin: float = 40.0,
    underlay: str = "",
) -> list[Piece]:
    """The lines of `track_svg` as `Piece`s, so a printed page keeps only what it shows."""
    d = TrackDrawing(track)
    x0, y0, x1, y1 = d.bounds
    if track.pit is not None or track.corners:
        margin += d.lane_width * 1.6  # room for the pit lane and the corner flags
    head = 50.0 if title else 0.0
    foot = 44.0 if title else 0.0  # the colour legend
    w, h = x1 - x0 + 2 * margin, y1 - y0 + 2 * margin + head + foot
    lw = d.lane_width
    font = max(9.0, lw * 0.32)
    out: list[Piece] = [
        Piece(None, f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0 - margin:.1f} {y0 - margin - head:.1f} '
               f'{w:.1f} {h:.1f}" width="{w:.0f}" height="{h:.0f}" font-family="DejaVu Sans, Arial, sans-serif">'),
        Piece(None, f'<rect x="{x0 - margin:.1f}" y="{y0 - margin - head:.1f}" width="{w:.1f}" height="{h:.1f}" '
               'fill="#3f7d3a"/>'),
    ]
    if underlay:
        out.append(Piece(None, underlay))
    if title:
        out.append(Piece(None,
            f'<text x="{x0 - margin + 16:.1f}" y="{y0 - margin - head + 32:.1f}" font-size="22" fill="#fff" '
            f'font-weight="bold">{escape(track.name)}</text>'
            f'<text x="{x1 + margin - 16:.1f}" y="{y0 - margin - head + 32:.1f}" font-size="14" fill="#fff" '
            f'text-anchor="end">{track.lanes} lanes · {track.segments} segments · '
            f'{len(track.spaces)} spaces · {track.laps} laps</text>'
        ))
    # tarmac under the whole track, so missing lane parts show as verge
    out.append(Piece(None, '<g id="spaces" stroke="#111" stroke-width="1.2" stroke-linejoin="round">'))
    marked = set(highlight)
    for sp in track.spaces:
        poly = d.space_polygon(sp)
        extra = ' stroke="#ff2d95" stroke-width="4"' if sp.name in marked else ""
        out.append(Piece(_box(poly),
            f'<polygon points="{_pts(poly)}" fill="{FILL[sp.colour]}"{extra}>'
            f"<title>{sp.name} {COLOUR_NAMES[sp.colour]} ×{sp.length}</title></polygon>", "space"
        ))
    out.append(Piece(None, "</g>"))
    # segment ticks inside multi-segment spaces
    out.append(Piece(None, '<g id="ticks" stroke-width="1" stroke-dasharray="3 3">'))
    for sp in track.spaces:
        for s in range(sp.first + 1, sp.first + sp.length):
            a, b = d.cross_line(s, sp.lane)
            out.append(Piece(_box((a, b)),
                f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" '
                f'stroke="{INK[sp.colour]}" stroke-opacity="0.55"/>', "tick"
            ))
    out.append(Piece(None, "</g>"))
    # finish line: a chequered band across all lanes at segment 0
    out.append(Piece(None, _finish_line(d)))
    # track/2: pit lane, corners, links
    from slipstream.engine.tracks.overlays import overlays

    layer = overlays(track, d, font)
    if layer:
        out.append(Piece(None, layer))
    # grid slots
    out.append(Piece(None, '<g id="grid">'))
    for i, slot in enumerate(track.grid):
        if not (0 <= slot.lane < track.lanes and 0 <= slot.segment < track.segments):
            continue
        c = d.point(slot.lane, slot.segment + 0.5)
        ang = math.degrees(d.direction(slot.segment + 0.5))
        slot_space = track.space_at(slot.lane, slot.segment)
        ink = INK[slot_space.colour] if slot_space else "#000"
        out.append(Piece(_box([c], lw),
            f'<g transform="translate({c[0]:.1f},{c[1]:.1f}) rotate({ang:.1f})">'
            f'<rect x="{-lw * 0.42:.1f}" y="{-lw * 0.36:.1f}" width="{lw * 0.84:.1f}" height="{lw * 0.72:.1f}" '
            f'rx="3" fill="none" stroke="{ink}" stroke-width="1.5"/>'
            f'<text y="{-font * 0.1:.1f}" font-size="{font:.1f}" text-anchor="middle" fill="{ink}" '
            f'font-weight="bold">P{i + 1}</text>'
            + (f'<text y="{font * 1.05:.1f}" font-size="{font * 0.9:.1f}" text-anchor="middle" '
               f'fill="{ink}">${slot.money}</text>' if track.version < 2 or slot.money else "")
            + "</g>", "grid"
        ))
    out.append(Piece(None, "</g>"))
    if cars:
        out.append(Piece(None, '<g id="cars">'))
        for i, (lane, seg) in enumerate(cars):
            c = d.point(lane, seg + 0.5)
            ang = math.degrees(d.direction(seg + 0.5))
            out.append(Piece(_box([c], lw),
                f'<g transform="translate({c[0]:.1f},{c[1]:.1f}) rotate({ang:.1f})">'
                f'<rect x="{-lw * 0.35:.1f}" y="{-lw * 0.22:.1f}" width="{lw * 0.7:.1f}" '
                f'height="{lw * 0.44:.1f}" rx="4" fill="{CAR_COLOURS[i % len(CAR_COLOURS)]}" '
                f'stroke="#000"/></g>', "car"
            ))
        out.append(Piece(None, "</g>"))
    out.append(Piece(None, _direction_arrow(d, font)))
    if title:
        out.append(Piece(None, _legend(track, x0 - margin + 16, y1 + margin + foot - 16, font)))
    # segment numbers along the outside
    out.append(Piece(None, '<g id="labels" font-size="%.1f" fill="#fff" text-anchor="middle" font-weight="bold">' % font))
    step = max(1, round(track.segments / 24 / 5) * 5) if track.segments > 24 else 1
    pit = place_pit(d)
    for s in range(0, track.segments, step):  # beyond an outside pit lane where it runs
        x, y = d.point(label_lane(d, s + 0.5, track.lanes - 0.5 + 0.45, pit), s + 0.5)
        out.append(Piece(_box([(x, y)], font * (1 + 0.6 * len(str(s)))),
                         f'<text x="{x:.1f}" y="{y + font * 0.35:.1f}">{s}</text>', "label"))
    out.append(Piece(None, "</g>"))
    out.append(Piece(None, "</svg>"))
    return out


def _finish_line(d: TrackDrawing) -> str:
    lanes = d.track.lanes
    cells = []
    rows = 2
    per_lane = 3
    seg_frac = 0.18 / rows
    for r in range(rows):
        for k in range(lanes * per_lane):
            lane_pos = k / per_lane - 0.5
            a = d.point(lane_pos, r * seg_frac)
            b = d.point(lane_pos + 1 / per_lane, r * seg_frac)
            c = d.point(lane_pos + 1 / per_lane, (r + 1) * seg_frac)
            e = d.point(lane_pos, (r + 1) * seg_frac)
            fill = "#000" if (k + r) % 2 else "#fff"
            cells.append(f'<polygon points="{_pts([a, b, c, e])}" fill="{fill}"/>')
    return '<g id="finish">' + "".join(cells) + "</g>"


def _direction_arrow(d: TrackDrawing, font: float) -> str:
    """An arrow beside the first segments, outside the outer lane: the direction of travel."""
    lanes = d.track.lanes
    n = d.track.segments
    span = max(1.0, min(4.0, n / 16))
    off = lanes - 0.5 + 1.3
    pts = [d.point(off, 0.6 + span * k / 8) for k in range(9)]
    tip = pts[-1]
    ang = d.direction(0.6 + span)
    size = font * 0.9
    left = (tip[0] - size * math.cos(ang - 0.5), tip[1] - size * math.sin(ang - 0.5))
    right = (tip[0] - size * math.cos(ang + 0.5), tip[1] - size * math.sin(ang + 0.5))
    return ('<g id="direction" fill="#fff" stroke="#fff">'
            f'<polyline points="{_pts(pts)}" fill="none" stroke-width="{size * 0.28:.1f}" stroke-linecap="round"/>'
            f'<polygon points="{_pts([tip, left, right])}" stroke-width="1"/>'
            "<title>direction of travel</title></g>")


def _legend(track: Track, x: float, y: float, font: float) -> str:
    """Swatches of the space colours the track uses, with their names."""
    used = sorted({sp.colour for sp in track.spaces}, key=lambda c: (c == PLAIN, c))
    out = [f'<g id="legend" font-size="{font * 1.1:.1f}" fill="#fff">']
    for c in used:
        name = "plain square" if c == PLAIN else f"{COLOUR_NAMES[c]} ({c})"
        out.append(f'<rect x="{x:.1f}" y="{y - font * 1.1:.1f}" width="{font * 1.4:.1f}" height="{font * 1.4:.1f}" '
                   f'fill="{FILL[c]}" stroke="#111"/>'
                   f'<text x="{x + font * 1.9:.1f}" y="{y + font * 0.1:.1f}">{escape(name)}</text>')
        x += font * (2.6 + 0.62 * len(name))
    out.append(f'<text x="{x + font:.1f}" y="{y + font * 0.1:.1f}">→ direction of travel beside the finish line</text>')
    out.append("</g>")
    return "".join(out)
