"""The Formula Dé-style content model: tracks plus the gear dice (`gears/1`) and the wear
point tables (`wear/1`) as data (docs/rules/formula-de.md), and what a designer varies beyond
them: the wear categories and what takes points of each (`wear-categories/1`), the corner
kinds (`corner-kinds/1`) and the weather (`weather/1`), each read into plain tuples the race
looks up (designer.py checks how they are used).

A pack holds at most one file of each kind. The categories and corner kinds are rows by `id`
(added, changed or removed one by one, as the tables); a pack without them anywhere in its
lineage plays the printed ones (`PRINTED_CATEGORIES`, `PRINTED_KINDS`, the same as the bundled
pack's files). Weather is optional: without a `weather/1` file there is none. A pack that extends another inherits the tables and
changes single rows of them in its own files (engine/packs/merge.py's `rows`): a gear's die by
its `gear`, a wear row by its `laps`, each added in the main list, changed under `overrides:` or
left out under `removes:`; `black_die` and `basic_pool`, when given, replace the inherited ones.
Without tables anywhere in its lineage, or with gears that do not run from 1st without a gap,
the pack is reported (P043).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slipstream.engine.core.diagnostics import make
from slipstream.engine.core.schema import validator
from slipstream.engine.packs.data import FrozenMap
from slipstream.engine.packs.loader import Build
from slipstream.engine.packs.merge import Row, rows
from slipstream.engine.packs.trackpack import TrackPack, TracksOnly
from slipstream.engine.play.base import own_file
from slipstream.engine.rulesets.formula_de.designdata import (
    PRINTED,
    PRINTED_DESIGN,
    Design,
    category,
    corner_kind,
    weather,
)

RULESET_ID = "formula-de"
CATEGORIES = PRINTED  # the printed categories (a pack may add its own: Design.names)


@dataclass(frozen=True, slots=True)
class Tables:
    """The dice and wear numbers of a pack: faces per gear (1st first), the black die, and the
    wear points per race length (`laps` -> category -> points) and of the basic pool."""

    gears: tuple[tuple[int, ...], ...]
    black_die: int
    wear: FrozenMap
    basic_pool: int
    design: Design = PRINTED_DESIGN  # categories, corner kinds, weather (designdata.py)


def wear_for(tables: Tables, laps: int) -> dict[str, int]:
    """The wear points by category the table gives a race of `laps` laps: its row for that
    length, else the longest shorter one, else the shortest."""
    table = tables.wear
    below = [k for k in table if k <= laps]
    row = laps if laps in table else max(below) if below else min(table)
    return {c: int(table[row].get(c, 0)) for c in tables.design.names}


@dataclass(frozen=True, slots=True)
class FDPack(TrackPack):
    """A loaded Formula Dé-style pack: a track pack with its tables (None when missing) and the
    rows they were made of (`gears`, `wear`: what a pack extending this one changes)."""

    tables: Tables | None = None
    rows: Mapping[str, tuple[Row, ...]] = FrozenMap()



class FDContent(TracksOnly):
    """Tracks merged as for any track pack, plus the two table kinds."""

    kinds = ("gears", "wear", "wear-categories", "corner-kinds", "weather")
    # gear dice by gear, wear rows by laps, categories, corner kinds and weather conditions by id
    row_kinds = ("gears", "wear", "wear-categories", "corner-kinds", "weather")
    pack_type = FDPack

    def build(self, b: Build) -> TrackPack:
        pack = super().build(b)
        if isinstance(pack, FDPack) and pack.tables is not None:
            from slipstream.engine.rulesets.formula_de.designcheck import check_track_kinds

            check_track_kinds(b, pack)
        return pack

    def build_data(self, b: Build, replaces: dict[str, tuple[int, bool]]) -> dict[str, Any]:
        # the parents are packs of this ruleset (the loader refuses others, P029)
        parent = next((p for p in reversed(b.parents) if isinstance(p, FDPack) and p.tables), None)
        gears_f, wear_f = own_file(b, "gears", "P043"), own_file(b, "wear", "P043")
        design_f = {k: own_file(b, k, "P043") for k in ("wear-categories", "corner-kinds", "weather")}
        if gears_f is None and wear_f is None:
            if parent is None:
                b.diags.append(make("P043", "pack.yaml", 1, 1, "$", "no gear dice or wear table in the pack",
                                    hint="add a gears/1 and a wear/1 file, or extend `formula-de`"))
                return {}
            if all(f is None for f in design_f.values()):
                return {"tables": parent.tables, "rows": parent.rows}
        if not all(_valid(f, k) for k, f in (("gears", gears_f), ("wear", wear_f), *design_f.items())):
            return {}  # the schema diagnostics say what is wrong
        return _tables(b, gears_f, wear_f, parent, design_f)


def _valid(loaded: Any, kind: str) -> bool:
    return loaded is None or bool(validator(kind).is_valid(loaded.data))


def _scalar(b: Build, f: Any, key: str, inherited: int | None, what: str) -> int | None:
    """A whole-table number (`black_die`, `basic_pool`): this file's, else the inherited one."""
    if f is not None and key in f.data:
        return int(f.data[key])
    if inherited is None and f is not None:
        b.diags.append(make("P043", f.file, 1, 1, "$", f"no `{key}` ({what}): no extended pack gives it",
                            hint=f"give `{key}:` in this file"))
    return inherited


def _tables(b: Build, gears_f: Any, wear_f: Any, parent: FDPack | None,
            design_f: Mapping[str, Any]) -> dict[str, Any]:
    old = parent.rows if parent is not None else {}
    old_t = parent.tables if parent is not None else None
    gear_rows = rows(b, gears_f, "gears", "gear", "gear", old.get("gears", ()))
    wear_rows = rows(b, wear_f, "races", "laps", "wear row", old.get("wear", ()))
    black = _scalar(b, gears_f, "black_die", old_t.black_die if old_t else None, "the black die")
    pool = _scalar(b, wear_f, "basic_pool", old_t.basic_pool if old_t else None, "the basic pool")
    for table, found, kind in ((gear_rows, gears_f, "gears/1"), (wear_rows, wear_f, "wear/1")):
        if not table:
            where = (gears_f or wear_f).file if found is None else found.file
            b.diags.append(make("P043", where, 1, 1, "$",
                                f"no {kind} file for this table" if found is None else f"the {kind} table has no rows",
                                hint="the ruleset needs both tables"))
            return {}
    by_gear = {int(r.key): tuple(int(f) for f in r.data["faces"]) for r in gear_rows}
    if sorted(by_gear) != list(range(1, len(by_gear) + 1)):
        if gears_f is not None:
            pos = gears_f.source.value(("gears",) if "gears" in gears_f.data else ())
            path = "$.gears" if "gears" in gears_f.data else "$"
            b.diags.append(make("P043", gears_f.file, pos.line, pos.column, path,
                                f"the gears must be 1, 2, ... without a gap, not {sorted(by_gear)}",
                                hint="give one entry per gear, from 1st up (remove only the top gears)"))
        return {}
    if black is None or pool is None:
        return {}
    # a pack extending one that plays the printed categories or corner kinds inherits them as
    # rows (printed/), so it changes them with `overrides:` and adds its own after them
    cats_old = old.get("wear-categories", ()) or (printed_rows("categories") if parent is not None else ())
    kinds_old = old.get("corner-kinds", ()) or (printed_rows("kinds") if parent is not None else ())
    cat_rows = rows(b, design_f["wear-categories"], "categories", "id", "wear category", cats_old)
    kind_rows = rows(b, design_f["corner-kinds"], "kinds", "id", "corner kind", kinds_old)
    wx_rows = rows(b, design_f["weather"], "conditions", "id", "weather condition", old.get("weather", ()))
    design = _design(b, cat_rows, kind_rows, wx_rows, design_f["weather"], old_t.design if old_t else PRINTED_DESIGN,
                     wear_rows, len(by_gear))
    if design is None:
        return {}
    wear = FrozenMap({int(r.key): FrozenMap({c: int(r.data.get(c, 0)) for c in design.names}) for r in wear_rows})
    tables = Tables(tuple(by_gear[k] for k in sorted(by_gear)), black, wear, pool, design)
    return {"tables": tables, "rows": FrozenMap({"gears": tuple(gear_rows), "wear": tuple(wear_rows),
                                                 "wear-categories": tuple(cat_rows), "corner-kinds": tuple(kind_rows),
                                                 "weather": tuple(wx_rows)})}


_PRINTED_FILES = {"categories": "categories.yaml", "kinds": "corner-kinds.yaml"}
_printed: dict[str, tuple[Row, ...]] = {}


def printed_rows(list_key: str) -> tuple[Row, ...]:
    """The printed categories (`categories`) or corner kinds (`kinds`) as rows of the ruleset's
    data files in printed/ (the same as designdata.PRINTED_*, which a test keeps so)."""
    if list_key not in _printed:
        from importlib import resources

        from slipstream.engine.core.yamlsource import load_file
        from slipstream.engine.packs.data import Origin, freeze

        name = _PRINTED_FILES[list_key]
        path = resources.files("slipstream.engine.rulesets.formula_de") / "printed" / name
        data = load_file(Path(str(path))).data
        _printed[list_key] = tuple(Row(item["id"], RULESET_ID, freeze(item), Origin(f"printed/{name}", (list_key, i)))
                                   for i, item in enumerate(data[list_key]))
    return _printed[list_key]


def _design(b: Build, cat_rows: list[Row], kind_rows: list[Row], wx_rows: list[Row], weather_f: Any,
            inherited: Design, wear_rows: list[Row], gears: int) -> Design | None:
    """The pack's categories, corner kinds and weather: its rows over the inherited ones (the
    printed ones when no pack of the lineage declares any); the weather's conditions by id as
    rows, its `start` and its schedule or deck this pack's when it gives them (a schedule
    replaces an inherited deck and a deck a schedule), else the inherited; None when a check
    fails (designcheck.py reports why)."""
    from slipstream.engine.rulesets.formula_de.designcheck import check_design

    own = dict(weather_f.data) if weather_f is not None else {}
    old = inherited.weather
    if old is not None and weather_f is not None:  # what the pack does not give, inherited
        if "start" not in own:
            own["start"] = old.start
        if "schedule" not in own and "deck" not in own:
            if old.schedule:
                own["schedule"] = [{w: k, "weather": c} for w, k, c in old.schedule]
            elif old.deck:
                own["deck"] = {"every": old.every, "cards": [{"weather": c} for c in old.deck]}
    if not check_design(b, cat_rows, kind_rows, wx_rows, weather_f, own, wear_rows, gears):
        return None
    cats = tuple(category(r.data) for r in cat_rows) or inherited.categories
    kinds = tuple(corner_kind(r.data) for r in kind_rows) or inherited.kinds
    wx = old
    if weather_f is not None:
        wx = weather(own, [r.data for r in wx_rows])
    design = Design(cats, kinds, wx)
    return PRINTED_DESIGN if design == PRINTED_DESIGN else design


CONTENT = FDContent(RULESET_ID)
