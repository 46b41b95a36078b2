"""Starting files for `slipstream new pack NAME` and `slipstream new track NAME`.

Every scaffolded file validates clean and starts with a `# yaml-language-server: $schema=...`
line. A new pack gets a copy of the bundled schemas in its `schemas/` folder so that editors
complete its files offline and the relative `$ref`s between the schemas resolve.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from slipstream.engine.core.files import atomic_write_text
from slipstream.engine.core.schema import schema_files
from slipstream.engine.packs.loader import MANIFEST

SCHEMA_DIR = "schemas"


class ScaffoldError(Exception):
    """The target exists already or the name gives no usable id."""


def slugify(name: str) -> str:
    """`My Pack!` -> `my-pack` (the id rules of the schemas)."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not slug or not slug[0].isalpha():
        slug = "p-" + slug if slug else ""
    return slug[:64].strip("-")


def schema_line(file: Path, schema: Path) -> str:
    """The language-server comment pointing from `file` to `schema` by a relative path."""
    rel = os.path.relpath(schema, file.parent).replace(os.sep, "/")
    return f"# yaml-language-server: $schema={rel}\n"


@dataclass(frozen=True, slots=True)
class Scaffolded:
    root: Path
    files: tuple[Path, ...]


def write_schemas(folder: Path) -> list[Path]:
    """Copy every bundled schema into `folder` (as `slipstream schema -o` does)."""
    out = []
    for name, data in sorted(schema_files().items()):
        path = folder / name
        atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        out.append(path)
    return out


def _find_schema_dir(start: Path) -> Path | None:
    """The `schemas/` folder of the pack enclosing `start`, if there is one."""
    for folder in (start, *start.parents):
        if (folder / MANIFEST).is_file() and (folder / SCHEMA_DIR / "track.schema.json").is_file():
            return folder / SCHEMA_DIR
    return None


def _bundled_schema_dir() -> Path:
    from importlib import resources

    return Path(str(resources.files("slipstream.schemas")))


def new_pack(parent: Path, name: str, *, extends: tuple[str, ...] = ("base",), ruleset: str = "") -> Scaffolded:
    """Create folder `parent/ID` holding a pack of `ruleset` (the default one when "") that
    extends `extends` and validates clean: the manifest, the files the ruleset's `authoring`
    capability starts a pack with, the schemas and the `tracks/` and `tests/` folders."""
    from slipstream.engine.core import plugins
    from slipstream.engine.play.registry import RulesetError, get

    try:
        rs = get(ruleset or plugins.DEFAULT)
    except RulesetError as e:
        raise ScaffoldError(str(e)) from None
    pid = slugify(name)
    if not pid:
        raise ScaffoldError(f"{name!r} gives no usable pack id (use letters and digits)")
    if pid in extends:
        raise ScaffoldError(f"the pack id {pid!r} is one of the packs it extends; choose another name")
    root = parent / pid
    if root.exists() and any(root.iterdir()):
        raise ScaffoldError(f"{root} exists and is not empty")
    files = write_schemas(root / SCHEMA_DIR)
    sch = root / SCHEMA_DIR
    ext = "[" + ", ".join(extends) + "]"
    manifest = root / MANIFEST
    named = "" if rs.id == plugins.DEFAULT else f"ruleset: {rs.id}\n"
    atomic_write_text(manifest, schema_line(manifest, sch / "pack.schema.json") + f"""slipstream: pack/1
id: {pid}
name: {json.dumps(name)}
version: 0.1.0
{named}description: >-
  A content pack for {rs.name}. Costs and values it sets are house values.
extends: {ext}
# replaces: [base:first-oval]   # replace an inherited item by one of the same id
""")
    written = []
    for f in rs.authoring.pack_files(pid, name, extends) if rs.authoring is not None else ():
        path = root / f.rel
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, (schema_line(path, sch / f.schema) if f.schema else "") + f.text)
        written.append(path)
    (root / "tracks").mkdir(exist_ok=True)
    (root / "tests").mkdir(exist_ok=True)
    return Scaffolded(root, (manifest, *written, *files))


def new_track(folder: Path, name: str, *, template: str = "oval") -> Path:
    """Write `folder/ID.yaml` (or `folder/tracks/ID.yaml` in a pack) from a track template."""
    from slipstream.engine.tracks.templates import template as track_template
    from slipstream.engine.tracks.writer import dump_track

    tid = slugify(name)
    if not tid:
        raise ScaffoldError(f"{name!r} gives no usable track id (use letters and digits)")
    if (folder / MANIFEST).is_file():
        folder = folder / "tracks"
    path = folder / f"{tid}.yaml"
    if path.exists():
        raise ScaffoldError(f"{path} exists already")
    data = track_template(template)
    data["id"] = tid
    data["name"] = name
    schema_dir = _find_schema_dir(folder) or _bundled_schema_dir()
    header = schema_line(path, schema_dir / "track.schema.json")
    atomic_write_text(path, dump_track(data, header))
    return path
