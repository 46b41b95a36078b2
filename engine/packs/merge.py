"""The merge steps every ruleset's pack shares: inherit, own items over inherited ones,
`overrides:` and `replaces:`, and the tracks (P010, P017, P018, P023-P025); `rows` does the
same, plus `removes:`, for the items of a whole-file data kind (the cards of a deck, the rows of
a table), so that an extending pack changes single items of a file it inherits.

A ruleset's content model (e.g. engine/rulesets/automobiles/contentcheck.py) calls these with
its own item kinds, labels and item builders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slipstream.engine.core.yamlsource import Loaded
from slipstream.engine.packs.data import FrozenMap, Origin, freeze, thaw
from slipstream.engine.packs.files import MANIFEST
from slipstream.engine.packs.loader import Build, Entry
from slipstream.engine.tracks.track import Track


def read_replaces(b: Build) -> dict[str, tuple[int, bool]]:
    """The manifest's `replaces:` entries: qualified id -> (index in the list, used yet?)."""
    lineage = b.lineage
    replaces: dict[str, tuple[int, bool]] = {}
    for i, ref in enumerate(b.manifest.data.get("replaces", [])):
        owner = ref.partition(":")[0]
        if owner not in lineage or owner == b.id:
            b.diag("P018", b.manifest.file, ("replaces", i),
                   f"{ref!r} names pack {owner!r}, which this pack does not extend",
                   hint="known packs here: " + ", ".join(p for p in lineage if p != b.id))
            continue
        replaces[ref] = (i, False)
    return replaces


def report_unused_replaces(b: Build, replaces: dict[str, tuple[int, bool]], kinds: str) -> None:
    """P025 for each `replaces:` entry that no own item used (`kinds`: what may replace)."""
    for ref, (i, used) in replaces.items():
        if not used:
            b.diag("P025", b.manifest.file, ("replaces", i),
                   f"`replaces` names {ref!r} but this pack defines no item with that id",
                   hint=f"define {kinds} with the same id, or remove the entry")


def merge_tracks(b: Build, replaces: dict[str, tuple[int, bool]],
                 ) -> tuple[dict[str, Track], dict[str, Origin], dict[str, str]]:
    """Tracks of the pack over inherited ones: (tracks, origins, owner pack) by track id."""
    inherited: dict[str, Any] = {}
    owner: dict[str, str] = {}
    origins: dict[str, Origin] = {}
    for parent in b.parents:
        for tid, track in parent.tracks.items():
            inherited[tid] = track
            owner[tid] = parent.track_owners[tid]
            origins[tid] = parent.track_origins[tid]
    tracks, own = merge(b, "track", "track", inherited, owner, replaces, None)
    for tid, e in own.items():
        if tid in b.tracks and (tid not in inherited or f"{owner[tid]}:{tid}" in replaces):
            tracks[tid] = b.tracks[tid]
            origins[tid] = e.origin
            owner[tid] = b.id
    return tracks, origins, {t: owner[t] for t in tracks}


def inherit(b: Build, attr: str, label: str) -> dict[str, Any]:
    """Items of every extended pack; a clash between two parents is reported."""
    out: dict[str, Any] = {}
    for i, parent in enumerate(b.parents):
        for key, item in getattr(parent, attr).items():
            prev = out.get(key)
            owner = getattr(item, "pack", parent.id)
            if prev is not None and prev != item:
                b.diag("P023", b.manifest.file, ("extends", extends_index(b, parent.id, i)),
                       f"{label} {key!r} is defined by two extended packs",
                       hint=f"{owner}:{key} and another pack both define it; extend only one, "
                            "or replace it in this pack")
            out[key] = item
    return out


def extends_index(b: Build, pid: str, fallback: int) -> int:
    return b.extends.index(pid) if pid in b.extends else fallback


def merge(b: Build, kind: str, label: str, inherited: dict[str, Any], owners: dict[str, str],
          replaces: dict[str, tuple[int, bool]], build: Callable[[Entry], Any] | None,
          ) -> tuple[dict[str, Any], dict[str, Entry]]:
    """Own items of `kind` over inherited ones: duplicates, clashes and `replaces` checked.

    `build` turns a valid raw entry into the ruleset's item (None: the caller builds them
    from the returned own entries, as for tracks and card sets)."""
    merged = dict(inherited)
    own: dict[str, Entry] = {}
    for e in b.own.get(kind, []):
        if e.id in own:
            first = own[e.id].origin
            src = b.sources.get(first.file)
            line = src.value((*first.path, "id")).line if src else 0
            b.at("P010", e.origin, ("id",) if kind != "track" else ("id",),
                 f"duplicate {label} id {e.id!r} (first defined at "
                 f"{Path(first.file).name}:{line})",
                 hint="ids must be unique in a pack; rename one of them")
            continue
        own[e.id] = e
        if e.id in inherited:
            qualified = f"{owners.get(e.id, '?')}:{e.id}"
            if qualified in replaces:
                replaces[qualified] = (replaces[qualified][0], True)
            else:
                code = "P024" if kind == "track" else "P023"
                b.at(code, e.origin, ("id",),
                     f"{label} id {e.id!r} clashes with {qualified} of an extended pack",
                     hint=f"rename it, or list `{qualified}` under `replaces:` in {MANIFEST} to "
                          "replace the inherited one on purpose" +
                          ("" if kind == "track" else " (or change fields with `overrides:`)"))
                continue
        if e.valid and build is not None:
            merged[e.id] = build(e)
        elif build is not None:
            merged.pop(e.id, None) if e.id not in inherited else None
    return merged, own


def apply_overrides(b: Build, label: str, overrides: list[Entry], merged: dict[str, Any],
                    lineage: tuple[str, ...], change: Callable[[Any, Entry], Any]) -> None:
    """Apply `overrides:` entries to inherited items (`change(item, entry)` makes the new item)."""
    for o in overrides:
        owner, sep, slug = o.id.rpartition(":")
        if sep and owner not in lineage:
            b.at("P018", o.origin, ("id",), f"{o.id!r} names pack {owner!r}, which this pack does not extend",
                 hint="known packs here: " + ", ".join(lineage))
            continue
        item = merged.get(slug)
        if item is None or item.pack == b.id or (sep and item.pack != owner):
            b.at("P017", o.origin, ("id",),
                 f"override of unknown {label} {o.id!r}: no extended pack defines it",
                 hint="overrides change inherited items; define new items in the main list")
            continue
        if o.valid:
            merged[slug] = change(item, o)




# ---------------------------------------------------------------------------------------------
# Single items of whole-file data kinds (cards of a deck, rows of a table)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    """One item of a data file that an extending pack may add, change or remove on its own (a
    card of a deck, a row of a table): its key (an id, or a number such as a gear), the pack
    that defined it, its fields and where they were written last (an override's entry when one
    changed them)."""

    key: str | int
    pack: str
    data: FrozenMap
    origin: Origin


def rows(b: Build, loaded: Loaded | None, list_key: str, key_field: str, label: str,
         inherited: Sequence[Row], replaces: dict[str, tuple[int, bool]] | None = None) -> list[Row]:
    """The items of one data kind: the inherited ones (in their order) changed by the pack's
    own file of that kind, whose entries are applied in this order:

    * `removes: [KEY, ...]` drops inherited items;
    * `overrides: [{KEY_FIELD: KEY, field: value, ...}]` changes fields of inherited items;
    * the main list (`list_key`) adds items at the end; an item with the key of an inherited
      one clashes (P023) unless it replaces it on purpose (`PACK:ID` under `replaces:` in
      pack.yaml, for items with ids), which keeps its place.

    A key of `removes` or `overrides` that no extended pack defines is P017 and one naming a
    pack this pack does not extend P018, at the entry's line and column; two own items with one
    key are P010. Keys are ids (`scrape`, or `speed-hazard:scrape` naming the pack) or numbers.
    """
    out = list(inherited)
    if loaded is None or not isinstance(loaded.data, dict):
        return out
    data, file = loaded.data, loaded.file
    lineage = b.lineage

    def find(ref: Any, path: tuple[str | int, ...], what: str) -> int | None:
        owner, slug = "", ref
        if isinstance(ref, str) and ":" in ref:
            owner, _, slug = ref.rpartition(":")
            if owner not in lineage or owner == b.id:
                b.diag("P018", file, path, f"{ref!r} names pack {owner!r}, which this pack does not extend",
                       hint="known packs here: " + ", ".join(p for p in lineage if p != b.id))
                return None
        for i, r in enumerate(out):
            if r.key == slug and r.pack != b.id and (not owner or r.pack == owner):
                return i
        gone = slug in removed
        b.diag("P017", file, path, f"{what} of unknown {label} {ref!r}: "
               + ("this file removes it (`removes:`)" if gone else "no extended pack defines it"),
               hint="`overrides:` and `removes:` name inherited items; add new items to `"
                    f"{list_key}:`" + (f"; known: {_known(out)}" if out else ""))
        return None

    removed: set[Any] = set()
    for i, ref in enumerate(data.get("removes") or []):
        at = find(ref, ("removes", i), "removal")
        if at is not None:
            removed.add(out[at].key)
            del out[at]
    for i, o in enumerate(data.get("overrides") or []):
        if not isinstance(o, dict) or key_field not in o:
            continue
        at = find(o[key_field], ("overrides", i, key_field), "override")
        if at is not None:
            r = out[at]
            fields = {k: v for k, v in o.items() if k != key_field}
            out[at] = Row(r.key, r.pack, freeze({**thaw(r.data), **fields}), Origin(file, ("overrides", i)))
    own: dict[Any, int] = {}
    for i, item in enumerate(data.get(list_key) or []):
        if not isinstance(item, dict) or key_field not in item:
            continue
        key = item[key_field]
        row = Row(key, b.id, freeze(item), Origin(file, (list_key, i)))
        if key in own:
            src = b.sources.get(file)
            line = src.value((list_key, own[key], key_field)).line if src else 0
            b.diag("P010", file, (list_key, i, key_field),
                   f"duplicate {label} {key!r} (first defined at {Path(file).name}:{line})",
                   hint=f"each {label} appears once in a file; change the first, or use `overrides:`")
            continue
        own[key] = i
        at = next((j for j, r in enumerate(out) if r.key == key and r.pack != b.id), None)
        if at is None:
            out.append(row)
            continue
        qualified = f"{out[at].pack}:{key}"
        if replaces is not None and qualified in replaces:
            replaces[qualified] = (replaces[qualified][0], True)
            out[at] = row
            continue
        b.diag("P023", file, (list_key, i, key_field),
               f"{label} {key!r} clashes with {qualified} of an extended pack",
               hint="change its fields with `overrides:`, leave it out with `removes:`"
                    + (f", or list `{qualified}` under `replaces:` in {MANIFEST} to replace it whole"
                       if replaces is not None and isinstance(key, str) else ""))
    return out


def _known(items: Sequence[Row], most: int = 12) -> str:
    keys = [str(r.key) for r in items]
    return ", ".join(keys[:most]) + (", ..." if len(keys) > most else "")
