"""The merge steps every ruleset's pack shares: inherit, own items over inherited ones,
`overrides:` and `replaces:`, and the tracks (P010, P017, P018, P023-P025).

A ruleset's content model (e.g. engine/rulesets/automobiles/contentcheck.py) calls these with
its own item kinds, labels and item builders.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from slipstream.engine.packs.data import Origin
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


