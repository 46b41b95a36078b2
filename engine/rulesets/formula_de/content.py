"""The Formula Dé-style content model: tracks plus the gear dice (`gears/1`) and the wear
point tables (`wear/1`) as data (docs/rules/formula-de.md).

A pack holds at most one file of each kind; a pack that extends another inherits the tables it
does not give itself. Without them anywhere in its lineage the pack is reported (P043).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from slipstream.engine.core.diagnostics import make
from slipstream.engine.core.schema import validator
from slipstream.engine.packs.data import FrozenMap
from slipstream.engine.packs.loader import Build
from slipstream.engine.packs.trackpack import TrackPack, TracksOnly
from slipstream.engine.play.base import own_file

RULESET_ID = "formula-de"
CATEGORIES = ("tyres", "brakes", "transmission", "body", "engine")


@dataclass(frozen=True, slots=True)
class Tables:
    """The dice and wear numbers of a pack: faces per gear (1st first), the black die, and the
    wear points per race length (`laps` -> category -> points) and of the basic pool."""

    gears: tuple[tuple[int, ...], ...]
    black_die: int
    wear: FrozenMap
    basic_pool: int


def wear_for(tables: Tables, laps: int) -> dict[str, int]:
    """The wear points by category the table gives a race of `laps` laps: its row for that
    length, else the longest shorter one, else the shortest."""
    table = tables.wear
    below = [k for k in table if k <= laps]
    row = laps if laps in table else max(below) if below else min(table)
    return {c: int(table[row][c]) for c in CATEGORIES}


@dataclass(frozen=True, slots=True)
class FDPack(TrackPack):
    """A loaded Formula Dé-style pack: a track pack with its tables (None when missing)."""

    tables: Tables | None = None



class FDContent(TracksOnly):
    """Tracks merged as for any track pack, plus the two table kinds."""

    data_kinds = ("gears", "wear")

    def build(self, b: Build) -> FDPack:
        tp = super().build(b)
        # the parents are packs of this ruleset (the loader refuses others, P029)
        inherited = next((p.tables for p in reversed(b.parents) if isinstance(p, FDPack) and p.tables), None)
        gears_f, wear_f = own_file(b, "gears", "P043"), own_file(b, "wear", "P043")
        tables = inherited
        if gears_f is not None or wear_f is not None:
            tables = _tables(b, gears_f, wear_f, inherited)
        elif inherited is None:
            b.diags.append(make("P043", "pack.yaml", 1, 1, "$", "no gear dice or wear table in the pack",
                                hint="add a gears/1 and a wear/1 file, or extend `formula-de`"))
        return FDPack(**{f.name: getattr(tp, f.name) for f in fields(TrackPack)}, tables=tables)


def _valid(loaded: Any, kind: str) -> bool:
    return loaded is None or bool(validator(kind).is_valid(loaded.data))


def _tables(b: Build, gears_f: Any, wear_f: Any, inherited: Tables | None) -> Tables | None:
    if not (_valid(gears_f, "gears") and _valid(wear_f, "wear")):
        return None  # the schema diagnostics say what is wrong
    if (gears_f is None or wear_f is None) and inherited is None:
        missing = "gears/1" if gears_f is None else "wear/1"
        b.diags.append(make("P043", (gears_f or wear_f).file, 1, 1, "$", f"no {missing} file for this table",
                            hint="the ruleset needs both tables"))
        return None
    if gears_f is not None:
        g = gears_f.data
        by_gear = {int(e["gear"]): tuple(int(f) for f in e["faces"]) for e in g.get("gears", [])}
        if sorted(by_gear) != list(range(1, len(by_gear) + 1)):
            pos = gears_f.source.value(("gears",))
            b.diags.append(make("P043", gears_f.file, pos.line, pos.column, "$.gears",
                                f"the gears must be 1, 2, ... without a gap, not {sorted(by_gear)}",
                                hint="give one entry per gear, from 1st up"))
            return None
        gears, black = tuple(by_gear[k] for k in sorted(by_gear)), int(g.get("black_die", 20))
    else:
        assert inherited is not None
        gears, black = inherited.gears, inherited.black_die
    if wear_f is not None:
        w = wear_f.data
        wear = FrozenMap({int(r["laps"]): FrozenMap({c: int(r[c]) for c in CATEGORIES}) for r in w.get("races", [])})
        pool = int(w.get("basic_pool", 18))
    else:
        assert inherited is not None
        wear, pool = inherited.wear, inherited.basic_pool
    return Tables(gears, black, wear, pool)


CONTENT = FDContent(RULESET_ID)
