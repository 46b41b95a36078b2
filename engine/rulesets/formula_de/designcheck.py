"""Static checks of a Formula Dé-style pack's designer data (designdata.py): every reference a
category, corner kind, weather condition or track corner makes must name something the pack
has, each with the line and column of the reference (docs/diagnostics.md):

- P050: wear categories: a category or wear row column naming no category, a printed category
  left out, a wear row without points of a declared category, a gear beyond the pack's;
- P051: corner kinds: `least_stops` not below `stops`, two default kinds of one number of
  stops, a `max_gear` beyond the pack's gears, a track corner naming no kind of the pack or
  giving stops its kind does not;
- P052: weather: a condition named but not declared (start, schedule, deck), declared twice,
  a schedule and a deck both, a `max_gear` beyond the pack's gears.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from slipstream.engine.packs.loader import Build
from slipstream.engine.packs.merge import Row
from slipstream.engine.rulesets.formula_de.designdata import (
    PRINTED,
    PRINTED_CATEGORIES,
)


def check_design(b: Build, cat_rows: Sequence[Row], kind_rows: Sequence[Row], wx_rows: Sequence[Row],
                 weather_f: Any, wx: Mapping[str, Any], wear_rows: Sequence[Row], gears: int) -> bool:
    """Report every misuse; True when there is none."""
    before = len(b.diags)
    ids = [str(r.key) for r in cat_rows] or [c.id for c in PRINTED_CATEGORIES]
    known = set(ids)
    hint = "categories: " + ", ".join(ids)
    for r in cat_rows:
        costs = r.data.get("costs") or {}
        if len(costs.get("turn", ())) > gears:
            b.at("P050", r.origin, ("costs", "turn"), f"category {r.key!r} costs turns of {len(costs['turn'])} gears; "
                 f"the pack has {gears}", hint="one number per gear, 1st first")
        if int(r.data.get("limp_gear", 0)) > gears:
            b.at("P050", r.origin, ("limp_gear",), f"limp gear {r.data['limp_gear']}: the pack has gears 1 to {gears}")
        if r.data.get("cause") and r.data.get("empty", "none") != "out":
            b.at("P050", r.origin, ("cause",), f"category {r.key!r} names a cause but does not eliminate",
                 hint="add `empty: out`, or leave `cause` out")
        for w in wear_rows:
            if r.key not in w.data:
                b.at("P050", r.origin, ("id",), f"the wear row for {w.key} laps gives no points of {r.key!r}",
                     hint=f"add `{r.key}:` to that row (`overrides: [{{laps: {w.key}, {r.key}: N}}]` for an inherited row)")
    if cat_rows:
        for p in PRINTED:
            if p not in known:
                where = cat_rows[0].origin
                b.at("P050", where, ("id",), f"the printed category {p!r} is missing: its rules need it",
                     hint="keep tyres, brakes, transmission, body and engine; change their costs with `overrides:`")
    for w in wear_rows:
        for col in w.data:
            if col != "laps" and col not in known:
                b.at("P050", w.origin, (col,), f"wear row for {w.key} laps: no category {col!r}", key=True,
                     hint=hint + " (declare new ones in a wear-categories/1 file)")
    defaults: dict[int, str] = {}
    for r in kind_rows:
        d = r.data
        if int(d["least_stops"]) >= int(d["stops"]):
            b.at("P051", r.origin, ("least_stops",), f"corner kind {r.key!r}: least_stops {d['least_stops']} is not "
                 f"below its {d['stops']} stops", hint="a car with all its stops made never overshoots; 0 never eliminates")
        if int(d.get("max_gear", 0)) > gears:
            b.at("P051", r.origin, ("max_gear",), f"corner kind {r.key!r}: max gear {d['max_gear']}, the pack has gears 1 to {gears}")
        if d.get("too_fast") and not d.get("max_gear"):
            b.at("P051", r.origin, ("too_fast",), f"corner kind {r.key!r} has a cost for stops too fast but no max_gear",
                 hint="give `max_gear:`")
        for cat in d.get("too_fast") or {}:
            if cat not in known:
                b.at("P050", r.origin, ("too_fast", cat), f"corner kind {r.key!r}: no category {cat!r}", key=True, hint=hint)
        if d.get("default"):
            n = int(d["stops"])
            if n in defaults:
                b.at("P051", r.origin, ("default",), f"corner kinds {defaults[n]!r} and {r.key!r} are both the default "
                     f"for {n} stops", hint="one kind per number of stops is the default")
            defaults.setdefault(n, str(r.key))
    if weather_f is not None:
        _check_weather(b, weather_f, wx_rows, wx, known, hint, gears)
    return len(b.diags) == before


def _check_weather(b: Build, f: Any, wx_rows: Sequence[Row], wx: Mapping[str, Any], known: set[str], hint: str,
                   gears: int) -> None:
    """The weather's conditions (this pack's and inherited, `wx_rows`) and what names them in
    this pack's file, or inherited into it (`wx`)."""
    data, file = f.data, f.file
    names = [str(r.key) for r in wx_rows]
    if not names:
        b.diag("P052", file, (), "the weather has no conditions", hint="declare them under `conditions:`")
    for r in wx_rows:
        c = r.data
        if int(c.get("max_gear", 0)) > gears:
            b.at("P052", r.origin, ("max_gear",), f"weather {r.key!r}: max gear {c['max_gear']}, "
                 f"the pack has gears 1 to {gears}")
        for cat, costs in (c.get("turn") or {}).items():
            if cat not in known:
                b.at("P050", r.origin, ("turn", cat), f"weather {r.key!r}: no category {cat!r}", key=True, hint=hint)
            elif len(costs) > gears:
                b.at("P052", r.origin, ("turn", cat), f"weather {r.key!r} costs turns of "
                     f"{len(costs)} gears; the pack has {gears}")
    whint = "conditions: " + ", ".join(names)
    refs: list[tuple[tuple[str | int, ...], Any]] = []
    if wx.get("start") is not None and wx["start"] not in names:
        refs.append((("start",) if "start" in data else ("conditions",), wx["start"]))
    refs += [(("schedule", i, "weather"), e["weather"]) for i, e in enumerate(data.get("schedule") or [])]
    refs += [(("deck", "cards", i, "weather"), c["weather"]) for i, c in enumerate((data.get("deck") or {}).get("cards", []))]
    for path, ref in refs:
        if ref not in names:
            b.diag("P052", file, path, f"no weather {ref!r}", hint=whint)
    if "schedule" in data and "deck" in data:
        b.diag("P052", file, ("deck",), "the weather has a schedule and a deck", key=True,
               hint="keep one: a schedule says when it changes, a deck draws it")


def check_track_kinds(b: Build, pack: Any) -> None:
    """The pack's own tracks: a corner's `kind` must be one of the pack's corner kinds, and its
    `stops`, when given too, those of its kind."""
    design = pack.tables.design
    kinds = {k.id: k for k in design.kinds}
    for tid, track in pack.tracks.items():
        if pack.track_owners.get(tid) != b.id:
            continue
        origin = pack.track_origins[tid]
        for c in track.corners:
            if c.kind is None:
                continue
            k = kinds.get(c.kind)
            if k is None:
                b.at("P051", origin, ("corners", c.index, "kind"), f"corner {c.name!r}: no corner kind {c.kind!r}",
                     hint="corner kinds: " + ", ".join(kinds) + " (declare new ones in a corner-kinds/1 file)")
            elif c.stops is not None and c.stops != k.stops:
                b.at("P051", origin, ("corners", c.index, "stops"), f"corner {c.name!r} of kind {c.kind!r} gives "
                     f"{c.stops} stops; the kind requires {k.stops}", hint="leave `stops` out: the kind gives them")
