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
from typing import Any

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


def _ruleset_of_pack(parent: Path, pid: str) -> str | None:
    """The ruleset a pack `pid` names: a pack folder `parent/pid` (as `extends` finds packs
    next to the new one), else a bundled pack; None when no such pack is found."""
    from slipstream.engine.packs.loader import bundled_rulesets

    if (parent / pid / MANIFEST).is_file():
        return _manifest_ruleset(parent / pid)
    return bundled_rulesets().get(pid)


def _manifest_ruleset(folder: Path) -> str:
    """The ruleset the manifest of the pack folder `folder` names (the default one if none)."""
    from slipstream.engine.core import plugins
    from slipstream.engine.core.yamlsource import load_file

    data = load_file(folder / MANIFEST).data
    return str(data.get("ruleset", plugins.DEFAULT)) if isinstance(data, dict) else plugins.DEFAULT


def pack_plan(parent: Path, ruleset: str = "", extends: tuple[str, ...] | None = None) -> tuple[str, tuple[str, ...]]:
    """(ruleset id, packs to extend) of a new pack: a ruleset named by the packs it extends
    when none is given; by default a pack extends the bundled pack of its ruleset (if any)."""
    from slipstream.engine.core import plugins
    from slipstream.engine.packs.loader import bundled_rulesets

    if extends is None:
        rid = ruleset or plugins.DEFAULT
        return rid, tuple(p for p, r in bundled_rulesets().items() if r == rid)[:1]
    found = {p: _ruleset_of_pack(parent, p) for p in extends}
    named = {r for r in found.values() if r is not None}
    if len(named) > 1:
        raise ScaffoldError("the packs to extend are of different rulesets: "
                            + ", ".join(f"{p} ({r})" for p, r in found.items() if r))
    inferred = next(iter(named), None)
    if ruleset and inferred and ruleset != inferred:
        raise ScaffoldError(f"--ruleset {ruleset} does not match the packs to extend, "
                            f"which are {inferred} packs; a pack extends packs of its own ruleset")
    return ruleset or inferred or plugins.DEFAULT, extends


def new_pack(parent: Path, name: str, *, extends: tuple[str, ...] | None = None, ruleset: str = "") -> Scaffolded:
    """Create folder `parent/ID` holding a pack of `ruleset` that extends `extends` and
    validates clean: the manifest, the files the ruleset's `authoring` capability starts a pack
    with, the schemas and the `tracks/` and `tests/` folders. Without `ruleset` the packs it
    extends name it (else the default ruleset); without `extends` it extends the bundled pack
    of its ruleset (`pack_plan`)."""
    from slipstream.engine.core import plugins
    from slipstream.engine.play.registry import RulesetError, get

    ruleset, extends = pack_plan(parent, ruleset, extends)
    try:
        rs = get(ruleset)
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
    replaces = f"# replaces: [{extends[0]}:some-id]   # replace an inherited item by one of the same id\n" if extends else ""
    atomic_write_text(manifest, schema_line(manifest, sch / "pack.schema.json") + f"""slipstream: pack/1
id: {pid}
name: {json.dumps(name)}
version: 0.1.0
{named}description: >-
  A content pack for {rs.name}. Costs and values it sets are house values.
extends: {ext}
{replaces}""")
    written = []
    for f in rs.authoring.pack_files(pid, name, extends) if rs.authoring is not None else ():
        path = root / f.rel
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, (schema_line(path, sch / f.schema) if f.schema else "") + f.text)
        written.append(path)
    (root / "tracks").mkdir(exist_ok=True)
    (root / "tests").mkdir(exist_ok=True)
    return Scaffolded(root, (manifest, *written, *files))


def track_templates(ruleset: str = "") -> list[tuple[str, str]]:
    """(id, label) of the starting tracks of a ruleset (its `templates` capability), else the
    shared colour-track shapes; the default first."""
    from slipstream.engine.tracks.templates import TEMPLATE_NAMES, TEMPLATES

    rs = _ruleset(ruleset)
    if rs is not None and rs.templates is not None:
        return list(rs.templates.names)
    return [(t, TEMPLATE_NAMES[t]) for t in TEMPLATES]


def track_data(ruleset: str = "", template: str = "") -> dict[str, Any]:
    """The track data of a template of a ruleset (its first when `template` is ""); ScaffoldError
    for a template the ruleset does not offer."""
    from slipstream.engine.tracks.templates import template as shared_template

    names = [t for t, _ in track_templates(ruleset)]
    template = template or names[0]
    if template not in names:
        who = f"the {ruleset} ruleset" if ruleset else "a track"
        raise ScaffoldError(f"no template {template!r} for {who}; choose one of {', '.join(names)}")
    rs = _ruleset(ruleset)
    if rs is not None and rs.templates is not None:
        return rs.templates.track(template)
    return shared_template(template)


def _ruleset(ruleset: str) -> Any:
    from slipstream.engine.play.registry import RulesetError, get

    if not ruleset:
        return None
    try:
        return get(ruleset)
    except RulesetError as e:
        raise ScaffoldError(str(e)) from None


def new_track(folder: Path, name: str, *, template: str = "", ruleset: str = "") -> Path:
    """Write `folder/ID.yaml` (or `folder/tracks/ID.yaml` in a pack) from a template of
    `ruleset` (`track_templates`; the ruleset of the enclosing pack when "", and the shared
    shapes without one); "" takes the first template."""
    from slipstream.engine.tracks.writer import dump_track

    tid = slugify(name)
    if not tid:
        raise ScaffoldError(f"{name!r} gives no usable track id (use letters and digits)")
    if (folder / MANIFEST).is_file():
        folder = folder / "tracks"
    path = folder / f"{tid}.yaml"
    if path.exists():
        raise ScaffoldError(f"{path} exists already")
    if not ruleset and (folder.parent / MANIFEST).is_file() and folder.name == "tracks":
        ruleset = _manifest_ruleset(folder.parent)
    data = track_data(ruleset, template)
    data["id"] = tid
    data["name"] = name
    schema_dir = _find_schema_dir(folder) or _bundled_schema_dir()
    header = schema_line(path, schema_dir / ("track2.schema.json" if data.get("slipstream") == "track/2"
                                             else "track.schema.json"))
    atomic_write_text(path, dump_track(data, header))
    return path
