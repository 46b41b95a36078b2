"""What running a pack's rule scenarios reports, for every ruleset (`slipstream test`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from slipstream.engine.core.diagnostics import Diagnostic


@dataclass(slots=True)
class ScenarioResult:
    """One scenario: passed or not, with what differed, and what it covers."""

    id: str
    file: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    covers: tuple[str, ...] = ()


@dataclass(slots=True)
class Report:
    """Every scenario of a pack, and the diagnostics of those that could not run."""

    results: list[ScenarioResult]
    diagnostics: list[Diagnostic]
