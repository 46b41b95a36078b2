"""The rule-scenario harness every ruleset shares (`slipstream test`): what a run reports, the
inline board of a scenario, the checks of its options, bot, track and expected cars, the
decisions and bot play, the `expect:` checks all rulesets have, and the file and folder runners.

One set of defaults for every ruleset: a scenario's race has its `laps`, else its track's;
an inline board (`track:` as a mapping) has the scenario's `laps`, else `LAPS` (1, a house
value: a scenario board is a few squares).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slipstream.engine.core.diagnostics import make
from slipstream.engine.core.yamlsource import SourceMap, json_path, load_file

if TYPE_CHECKING:
    from slipstream.engine.core.diagnostics import Diagnostic
    from slipstream.engine.core.yamlsource import PathKey
    from slipstream.engine.tracks.track import Track

LAPS = 1  # an inline board's laps when the scenario gives none (house value)


class DiceOut(Exception):
    """A scenario's script holds no more rolls of the die (`die`) the game asked for."""

    def __init__(self, die: str = "") -> None:
        super().__init__(die)
        self.die = die


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
class Prepared:
    """A checked scenario, ready to run (a ruleset's subclass adds its own data)."""

    id: str
    file: str
    data: dict[str, Any]
    src: SourceMap
    track: Track
    laps: int
    options: dict[str, Any]
    squares: list[int | None]  # per car where it stands (None: the race starts from the grid)
    covers: tuple[str, ...]
    ruleset: Any  # the ruleset object: its options and bots


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


Say = Callable[[tuple[Any, ...], str], None]  # reports a difference: path under `expect:`, text

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


def play_scenario(g: Any, sc: Any, at: list[Any], mover: Callable[[Any], str]) -> list[str]:
    """Play the prepared scenario `sc`: its `decisions:` (`play_decisions`), then, if none
    failed, its `bot:` (`bot_play`); `at` is kept where the game is, for errors raised
    meanwhile. The first failure, or []."""
    problems = play_decisions(g, sc.data.get("decisions", []), sc.src, at, mover)
    if not problems and "bot" in sc.data:
        at[:] = [("bot",), f"the {sc.data['bot']} bot's play"]
        bot_play(g, sc.ruleset, sc.data, len(g.cars))
    return problems


def turn_of(g: Any, idle: str) -> str:
    """Whose turn the game is in and at which phase (`idle` when no car has the turn)."""
    t = g.turn
    return f"{g.names[t.car]}'s turn, {t.phase}" if t is not None else idle


def sayer(src: SourceMap, out: list[str]) -> Say:
    """A `say(path under expect, text)` that adds the difference to `out`, naming its line."""

    def say(path: tuple[Any, ...], text: str) -> None:
        out.append(f"line {line_of(src, ('expect', *path))}: {text}")

    return say


def corner_square(track: Track, at: Mapping[str, Any], word: str = "corner") -> tuple[str | None, str]:
    """The `LANE:SEGMENT` name of a square given as `{corner, lane, square}` (`square`: how far
    into the corner, default 0), or (None, why not); `word` is what the ruleset calls a corner."""
    c = next((c for c in track.corners if c.name == at["corner"]), None)
    if c is None:
        return None, f"no {word} named {at['corner']!r} ({word}s: {', '.join(x.name for x in track.corners) or 'none'})"
    return f"{at['lane']}:{(c.first + at.get('square', 0)) % track.segments}", ""


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


def result_of(sc: Any, problems: list[str]) -> ScenarioResult:
    """The result of the prepared scenario `sc` (its `id`, `file`, `src` and `covers`) with
    these problems, reported at the line the first names (else its `expect:` key)."""
    line = first_line(problems) or report_pos(sc.src)[0]
    return ScenarioResult(sc.id, sc.file, not problems, problems, sc.covers, line, 1)


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


# --- checking ------------------------------------------------------------------------------------

def diag(src: SourceMap, code: str, path: PathKey, msg: str, hint: str | None = None) -> Diagnostic:
    """A diagnostic at the value `path` of the scenario."""
    pos = src.value(path)
    return make(code, src.file, pos.line, pos.column, json_path(path), msg, hint=hint)


def line_of(src: SourceMap, path: PathKey) -> int:
    """The line of the value `path` of the scenario."""
    return src.value(path).line


def board_id(scenario: str) -> str:
    """The id of a scenario's inline board: the scenario's id as a track id may be written (a
    scenario id may hold `--`, start with a digit or run to 80 characters; a track id may not)."""
    tid = re.sub("-+", "-", scenario).strip("-")
    tid = (tid if tid[:1].isalpha() else "board-" + tid).rstrip("-")
    return tid[:64].rstrip("-")


def inline_track(data: dict[str, Any], src: SourceMap, ncars: int) -> tuple[Track | None, list[Diagnostic]]:
    """The scenario's inline board (`track:` as a mapping: `lanes` and `squares` or `layout`,
    optionally `grid`, `corners`, `links`, `pit`, `features`), checked as a track file; its
    problems are C108 at their place in the scenario. Without `grid` the cars line up from the
    board's last column backwards, one per lane."""
    from slipstream.engine.tracks.load import check_track_data

    spec = data["track"]
    lanes = spec["lanes"]
    if "layout" in spec:
        layout = list(spec["layout"])
    elif "squares" in spec:
        layout = [" ".join(["o"] * spec["squares"]) for _ in range(lanes)]
    else:
        return None, [diag(src, "C108", ("track",), "the inline track needs `squares` or `layout`")]
    if "grid" in spec:
        grid = spec["grid"]
    else:
        n = len(layout[0].split()) if layout else 0
        grid = [{"lane": k % lanes, "segment": n - 1 - k // lanes} for k in range(min(max(ncars, 1), lanes * max(n - 1, 0)))]
    # no `rulesets:`: a scenario board is a few squares, not a circuit with a full grid
    tdata: dict[str, Any] = {"slipstream": "track/2", "id": board_id(data["id"]), "laps": data.get("laps", LAPS),
                             "lanes": lanes, "layout": layout, "grid": grid}
    for k in ("corners", "links", "pit", "features"):
        if k in spec:
            tdata[k] = spec[k]
    sub = SourceMap(src.file)
    for mine, theirs in ((src.values, sub.values), (src.keys, sub.keys)):
        for path, pos in mine.items():
            if path[:1] == ("track",):
                theirs[path[1:]] = pos
    track, tdiags = check_track_data(tdata, sub)
    errors = [d for d in tdiags if d.is_error]
    out = [make("C108", d.file, d.line, d.column, "$.track" + d.path[1:], f"inline track: {d.message}", hint=d.hint)
           for d in errors]
    return (None if errors else track), out


def race_laps(data: Mapping[str, Any], track: Track) -> int:
    """The laps of the scenario's race: its `laps`, else its track's (an inline board's are the
    scenario's `laps`, else `LAPS`)."""
    return int(data.get("laps", track.laps))


def scenario_track(data: dict[str, Any], src: SourceMap, pack: Any) -> tuple[Track | None, list[Diagnostic]]:
    """The scenario's track: its inline board, the pack's track `track:` names, or the pack's
    first track (C101 when there is none)."""
    tspec = data.get("track")
    if isinstance(tspec, dict):
        return inline_track(data, src, len(data["cars"]))
    track = pack.tracks.get(tspec) if tspec is not None else next(iter(pack.tracks.values()), None)
    if track is None:
        return None, [diag(src, "C101", ("track",) if tspec is not None else (),
                           f"unknown track {tspec!r}" if tspec is not None else "the pack has no track; give `track:`",
                           hint="tracks: " + ", ".join(sorted(pack.tracks)))]
    return track, []


def check_options(data: dict[str, Any], src: SourceMap, ruleset: Any) -> list[Diagnostic]:
    """C107 for each `options:` entry the ruleset does not have or does not take."""
    out: list[Diagnostic] = []
    specs = {s.name: s for s in ruleset.options}
    for k, v in (data.get("options") or {}).items():
        spec = specs.get(k)
        if spec is None:
            out.append(diag(src, "C107", ("options", k), f"unknown rule option {k!r}", hint="options: " + ", ".join(specs)))
        elif spec.problem(v) is not None:
            out.append(diag(src, "C107", ("options", k), str(spec.problem(v))))
    return out


def check_bot(data: dict[str, Any], src: SourceMap, ruleset: Any) -> list[Diagnostic]:
    """C105 when `bot:` names no bot of the ruleset."""
    if "bot" in data and data["bot"] not in ruleset.bots:
        return [diag(src, "C105", ("bot",), f"unknown bot {data['bot']!r}", hint="bots: " + ", ".join(ruleset.bots))]
    return []


def check_expected_cars(ex: Mapping[str, Any], src: SourceMap, n: int, lists: tuple[str, ...]) -> list[Diagnostic]:
    """C106 for an `expect:` naming a car the scenario has not: more `cars` than it has, a car
    of the lists `lists` (e.g. `grid`, `standings`) or the pending decision's `car`."""
    out: list[Diagnostic] = []
    if len(ex.get("cars", [])) > n:
        out.append(diag(src, "C106", ("expect", "cars", n), f"more expected cars than the {n} cars"))
    for key in lists:
        for i, p in enumerate(ex.get(key, [])):
            if p >= n:
                out.append(diag(src, "C106", ("expect", key, i), f"no car {p} (cars 0 to {n - 1})"))
    return out


def check_pending_car(ex: Mapping[str, Any], src: SourceMap, n: int) -> list[Diagnostic]:
    """C106 when the expected pending decision names a car the scenario has not."""
    pend = ex.get("pending")
    if isinstance(pend, dict) and pend.get("car", 0) >= n:
        return [diag(src, "C106", ("expect", "pending", "car"), f"no car {pend['car']} (cars 0 to {n - 1})")]
    return []


# --- comparing -----------------------------------------------------------------------------------

def check_pending(ex: Mapping[str, Any], pend: Any, car: int, mover: str, say: Say, player: bool = True) -> None:
    """`expect: pending:`: no decision (null), or one for `car` (the car that moves now) of
    `kind` (and, with `player`, for `player`); `mover` names who decides, for the message."""
    if "pending" not in ex:
        return
    w = ex["pending"]
    if w is None and pend is not None:
        say(("pending",), f"expected no pending decision, got the {pend.kind} decision of {mover}")
    elif w is not None and pend is None:
        say(("pending",), f"expected a pending decision {w}, but none is pending")
    elif w is not None and pend is not None:
        if "car" in w and car != w["car"]:
            say(("pending", "car"), f"pending decision is for car {car}, expected {w['car']}")
        if player and "player" in w and pend.player != w["player"]:
            say(("pending", "player"), f"pending decision is for player {pend.player}, expected {w['player']}")
        if "kind" in w and pend.kind != w["kind"]:
            say(("pending", "kind"), f"pending decision is {pend.kind!r}, expected {w['kind']!r}")


def check_over(ex: Mapping[str, Any], pend: Any, say: Say) -> None:
    """`expect: over:`: whether the race is over (no decision left)."""
    if "over" in ex and (pend is None) != ex["over"]:
        say(("over",), f"race over: expected {ex['over']}, got {pend is None}")


# --- running -------------------------------------------------------------------------------------

def run_file(path: Path, pack: Any, ruleset: Any, check: Callable[[Any, SourceMap, Any, Any], tuple[Any, list[Diagnostic]]],
             run: Callable[[Any], ScenarioResult]) -> tuple[ScenarioResult | None, list[Diagnostic]]:
    """Check one scenario file (`check(data, source, pack, ruleset)`: the prepared scenario or
    None, and diagnostics) and run it (`run(prepared)`): its result, or None and the diagnostics."""
    loaded = load_file(path)
    if loaded.data is None:
        return None, loaded.diagnostics
    sc, diags = check(loaded.data, loaded.source, pack, ruleset)
    if sc is None:
        return None, diags
    return run(sc), diags
