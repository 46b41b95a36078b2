"""Content packs (DESIGN §6): manifests, extends / overrides / replaces, and loading.

A pack is a folder holding `pack.yaml` (format tag `pack/1`; `ruleset:` names its ruleset,
`automobiles` when absent) plus YAML files found by their own format tags: the data kinds its
ruleset's content model reads (for Automobiles `cubes/1`, `cards/1`, ...) and `track/1`
files, in any sub-folder but `tests/`, which holds rule scenarios. A pack may extend other
packs of its ruleset (`extends: [base]`): it inherits their content, adds items, changes
fields of inherited items through `overrides:` lists and replaces whole items listed in
`replaces:` (the shared merge steps are in engine/packs/merge.py).

This module knows no ruleset's content: each ruleset brings a `ContentModel` (found through
engine/core/plugins.py) that turns the raw items of a `Build` into its own pack object.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from slipstream.engine.core import filekinds, plugins, schemafast
from slipstream.engine.core.diagnostics import Diagnostic, has_errors, make, sort_key
from slipstream.engine.core.schema import registry, schema_diagnostics, whole_numbers
from slipstream.engine.core.yamlsource import (
    Loaded,
    PathKey,
    Pos,
    SourceMap,
    json_path,
    load_file,
    load_text,
    read_text,
)
from slipstream.engine.packs.data import Origin
from slipstream.engine.packs.files import MANIFEST, TESTS_DIR
from slipstream.engine.packs.files import walk_pack as _walk
from slipstream.engine.packs.trackrules import checked_track
from slipstream.engine.tracks.load import TRACK_VERSIONS
from slipstream.engine.tracks.track import Track

__all__ = ["MANIFEST", "TESTS_DIR", "Build", "ContentModel", "Entry", "ItemList", "LoadedPack",
           "PackFile", "PackLoader", "bundled_packs", "bundled_root", "bundled_rulesets", "content_model", "load_pack"]

FORMAT_TAG = "pack/1"
CONTENT_PACKAGE = "slipstream.content"


class ItemList(NamedTuple):
    """How a data file lists its items: `key: [...]` of `item` kind, with their schema $defs."""

    key: str
    item: str
    item_def: str
    override_def: str | None


class LoadedPack(Protocol):
    """What the pack machinery reads of any ruleset's merged pack."""

    @property
    def id(self) -> str: ...
    @property
    def ruleset(self) -> str: ...
    @property
    def root(self) -> Path: ...
    @property
    def lineage(self) -> tuple[str, ...]: ...
    @property
    def digest(self) -> str: ...
    @property
    def tracks(self) -> Mapping[str, Track]: ...
    @property
    def track_owners(self) -> Mapping[str, str]: ...
    @property
    def track_origins(self) -> Mapping[str, Origin]: ...
    @property
    def sources(self) -> Mapping[str, SourceMap]: ...
    @property
    def scenario_files(self) -> tuple[Path, ...]: ...


class ContentModel(Protocol):
    """A ruleset's pack content: its data file kinds and how raw items become its pack."""

    # read-only for the loader (properties here), so a model may hold a narrower type
    @property
    def ruleset(self) -> str: ...
    @property  # file kinds the pack reads itself (besides track and pack)
    def data_kinds(self) -> tuple[str, ...]: ...
    @property  # data kinds that list items; the others are whole files
    def item_lists(self) -> Mapping[str, ItemList]: ...

    def build(self, b: Build) -> LoadedPack: ...
    def filter_schema(self, diags: list[Diagnostic], loaded: Loaded) -> list[Diagnostic]: ...


def content_model(ruleset: str) -> ContentModel | None:
    """The content model of a ruleset (None when no installed ruleset has that id)."""
    rs = plugins.load(ruleset)
    return getattr(rs, "content", None) if rs is not None else None


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
    parents: list[LoadedPack]
    ruleset: str = plugins.DEFAULT
    content: Any = None  # the ruleset's ContentModel
    files: list[PackFile] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, SourceMap] = field(default_factory=dict)
    own: dict[str, list[Entry]] = field(default_factory=dict)
    overrides: dict[str, list[Entry]] = field(default_factory=dict)
    whole: dict[str, list[Loaded]] = field(default_factory=dict)  # data files without item lists
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


class PackLoader:
    """Loads packs and the packs they extend; one loader caches every pack it has read."""

    def __init__(self, search: Sequence[str | Path] = ()) -> None:
        self.search = [Path(s) for s in search]
        self.cache: dict[Path, tuple[LoadedPack | None, list[Diagnostic]]] = {}
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
    def load(self, path: str | Path, stack: tuple[Path, ...] = ()) -> tuple[LoadedPack | None, list[Diagnostic]]:
        root = Path(path)
        if root.is_file() and root.name == MANIFEST:
            root = root.parent
        key = root.resolve()
        if key in self.cache:
            return self.cache[key]
        result = self._load(root, (*stack, key))
        self.cache[key] = result
        return result

    def _load(self, root: Path, stack: tuple[Path, ...]) -> tuple[LoadedPack | None, list[Diagnostic]]:
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
        rid = str(data.get("ruleset", plugins.DEFAULT))
        model = content_model(rid)
        if model is None:
            pos = manifest.source.value(("ruleset",))
            return None, [make("P028", mfile, pos.line, pos.column, "$.ruleset",
                               f"unknown ruleset {rid!r}",
                               hint="installed rulesets: " + ", ".join(plugins.ruleset_ids()))]
        b = Build(root=root, manifest=manifest, id=data["id"],
                  extends=tuple(data.get("extends", ())), parents=[], ruleset=rid, content=model)
        b.sources[mfile] = manifest.source
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
            if parent.ruleset != b.ruleset:
                b.diag("P029", mfile, ("extends", i),
                       f"extends {pid!r}, a {parent.ruleset!r} pack, but this is a {b.ruleset!r} pack",
                       hint="extend a pack of the same ruleset")
                b.broken_extends = True
                continue
            b.parents.append(parent)
            b.digest.update(parent.digest.encode())

        self._read_files(b)
        pack = b.content.build(b)
        return pack, sorted(b.diags, key=sort_key)

    def _read_files(self, b: Build) -> None:
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
            loaded.data = whole_numbers(loaded.data)  # 2.0 is 2 (docs/packs.md)
            kind, ver = filekinds.split_tag(loaded.data)
            if not kind:
                b.diags.append(make("F002", file, 1, 1, "$", "skipped: no `slipstream:` format tag",
                                    hint="pack files start with a tag such as `slipstream: cards/1`"))
                continue
            pos = loaded.source.value(("slipstream",))
            if kind not in (*b.content.data_kinds, "track", "pack") or (
                ver != 1 and not (kind == "track" and ver in TRACK_VERSIONS)
            ):
                b.diags.append(make("F003", file, pos.line, pos.column, "$.slipstream",
                                    f"unknown format tag {loaded.data['slipstream']!r}",
                                    hint="known tags in a pack: " + ", ".join(_pack_tags(b.content))))
                continue
            if kind == "pack":
                b.diags.append(make("P002", file, pos.line, pos.column, "$.slipstream",
                                    f"a pack manifest must be named {MANIFEST} at the top of the pack",
                                    hint="rename the file, or give it its own folder to make a separate pack"))
                continue
            if kind == "track":
                # its `rulesets:` checks, and the pack's ruleset's (it races the track)
                track, tdiags = checked_track(b.ruleset, loaded.data, loaded.source)
                b.diags += tdiags
                if track is not None:
                    _add(b, "track", Entry("track", track.id, b.id, loaded.data, Origin(file, ())))
                    b.tracks.setdefault(track.id, track)
                continue
            b.files.append(PackFile(rel, kind, loaded))
            sdiags = _schema_check(kind, loaded)
            b.diags += b.content.filter_schema(sdiags, loaded)
            _collect(b, kind, loaded, bool(sdiags))


def _pack_tags(model: ContentModel) -> list[str]:
    return sorted({"pack/1", *(f"track/{v}" for v in TRACK_VERSIONS), *(f"{k}/1" for k in model.data_kinds)})


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
    """Schema diagnostics of one file as loaded from its text; the fast check skips jsonschema
    for valid files. They depend on the kind, the file's name and its text only, so a text
    checked before in this process is not checked again (`_checked_once`)."""
    def check() -> list[Diagnostic]:
        if schemafast.is_valid(kind, loaded.data):
            return []
        return schema_diagnostics(kind, loaded.data, loaded.source)

    return _checked_once(("schema", kind, loaded.file, loaded.text), check)


# Diagnostics of file texts checked in this process, by what they depend on (kind or check,
# display name, text), most recently used last; bounded in entries and in text kept.
_checked: dict[tuple[str, str, str, str], list[Diagnostic]] = {}
_CHECKED_MAX = 2048
_CHECKED_TEXT_MAX = 256 * 1024  # longer texts are checked every time
_checked_lock = threading.Lock()


def clear_cache() -> None:
    """Forget every check kept so far, and every text yamlsource keeps (a cold start)."""
    from slipstream.engine.core import yamlsource

    with _checked_lock:
        _checked.clear()
    yamlsource.clear_cache()


def _checked_once(key: tuple[str, str, str, str], check: Callable[[], list[Diagnostic]]) -> list[Diagnostic]:
    """`check()`, or what it gave for the same key before (a caller's own list either way)."""
    known = _checked.get(key)
    if known is None:
        known = check()
        if len(key[3]) <= _CHECKED_TEXT_MAX:
            with _checked_lock:
                _checked.pop(key, None)
                _checked[key] = known
                while len(_checked) > _CHECKED_MAX:
                    del _checked[next(iter(_checked))]
    return list(known)


def _collect(b: Build, kind: str, loaded: Loaded, had_errors: bool) -> None:
    """Gather the items of one data file; with schema errors only items that are valid."""
    data = loaded.data
    file = loaded.file
    lists = b.content.item_lists.get(kind)
    if lists is None:  # a whole-file kind (e.g. Automobiles' rules): the model reads it
        b.whole.setdefault(kind, []).append(loaded)
        return
    key, item_kind, defname, odef = lists
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
    """A rule scenario of the pack, checked by the checker its ruleset registered for its kind.

    Scenario files are checked standalone (their schema; references are checked when
    `slipstream test` runs them), so a file the fast schema check accepts needs nothing more.
    """
    text, diags = read_text(path, display=file)
    if text is None:
        return diags
    plugins.load_all()  # every ruleset's scenario kinds (what the result depends on)
    # kept by its text: a scenario checked before is not even copied out of the YAML cache
    return _checked_once(("scenario", str(filekinds.generation()), file, text),
                         lambda: _scenario_diagnostics(load_text(text, file), file))


def _scenario_diagnostics(loaded: Loaded, file: str) -> list[Diagnostic]:
    if loaded.data is None:  # not YAML that loads: what the YAML loader said
        return loaded.diagnostics
    kind, ver = filekinds.split_tag(loaded.data)
    pack_kinds = _pack_kinds()
    if kind in pack_kinds:
        # a data file here is not read as pack content (and its checker would load this very
        # pack again): say so, as `slipstream test` does when it meets it
        pos = loaded.source.value(("slipstream",))
        scenario_tags = [t for t in filekinds.registered_tags() if t.partition("/")[0] not in pack_kinds]
        return [make("F003", file, pos.line, pos.column, "$.slipstream",
                     f"a {loaded.data['slipstream']} file in tests/: tests/ holds rule scenarios, and pack "
                     "data there is not read",
                     hint="move it out of tests/, or make it a rule scenario: " + ", ".join(scenario_tags))]
    check = filekinds.lookup(kind, ver)
    if check is None:
        src = loaded.source
        if not kind:
            return [make("F003", file, 1, 1, "$", "missing `slipstream:` format tag",
                         hint="start the file with `slipstream: KIND/1`")]
        pos = src.value(("slipstream",))
        return [make("F003", file, pos.line, pos.column, "$.slipstream",
                     f"unknown format tag {loaded.data['slipstream']!r}",
                     hint="known tags: " + ", ".join(filekinds.registered_tags()))]
    if schemafast.is_valid(kind, loaded.data):
        return []
    return sorted(check(loaded.data, loaded.source), key=sort_key)


def _pack_kinds() -> set[str]:
    """The kinds a pack reads as content (tracks, manifests, every ruleset's data kinds): the
    other registered kinds are rule scenarios."""
    out = {"track", "pack"}
    for rid in plugins.ruleset_ids():
        model = content_model(rid)
        out.update(model.data_kinds if model is not None else ())
    return out


def load_pack(path: str | Path, *, search: Sequence[str | Path] = ()) -> tuple[LoadedPack | None, list[Diagnostic]]:
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
def bundled_rulesets() -> dict[str, str]:
    """The ruleset of every bundled pack, by pack id, as its manifest names it (`ruleset:`, the
    default ruleset when it names none): which bundled pack plays a ruleset, without loading any."""
    out: dict[str, str] = {}
    for pid, folder in bundled_packs().items():
        data = load_file(folder / MANIFEST).data
        out[pid] = str(data.get("ruleset", plugins.DEFAULT)) if isinstance(data, dict) else plugins.DEFAULT
    return out


