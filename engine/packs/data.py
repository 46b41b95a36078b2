"""Read-only pack data: frozen mappings and tuples, and where each item was written."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from slipstream.engine.core.yamlsource import PathKey

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(dict[K, V]):
    """A read-only dict: hashable, picklable and JSON-serialisable like a plain dict."""

    __slots__ = ()

    def _blocked(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("pack data is read-only")

    __setitem__ = __delitem__ = _blocked
    clear = pop = popitem = setdefault = update = _blocked
    __ior__ = _blocked

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=lambda kv: repr(kv[0]))))

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenMap({dict.__repr__(self)})"


def freeze(data: Any) -> Any:
    """Loaded YAML data as read-only data: mappings → FrozenMap, lists → tuples."""
    if isinstance(data, dict):
        return FrozenMap({k: freeze(v) for k, v in data.items()})
    if isinstance(data, list | tuple):
        return tuple(freeze(v) for v in data)
    return data


def thaw(data: Any) -> Any:
    """The inverse of `freeze` (plain dicts and lists), e.g. for JSON or YAML output."""
    if isinstance(data, dict):
        return {k: thaw(v) for k, v in data.items()}
    if isinstance(data, tuple | list):
        return [thaw(v) for v in data]
    return data


@dataclass(frozen=True, slots=True)
class Origin:
    """Where an item was written: the file (as displayed in diagnostics) and its JSON path."""

    file: str
    path: PathKey

    def child(self, *sub: str | int) -> Origin:
        return Origin(self.file, (*self.path, *sub))

