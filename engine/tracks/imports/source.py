"""What an importer reads out of a foreign circuit file, before it becomes a track/2 document.

Each format module (gponline, ttsfd, heat) turns its file into a `SourceGraph`: the spaces of
the board as nodes with their pixel positions, the directed steps between them exactly as the
file gives them, the finish line, corners, pit lane, grid and special spaces. `build.py` lays
that graph out as lanes × segments. Every node, edge and corner remembers where in the file it
came from (`Where`), so a problem is reported at its line or JSON path.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic, make
from slipstream.engine.core.yamlsource import SourceMap, json_path, load_text

MAX_COORDINATE = 1_000_000  # the bound of a track's drawing coordinates (schemas: `coordinate`)
MAX_NODES = 20_000  # house limit: more spaces than any board has; the lane search stays quick
MAX_EDGES = 8 * MAX_NODES  # house limit: a board space leads to at most a few others


def coordinate_ok(v: object) -> bool:
    """A pixel coordinate a track can hold: a finite number within ±MAX_COORDINATE."""
    return (isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            and abs(v) <= MAX_COORDINATE)


@dataclass(frozen=True, slots=True)
class Where:
    """A place in the source file: 1-based line and column, and a JSON path (`$` for text)."""

    line: int = 1
    column: int = 1
    path: str = "$"


@dataclass(slots=True)
class Node:
    """One space of the source board."""

    key: str
    x: float
    y: float
    where: Where
    pit: bool = False
    finish: bool = False
    lane: int | None = None  # 0 = innermost, when the format says
    segment: int | None = None  # when the format numbers positions along the lap
    corner: str | None = None  # key of its corner
    box: bool = False  # a pit box
    features: list[str] = field(default_factory=list)


@dataclass(slots=True)
class CornerInfo:
    key: str
    where: Where
    stops: int | None = None
    speed: int | None = None  # km/h
    chicane: bool = False
    name: str | None = None


@dataclass(slots=True)
class SourceGraph:
    """A circuit as read from a foreign file (see the module docstring)."""

    file: str
    format: str
    name: str = ""
    ident: str = ""
    laps: int | None = None
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[tuple[str, str, Where]] = field(default_factory=list)
    corners: dict[str, CornerInfo] = field(default_factory=dict)
    grid: list[tuple[str, Where]] = field(default_factory=list)  # pole first
    image: str | None = None
    lanes_ordered: bool = False  # node lanes are given inner to outer
    dropped: list[str] = field(default_factory=list)  # what the reader left out, for the report
    notes: list[str] = field(default_factory=list)


class Problems:
    """Diagnostics of one source file."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.items: list[Diagnostic] = []

    def add(self, code: str, where: Where, message: str, *, hint: str | None = None,
            severity: str | None = None) -> None:
        self.items.append(make(code, self.file, where.line, where.column, where.path, message,
                               hint=hint, severity=severity))

    @property
    def failed(self) -> bool:
        return any(d.is_error for d in self.items)


class JsonSource:
    """A JSON file with the positions of its values by path (for diagnostics)."""

    def __init__(self, text: str, file: str, problems: Problems) -> None:
        self.data: Any = None
        self._src: SourceMap | None = None
        try:
            self.data = json.loads(text)
        except json.JSONDecodeError as e:
            ends = e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated")
            what = f"{e.msg} (the file ends before the JSON does: truncated?)" if ends else e.msg
            problems.add("I001", Where(e.lineno, e.colno, "$"), f"not valid JSON: {what}")
            return
        except RecursionError:
            problems.add("I001", Where(), "not valid JSON: nested too deeply")
            return
        try:  # JSON is YAML: the YAML reader gives every value its line and column
            loaded = load_text(text, file)
            if loaded.data is not None:
                self._src = loaded.source
        except Exception:  # noqa: BLE001 - positions are a help; the JSON itself is read
            self._src = None

    def items(self, obj: Any, key: str, problems: Problems, *path: str | int) -> list[Any]:
        """`obj[key]` when it is a list; [] when absent; [] and a diagnostic when it is not a list."""
        v = obj.get(key) if isinstance(obj, dict) else None
        if v is None:
            return []
        if not isinstance(v, list):
            problems.add("I004", self.at(*path, key), f"`{key}` must be a list, not {type(v).__name__}")
            return []
        return v

    def at(self, *path: str | int) -> Where:
        pos = self._src.value(path) if self._src is not None else None
        return Where(pos.line if pos else 1, pos.column if pos else 1, json_path(path))
