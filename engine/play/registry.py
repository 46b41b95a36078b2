"""The registry of rulesets: by id, for a pack, with every protocol part checked.

Rulesets are found through engine/core/plugins.py (the entry point group
`slipstream.rulesets`, plus the bundled ones). Faces call `get`, `for_pack` and `ids`;
none of them imports a ruleset by name.
"""

from __future__ import annotations

import gc
from functools import cache
from typing import Any

from slipstream.engine.core import plugins
from slipstream.engine.core.diagnostics import format_text, has_errors
from slipstream.engine.play.protocol import Ruleset, missing_parts


class RulesetError(LookupError):
    """No usable ruleset for an id or pack (the message says why)."""


def ids() -> list[str]:
    """Every installed ruleset id."""
    return plugins.ruleset_ids()


def get(rid: str) -> Ruleset:
    """The ruleset `rid`; RulesetError if none is installed or it lacks protocol parts."""
    obj = plugins.load(rid)
    if obj is None:
        raise RulesetError(f"no ruleset {rid!r} is installed (installed: {', '.join(ids())})")
    missing = missing_parts(obj)
    if missing:
        raise RulesetError(f"ruleset {rid!r} lacks {', '.join(missing)}")
    return obj


def all_rulesets() -> list[Ruleset]:
    return [get(rid) for rid in ids()]


@cache
def load_pack(path: str) -> Any:
    """A pack folder (\"\" for the bundled `base`), loaded once per process; ValueError with
    the diagnostics when it has errors."""
    from slipstream.engine.packs.loader import bundled_packs
    from slipstream.engine.packs.loader import load_pack as _load

    folder: Any = path or bundled_packs().get("base")
    if folder is None:
        raise ValueError("the bundled base pack is missing")
    pack, diags = _load(folder)
    if pack is None or has_errors(diags):
        raise ValueError("the pack has errors:\n" + format_text([d for d in diags if d.is_error]))
    # The pack stays for the life of the process (this cache): collect the loading's garbage,
    # then move everything alive into the collector's permanent generation, so that the full
    # collections of a batch of races no longer walk the pack's objects (a few % of a race).
    gc.collect()
    gc.freeze()
    return pack


def for_pack(path: str) -> tuple[Ruleset, Any]:
    """(ruleset, loaded pack) of a pack folder; ValueError / RulesetError when unusable."""
    pack = load_pack(path)
    return get(pack.ruleset), pack


def add(obj: Any) -> None:
    """Register a ruleset object at run time (tests, embedding programs)."""
    missing = missing_parts(obj)
    if missing:
        raise RulesetError(f"ruleset {getattr(obj, 'id', obj)!r} lacks {', '.join(missing)}")
    plugins.add(obj)


def remove(rid: str) -> None:
    plugins.remove(rid)
