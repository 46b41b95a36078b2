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
    for f in sorted(Path(f) for f in pack.scenario_files):
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


def play_decisions(g: Any, decisions: list[Any], src: SourceMap, at: list[Any],
                   mover: Callable[[Any], str]) -> list[str]:
    """Apply a scenario's `decisions:` in order (a key, or `{choose, rejected}` for a choice
    that must be refused, optionally with words of the reason); `at` is kept at the decision
    being made (path and words, for errors raised meanwhile), `mover(g)` names who decides.
    The first failure, naming its line, or []."""
    for i, dec in enumerate(decisions):
        line = src.value(("decisions", i)).line
        key, want = (dec, None) if isinstance(dec, str) else (dec["choose"], dec["rejected"])
        at[:] = [("decisions", i), f"decision {i + 1} {key!r}"]
        here = f"{g.pending.kind} decision of {mover(g)}" if g.pending else "no decision (the race is over)"
        r = g.apply(key)
        if want is None or want is False:
            if r is not None:
                return [f"line {line}: decision {i + 1} {key!r} refused at the {here}: {r.message}; "
                        f"legal: {', '.join(r.legal) or 'none'}"]
        elif r is None:
            return [f"line {line}: decision {i + 1} {key!r} was accepted at the {here} but should be refused"]
        elif isinstance(want, str) and want not in r.message:
            return [f"line {line}: decision {i + 1} {key!r} refused, but the reason is {r.message!r}, "
                    f"expected it to say {want!r}"]
    return []


def bot_play(g: Any, ruleset: Any, data: Any, seats: int) -> None:
    """Let the scenario's `bot:` play every seat to the end (or `bot_decisions` decisions),
    seeded from its `seed`."""
    bots = [ruleset.make_bot(data["bot"], data.get("seed", 0) * 100 + i) for i in range(seats)]
    budget = data.get("bot_decisions", 100_000)
    while budget > 0 and g.pending is not None:
        d = g.pending
        r = g.apply(bots[d.player].choose(g, d))
        assert r is None, r  # a bot only picks legal options
        budget -= 1


def first_line(problems: list[str]) -> int:
    """The line number the first "line N: ..." problem names (0 if none does)."""
    for p in problems:
        if p.startswith("line "):
            head = p[5:].split(":", 1)[0]
            if head.isdigit():
                return int(head)
    return 0


def _match(event: Any, want: Any) -> bool:
    return all(k in event and event[k] == v for k, v in want.items())


def _show(e: Any) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in e.items() if k != "t") + "}"


def check_events(ex: Any, evs: list[Any], say: Callable[[tuple[Any, ...], str], None]) -> None:
    """The event expectations every ruleset's scenarios share: `events` (in this order, others
    between allowed), `no_events` and `events_exactly` (all events of a kind, in order)."""
    k = 0
    for j, want in enumerate(ex.get("events", [])):
        while k < len(evs) and not _match(evs[k], want):
            k += 1
        if k == len(evs):
            same = [_show(e) for e in evs if e.get("ev") == want["ev"]]
            say(("events", j), f"no event {_show(want)} (in this order); {want['ev']} events: {', '.join(same) or 'none'}")
            break
        k += 1
    for j, want in enumerate(ex.get("no_events", [])):
        hit = next((e for e in evs if _match(e, want)), None)
        if hit is not None:
            say(("no_events", j), f"event {_show(hit)} should not occur")
    for ev, wants in ex.get("events_exactly", {}).items():
        got_evs = [e for e in evs if e.get("ev") == ev]
        if len(got_evs) != len(wants) or not all(_match(e, w) for e, w in zip(got_evs, wants, strict=False)):
            say(("events_exactly", ev), f"{ev} events: expected {', '.join(_show(w) for w in wants) or 'none'}; "
                                        f"got {', '.join(_show(e) for e in got_evs) or 'none'}")
