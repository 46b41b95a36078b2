"""Finding the installed rulesets by id, without importing any of them up front.

A ruleset is an object registered under the entry point group `slipstream.rulesets`
(`pyproject.toml`: `[project.entry-points."slipstream.rulesets"]`), so another installed
package can add one. The bundled rulesets are also listed in `BUNDLED`, which keeps a source
checkout without installed metadata working. While a ruleset is being written, the
environment variable `SLIPSTREAM_RULESETS` (`ID=MODULE:ATTRIBUTE`, comma-separated) adds it
without installing anything; worker processes inherit it. What a ruleset object must offer is the protocol
of engine/play/protocol.py; this module only finds and loads it, so that `packs` (which needs
a ruleset's content model) and `play` (the registry) share one loader. Loading a ruleset
registers its file kinds (engine/core/filekinds.py).
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from typing import Any

from slipstream.engine.core import filekinds

GROUP = "slipstream.rulesets"
ENV = "SLIPSTREAM_RULESETS"
DEFAULT = "automobiles"
BUNDLED = {
    "automobiles": "slipstream.engine.rulesets.automobiles.ruleset:RULESET",
    "formula-de": "slipstream.engine.rulesets.formula_de.ruleset:RULESET",
    "speed-hazard": "slipstream.engine.rulesets.speed_hazard.ruleset:RULESET",
}
# rulesets added at run time (tests, embedding programs): id -> object
_ADDED: dict[str, Any] = {}


@cache
def _entry_points() -> dict[str, str]:
    from importlib.metadata import entry_points

    found = dict(BUNDLED)
    try:
        for ep in entry_points(group=GROUP):
            found.setdefault(ep.name, ep.value)
    except Exception:  # broken metadata of some other package must not stop the tool
        pass
    for item in os.environ.get(ENV, "").split(","):
        rid, sep, target = item.strip().partition("=")
        if sep and rid.strip() and ":" in target:
            found[rid.strip()] = target.strip()
    return found


def ruleset_ids() -> list[str]:
    """Every ruleset id that can be loaded, bundled ones first."""
    names = list(_entry_points())
    return names + [n for n in _ADDED if n not in names]


def _load_target(target: str) -> Any:
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@cache
def _loaded(rid: str) -> Any:
    target = _entry_points().get(rid)
    if target is None:
        return None
    obj = _load_target(target)
    _register_kinds(obj)
    return obj


def _register_kinds(obj: Any) -> None:
    """Register the file kinds of the ruleset's `files` capability (none when it is None;
    an object without one is refused later by the registry's protocol check)."""
    files = getattr(obj, "files", None)
    for kind, (versions, checker) in dict(files.kinds if files is not None else {}).items():
        filekinds.register_kind(kind, tuple(versions), checker)


def load(rid: str) -> Any | None:
    """The ruleset object registered as `rid`, or None when no ruleset has that id."""
    if rid in _ADDED:
        return _ADDED[rid]
    return _loaded(rid)


def load_all() -> list[Any]:
    """Every ruleset that loads, in `ruleset_ids` order."""
    return [r for r in (load(rid) for rid in ruleset_ids()) if r is not None]


def add(obj: Any) -> None:
    """Register a ruleset object at run time (for tests and programs that embed the engine)."""
    _ADDED[str(obj.id)] = obj
    _register_kinds(obj)


def remove(rid: str) -> None:
    """Forget a ruleset added with `add`."""
    _ADDED.pop(rid, None)
