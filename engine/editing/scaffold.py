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
    """Copy every bundled schema into `folder` (as `slipstream schema -o` does), with the
    schemas the installed rulesets generate (their house rules)."""
    from slipstream.engine.core import plugins

    plugins.load_all()
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


def _examples() -> tuple[str, str]:
    """Ids for the commented examples, taken from the bundled base pack."""
    from slipstream.engine.play.registry import load_pack

    try:
        pack = load_pack("")  # the bundled base pack, through the ruleset-neutral loader
        first = next(iter(getattr(pack, "card_sets", {}).values()))
    except (ValueError, RuntimeError, StopIteration):
        return "some-card", "card-1, card-2, card-3, card-4, card-5"
    return next(iter(first.cards.values())), ", ".join(first.cards.values())


def new_pack(parent: Path, name: str, *, extends: tuple[str, ...] = ("base",)) -> Scaffolded:
    """Create folder `parent/ID` holding a pack that extends `extends` and validates clean."""
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
    atomic_write_text(manifest, schema_line(manifest, sch / "pack.schema.json") + f"""slipstream: pack/1
id: {pid}
name: {json.dumps(name)}
version: 0.1.0
description: >-
  A content pack for Automobiles. Costs and values it sets are house values.
extends: {ext}
# replaces: [base:first-oval]   # replace an inherited item by one of the same id
""")
    ex_card, ex_set = _examples()
    cards = root / "cards.yaml"
    atomic_write_text(cards, schema_line(cards, sch / "cards.schema.json") + f"""slipstream: cards/1
# New cards: one per entry; `slipstream cards .` shows them.
cards: []
#  - id: tow-truck
#    name: Tow Truck
#    colour: purple
#    cost: 3
#    value: 1
#    text: Return up to two wear cubes from your discard pile to the stock.
#    effect:
#      - remove: {{from: discard, kind: wear, count: {{up_to: 2}}}}
# Changes to inherited cards: name the card and give only what changes.
overrides: []
#  - id: base:{ex_card}
#    cost: 3
""")
    cardsets = root / "cardsets.yaml"
    atomic_write_text(cardsets, schema_line(cardsets, sch / "cardsets.schema.json") + f"""slipstream: cardsets/1
# One action card per colour (yellow, red, purple, blue, green), by id.
card_sets: []
#  - id: my-set
#    name: My Set
#    cards: [{ex_set}]
""")
    rules = root / "rules.yaml"
    atomic_write_text(rules, schema_line(rules, sch / "rules.schema.json") + """slipstream: rules/1
# Only what differs from the extended packs; see schemas/rules.schema.json for every option.
options: {}
#  weaving: true
""")
    (root / "tracks").mkdir(exist_ok=True)
    (root / "tests").mkdir(exist_ok=True)
    return Scaffolded(root, (manifest, cards, cardsets, rules, *files))


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
