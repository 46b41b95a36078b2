"""A cache of pack validation results, so an unchanged pack validates in a blink.

Validating a pack parses and checks every file of it (and of the packs it extends). The
result depends only on

- the code doing it: the Python version and the size and modification time of every module
  and schema file of slipstream's engine, and
- the input: the name and bytes of every YAML file of the pack and of each pack it extends,
  and, for each folder searched to resolve `extends`, which pack manifests it holds.

After a real validation the diagnostics are stored with those two digests and with the
folders they depend on. A later run recomputes the digests, which reads the files but parses
none of them, and reuses the stored diagnostics when both match; otherwise it validates
again and replaces the entry. Anything unexpected in the cache (a corrupt or unreadable
entry, a read-only cache folder) just means validating without the cache.

The cache folder is `$SLIPSTREAM_CACHE_DIR`, else `$XDG_CACHE_HOME/slipstream`, else
`~/.cache/slipstream`; entries are small JSON files under `validate/`, one per pack folder
and way of naming it (diagnostics carry the paths as the user gave them). This module is
deliberately light: a cache hit imports neither PyYAML nor the pack checks.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.core.files import read_regular
from slipstream.engine.core.limits import MAX_BYTES
from slipstream.engine.packs.files import MANIFEST, walk_pack

ENTRY_FORMAT = "slipstream-validate-cache/1"
_ENGINE = Path(__file__).resolve().parent.parent  # engine/, all of its parts


def cache_dir() -> Path:
    env = os.environ.get("SLIPSTREAM_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "slipstream"


def _schemas_dir() -> Path | None:
    from importlib.util import find_spec

    try:
        spec = find_spec("slipstream.schemas")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def code_digest() -> str:
    """Changes whenever a module or schema of the engine changes (or the Python version)."""
    h = hashlib.sha256(f"{ENTRY_FORMAT} {sys.version_info[:2]}".encode())
    for folder in (_ENGINE, _schemas_dir()):
        if folder is not None:
            _digest_folder(h, folder, folder.name)
    return h.hexdigest()


def _digest_folder(h: Any, folder: Path, label: str) -> None:
    """Size and mtime of every module and schema below `folder` (sub-packages included)."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for e in entries:
        if e.is_dir() and not e.name.startswith((".", "__")):
            _digest_folder(h, Path(e.path), f"{label}/{e.name}")
        elif e.name.endswith((".py", ".json")) and e.is_file():
            st = e.stat()
            h.update(f"{label}/{e.name} {st.st_size} {st.st_mtime_ns}\n".encode())


def root_digest(root: str) -> str:
    """The names and bytes of every YAML file of the pack in `root` (manifest first)."""
    rp = Path(root)
    h = hashlib.sha256(f"root {root}\n".encode())
    if not (rp / MANIFEST).is_file():
        h.update(b"(no manifest)\n")
        return h.hexdigest()
    h.update(f"{MANIFEST} ".encode() + _bytes(rp / MANIFEST) + b"\0")
    for rel in walk_pack(rp):
        h.update(rel.encode() + b" " + _bytes(rp / rel) + b"\0")
    return h.hexdigest()


def _bytes(path: Path) -> bytes:
    """A file's bytes for a digest, as far as a check reads them (MAX_BYTES + 1); what cannot
    be read (a FIFO, a device, ...) is named, not waited on (its check reports it)."""
    try:
        return read_regular(path, MAX_BYTES + 1)
    except OSError as e:
        return f"(unreadable: {e})".encode()


def inputs_digest(roots: Iterable[str], scanned: Iterable[str],
                  known: dict[str, str] | None = None) -> str:
    """The bytes of every pack file under `roots`, and the manifests in the `scanned` folders.

    `known` maps roots to `root_digest`s already computed, so they are not read again."""
    h = hashlib.sha256()
    for root in roots:
        h.update(((known or {}).get(root) or root_digest(root)).encode())
    for folder in scanned:
        h.update(f"scanned {folder}\n".encode())
        try:
            children = sorted(e.name for e in os.scandir(folder) if e.is_dir())
        except OSError:
            continue
        for name in children:
            m = Path(folder) / name / MANIFEST
            if m.is_file():
                h.update(name.encode() + b" " + _bytes(m) + b"\0")
    return h.hexdigest()


@dataclass(slots=True)
class PackValidation:
    """What validating one pack folder found, and what the result depends on."""

    diagnostics: list[Diagnostic]
    files: int  # YAML files of the pack (manifest included)
    roots: list[str]  # resolved pack folders read: this pack and every pack it extends
    scanned: list[str]  # resolved folders searched for packs by id


def _entry_path(folder: Path) -> Path:
    key = f"{folder.resolve()}\n{folder}\n{Path.cwd()}"
    return cache_dir() / "validate" / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".json")


def _diag(d: dict[str, Any]) -> Diagnostic:
    return Diagnostic(str(d["code"]), str(d["severity"]), str(d["file"]), int(d["line"]), int(d["column"]),
                      str(d["path"]), str(d["message"]), d.get("hint"), tuple(d.get("spaces", ())))


def lookup(folder: Path, code: str | None = None) -> PackValidation | None:
    """The stored result for `folder` if nothing it depends on has changed, else None."""
    try:
        entry = json.loads(_entry_path(folder).read_text(encoding="utf-8"))
        if entry.get("format") != ENTRY_FORMAT or entry.get("code") != (code or code_digest()):
            return None
        roots, scanned = list(entry["roots"]), list(entry["scanned"])
        if entry.get("inputs") != inputs_digest(roots, scanned):
            return None
        return PackValidation([_diag(d) for d in entry["diagnostics"]], int(entry["files"]), roots, scanned)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(folder: Path, result: PackValidation, code: str | None = None, inputs: str | None = None) -> bool:
    """Keep `result` for `folder` (`inputs`: its `inputs_digest` if known); False (and no harm)
    when the cache cannot be written."""
    path = _entry_path(folder)
    try:
        entry = {"format": ENTRY_FORMAT, "folder": str(folder), "code": code or code_digest(),
                 "inputs": inputs or inputs_digest(result.roots, result.scanned),
                 "roots": result.roots, "scanned": result.scanned, "files": result.files,
                 "diagnostics": [d.to_dict() for d in result.diagnostics]}
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entry), encoding="utf-8")
        os.replace(tmp, path)
        return True
    except (OSError, ValueError):
        return False


_enabled = [True]


@contextmanager
def using(use_cache: bool) -> Iterator[None]:
    """Within the block, pack results are read from and written to the cache only if `use_cache`."""
    _enabled.append(use_cache)
    try:
        yield
    finally:
        _enabled.pop()


def validate_pack_cached(folder: Path, validate: Callable[[Path], PackValidation],
                         use_cache: bool | None = None) -> PackValidation:
    """`validate(folder)`, or its stored result when nothing it depends on has changed.

    `use_cache` None follows the innermost `using` block (default: use the cache)."""
    if not (_enabled[-1] if use_cache is None else use_cache):
        return validate(folder)
    code = code_digest()
    hit = lookup(folder, code)
    if hit is not None:
        return hit
    own = str(folder.resolve())
    before = root_digest(own)
    result = validate(folder)
    after = root_digest(own)
    if after == before:  # not edited while we read it
        store(folder, result, code, inputs_digest(result.roots, result.scanned, {own: after}))
    return result
