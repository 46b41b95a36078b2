"""The JSON Schemas, read once: the core's (package data of `slipstream.schemas`: pack
manifests and tracks) and those every installed ruleset registers for its own file kinds
(its `files` capability, engine/play/protocol.py `FileKinds.schemas`: package data of the
ruleset's own package), so a ruleset installed from another package brings its schemas.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

SCHEMA_PACKAGE = "slipstream.schemas"
# the schemas of the formats every ruleset shares (the messages of the external bot protocol,
# docs/bots.md, among them); the others come from the rulesets
BOT_SCHEMAS = ("bot-hello.schema.json", "bot-ready.schema.json", "bot-act.schema.json",
               "bot-choose.schema.json", "bot-end.schema.json")
CORE_SCHEMAS = ("pack.schema.json", "track.schema.json", "track2.schema.json", *BOT_SCHEMAS)


@cache
def schema_files() -> dict[str, dict[str, Any]]:
    """Every schema by file name (e.g. `track.schema.json`): the core's, then each ruleset's
    (a name the core or an earlier ruleset has is not read again)."""
    root = resources.files(SCHEMA_PACKAGE)
    out: dict[str, dict[str, Any]] = {n: json.loads((root / n).read_text(encoding="utf-8")) for n in CORE_SCHEMAS}
    for name, entry in ruleset_schemas().items():
        if name not in out:
            out[name] = json.loads(entry.read_text(encoding="utf-8"))
    return out


def ruleset_schemas() -> dict[str, Traversable]:
    """The schema files each installed ruleset registers, by name (the first ruleset to name
    one wins; a ruleset that does not load is left out, its packs then fail to load anyway)."""
    from slipstream.engine.core import plugins

    out: dict[str, Traversable] = {}
    for rid in plugins.ruleset_ids():
        try:
            obj = plugins.load(rid)
            files = getattr(obj, "files", None)  # checked by the registry, not here
            found = dict(files.schemas()) if files is not None else {}
        except Exception:  # noqa: BLE001 - a broken third-party ruleset must not stop the tool
            continue
        for name, entry in found.items():
            out.setdefault(name, entry)
    return out
