"""Which pack the Test race dock races the open track with, and why (Qt-free).

A track belongs to the pack whose folder holds it (the nearest folder above it with a pack
manifest): that pack races it. A track outside any pack that names rulesets (`rulesets:` of
track/2) keeps the pack in use when that pack plays one of them, else gets the bundled pack of
the first of them that has one (engine/packs/loader.py `bundled_rulesets`). A track that names
no ruleset keeps the pack in use. Rulesets are known only by id, through the registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from slipstream.engine.packs.files import MANIFEST
from slipstream.engine.packs.loader import bundled_packs, bundled_rulesets
from slipstream.engine.play.registry import RulesetError, get


@dataclass(frozen=True, slots=True)
class PackPick:
    """A pack for the open track: its folder (None: keep the pack in use) and a sentence."""

    folder: Path | None
    why: str


def home_pack(track_file: Path | None) -> Path | None:
    """The pack folder that holds a track file (the nearest folder above it with a manifest)."""
    if track_file is None:
        return None
    for folder in Path(track_file).resolve().parents:
        if (folder / MANIFEST).is_file():
            return folder
    return None


def is_bundled(folder: Path) -> bool:
    return folder.resolve() in {p.resolve() for p in bundled_packs().values()}


def ruleset_name(rid: str) -> str:
    """A ruleset's name through the registry (its id when it is not installed)."""
    try:
        return get(rid).name
    except (RulesetError, ImportError):
        return rid


def pick(track_file: Path | None, rulesets: tuple[str, ...], current: str,
         use_home: bool = True) -> PackPick:
    """The pack for a track saved at `track_file` (None: not saved yet) that names `rulesets`,
    when the pack in use plays ruleset `current` (`use_home=False`: not
    the pack holding the file)."""
    name = Path(track_file).name if track_file is not None else "the new track"
    home = home_pack(track_file) if use_home else None
    if home is not None:
        kind = "the bundled pack" if is_bundled(home) else "the pack"
        return PackPick(home, f"{name} belongs to {kind} {home.name}, so that pack races it.")
    if not rulesets:
        return PackPick(None, "")
    names = " or ".join(ruleset_name(r) for r in rulesets)
    if current in rulesets:
        return PackPick(None, f"{name} is made for {names}; the pack in use plays it.")
    plays = bundled_rulesets()
    folders = bundled_packs()
    for rid in rulesets:
        for pid in sorted(p for p, r in plays.items() if r == rid):
            return PackPick(folders[pid], f"{name} is made for {names}: the bundled pack {pid} "
                                          f"plays {'it' if len(rulesets) == 1 else ruleset_name(rid)}.")
    return PackPick(None, f"{name} is made for {names}, and no bundled pack plays "
                          f"{'it' if len(rulesets) == 1 else 'them'}: pick a pack folder of "
                          f"{'that ruleset' if len(rulesets) == 1 else 'one of them'}.")
