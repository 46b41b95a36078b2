"""What running a pack's rule scenarios reports, for every ruleset (`slipstream test`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from slipstream.engine.core.diagnostics import Diagnostic
    from slipstream.engine.core.yamlsource import SourceMap


@dataclass(slots=True)
class ScenarioResult:
    """One scenario: passed or not, with what differed, and what it covers."""

    id: str
    file: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    covers: tuple[str, ...] = ()
    line: int = 1  # where a failure is reported: the `expect:` key (else `decisions:`, `id:`)
    column: int = 1


@dataclass(slots=True)
class Report:
    """Every scenario of a pack, and the diagnostics of those that could not run."""

    results: list[ScenarioResult]
    diagnostics: list[Diagnostic]


def report_pos(src: SourceMap) -> tuple[int, int]:
    """Where a failed scenario is reported: its `expect:` key (else `decisions:`, `id:`)."""
    for key in ("expect", "decisions", "id"):
        if (key,) in src.values:
            pos = src.key((key,))
            return pos.line, pos.column
    return 1, 1
