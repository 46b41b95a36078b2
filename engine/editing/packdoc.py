"""The open pack of the editor, without Qt: every YAML file's data, change events, commands.

A `PackDocument` holds one immutable `PackState`: the data of each YAML file of the pack folder
(or its raw text when the file is not readable YAML). Commands (below, on the pattern of
engine/editing/commands.py: do / undo / merge, one class per kind of edit), pushed on the
document's own undo history (`doc.history`, engine/editing/history.py), are the only writers;
the editor shows that history through a QUndoStack exactly as it does for tracks.

The diagnostics are those of `slipstream validate PACK` for the pack as it would be saved:
the current texts are written to a private scratch copy and loaded with the ordinary pack
loader (extended packs are found next to the real folder). Saving writes only the files that
changed, each through `packyaml.update_text`, so untouched lines keep their comments and layout.
"""

from __future__ import annotations

import copy
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from slipstream.engine.core import plugins
from slipstream.engine.core.diagnostics import Counted, Diagnostic, sort_key
from slipstream.engine.core.files import NotRegularFile, atomic_write_text, read_regular
from slipstream.engine.core.yamlsource import PathKey, load_text
from slipstream.engine.editing.commands import Command
from slipstream.engine.editing.history import History, Step
from slipstream.engine.packs.loader import (
    MANIFEST,
    TESTS_DIR,
    ItemList,
    PackLoader,
    _walk,
    content_model,
)
from slipstream.engine.packs.splice import update_text


def row_kinds(ruleset: str) -> tuple[str, ...]:
    """The data kinds of `ruleset` whose items an extending pack changes one by one (its own
    file of such a kind holds only the changes: engine/packs/merge.py's `rows`)."""
    return tuple(getattr(content_model(ruleset), "row_kinds", ()) or ())


def item_lists(ruleset: str) -> Mapping[str, ItemList]:
    """File kind -> how its files list items (list key, schema $defs of an item and of an
    override), from the content model of `ruleset` (empty for an unknown ruleset)."""
    model = content_model(ruleset)
    return model.item_lists if model is not None else {}


@dataclass(frozen=True, slots=True)
class Place:
    """Where the editor finds the items of one item kind: files of `kind`, the list at `key`
    (a dotted path for a nested list, `tokens.kinds`), the schema of one item and of an
    override. `whole`: the content model reads such a file whole (a deck, a table), so an item
    is added to the pack's own file, or to a copy of the inherited one (or, for the kinds whose
    items merge one by one, `row_kinds`, to a new file of its own)."""

    kind: str
    key: str
    item_def: str  # a `$defs` name, or a JSON pointer into the kind's schema (`/properties/...`)
    override_def: str | None = None
    whole: bool = False

    @property
    def path(self) -> PathKey:
        return key_path(self.key)


def key_path(key: str) -> PathKey:
    """`tokens.kinds` -> ("tokens", "kinds"): the path of a list key."""
    return tuple(key.split("."))


def places(ruleset: str) -> list[Place]:
    """The item places of `ruleset`: the item lists of its content model, then the lists of
    whole files its `authoring` capability names (`ItemKind.path`)."""
    lists = item_lists(ruleset)
    out = [Place(kind, il.key, il.item_def, il.override_def) for kind, il in lists.items()]
    rs = plugins.load(ruleset)
    authoring = rs.authoring if rs is not None else None
    for ik in authoring.item_kinds if authoring is not None else ():
        if ik.path and ik.kind not in lists:
            pointer = "".join(f"/properties/{k}" for k in ik.path) + "/items"
            out.append(Place(ik.kind, ".".join(ik.path), pointer, None, whole=True))
    return out


def place_of(ruleset: str, kind: str, key: str = "") -> Place | None:
    """The place of items of `kind` (and list key `key`, "" for the first of that kind)."""
    return next((p for p in places(ruleset) if p.kind == kind and (not key or p.key == key)), None)


def default_file(kind: str) -> str:
    """The file new items of `kind` go to when the pack has no file of that kind yet."""
    return f"{kind}.yaml"


class _Delete:
    def __repr__(self) -> str:
        return "DELETE"


DELETE: Any = _Delete()  # SetValue(..., DELETE) removes a key


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FileState:
    """One YAML file: its data, or its raw text when it is not readable YAML. `text` is the
    text typed in the YAML tab (comments and layout included): later edits splice into it."""

    rel: str  # path inside the pack folder, with `/`
    data: Any
    raw: str | None = None
    text: str | None = None

    @property
    def kind(self) -> str:
        """The format kind of its `slipstream:` tag (`cards`, `track`, `scenario` ...)."""
        if isinstance(self.data, dict):
            return str(self.data.get("slipstream", "")).partition("/")[0]
        return ""


@dataclass(frozen=True, slots=True)
class PackState:
    """One version of the pack: its files, sorted by path."""

    files: tuple[FileState, ...] = ()

    @property
    def ruleset(self) -> str:
        """The ruleset pack.yaml names (the default ruleset when it names none)."""
        fs = self.file(MANIFEST)
        data = fs.data if fs is not None else None
        rid = data.get("ruleset") if isinstance(data, dict) else None
        return str(rid) if rid else plugins.DEFAULT

    def file(self, rel: str) -> FileState | None:
        for f in self.files:
            if f.rel == rel:
                return f
        return None

    def with_file(self, fs: FileState) -> PackState:
        rest = [f for f in self.files if f.rel != fs.rel]
        return PackState(tuple(sorted([*rest, fs], key=lambda f: f.rel)))


@dataclass(frozen=True, slots=True)
class ItemRef:
    """Where an item lives: file, list key (`cards`, `overrides`, `tokens.kinds` ...) and index."""

    kind: str  # data file kind of the ruleset's content model (Automobiles: cubes, cards ...)
    rel: str
    key: str
    index: int
    id: str
    data: Any = field(compare=False)
    defs: tuple[str, str | None] = field(default=("", None), compare=False)  # $defs: item, override
    place: str = field(default="", compare=False)  # the list key of its item kind (overrides: the items')

    @property
    def path(self) -> PathKey:
        return (*self.list_path, self.index)

    @property
    def list_path(self) -> PathKey:
        return key_path(self.key)

    @property
    def override(self) -> bool:
        return self.key == "overrides"

    @property
    def schema_def(self) -> tuple[str, str]:
        """(schema name, $def) describing the item."""
        item_def, over = self.defs
        return self.kind, (over or item_def) if self.override else item_def


def items(state: PackState, kind: str | None = None) -> Iterator[ItemRef]:
    """Every item (and override) of the pack's own data files, in file order: the item kinds
    of the content model of the pack's ruleset, and the lists of whole files its authoring
    capability names (a deck's cards, a table's rows)."""
    found = places(state.ruleset)
    for f in state.files:
        if kind is not None and f.kind != kind:
            continue
        for pl in (p for p in found if p.kind == f.kind):
            for list_key in (pl.key,) if pl.whole else (pl.key, "overrides"):
                try:
                    lst = get_in(f.data, key_path(list_key))
                except (KeyError, IndexError, TypeError):
                    continue
                if not isinstance(lst, list):
                    continue
                for i, it in enumerate(lst):
                    ident = it.get("id") if isinstance(it, dict) else None
                    yield ItemRef(f.kind, f.rel, list_key, i, str(ident) if ident is not None else f"#{i}", it,
                                  (pl.item_def, pl.override_def), pl.key)


def get_in(data: Any, path: PathKey) -> Any:
    """The value at `path` (KeyError / IndexError when missing)."""
    for p in path:
        data = data[p]
    return data


def set_in(data: Any, path: PathKey, value: Any) -> Any:
    """A copy of `data` with `path` set to `value` (DELETE removes it); parts not on the path
    are shared, never copied, so unchanged files and items keep their identity."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        out = dict(data)
        if not rest and value is DELETE:
            out.pop(head, None)
        else:
            out[head] = set_in(data.get(head) if isinstance(head, str) else None, rest, value)
        return out
    if isinstance(data, list) and isinstance(head, int):
        lst = list(data)
        if not rest and value is DELETE:
            del lst[head]
        else:
            lst[head] = set_in(data[head], rest, value)
        return lst
    if value is DELETE:
        return data
    # a missing container on the way: make a mapping
    return {head: set_in(None, rest, value)} if isinstance(head, str) else data


_JP = re.compile(r"\.([A-Za-z0-9_-]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]")


def parse_json_path(text: str) -> PathKey:
    """`$.cards[3].effect[0]` -> ('cards', 3, 'effect', 0) (the form of diagnostics)."""
    out: list[str | int] = []
    pos = 1 if text.startswith("$") else 0
    while pos < len(text):
        m = _JP.match(text, pos)
        if m is None:
            break
        if m.group(1) is not None:
            out.append(m.group(1))
        elif m.group(2) is not None:
            out.append(int(m.group(2)))
        else:
            out.append(m.group(3).replace("\\'", "'"))
        pos = m.end()
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# The document
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    old: PackState
    new: PackState
    reason: str = "edit"  # "edit", "load", "saved"


Listener = Callable[[Change], None]


@dataclass
class PackAnalysis(Counted):
    """The merged pack (None when pack.yaml is unreadable) and every diagnostic."""

    pack: Any  # the ruleset's merged pack (a LoadedPack), or None
    diagnostics: list[Diagnostic]


class PackDocument:
    """An open pack folder: its state, the texts on disk, the saved state, listeners and the
    undo history of its edits."""

    def __init__(self, root: Path, state: PackState, disk: dict[str, str]) -> None:
        self.root = root
        self.state = state
        self.saved = state
        self.disk = dict(disk)  # text of each file as last read or written
        self.history = History(self)
        self._listeners: list[Listener] = []
        self._texts: dict[str, tuple[Any, str, str]] = {}
        self._analysis: tuple[PackState, PackAnalysis] | None = None
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        self._written: dict[str, str] = {}
        self._loader: PackLoader | None = None
        # (rel, old, new) of the last file taken in from disk by reload_file
        self.reloaded: tuple[str, FileState | None, FileState] | None = None

    # --- construction ----------------------------------------------------------------------
    @classmethod
    def open(cls, root: str | Path) -> PackDocument:
        """Open a pack folder (the folder holding pack.yaml, or the pack.yaml itself)."""
        root = Path(root)
        if root.name == MANIFEST:
            root = root.parent
        if not (root / MANIFEST).is_file():
            raise OSError(f"{root} is not a pack: it has no {MANIFEST}")
        files: list[FileState] = []
        disk: dict[str, str] = {}
        for rel in _walk(root):
            try:
                text = _read_text(root / rel)
            except NotRegularFile:
                continue  # a FIFO or device named like a pack file: not a file to edit (validate reports it)
            disk[rel] = text
            files.append(state_of(rel, text))
        return cls(root, PackState(tuple(sorted(files, key=lambda f: f.rel))), disk)

    # --- listeners -------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def set_state(self, state: PackState, reason: str = "edit") -> None:
        """Replace the state (commands call this) and tell the listeners."""
        if state is self.state:
            return
        old = self.state
        self.state = state
        for listener in list(self._listeners):
            listener(Change(old, state, reason))

    # --- reading -------------------------------------------------------------------------
    @property
    def id(self) -> str:
        m = self.state.file(MANIFEST)
        return str(m.data.get("id", self.root.name)) if m and isinstance(m.data, dict) else self.root.name

    @property
    def dirty(self) -> bool:
        return self.state != self.saved

    def dirty_files(self) -> list[str]:
        saved = {f.rel: f for f in self.saved.files}
        return [f.rel for f in self.state.files if saved.get(f.rel) != f]

    def text(self, rel: str) -> str:
        """The text file `rel` would be saved as (its disk text when its data is unchanged)."""
        fs = self.state.file(rel)
        if fs is None:
            raise KeyError(rel)
        if fs.data is None:
            return fs.raw or ""
        base = fs.text if fs.text is not None else self.disk.get(rel, "")
        cached = self._texts.get(rel)
        if cached is not None and cached[0] is fs.data and cached[1] is base:
            return cached[2]
        text = update_text(base, fs.data)
        self._texts[rel] = (fs.data, base, text)
        return text

    def file_of(self, diag_file: str) -> str | None:
        """The pack-relative path of a diagnostic's file, if it is one of this pack's."""
        try:
            rel = Path(diag_file).resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return None
        return rel if self.state.file(rel) is not None else None

    def analysis(self) -> PackAnalysis:
        """The pack and its diagnostics as `slipstream validate` gives them after a save."""
        cached = self._analysis
        if cached is not None and cached[0] is self.state:
            return cached[1]
        result = self._analyse()
        self._analysis = (self.state, result)
        return result

    def last_analysis(self) -> PackAnalysis | None:
        """The most recent analysis, even of an older state (never computes one)."""
        return self._analysis[1] if self._analysis is not None else None

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.analysis().diagnostics

    def scratch_root(self) -> Path:
        """A private folder holding the current texts under the pack's own folder name."""
        if self._scratch is None:
            self._scratch = tempfile.TemporaryDirectory(prefix="slipstream-pack-")
            self._written = {}
        root = Path(self._scratch.name) / self.root.name
        wanted = {f.rel for f in self.state.files}
        for rel in list(self._written):
            if rel not in wanted:
                (root / rel).unlink(missing_ok=True)
                del self._written[rel]
        for f in self.state.files:
            text = self.text(f.rel)
            if self._written.get(f.rel) != text:
                target = root / f.rel  # a private scratch copy: no need for atomic, synced writes
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
                self._written[f.rel] = text
        return root

    def _analyse(self) -> PackAnalysis:
        scratch = self.scratch_root()
        if self._loader is None:
            self._loader = PackLoader(search=[self.root.parent])
        self._loader.cache.pop(scratch.resolve(), None)  # extended packs stay cached
        pack, diags = self._loader.load(scratch)
        prefix, real = str(scratch), str(self.root)
        out = []
        for d in diags:
            if d.file.startswith(prefix):
                d = Diagnostic(d.code, d.severity, real + d.file[len(prefix):], d.line, d.column,
                               d.path, d.message, d.hint, d.spaces)
            out.append(d)
        return PackAnalysis(pack, sorted(out, key=sort_key))

    def scenario_files(self) -> list[Path]:
        """The scenario files of the current state, in the scratch copy (runnable as is)."""
        root = self.scratch_root()
        return [root / f.rel for f in self.state.files
                if f.rel.split("/", 1)[0] == TESTS_DIR]

    def close(self) -> None:
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None

    # --- files changed by another editor --------------------------------------------------
    def reload_file(self, path: str | Path) -> bool | None:
        """Take in a file of this pack that another editor (the track canvas) wrote: its
        state, saved state and disk text follow the disk, with no undo step (the history's
        steps that held the file as it was hold it as it is now: see `rebase`). Returns None when
        `path` is not a YAML file of this pack, False when the file has unsaved edits here (it
        is left as it is: the user decides), True when it was taken in or was already so."""
        try:
            rel = Path(path).resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return None
        if rel not in set(_walk(self.root)):
            return None
        try:
            text = _read_text(self.root / rel)
        except NotRegularFile:
            return None
        here, saved = self.state.file(rel), self.saved.file(rel)
        if here != saved:
            return False
        if self.disk.get(rel) == text and here is not None:
            return True
        fresh = state_of(rel, text)
        self.disk[rel] = text
        self._texts.pop(rel, None)
        self.saved = self.saved.with_file(fresh)
        self.reloaded = (rel, here, fresh)
        rebase(self.history.walk(), rel, here, fresh)
        self.set_state(self.state.with_file(fresh), reason="load")
        return True

    # --- saving --------------------------------------------------------------------------
    def save(self) -> list[str]:
        """Write every changed file atomically and delete removed ones; returns the paths
        written or deleted."""
        written = []
        for rel in [r for r in self.disk if self.state.file(r) is None]:
            target = self.root / rel
            if not target.exists():
                continue  # a new file's first lines, kept for when it is added again
            target.unlink()  # removed with RemoveFile
            written.append(rel)
            del self.disk[rel]
            self._texts.pop(rel, None)
        saved = {f.rel: f for f in self.saved.files}
        for f in self.state.files:
            if saved.get(f.rel) == f and f.rel in self.disk:
                continue
            text = self.text(f.rel)
            if self.disk.get(f.rel) != text:
                atomic_write_text(self.root / f.rel, text)
                written.append(f.rel)
            self.disk[f.rel] = text
        old = self.saved
        self.saved = self.state
        self.history.set_clean()
        for listener in list(self._listeners):
            listener(Change(old, self.state, "saved"))
        return written

    # --- helpers for new items -------------------------------------------------------------
    def file_for(self, kind: str) -> str | None:
        """The file new items of `kind` go to: the last own file of that kind."""
        found = [f.rel for f in self.state.files if f.kind == kind]
        return found[-1] if found else None

    def inherited_file(self, kind: str) -> tuple[str, Any] | None:
        """(text, data) of the file of `kind` the pack inherits (from the last pack it extends
        that has one, depth first, as the content models merge whole files), or None."""
        m = self.state.file(MANIFEST)
        ext = m.data.get("extends") if m is not None and isinstance(m.data, dict) else None
        if self._loader is None:
            self._loader = PackLoader(search=[self.root.parent])
        return _inherited(self._loader, self.root, [str(x) for x in ext] if isinstance(ext, list) else [],
                          kind, set())


def _inherited(loader: PackLoader, near: Path, extends: list[str], kind: str,
               seen: set[Path]) -> tuple[str, Any] | None:
    for pid in reversed(extends):
        folder = loader.find(pid, near)
        if folder is None or folder.resolve() in seen:
            continue
        seen.add(folder.resolve())
        for rel in _walk(folder):
            if rel.split("/", 1)[0] == TESTS_DIR or rel == MANIFEST:
                continue
            text = (folder / rel).read_text(encoding="utf-8", errors="replace")
            fs = state_of(rel, text)
            if fs.kind == kind:
                return text, fs.data
        mdata = load_text((folder / MANIFEST).read_text(encoding="utf-8", errors="replace"), MANIFEST).data
        more = mdata.get("extends") if isinstance(mdata, dict) else None
        got = _inherited(loader, folder, [str(x) for x in more] if isinstance(more, list) else [], kind, seen)
        if got is not None:
            return got
    return None


def row_key_field(rows: Iterable[Any], columns: Iterable[str]) -> str:
    """The field an extending pack names a row of a table by (engine/packs/merge.py `rows`):
    `id` where the rows have ids (a deck's cards), else the table's first column (a gear die's
    `gear`, a wear row's `laps`)."""
    if any(isinstance(r, dict) and "id" in r for r in rows):
        return "id"
    return next(iter(columns), "")


def merge_rows(inherited: list[dict[str, Any]], data: Any, path: PathKey, key_field: str) -> list[dict[str, Any]]:
    """`inherited` rows changed by one file's data as the loader merges them one by one: its
    `removes`, then its `overrides`, then the rows it adds at `path`."""
    out = [dict(r) for r in inherited]
    if not isinstance(data, dict):
        return out

    def slug(ref: Any) -> Any:
        return ref.rpartition(":")[2] if isinstance(ref, str) else ref

    gone = {slug(r) for r in data.get("removes") or []}
    out = [r for r in out if r.get(key_field) not in gone]
    for o in data.get("overrides") or []:
        if isinstance(o, dict) and key_field in o:
            for r in out:
                if r.get(key_field) == slug(o[key_field]):
                    r.update({k: v for k, v in o.items() if k != key_field})
    try:
        own = get_in(data, path)
    except (KeyError, IndexError, TypeError):
        own = []
    return out + [dict(r) for r in own if isinstance(r, dict)] if isinstance(own, list) else out


def inherited_rows(doc: PackDocument, kind: str, path: PathKey, key_field: str) -> list[dict[str, Any]]:
    """The rows at `path` of the data kind `kind` that the open pack inherits, merged one by one
    through every pack it extends (depth first, in `extends` order); [] when it extends none."""
    m = doc.state.file(MANIFEST)
    ext = m.data.get("extends") if m is not None and isinstance(m.data, dict) else None
    if doc._loader is None:
        doc._loader = PackLoader(search=[doc.root.parent])
    return _rows_of(doc._loader, doc.root, [str(x) for x in ext] if isinstance(ext, list) else [],
                    kind, path, key_field, set())


def _rows_of(loader: PackLoader, near: Path, extends: list[str], kind: str, path: PathKey, key_field: str,
             seen: set[Path]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for pid in extends:
        folder = loader.find(pid, near)
        if folder is None or folder.resolve() in seen:
            continue
        seen.add(folder.resolve())
        mdata = load_text((folder / MANIFEST).read_text(encoding="utf-8", errors="replace"), MANIFEST).data
        more = mdata.get("extends") if isinstance(mdata, dict) else None
        rows = _rows_of(loader, folder, [str(x) for x in more] if isinstance(more, list) else [],
                        kind, path, key_field, seen)
        for rel in _walk(folder):
            if rel.split("/", 1)[0] == TESTS_DIR or rel == MANIFEST:
                continue
            fs = state_of(rel, (folder / rel).read_text(encoding="utf-8", errors="replace"))
            if fs.kind == kind:
                rows = merge_rows(rows, fs.data, path, key_field)
        out += rows
    return out


def change_inherited_row(doc: PackDocument, kind: str, key_field: str, key: Any, field_name: str,
                         value: Any, inherited: Any = DELETE) -> Command:
    """The command changing one field of an inherited row (`key`) in the pack's own file of
    `kind`: its `overrides:` entry for that row, added or set (a new file holding only it when
    the pack has none). A value equal to the inherited one (`inherited`) takes the field out of
    the override, and the override out when nothing else is left in it."""
    label = f"Change inherited {key_field} {key}: {field_name.replace('_', ' ')}"
    rel = doc.file_for(kind)
    fs = doc.state.file(rel) if rel is not None else None
    data = fs.data if fs is not None and isinstance(fs.data, dict) else {}
    found = data.get("overrides")
    overrides: list[Any] = found if isinstance(found, list) else []

    def names(o: Any) -> bool:  # `scrape` or `speed-hazard:scrape`
        ref = o.get(key_field) if isinstance(o, dict) else None
        return (ref.rpartition(":")[2] if isinstance(ref, str) else ref) == key

    at = next((i for i, o in enumerate(overrides) if names(o)), None)
    same = value == inherited
    if rel is not None and at is not None:
        if same and set(overrides[at]) <= {key_field, field_name}:
            return RemoveItem(rel, ("overrides",), at)
        return SetValue(rel, ("overrides", at, field_name), DELETE if same else value, label)
    entry = {key_field: key, field_name: value}
    if rel is not None:
        return InsertItem(rel, ("overrides",), entry, None, label)
    rel = default_file(kind)
    schema = doc.root / "schemas" / f"{kind}.schema.json"
    if schema.is_file() and rel not in doc.disk:
        from slipstream.engine.editing.scaffold import schema_line

        doc.disk[rel] = schema_line(doc.root / rel, schema)
    return Batch([AddFile(rel, {"slipstream": f"{kind}/1", "overrides": [entry]})], f"{label} (new file {rel})")


def rebase(commands: Iterable[Step], rel: str, old: FileState | None, new: FileState) -> None:
    """After `reload_file`: the undo history's states that held the file as it was on disk
    hold it as it is now, so undoing an older edit does not bring back the old file."""
    for cmd in commands:
        for attr in ("before", "after"):
            st = getattr(cmd, attr, None)
            if isinstance(st, PackState) and st.file(rel) == old:
                setattr(cmd, attr, st.with_file(new))


def state_of(rel: str, text: str) -> FileState:
    loaded = load_text(text, rel)
    if loaded.data is not None and not any(d.is_error for d in loaded.diagnostics):
        return FileState(rel, loaded.data)
    return FileState(rel, None, text)


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------


class PackCommand(Command):
    """An edit of one file's data; subclasses implement `edit_file(data) -> data`."""

    rel = ""

    def edit_file(self, data: Any) -> Any:
        raise NotImplementedError

    def new_state(self, state: Any) -> Any:
        fs = state.file(self.rel)
        if fs is None or fs.data is None:
            return state
        data = self.edit_file(fs.data)
        if data == fs.data:
            return state
        return state.with_file(FileState(self.rel, data, text=fs.text))


def _label(path: PathKey) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


class SetValue(PackCommand):
    """Set (or with DELETE remove) the value at a path of one file. With `merge`, repeated
    sets of the same path (live typing, a dragged slider) make one undo step."""

    def __init__(self, rel: str, path: PathKey, value: Any, text: str | None = None, *,
                 merge: bool = False) -> None:
        super().__init__()
        self.rel, self.path, self.value = rel, tuple(path), value
        self.merge_key = ("set", rel, self.path) if merge else None
        self.text = text or (f"Remove {_label(self.path)}" if value is DELETE
                             else f"Set {_label(self.path)}")

    def edit_file(self, data: Any) -> Any:
        return set_in(data, self.path, self.value)


class InsertItem(PackCommand):
    """Insert an item into the list at `path` (at the end when index is None)."""

    def __init__(self, rel: str, path: PathKey, item: Any, index: int | None = None,
                 text: str | None = None) -> None:
        super().__init__()
        self.rel, self.path, self.item, self.index = rel, tuple(path), item, index
        ident = item.get("id") if isinstance(item, dict) else None
        self.text = text or f"Add {ident or 'item'} to {_label(self.path)}"

    def edit_file(self, data: Any) -> Any:
        try:
            lst = get_in(data, self.path)
        except (KeyError, IndexError, TypeError):
            lst = []
        lst = list(lst) if isinstance(lst, list) else []
        lst.insert(len(lst) if self.index is None else self.index, self.item)
        return set_in(data, self.path, lst)


class RemoveItem(PackCommand):
    def __init__(self, rel: str, path: PathKey, index: int) -> None:
        super().__init__()
        self.rel, self.path, self.index = rel, tuple(path), index
        self.text = f"Remove {_label((*self.path, index))}"

    def edit_file(self, data: Any) -> Any:
        lst = list(get_in(data, self.path))
        del lst[self.index]
        return set_in(data, self.path, lst)


class MoveItem(PackCommand):
    def __init__(self, rel: str, path: PathKey, index: int, to: int) -> None:
        super().__init__()
        self.rel, self.path, self.index, self.to = rel, tuple(path), index, to
        self.text = f"Move {_label((*self.path, index))} to {to}"

    def edit_file(self, data: Any) -> Any:
        lst = list(get_in(data, self.path))
        if not (0 <= self.to < len(lst)):
            return data
        lst.insert(self.to, lst.pop(self.index))
        return set_in(data, self.path, lst)


class ReplaceFileText(PackCommand):
    """Replace a file by YAML text (the YAML tab); unreadable text is kept as raw text."""

    def __init__(self, rel: str, source: str) -> None:
        super().__init__()
        self.rel, self.source = rel, source
        self.text = f"Edit {rel} as YAML"

    def new_state(self, state: Any) -> Any:
        fs = state.file(self.rel)
        new = state_of(self.rel, self.source)
        if new.data is not None:  # keep the text as typed: its comments and layout
            new = FileState(self.rel, new.data, text=self.source)
        if fs is not None and fs.data is None and new.data is None and fs.raw == new.raw:
            return state
        if fs is not None and fs.data is not None and new.data == fs.data and fs.text == self.source:
            return state
        return state.with_file(new)


class AddFile(PackCommand):
    """Create a new file of the pack (written at the next save)."""

    def __init__(self, rel: str, data: Any) -> None:
        super().__init__()
        self.rel, self.data = rel, data
        self.text = f"Add file {rel}"

    def new_state(self, state: Any) -> Any:
        if state.file(self.rel) is not None:
            return state
        return state.with_file(FileState(self.rel, self.data))


class RemoveFile(PackCommand):
    """Delete a file of the pack (from disk at the next save; undo brings it back). The
    manifest stays: without it the folder is no pack."""

    def __init__(self, rel: str) -> None:
        super().__init__()
        self.rel = rel
        self.text = f"Delete file {rel}"

    def new_state(self, state: Any) -> Any:
        if self.rel == MANIFEST or state.file(self.rel) is None:
            return state
        return PackState(tuple(f for f in state.files if f.rel != self.rel))


class Batch(Command):
    """Several pack commands as one undo step (e.g. a new file and its first item)."""

    def __init__(self, parts: list[PackCommand], text: str) -> None:
        super().__init__()
        self.parts = parts
        self.text = text

    def new_state(self, state: Any) -> Any:
        for p in self.parts:
            state = p.new_state(state)
        return state


def add_item(doc: PackDocument, kind: str, item: dict[str, Any], key: str = "") -> Command:
    """The command adding `item` to the list `key` ("": the first of `kind`) of the pack's
    file of `kind`, creating the file if needed: a file the content model reads whole starts
    as a copy of the inherited one (its text too), so the pack keeps what it inherited, unless
    the inherited items merge with its own one by one (`row_kinds`): then it holds the item only."""
    place = place_of(doc.state.ruleset, kind, key)
    if place is None:
        raise KeyError(f"{kind} {key}".strip())
    rel = doc.file_for(kind)
    if rel is not None:
        return InsertItem(rel, place.path, item)
    rel = default_file(kind)
    # a file read whole replaces the inherited one: it starts as a copy; a file whose items
    # merge one by one with the inherited ones (a deck's cards, a table's rows) holds only changes
    inherited = doc.inherited_file(kind) if place.whole and kind not in row_kinds(doc.state.ruleset) else None
    if inherited is not None:
        text, data = inherited
        try:
            lst = list(get_in(data, place.path))
        except (KeyError, IndexError, TypeError):
            lst = []
        if rel not in doc.disk:
            doc.disk[rel] = text  # the copy keeps the inherited file's comments and layout
        return Batch([AddFile(rel, set_in(data, place.path, [*lst, item]))],
                     f"Add {item.get('id', 'item')} in {rel}, a copy of the inherited {kind} file")
    data = set_in({"slipstream": f"{kind}/1"}, place.path, [item])
    schema = doc.root / "schemas" / f"{kind}.schema.json"
    if schema.is_file() and rel not in doc.disk:
        from slipstream.engine.editing.scaffold import schema_line

        # the new file starts with the schema line that text editors complete from
        doc.disk[rel] = schema_line(doc.root / rel, schema)
    return Batch([AddFile(rel, data)], f"Add {item.get('id', 'item')} in new file {rel}")


def next_row(rows: Iterable[Any], first: str = "") -> dict[str, Any]:
    """A new row for a list of rows without ids (a gear die, a wear row) or with them (a deck):
    a copy of the last row, with its field `first` one above the highest when that is a whole
    number (the next gear, the next race length) and its `id`, if any, made unique."""
    rows = [r for r in rows if isinstance(r, dict)]
    new: dict[str, Any] = copy.deepcopy(rows[-1]) if rows else {}
    if first and isinstance(new.get(first), int) and not isinstance(new.get(first), bool):
        new[first] = max(int(r.get(first, 0)) for r in rows) + 1
    if "id" in new:
        ids = {r.get("id") for r in rows}
        stem = re.sub(r"-\d+$", "", str(new["id"])) or str(new["id"])
        n = 2
        while f"{stem}-{n}" in ids:
            n += 1
        new["id"] = f"{stem}-{n}"
    return new


def is_data_kind(kind: str, ruleset: str = plugins.DEFAULT) -> bool:
    """Whether `kind` is a pack data file kind of `ruleset`'s content model."""
    model = content_model(ruleset)
    return model is not None and kind in model.data_kinds


def _read_text(path: Path) -> str:
    """A pack file's text as `Path.read_text` reads it (bad bytes replaced, newlines made
    `\\n`); `NotRegularFile` at once for a FIFO or device instead of waiting on it."""
    text = read_regular(path).decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")
