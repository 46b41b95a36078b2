"""The bundled JSON Schemas (package data of `slipstream.schemas`), read once."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

SCHEMA_PACKAGE = "slipstream.schemas"


@cache
def schema_files() -> dict[str, dict[str, Any]]:
    """Every bundled schema by file name (e.g. `track.schema.json`), and those the loaded
    rulesets generate (engine/core/schema.py's `register_schema`)."""
    out: dict[str, dict[str, Any]] = {}
    for entry in resources.files(SCHEMA_PACKAGE).iterdir():
        if entry.name.endswith(".schema.json"):
            out[entry.name] = json.loads(entry.read_text(encoding="utf-8"))
    return out
