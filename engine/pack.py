"""Content packs (DESIGN §6): the `Pack` model and `load_pack`.

A pack is a folder holding `pack.yaml` (format tag `pack/1`) plus YAML files found by their own
format tags: `cubes/1`, `cards/1`, `drivers/1`, `sponsors/1`, `cardsets/1`, `rules/1` and
`track/1` files (in any sub-folder but `tests/`, which holds rule scenarios). A pack may extend
other packs (`extends: [base]`): it inherits their content, adds items, changes fields of
inherited items through `overrides:` lists and replaces whole items listed in `replaces:`.

Everything here is plain, read-only data: mappings are `FrozenMap`s and lists are tuples, and
effect lists stay as the YAML data they were written as (the effect interpreter reads them).
Each item keeps an `Origin` so diagnostics can point into the file it came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from . import schemafast
from .diagnostics import Diagnostic, has_errors, make, sort_key
from .packfiles import MANIFEST, TESTS_DIR
from .packfiles import walk_pack as _walk
from .schema import registry, schema_diagnostics
from .track import Track
from .yamlsource import Loaded, PathKey, Pos, SourceMap, json_path, load_file

FORMAT_TAG = "pack/1"
CONTENT_PACKAGE = "slipstream.content"
# File kinds a pack reads itself; `track` files go through the track checks.
DATA_KINDS = ("cubes", "cards", "drivers", "sponsors", "cardsets", "rules")
BRACKETS = ("first", "middle", "last")
HOOK_PHASES = ("action", "buy", "car", "decline", "end_before_draw", "end_draw", "end_after_draw")

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(dict[K, V]):
    """A read-only dict: hashable, picklable and JSON-serialisable like a plain dict."""

    __slots__ = ()

    def _blocked(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("pack data is read-only")

    __setitem__ = __delitem__ = _blocked
    clear = pop = popitem = setdefault = update = _blocked
    __ior__ = _blocked

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=lambda kv: repr(kv[0]))))

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenMap({dict.__repr__(self)})"


def freeze(data: Any) -> Any:
    """Loaded YAML data as read-only data: mappings → FrozenMap, lists → tuples."""
    if isinstance(data, dict):
        return FrozenMap({k: freeze(v) for k, v in data.items()})
    if isinstance(data, list | tuple):
        return tuple(freeze(v) for v in data)
    return data


def thaw(data: Any) -> Any:
    """The inverse of `freeze` (plain dicts and lists), e.g. for JSON or YAML output."""
    if isinstance(data, dict):
        return {k: thaw(v) for k, v in data.items()}
    if isinstance(data, tuple | list):
        return [thaw(v) for v in data]
    return data


@dataclass(frozen=True, slots=True)
class Origin:
    """Where an item was written: the file (as displayed in diagnostics) and its JSON path."""

    file: str
    path: PathKey

    def child(self, *sub: str | int) -> Origin:
        return Origin(self.file, (*self.path, *sub))


@dataclass(frozen=True, slots=True)
class CubeKind:
    """A kind of cube: a gear shade, wear, or an action colour (RULES §1.1)."""

    id: str
    pack: str
    name: str
    role: str  # "gear" | "wear" | "action"
    gear: int | None  # 3..6 for gear cubes: also the space colour in track layouts
    supply: int
    display: str | None
    text: str | None
    origin: Origin = field(compare=False)


@dataclass(frozen=True, slots=True)
class Card:
    """A card: what cubes of `colour` (a cube kind id) do, cost and are worth (RULES §1.2)."""

    id: str
    pack: str
    name: str
    colour: str
    cost: int
    value: int
    supply: int
    buyable: bool
    fixed: bool
    text: str
    notes: str | None
    effect: tuple[Any, ...]
    # The mapping that supplied `effect` (the card, or an override that replaced the effect).
    origin: Origin = field(compare=False)
    # True when the card sets its own supply rather than taking its cube kind's.
    supply_explicit: bool = field(default=False, compare=False, repr=False)

    @property
    def qualified(self) -> str:
        return f"{self.pack}:{self.id}"


@dataclass(frozen=True, slots=True)
class Driver:
    """A driver card: effect lists keyed by the turn moment they may be used (RULES §7.1)."""

    id: str
    pack: str
    name: str
    text: str
    notes: str | None
    hooks: FrozenMap[str, tuple[Any, ...]]
    origin: Origin = field(compare=False)

    @property
    def qualified(self) -> str:
        return f"{self.pack}:{self.id}"


@dataclass(frozen=True, slots=True)
class SponsorBracket:
    """One finishing bracket of a sponsor: its effect list, which opens with the standard
    removal (`remove ... as: standard`); `standard_remove` is that step's number."""

    standard_remove: int
    effect: tuple[Any, ...]
    origin: Origin = field(compare=False)


@dataclass(frozen=True, slots=True)
class Sponsor:
    """A sponsor card (RULES §7.2): family A-F, level 1-3, one bracket per finishing place."""

    id: str
    pack: str
    family: str
    level: int
    name: str
    text: str
    notes: str | None
    brackets: FrozenMap[str, SponsorBracket]
    origin: Origin = field(compare=False)

    @property
    def qualified(self) -> str:
        return f"{self.pack}:{self.id}"

    def standard_remove(self, bracket: str) -> int:
        return self.brackets[bracket].standard_remove

    def effect(self, bracket: str) -> tuple[Any, ...]:
        return self.brackets[bracket].effect


@dataclass(frozen=True, slots=True)
class CardSet:
    """One action card per action colour: `cards` maps colour → card id."""

    id: str
    pack: str
    name: str
    description: str | None
    cards: FrozenMap[str, str]
    origin: Origin = field(compare=False)

    @property
    def qualified(self) -> str:
        return f"{self.pack}:{self.id}"


@dataclass(frozen=True, slots=True)
class Rules:
    """Rule constants and house-rule options of the merged pack (RULES §2, §3.5, §5, §8)."""

    hand_size: int
    players_min: int
    players_max: int
    starting_bag: FrozenMap[str, int]
    wear_by_darkest: FrozenMap[str, int]
    grid_money: tuple[int, ...]
    sponsor_pool_extra: int
    season_races: int
    options: FrozenMap[str, Any]
    origin: Origin = field(compare=False)

    def option(self, name: str) -> Any:
        return self.options[name]


@dataclass(frozen=True, slots=True)
class Pack:
    """A loaded pack with everything it inherits merged in. Items are keyed by plain slug."""

    id: str
    name: str
    version: str
    description: str
    extends: tuple[str, ...]
    root: Path
    lineage: tuple[str, ...]  # this pack's id, then every pack it inherits from
    cube_kinds: FrozenMap[str, CubeKind]
    cards: FrozenMap[str, Card]
    drivers: FrozenMap[str, Driver]
    sponsors: FrozenMap[str, Sponsor]
    card_sets: FrozenMap[str, CardSet]
    rules: Rules | None
    tracks: FrozenMap[str, Track]
    scenario_files: tuple[Path, ...]
    sources: FrozenMap[str, SourceMap] = field(compare=False)
    track_origins: FrozenMap[str, Origin] = field(compare=False)
    track_owners: FrozenMap[str, str] = field(compare=False)  # track id -> pack that defines it
    digest: str = ""  # sha256 over the bytes of every file read (own and inherited)

    # --- look-ups -----------------------------------------------------------------------
    def resolve(self, ref: str) -> str | None:
        """The plain id for `ref` (`ID` or `PACK:ID`) if the pack line knows it."""
        owner, sep, slug = ref.rpartition(":")
        if sep and owner not in self.lineage:
            return None
        return slug

    def card(self, ref: str) -> Card:
        """A card by plain or namespaced id; KeyError if unknown."""
        return self.cards[self.resolve(ref) or ref]

    def card_set(self, name: str) -> CardSet:
        """A card set by id (plain or namespaced) or by its display name (case-insensitive)."""
        slug = self.resolve(name) or ""
        if slug in self.card_sets:
            return self.card_sets[slug]
        for cs in self.card_sets.values():
            if cs.name.lower() == name.lower():
                return cs
        raise KeyError(name)

    @property
    def action_colours(self) -> tuple[str, ...]:
        return tuple(k.id for k in self.cube_kinds.values() if k.role == "action")

    @property
    def gear_kinds(self) -> tuple[CubeKind, ...]:
        """Gear cube kinds, lowest gear first."""
        return tuple(sorted((k for k in self.cube_kinds.values() if k.role == "gear"),
                            key=lambda k: k.gear or 0))

    @property
    def fixed_cards(self) -> tuple[Card, ...]:
        """The cards in every game (gears and wear), in cube-kind order."""
        order = {k: i for i, k in enumerate(self.cube_kinds)}
        return tuple(sorted((c for c in self.cards.values() if c.fixed),
                            key=lambda c: order.get(c.colour, 99)))

    def cards_in_play(self, card_set: str | CardSet) -> FrozenMap[str, Card]:
        """Colour → card for a game with this card set: the fixed cards plus the set's cards."""
        cs = card_set if isinstance(card_set, CardSet) else self.card_set(card_set)
        out = {c.colour: c for c in self.fixed_cards}
        for colour, cid in cs.cards.items():
            out[colour] = self.cards[cid]
        return FrozenMap(out)

    def position(self, origin: Origin, *sub: str | int) -> tuple[str, Pos, str]:
        """(file, line/column, JSON path) of `origin` plus a sub-path, for diagnostics."""
        path = (*origin.path, *sub)
        src = self.sources.get(origin.file)
        pos = src.value(path) if src is not None else Pos(1, 1)
        return origin.file, pos, json_path(path)

    def diagnostic(self, code: str, origin: Origin, sub: Sequence[str | int], message: str,
                   *, hint: str | None = None) -> Diagnostic:
        """A diagnostic at an item's position (for the rules engine's effect errors)."""
        file, pos, jp = self.position(origin, *sub)
        return make(code, file, pos.line, pos.column, jp, message, hint=hint)


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Entry:
    """One raw item read from a pack file, before merging."""

    kind: str  # cube | card | driver | sponsor | card_set | track
    id: str
    pack: str
    data: dict[str, Any]
    origin: Origin
    valid: bool = True


@dataclass(slots=True)
class PackFile:
    """One data file of a pack, loaded and schema-checked."""

    rel: str
    kind: str
    loaded: Loaded


@dataclass(slots=True)
class Build:
    """Working state while one pack is loaded; also what the cross-checks read."""

    root: Path
    manifest: Loaded
    id: str
    extends: tuple[str, ...]
    parents: list[Pack]
    files: list[PackFile] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, SourceMap] = field(default_factory=dict)
    own: dict[str, list[Entry]] = field(default_factory=dict)
    overrides: dict[str, list[Entry]] = field(default_factory=dict)
    rules_files: list[Loaded] = field(default_factory=list)
    tracks: dict[str, Track] = field(default_factory=dict)
    scenario_files: list[Path] = field(default_factory=list)
    digest: Any = None
    broken_extends: bool = False  # an extended pack is missing, cyclic or has errors

    @property
    def lineage(self) -> tuple[str, ...]:
        out = [self.id]
        for p in self.parents:
            out += [x for x in p.lineage if x not in out]
        return tuple(out)

    def diag(self, code: str, file: str, path: PathKey, message: str, *,
             key: bool = False, hint: str | None = None) -> None:
        src = self.sources.get(file)
        if src is None:
            pos = Pos(1, 1)
        else:
            pos = src.key(path) if key else src.value(path)
        self.diags.append(make(code, file, pos.line, pos.column, json_path(path), message, hint=hint))

    def at(self, code: str, origin: Origin, sub: Sequence[str | int], message: str, *,
           key: bool = False, hint: str | None = None) -> None:
        self.diag(code, origin.file, (*origin.path, *sub), message, key=key, hint=hint)


def _display(root: Path, rel: str) -> str:
    return str(root / rel) if str(root) not in ("", ".") else rel


def _tag(data: Any) -> tuple[str, int | None]:
    if not isinstance(data, dict) or "slipstream" not in data:
        return "", None
    kind, _, ver = str(data["slipstream"]).partition("/")
    return kind, int(ver) if ver.isdigit() else None


class PackLoader:
    """Loads packs and the packs they extend; one loader caches every pack it has read."""

    def __init__(self, search: Sequence[str | Path] = ()) -> None:
        self.search = [Path(s) for s in search]
        self.cache: dict[Path, tuple[Pack | None, list[Diagnostic]]] = {}
        self._index: dict[Path, dict[str, Path]] = {}
        # folders searched for packs by id (their manifests decide what `extends` finds)
        self.scanned: set[Path] = set()
        # a folder found by id -> later folders in the same place claiming that id
        self._rivals: dict[Path, list[Path]] = {}

    # -- finding packs by id ----------------------------------------------------------------
    def _packs_in(self, folder: Path) -> dict[str, Path]:
        key = folder.resolve() if folder.exists() else folder
        if key in self._index:
            return self._index[key]
        found: dict[str, Path] = {}
        try:
            children = sorted(p for p in folder.iterdir() if p.is_dir())
        except OSError:
            children = []
        for child in children:
            if (child / MANIFEST).is_file():
                loaded = load_file(child / MANIFEST)
                if isinstance(loaded.data, dict) and isinstance(loaded.data.get("id"), str):
                    pid = loaded.data["id"]
                    if pid in found:
                        self._rivals.setdefault(found[pid].resolve(), []).append(child)
                    found.setdefault(pid, child)
        self._index[key] = found
        return found

    def rivals(self, folder: Path) -> list[Path]:
        """Other folders beside `folder` (found by `find`) whose packs carry the same id."""
        return self._rivals.get(folder.resolve(), [])

    def find(self, pack_id: str, near: Path) -> Path | None:
        """The folder of the pack `pack_id`: beside `near`, in the search folders, or bundled."""
        for folder in (near.parent, *self.search):
            self.scanned.add(folder.resolve())
            hit = self._packs_in(folder).get(pack_id)
            if hit is not None:
                return hit
        self.scanned.add(bundled_root().resolve())
        return bundled_packs().get(pack_id)

    def _cycle(self, folder: Path, stack: set[Path], seen: frozenset[Path] = frozenset()) -> list[str]:
        """Pack ids from `folder` along `extends` back into `stack` (so through this pack), or []."""
        data = load_file(folder / MANIFEST).data
        ext = data.get("extends", []) if isinstance(data, dict) else []
        for pid in ext if isinstance(ext, list) else []:
            nxt = self.find(str(pid), folder)
            if nxt is None or nxt.resolve() in seen:
                continue
            if nxt.resolve() in stack:
                return [str(data.get("id")), str(pid)]
            rest = self._cycle(nxt, stack, seen | {folder.resolve()})
            if rest:
                return [str(data.get("id")), *rest]
        return []

    # -- loading ------------------------------------------------------------------------------
    def load(self, path: str | Path, stack: tuple[Path, ...] = ()) -> tuple[Pack | None, list[Diagnostic]]:
        root = Path(path)
        if root.is_file() and root.name == MANIFEST:
            root = root.parent
        key = root.resolve()
        if key in self.cache:
            return self.cache[key]
        result = self._load(root, (*stack, key))
        self.cache[key] = result
        return result

    def _load(self, root: Path, stack: tuple[Path, ...]) -> tuple[Pack | None, list[Diagnostic]]:
        from . import packcheck

        mfile = _display(root, MANIFEST)
        if not (root / MANIFEST).is_file():
            return None, [make("P001", str(root), 1, 1, "$",
                               f"{root} is not a pack: it has no {MANIFEST}",
                               hint="create one with `slipstream new pack NAME`")]
        manifest = load_file(root / MANIFEST, display=mfile)
        if manifest.data is None:
            return None, manifest.diagnostics
        mdiags = _schema_check("pack", manifest)
        if mdiags:
            return None, sorted(mdiags, key=sort_key)
        data = manifest.data
        b = Build(root=root, manifest=manifest, id=data["id"],
                  extends=tuple(data.get("extends", ())), parents=[])
        b.sources[mfile] = manifest.source
        import hashlib

        b.digest = hashlib.sha256()
        b.digest.update(manifest.text.encode())

        # Inherited packs first (their errors are reported when they are validated themselves).
        for i, pid in enumerate(b.extends):
            folder = self.find(pid, root)
            if folder is None:
                b.diag("P020", mfile, ("extends", i), f"extends unknown pack {pid!r}",
                       hint="put that pack's folder next to this one, or fix the id")
                b.broken_extends = True
                continue
            others = self.rivals(folder)
            if others:
                b.diag("P026", mfile, ("extends", i),
                       f"pack id {pid!r} is claimed by more than one folder ({folder.name}, "
                       f"{', '.join(o.name for o in others)}); using {folder.name}",
                       hint="give every pack its own id, or move the other copies away")
            cycle = [pid] if folder.resolve() in stack else self._cycle(folder, set(stack))
            if cycle:
                chain = " -> ".join([b.id, *cycle])
                b.diag("P021", mfile, ("extends", i), f"extends forms a cycle ({chain} -> ...)",
                       hint="a pack may not inherit from itself, directly or through others")
                b.broken_extends = True
                continue
            parent, pdiags = self.load(folder, stack)
            if parent is None or has_errors(pdiags):
                b.diag("P022", mfile, ("extends", i),
                       f"extended pack {pid!r} has errors; validate {folder} first")
                b.broken_extends = True
                if parent is None:
                    continue
            b.parents.append(parent)
            b.digest.update(parent.digest.encode())

        self._read_files(b)
        pack = packcheck.build_pack(b)
        return pack, sorted(b.diags, key=sort_key)

    def _read_files(self, b: Build) -> None:
        from . import packcheck
        from .validate import check_track_data

        for rel in _walk(b.root):
            if rel == MANIFEST:
                continue
            file = _display(b.root, rel)
            if rel.split("/", 1)[0] == TESTS_DIR:
                b.scenario_files.append(b.root / rel)
                b.diags += _check_scenario_file(b.root / rel, file)
                continue
            loaded = load_file(b.root / rel, display=file)
            b.sources[file] = loaded.source
            b.digest.update(rel.encode() + b"\0" + loaded.text.encode())
            if loaded.data is None:
                b.diags += loaded.diagnostics
                continue
            kind, ver = _tag(loaded.data)
            if not kind:
                b.diags.append(make("F002", file, 1, 1, "$", "skipped: no `slipstream:` format tag",
                                    hint="pack files start with a tag such as `slipstream: cards/1`"))
                continue
            pos = loaded.source.value(("slipstream",))
            if kind not in (*DATA_KINDS, "track", "pack") or ver != 1:
                from .validate import known_tags

                b.diags.append(make("F003", file, pos.line, pos.column, "$.slipstream",
                                    f"unknown format tag {loaded.data['slipstream']!r}",
                                    hint="known tags: " + ", ".join(known_tags())))
                continue
            if kind == "pack":
                b.diags.append(make("P002", file, pos.line, pos.column, "$.slipstream",
                                    f"a pack manifest must be named {MANIFEST} at the top of the pack",
                                    hint="rename the file, or give it its own folder to make a separate pack"))
                continue
            if kind == "track":
                track, tdiags = check_track_data(loaded.data, loaded.source)
                b.diags += tdiags
                if track is not None:
                    _add(b, "track", Entry("track", track.id, b.id, loaded.data, Origin(file, ())))
                    b.tracks.setdefault(track.id, track)
                continue
            b.files.append(PackFile(rel, kind, loaded))
            sdiags = _schema_check(kind, loaded)
            b.diags += packcheck.filter_schema(sdiags, loaded)
            _collect(b, kind, loaded, bool(sdiags))


_ITEM_LISTS = {
    "cubes": ("cubes", "cube", "cube", "cube_override"),
    "cards": ("cards", "card", "card", "card_override"),
    "drivers": ("drivers", "driver", "driver", "driver_override"),
    "sponsors": ("sponsors", "sponsor", "sponsor", "sponsor_override"),
    "cardsets": ("card_sets", "card_set", "card_set", None),
}


def _add(b: Build, kind: str, entry: Entry) -> None:
    b.own.setdefault(kind, []).append(entry)


@cache
def _item_validator(schema: str, defname: str) -> Any:
    from jsonschema import Draft202012Validator

    ref = f"https://slipstream.invalid/schemas/{schema}.schema.json#/$defs/{defname}"
    return Draft202012Validator({"$ref": ref}, registry=registry())


def _item_ok(schema: str, defname: str, item: Any) -> bool:
    fast = schemafast.is_valid(schema, item, defname)
    return bool(_item_validator(schema, defname).is_valid(item)) if fast is None else fast


def _schema_check(kind: str, loaded: Loaded) -> list[Diagnostic]:
    """Schema diagnostics of one file; the fast check skips jsonschema for valid files."""
    if schemafast.is_valid(kind, loaded.data):
        return []
    return schema_diagnostics(kind, loaded.data, loaded.source)


def _collect(b: Build, kind: str, loaded: Loaded, had_errors: bool) -> None:
    """Gather the items of one data file; with schema errors only items that are valid."""
    data = loaded.data
    file = loaded.file
    if kind == "rules":
        b.rules_files.append(loaded)
        return
    key, item_kind, defname, odef = _ITEM_LISTS[kind]
    items = data.get(key) if isinstance(data, dict) else None
    if isinstance(items, list):
        for i, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                continue
            ok = not had_errors or _item_ok(kind, defname, item)
            _add(b, item_kind, Entry(item_kind, item["id"], b.id, item, Origin(file, (key, i)), ok))
    overrides = data.get("overrides") if isinstance(data, dict) else None
    if odef and isinstance(overrides, list):
        for i, item in enumerate(overrides):
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                continue
            ok = not had_errors or _item_ok(kind, odef, item)
            b.overrides.setdefault(item_kind, []).append(
                Entry(item_kind, item["id"], b.id, item, Origin(file, ("overrides", i)), ok))


def _check_scenario_file(path: Path, file: str) -> list[Diagnostic]:
    """A rule scenario of the pack, checked by the validator registered for its kind.

    Scenario files are checked standalone (their schema; references are checked when
    `slipstream test` runs them), so a file the fast schema check accepts needs nothing more.
    """
    from .validate import known_tags, validate_file

    loaded = load_file(path, display=file)
    kind, ver = _tag(loaded.data)
    if (loaded.data is not None and kind and f"{kind}/{ver}" in known_tags()
            and schemafast.is_valid(kind, loaded.data)):
        return []
    return validate_file(path)


def load_pack(path: str | Path, *, search: Sequence[str | Path] = ()) -> tuple[Pack | None, list[Diagnostic]]:
    """Load the pack in folder `path` with every pack it extends.

    Returns the merged pack and every problem found. The pack is None only when `pack.yaml`
    cannot be read; with errors it holds whatever could be read, so check the diagnostics
    (`has_errors`) before relying on it. Extended packs are looked up next to `path`, in the
    `search` folders, then among the bundled packs.
    """
    return PackLoader(search).load(path)


@cache
def bundled_root() -> Path:
    """The folder holding the bundled packs (package `slipstream.content`)."""
    return Path(str(resources.files(CONTENT_PACKAGE)))


@cache
def bundled_packs() -> dict[str, Path]:
    """Bundled pack folders by pack id (only `base` for now)."""
    out: dict[str, Path] = {}
    root = bundled_root()
    for child in sorted(root.iterdir()) if root.is_dir() else []:
        if (child / MANIFEST).is_file():
            loaded = load_file(child / MANIFEST)
            if isinstance(loaded.data, dict) and isinstance(loaded.data.get("id"), str):
                out.setdefault(loaded.data["id"], child)
    return out


@cache
def base_pack() -> Pack:
    """The bundled base pack. Raises RuntimeError if it has errors (a bug in the package)."""
    folder = bundled_packs().get("base")
    if folder is None:
        raise RuntimeError("the bundled base pack is missing")
    pack, diags = load_pack(folder)
    errors = [d for d in diags if d.is_error]
    if pack is None or errors:
        from .diagnostics import format_text

        raise RuntimeError("the bundled base pack has errors:\n" + format_text(errors))
    return pack


def iter_effects(pack: Pack) -> Iterable[tuple[str, Origin, tuple[str | int, ...], tuple[Any, ...]]]:
    """Every effect list of a pack: (owner label, origin, sub-path, effect list)."""
    for card in pack.cards.values():
        yield f"card {card.id}", card.origin, ("effect",), card.effect
    for drv in pack.drivers.values():
        for phase, eff in drv.hooks.items():
            yield f"driver {drv.id}", drv.origin, ("hooks", phase), eff
    for sp in pack.sponsors.values():
        for br, bracket in sp.brackets.items():
            yield f"sponsor {sp.id} ({br})", bracket.origin, (), bracket.effect


