"""The registry of file kinds: which checker a `slipstream: KIND/VERSION` file goes to.

`core` only keeps the table. The parts above fill it in: `packs` registers tracks, pack
manifests and each ruleset's pack data files; every ruleset registers its own file kinds
(rule scenarios) when it is loaded (engine/core/plugins.py). Dispatching a file on its tag is
engine/packs/validate.py's job.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from slipstream.engine.core.diagnostics import Diagnostic
    from slipstream.engine.core.yamlsource import SourceMap

# checker(data, source) -> diagnostics of one loaded file
Checker = Callable[[Any, "SourceMap"], "list[Diagnostic]"]

_KINDS: dict[str, tuple[tuple[int, ...], Checker]] = {}
_GENERATION = [0]  # registrations so far: what a checked file's result was checked against


def register_kind(kind: str, versions: tuple[int, ...], checker: Checker) -> None:
    """Make `slipstream: KIND/VERSION` files known to the validator."""
    _KINDS[kind] = (versions, checker)
    _GENERATION[0] += 1


def generation() -> int:
    """How many registrations have been made: a result that depends on the table holds while
    this stays the same."""
    return _GENERATION[0]


def lookup(kind: str, version: int | None) -> Checker | None:
    """The checker of `KIND/VERSION`, or None for a tag nobody registered."""
    entry = _KINDS.get(kind)
    if entry is None or version not in entry[0]:
        return None
    return entry[1]


def registered_tags() -> list[str]:
    """Every `KIND/VERSION` registered so far, sorted."""
    return sorted(f"{k}/{v}" for k, (vs, _) in _KINDS.items() for v in vs)


def split_tag(data: Any) -> tuple[str, int | None]:
    """(`KIND`, VERSION) of a document's `slipstream:` tag; ("", None) without one."""
    if not isinstance(data, dict) or "slipstream" not in data:
        return "", None
    kind, _, ver = str(data["slipstream"]).partition("/")
    return kind, int(ver) if ver.isdigit() else None
