"""One derived value per live object, made on first use and shared (tables of a track, of a ruleset)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ByIdentity(Generic[K, V]):
    """`make(obj)` once per object, kept by the object's identity. The object is held beside its
    value, so its id is not reused while the entry lives; past `limit` entries (many tracks or
    rulesets: the editor, tests, sweeps) it starts over rather than grow."""

    __slots__ = ("make", "limit", "_by_id")

    def __init__(self, make: Callable[[K], V], limit: int = 64) -> None:
        self.make = make
        self.limit = limit
        self._by_id: dict[int, tuple[K, V]] = {}

    def get(self, obj: K) -> V:
        got = self._by_id.get(id(obj))
        if got is not None and got[0] is obj:
            return got[1]
        if len(self._by_id) >= self.limit:
            self._by_id.clear()
        value = self.make(obj)
        self._by_id[id(obj)] = (obj, value)
        return value

    def clear(self) -> None:
        self._by_id.clear()

    def __len__(self) -> int:
        return len(self._by_id)
