"""What running a pack's rule scenarios reports, for every ruleset (`slipstream test`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


RunFile = Callable[[Path, Any], "tuple[ScenarioResult | None, list[Diagnostic]]"]


def run_scenario_folder(pack_path: str, run_file: RunFile, ready: Callable[[Any], bool],
                        not_ready: str, select: str = "") -> Report:
    """Every scenario file of the pack folder (its `scenario_files`), run by `run_file(path,
    pack)`; `select` keeps ids containing it. A pack that does not load, or is not `ready`
    for races (`not_ready` says why), is one C100 diagnostic; a malformed scenario is reported
    by its own run, not as a broken pack."""
    from slipstream.engine.core.diagnostics import make
    from slipstream.engine.packs.loader import load_pack

    root = Path(pack_path)
    try:
        pack, diags = load_pack(root)
    except (OSError, ValueError) as e:
        return Report([], [make("C100", pack_path, 1, 1, "$", f"the pack cannot be loaded: {e}")])
    tests = (root / "tests").resolve()
    errors = [d for d in diags if d.is_error
              and not any(tests in f.resolve().parents for f in (Path(d.file), root / d.file))]
    if pack is None or errors or not ready(pack):
        shown = "; ".join(f"{d.file}:{d.line}: {d.code} {d.message}" for d in errors[:5]) or not_ready
        return Report([], [make("C100", pack_path, 1, 1, "$", f"the pack cannot be loaded: {shown}")])
    results: list[ScenarioResult] = []
    out: list[Diagnostic] = []
    for f in sorted(Path(f) for f in (getattr(pack, "scenario_files", ()) or ())):
        res, ds = run_file(f, pack)
        if not select or (select in res.id if res is not None else select in f.stem):
            out += ds
            if res is not None:
                results.append(res)
    return Report(results, out)


def check_options_and_result(ex: Any, g: Any, pend: Any, say: Callable[[tuple[Any, ...], str], None]) -> None:
    """The `expect:` checks every ruleset's scenarios share: the pending decision's legal
    options (`options`, `options_include`, `options_exclude`), `grid` and `standings`;
    `say(path under expect, text)` reports a difference."""
    keys = pend.keys() if pend is not None else []
    if "options" in ex and sorted(keys) != sorted(ex["options"]):
        say(("options",), f"legal options: expected {sorted(ex['options'])}, got {sorted(keys)}")
    for j, key in enumerate(ex.get("options_include", [])):
        if key not in keys:
            say(("options_include", j), f"option {key!r} should be legal; legal: {keys}")
    for j, key in enumerate(ex.get("options_exclude", [])):
        if key in keys:
            say(("options_exclude", j), f"option {key!r} should not be legal")
    if "grid" in ex and g.grid != ex["grid"]:
        say(("grid",), f"grid: expected {ex['grid']}, got {g.grid}")
    if "standings" in ex and g.standings() != ex["standings"]:
        say(("standings",), f"standings: expected {ex['standings']}, got {g.standings()}")
