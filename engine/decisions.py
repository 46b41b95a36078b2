"""The decision API (DESIGN §8): one pending decision at a time, finite options, structured rejections."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Option:
    """One legal choice: a stable key (what logs and scenarios write) and a short text."""

    key: str
    text: str


@dataclass(frozen=True, slots=True)
class Decision:
    """Who decides, what kind of decision, the legal options and a one-line description."""

    player: int
    kind: str
    options: tuple[Option, ...]
    text: str

    def keys(self) -> list[str]:
        return [o.key for o in self.options]

    def option(self, key: str) -> Option | None:
        for o in self.options:
            if o.key == key:
                return o
        return None


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why `apply` refused an option: `code` is one of `race-over`, `not-an-option`."""

    code: str
    message: str
    legal: tuple[str, ...] = ()


def opt(key: str, text: str | None = None) -> Option:
    return Option(key, text if text is not None else key)
