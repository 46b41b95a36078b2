"""Safe, bounded YAML loading with a position for every node.

The loader builds plain Python data (dict, list, str, int, float, bool, None) straight from the
parser's event stream, so no object is ever constructed from a tag, nesting depth and alias
expansion are bounded while reading, and duplicate keys are caught. Every value's position is
kept by its JSON path, so schema errors and model checks can point at `line:column`.

The same text under the same name always loads to the same result, so what a process has
loaded is kept (most recently used first, up to `CACHE_BYTES` of text) and a text loaded
again is not parsed again: a pack checked again after an edit in the editor, loaded for each
of its scenarios by `slipstream test`, or validated file by file and then as a folder reads
each unchanged file once. Every caller gets its own copy of the data and positions (callers
may change what they got).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from slipstream.engine.core.diagnostics import Diagnostic, make, shorten
from slipstream.engine.core.files import read_regular
from slipstream.engine.core.limits import MAX_BYTES

try:  # libyaml is much faster; the pure-Python parser gives the same events.
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_DEPTH = 64
MAX_NODES = 2_000_000
# A number longer than this is refused before it is converted: Python's int() is quadratic
# in the digits of a sexagesimal (`1:0:0:...`) or decimal number and str() refuses more than
# 4,300 digits, while no value of ours needs more than a few digits.
MAX_NUMBER_CHARS = 100

PathKey = tuple[str | int, ...]

_ALLOWED_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:timestamp",
    "tag:yaml.org,2002:merge",
}


class Pos(NamedTuple):
    """1-based line and column of a node; `style` (a quote or block char) locates scalar text."""

    line: int
    column: int
    style: str | None = None


@dataclass(slots=True)
class SourceMap:
    """Positions of values (and of mapping keys) by JSON path."""

    file: str
    values: dict[PathKey, Pos] = field(default_factory=dict)
    keys: dict[PathKey, Pos] = field(default_factory=dict)

    def value(self, path: PathKey) -> Pos:
        """Position of the value at `path`, or of its nearest ancestor that has one."""
        p = tuple(path)
        while p:
            if p in self.values:
                return self.values[p]
            p = p[:-1]
        return self.values.get((), Pos(1, 1))

    def key(self, path: PathKey) -> Pos:
        """Position of the key naming `path` (falls back to the value)."""
        p = tuple(path)
        if p in self.keys:
            return self.keys[p]
        return self.value(p)

    def in_scalar(self, path: PathKey, offset: int) -> Pos:
        """Position of character `offset` inside a one-line scalar (for layout tokens)."""
        pos = self.value(path)
        shift = 1 if pos.style in ("'", '"') else 0
        if pos.style in ("|", ">"):
            return pos
        return Pos(pos.line, pos.column + shift + offset, pos.style)


def json_path(path: PathKey) -> str:
    """Render a path tuple as a JSON path such as `$.layout[1]`."""
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.replace("_", "a").replace("-", "a").isalnum() and not part[:1].isdigit():
            out += f".{part}"
        else:
            out += "['" + part.replace("'", "\\'") + "']"
    return out


@dataclass(slots=True)
class Loaded:
    """The result of loading one file: data (None on failure), positions and problems."""

    file: str
    data: Any
    source: SourceMap
    diagnostics: list[Diagnostic]
    text: str = ""

    @property
    def ok(self) -> bool:
        return self.data is not None and not any(d.is_error for d in self.diagnostics)


class _Stop(Exception):
    def __init__(self, diag: Diagnostic) -> None:
        self.diag = diag


_resolver = Resolver()
_MISSING = object()
_PLAIN: dict[str, Any] = {}
_constructor = SafeConstructor()


def _pos(mark: Any, style: str | None = None) -> Pos:
    return Pos(mark.line + 1, mark.column + 1, style)


class _Builder:
    """Turns the event stream into data, enforcing the limits."""

    def __init__(self, file: str, max_depth: int, max_nodes: int) -> None:
        self.file = file
        self.src = SourceMap(file)
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.nodes = 0
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.diags: list[Diagnostic] = []

    def fail(self, code: str, mark: Any, path: PathKey, message: str, hint: str | None = None) -> _Stop:
        p = _pos(mark)
        return _Stop(make(code, self.file, p.line, p.column, json_path(path), message, hint=hint))

    def count(self, n: int, mark: Any, path: PathKey) -> None:
        self.nodes += n
        if self.nodes > self.max_nodes:
            raise self.fail(
                "Y004", mark, path,
                f"the document expands to more than {self.max_nodes:,} nodes",
                hint="aliases that refer to aliases multiply; this looks like an alias bomb",
            )

    def scalar(self, ev: Any, path: PathKey) -> Any:
        tag = ev.tag
        if tag is None:
            if ev.style:  # quoted or block: always a string
                return ev.value
            got = _PLAIN.get(ev.value, _MISSING)
            if got is not _MISSING:
                return got
        if tag in (None, "!"):
            kind = ScalarNode
            tag = _resolver.resolve(kind, ev.value, ev.implicit)
        elif tag.startswith("!") and not tag.startswith("!!"):
            raise self.fail("Y003", ev.start_mark, path, f"local tag {tag!r} is not allowed")
        if tag not in _ALLOWED_TAGS:
            raise self.fail("Y003", ev.start_mark, path, f"tag {tag!r} is not allowed; only plain data is read")
        node = ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, ev.style)
        if tag.endswith((":int", ":float")) and len(ev.value) > MAX_NUMBER_CHARS:
            raise self.fail("Y011", ev.start_mark, path,
                            f"a number of {len(ev.value):,} characters; the limit is {MAX_NUMBER_CHARS}")
        try:
            if tag.endswith(":int"):
                return _constructor.construct_yaml_int(node)
            if tag.endswith(":float"):
                return _constructor.construct_yaml_float(node)
            if tag.endswith(":bool"):
                return _constructor.construct_yaml_bool(node)
            if tag.endswith(":null"):
                return None
        except (ConstructorError, ValueError) as exc:
            raise self.fail("Y001", ev.start_mark, path, f"bad scalar {shorten(ev.value)}: {exc}") from None
        return ev.value  # str, timestamp and merge keep their text

    def plain(self, ev: Any, path: PathKey) -> Any:
        """A plain scalar's value, memoised by its text (keys and small values repeat a lot)."""
        value = self.scalar(ev, path)
        if ev.tag is None and not ev.style and len(_PLAIN) < 50_000 and len(ev.value) < 64:
            _PLAIN[ev.value] = value
        return value

    def check_tag(self, ev: Any, path: PathKey, expected: str) -> None:
        tag = ev.tag
        if tag not in (None, "!", expected):
            raise self.fail("Y003", ev.start_mark, path, f"tag {tag!r} is not allowed; only plain data is read")

    def build(self, events: Any) -> Any:
        """Consume one document's events (after DocumentStart) and return its data."""
        return self.node(events, next(events), (), 0)

    def node(self, events: Any, ev: Any, path: PathKey, depth: int) -> Any:
        if depth > self.max_depth:
            raise self.fail("Y006", ev.start_mark, path, f"nesting is deeper than {self.max_depth} levels")
        if isinstance(ev, yaml.AliasEvent):
            if ev.anchor not in self.anchors:
                raise self.fail("Y001", ev.start_mark, path, f"unknown alias *{ev.anchor}")
            value, size = self.anchors[ev.anchor]
            self.count(size, ev.start_mark, path)
            self.src.values[path] = _pos(ev.start_mark)
            return value
        start = self.nodes
        if isinstance(ev, yaml.ScalarEvent):
            self.count(1, ev.start_mark, path)
            value = self.plain(ev, path)
            self.src.values[path] = _pos(ev.start_mark, ev.style)
        elif isinstance(ev, yaml.SequenceStartEvent):
            self.check_tag(ev, path, "tag:yaml.org,2002:seq")
            self.count(1, ev.start_mark, path)
            self.src.values[path] = _pos(ev.start_mark)
            value = []
            while True:
                child = next(events)
                if isinstance(child, yaml.SequenceEndEvent):
                    break
                value.append(self.node(events, child, (*path, len(value)), depth + 1))
        elif isinstance(ev, yaml.MappingStartEvent):
            self.check_tag(ev, path, "tag:yaml.org,2002:map")
            self.count(1, ev.start_mark, path)
            self.src.values[path] = _pos(ev.start_mark)
            value = self.mapping(events, path, depth)
        else:  # pragma: no cover - the parser guarantees the event order
            raise self.fail("Y001", ev.start_mark, path, f"unexpected {type(ev).__name__}")
        anchor = getattr(ev, "anchor", None)
        if anchor:
            self.anchors[anchor] = (value, max(1, self.nodes - start))
        return value

    def mapping(self, events: Any, path: PathKey, depth: int) -> dict[Hashable, Any]:
        value: dict[Hashable, Any] = {}
        merged: dict[Hashable, Any] = {}
        while True:
            kev = next(events)
            if isinstance(kev, yaml.MappingEndEvent):
                break
            if not isinstance(kev, yaml.ScalarEvent):
                raise self.fail("Y010", kev.start_mark, path, "mapping keys must be plain scalars")
            key = self.plain(kev, path)
            vev = next(events)
            if isinstance(key, str) and key == "<<" and not kev.style:
                # Merge key: `<<: *defaults` copies keys that the mapping does not set itself.
                sub = self.node(events, vev, path, depth + 1)
                for m in sub if isinstance(sub, list) else [sub]:
                    if not isinstance(m, dict):
                        raise self.fail("Y001", vev.start_mark, path, "`<<` must merge a mapping or a list of mappings")
                    for k, v in m.items():
                        merged.setdefault(k, v)
                continue
            if not isinstance(key, str):
                # JSON (and so every schema) has string keys only: `1: 7` or `yes:` is read
                # as the key's own text, so it meets the schema as an unknown property.
                key = kev.value
            kpath: PathKey = (*path, key)
            if key in value:
                first = self.src.keys.get(kpath)
                where = f" (first at line {first.line})" if first else ""
                raise self.fail("Y002", kev.start_mark, kpath, f"duplicate key {shorten(key)}{where}")
            self.src.keys[kpath] = _pos(kev.start_mark)
            value[key] = self.node(events, vev, kpath, depth + 1)
        for k, v in merged.items():
            value.setdefault(k, v)
        return value


# What load_text gave for a text, by (text, limits), whatever the file's name: a copy of a
# pack (a test's, a sweep's variant) reads the same texts under other names. Only texts
# without anchors are kept (no alias shares a part of their data, so it copies as a tree).
CACHE_BYTES = 8 * 1024 * 1024
_cache: OrderedDict[tuple[str, int, int], Loaded] = OrderedDict()
_cached_bytes = 0
_cache_lock = threading.Lock()


def clear_cache() -> None:
    """Forget every text loaded so far."""
    global _cached_bytes
    with _cache_lock:
        _cache.clear()
        _cached_bytes = 0


def _copy(x: Any) -> Any:
    """A copy of plain data that is a tree: its own dicts and lists, the same scalars."""
    t = type(x)
    if t is dict:
        return {k: _copy(v) for k, v in x.items()}
    if t is list:
        return [_copy(v) for v in x]
    return x


def _fresh(done: Loaded, file: str) -> Loaded:
    """A caller's own copy of a cached result, its diagnostics naming `file`."""
    src = done.source
    diags = done.diagnostics if done.file == file else [replace(d, file=file) for d in done.diagnostics]
    return Loaded(file, _copy(done.data), SourceMap(file, dict(src.values), dict(src.keys)), list(diags), done.text)


def load_text(text: str, file: str, *, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES) -> Loaded:
    """Load YAML text. Never raises for bad input: problems come back as diagnostics."""
    global _cached_bytes
    key = (text, max_depth, max_nodes)
    with _cache_lock:
        done = _cache.get(key)
        if done is not None:
            _cache.move_to_end(key)
    if done is not None:
        return _fresh(done, file)
    builder = _Builder(file, max_depth, max_nodes)
    result = _load(text, file, builder)
    # a text with anchors may share one part at many places (aliases): it is not kept, as a
    # copy of it must share the same way (and an alias bomb would copy out to millions)
    if not builder.anchors and len(text) <= CACHE_BYTES // 8:
        with _cache_lock:
            if key not in _cache:
                _cache[key] = result
                _cached_bytes += len(text)
                while _cached_bytes > CACHE_BYTES:
                    (old, *_), _ = _cache.popitem(last=False)
                    _cached_bytes -= len(old)
        return _fresh(result, file)
    return result


def _load(text: str, file: str, builder: _Builder) -> Loaded:
    src = builder.src
    if not text.strip() or all(
        not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()
    ):
        return Loaded(file, None, src, [make("Y008", file, 1, 1, "$", "the file is empty")], text)
    try:
        events = iter(yaml.parse(text, Loader=_Loader))
        data: Any = None
        docs = 0
        for ev in events:
            if isinstance(ev, yaml.DocumentStartEvent):
                docs += 1
                if docs > 1:
                    raise builder.fail("Y009", ev.start_mark, (), "the file holds more than one YAML document")
                data = builder.build(events)
    except _Stop as stop:
        return Loaded(file, None, src, [stop.diag], text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        msg = exc.problem or str(exc)
        if exc.context:
            msg = f"{msg} ({exc.context})"
        code = "Y006" if "nesting depth" in msg else "Y001"
        return Loaded(file, None, src, [make(code, file, line, col, "$", msg)], text)
    except yaml.YAMLError as exc:
        return Loaded(file, None, src, [make("Y001", file, 1, 1, "$", str(exc).splitlines()[0])], text)
    except RecursionError:
        return Loaded(file, None, src, [make("Y006", file, 1, 1, "$", "nesting is too deep")], text)
    if data is None:
        return Loaded(file, None, src, [make("Y008", file, 1, 1, "$", "the file holds no data")], text)
    return Loaded(file, data, src, [], text)


def decode(raw: bytes, file: str, *, max_bytes: int = MAX_BYTES) -> tuple[str | None, list[Diagnostic]]:
    """Check size and encoding of raw file bytes; return the text or a diagnostic."""
    if len(raw) > max_bytes:
        return None, [make("Y005", file, 1, 1, "$", f"the file has {len(raw):,} bytes; the limit is {max_bytes:,}")]
    if b"\x00" in raw:
        return None, [make("Y007", file, 1, 1, "$", "the file holds NUL bytes: it looks binary, not YAML text")]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [make("Y007", file, line, col, "$", f"byte 0x{raw[exc.start]:02x} is not UTF-8")]
    return text, []


def read_text(path: str | Path, *, display: str | None = None,
              max_bytes: int = MAX_BYTES) -> tuple[str | None, list[Diagnostic]]:
    """The text of a YAML file within the size limit, or None and why it cannot be read."""
    name = display or str(path)
    try:
        raw = read_regular(Path(path), max_bytes + 1)
    except FileNotFoundError:
        return None, [make("F001", name, 1, 1, "$", "no such file")]
    except OSError as exc:
        return None, [make("F004", name, 1, 1, "$", f"cannot read: {exc.strerror or exc}")]
    return decode(raw, name, max_bytes=max_bytes)


def load_file(path: str | Path, *, display: str | None = None, max_bytes: int = MAX_BYTES) -> Loaded:
    """Read and load a YAML file within the size limit."""
    name = display or str(path)
    text, diags = read_text(path, display=name, max_bytes=max_bytes)
    if text is None:
        return Loaded(name, None, SourceMap(name), diags)
    return load_text(text, name)
