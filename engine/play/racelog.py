"""Race logs as JSON lines, for every ruleset, and replay that verifies every line.

Line 1 is the header (`ruleset`, pack id and content digest, track, laps, options, seed,
seats and the ruleset's own setup); then every decision and event in order; the last line is
the result. `replay_lines` dispatches on the header's `ruleset` (logs written before rulesets
had ids are Automobiles logs) and lets that ruleset re-run the race (`Ruleset.replay`);
`replay_simple` is the replay of rulesets that play races with engine/play/races.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slipstream.engine.play.logcheck import dumps, dumps_all

if TYPE_CHECKING:
    from slipstream.engine.play.protocol import Ruleset

__all__ = ["ReplayReport", "dumps", "log_lines", "replay_file", "replay_lines", "replay_simple", "write_log"]

DEFAULT_RULESET = "automobiles"  # logs without a `ruleset` key


def log_lines(header: dict[str, Any], game_log: list[dict[str, Any]], result: dict[str, Any]) -> list[str]:
    return [dumps(header), *dumps_all(game_log), dumps(result)]


def write_log(path: Path, lines: list[str]) -> None:
    """Write a log file; every header in it names its pack's folder from the log's own folder
    (`relative_pack_path`), so the log replays from any working folder."""
    from slipstream.engine.core.files import atomic_write_text

    atomic_write_text(path, "\n".join(relocated(lines, path.parent)) + "\n")


def relocated(lines: list[str], folder: Path) -> list[str]:
    """`lines` with the `pack_path` of every race or season header, and the track files a
    season header names, made relative to `folder`."""
    from slipstream.engine.play.logcheck import relative_pack_path, relative_track_files

    out = []
    cache: dict[str, str] = {}
    files: dict[str, str] = {}  # track files of the season headers: as given -> from `folder`
    for text in lines:
        if '"pack_path":' in text:  # a header (an event line holds no such key)
            obj = json.loads(text)
            if isinstance(obj, dict) and obj.get("t") in ("race", "season"):
                new = dict(obj)
                old = obj.get("pack_path")
                if isinstance(old, str) and old:
                    new["pack_path"] = cache.setdefault(old, relative_pack_path(old, folder))
                if obj.get("t") == "season" and isinstance(obj.get("tracks"), list):
                    new["tracks"] = relative_track_files(obj["tracks"], folder)
                    files.update((a, b) for a, b in zip(obj["tracks"], new["tracks"], strict=True)
                                 if isinstance(a, str) and a != b)
                if new != obj:
                    text = dumps(new)
        elif files and '"t":"season-race"' in text:  # a season's race names its track as the header does
            obj = json.loads(text)
            if isinstance(obj, dict) and obj.get("track") in files:
                text = dumps({**obj, "track": files[obj["track"]]})
        out.append(text)
    return out


@dataclass(frozen=True, slots=True)
class ReplayReport:
    identical: bool
    line: int  # 1-based physical line of the first divergence or problem (0 when identical)
    expected: str
    got: str
    message: str
    # identical | diverges (the race replays differently) | header (the header does not match
    # the pack and engine now) | malformed (a line is not what a log holds) | setup (no pack)
    kind: str = "diverges"


def _fail(line: int, expected: str, message: str, got: str = "", kind: str = "diverges") -> ReplayReport:
    return ReplayReport(False, line, expected, got, message, kind)


def header_of(lines: list[str]) -> dict[str, Any] | ReplayReport:
    """The parsed header (the first non-blank line), or the report of why it is not one."""
    from slipstream.engine.play.logcheck import LogError, parse

    first = next(((i, s) for i, s in enumerate(lines, start=1) if s and not s.isspace()), None)
    if first is None:
        return _fail(1, "", "empty log", kind="malformed")
    try:
        return parse(*first)
    except LogError as e:
        return _fail(e.line, e.text, e.message, kind=e.kind)


def replay_lines(lines: list[str], origin: Path | None = None) -> ReplayReport:
    """Re-run a logged race (or season) with its ruleset; compare every line. `origin` is the
    folder of the log file (its pack is looked for from there first, logcheck.find_pack)."""
    from slipstream.engine.play.registry import RulesetError, get

    head = header_of(lines)
    if isinstance(head, ReplayReport):
        return head
    rid = head.get("ruleset", DEFAULT_RULESET)
    if not isinstance(rid, str):
        return _fail(1, "", "the header's `ruleset` is not a ruleset id", kind="malformed")
    try:
        rs = get(rid)
    except RulesetError as e:
        return _fail(1, "", str(e)[:300], kind="setup")
    return rs.replay(lines, origin)


def replay_file(path: Path) -> ReplayReport:
    """Replay a log file (its physical lines; bad UTF-8 is reported on its line)."""
    from slipstream.engine.core.files import read_regular
    from slipstream.engine.play.logcheck import LogError, decode

    try:
        lines = decode(read_regular(path))
    except LogError as e:
        return _fail(e.line, e.text, e.message, kind=e.kind)
    return replay_lines(lines, path.parent)


def replay_simple(rs: Ruleset, lines: list[str], origin: Path | None = None) -> ReplayReport:
    """Replay a log written by engine/play/races.py's `play_race` for ruleset `rs`: the header
    checked field by field (engine/play/logcheck.py), the seats' bots re-run beside it."""
    from slipstream.engine.play.logcheck import LogError

    head = header_of(lines)
    if isinstance(head, ReplayReport):
        return head
    n0, text0 = next((i, s) for i, s in enumerate(lines, start=1) if s and not s.isspace())
    try:
        game, bots = race_setup(rs, n0, text0, head, origin)
    except LogError as e:
        return _fail(e.line, e.text or text0, e.message, kind=e.kind)
    rows = [(i, s) for i, s in enumerate(lines, start=1) if i > n0 and s and not s.isspace()]
    return replay_race_rows(game, bots, (n0, text0), rows)


def race_setup(rs: Ruleset, n: int, text: str, head: dict[str, Any], origin: Path | None = None,
               pack_path: str | None = None) -> tuple[Any, Any]:
    """The game and the seats' bots (logcheck.SeatBots) of a race header of `rs` after checking
    every field: types, rule options against the ruleset's spec, seats and their bots, the
    pack (found by logcheck.find_pack; `pack_path`: already found) and track, and finally the
    whole header against the one this engine writes. A LogError names what is wrong."""
    from slipstream.engine.play.logcheck import (
        LogError,
        SeatBots,
        check_bots,
        check_laps,
        check_options,
        check_seats,
        check_seed,
        find_pack,
        need,
        one_line,
        verify_header,
    )
    from slipstream.engine.play.races import LOG_FORMAT, RaceSpec, header, seats_of
    from slipstream.engine.play.registry import load_pack, setup_problems

    if head.get("t") != "race" or head.get("format") != LOG_FORMAT:
        raise LogError(n, f"line {n} is not a {LOG_FORMAT} header", text=text[:300])
    for key in ("pack", "pack_path", "digest", "track"):
        need(head, key, "str", n)
    seed = check_seed(head, n)
    laps = check_laps(head, n, optional=True)
    opts = check_options(head, n, [s for s in rs.options if s.scope == "race"])
    setup: dict[str, Any] = need(head, "setup", "dict", n)
    lo, hi = rs.players
    bots = check_bots(rs, check_seats(head, n, lo, hi, drivers=False), n)
    path = pack_path if pack_path is not None else find_pack(head, n, origin)
    try:
        pack = load_pack(path)
    except (ValueError, RuntimeError, OSError) as e:
        raise LogError(n, f"cannot load the pack: {one_line(str(e))}", "setup") from None
    if pack.ruleset != rs.id:
        raise LogError(n, f"the pack is one of the {str(pack.ruleset)[:40]!r} ruleset, the log of {rs.id!r}", "header")
    track = pack.tracks.get(head["track"])
    if track is None:
        raise LogError(n, f"the pack has no track {head['track'][:60]!r}", "header")
    problems = setup_problems(rs, pack, setup)
    if problems:
        raise LogError(n, f"the header's setup: {one_line(problems[0][1], 200)}", "header")
    spec = RaceSpec(pack=path, track=track.id, seed=seed, bots=bots, laps=laps, options=opts,
                    setup=tuple(sorted(setup.items())))
    rebuilt = header(rs, spec, pack, track)
    rebuilt["pack_path"] = head["pack_path"]  # the log names its pack as it was written
    verify_header(n, text, head, rebuilt)
    try:
        game = rs.new_game(pack, track, seats_of(bots), seed, dict(opts), laps, setup, True)
    except ValueError as e:  # a combination the ruleset cannot set up (e.g. too many cars)
        raise LogError(n, f"cannot set the race up: {one_line(str(e))}", "setup") from None
    return game, SeatBots(rs.make_bot, bots, seed)


def bot_line_problem(obj: dict[str, Any], bots: Any) -> str | None:
    """Why a `t: bot` line cannot be in this race's log (None when it can): it names a seat
    that an external bot plays."""
    from slipstream.engine.play.extbots import is_external

    seat = obj.get("p")
    names = getattr(bots, "names", [])
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(names) \
            or not is_external(str(names[seat])):
        return "a `t: bot` line names no seat of an external bot"
    if not isinstance(obj.get("fault"), str):
        return "a `t: bot` line needs a string 'fault'"
    return None


def replay_race_rows(game: Any, bots: Any, first: tuple[int, str], rows: list[tuple[int, str]]) -> ReplayReport:
    """Apply the decisions of `rows` (the race's non-blank lines after its header, with their
    physical line numbers, the result line last) to `game`, each checked against the seat's
    bot, and compare every line the game writes with the log's."""
    from slipstream.engine.play.logcheck import LogError, parse

    n0, _ = first
    kept = []
    for n, line in rows:
        try:
            obj = parse(n, line)
        except LogError as e:
            return _fail(e.line, line, e.message, kind=e.kind)
        if obj.get("t") == "bot":  # an external bot's fault (engine/play/extbots.py): a note
            problem = bot_line_problem(obj, bots)
            if problem:
                return _fail(n, line, problem, kind="malformed")
            continue
        kept.append((n, line))
        if obj.get("t") == "decision":
            choice = obj.get("choice")
            if not isinstance(choice, str):
                return _fail(n, line, "a decision needs a string 'choice'", kind="malformed")
            if game.pending is None:
                return _fail(n, line, f"the replayed race is over before the decision at line {n}")
            seat, want = game.pending.player, bots.choice(game)
            r = game.apply(choice)
            if r is not None:
                return _fail(n, line, f"decision at line {n} was rejected: {r.message[:300]}")
            problem = bots.problem(seat, want, choice, n)
            if problem is not None:
                return _fail(n, line, problem)
    rows = kept
    got = dumps_all(game.log)
    if game.pending is None:
        got.append(dumps(game.result()))
    for (n, want), have in zip(rows, got, strict=False):
        if want != have:
            return _fail(n, want, f"first divergence at line {n}", have)
    end = (rows[-1][0] if rows else n0) + 1
    if game.pending is not None and len(rows) > len(got):
        n, want = rows[len(got)]
        return _fail(n, want, f"first divergence at line {n}: the replayed race waits for a decision here")
    if game.pending is not None:
        return _fail(end, "", f"the log ends before the race does: a decision is pending after line {end - 1} "
                     "(a truncated log?)")
    if len(rows) != len(got):
        k = min(len(rows), len(got))
        n = rows[k][0] if k < len(rows) else end
        return _fail(n, rows[k][1] if k < len(rows) else "",
                     f"the logs differ in length ({len(rows) + 1} vs {len(got) + 1} lines)",
                     got[k] if k < len(got) else "")
    return ReplayReport(True, 0, "", "", "identical", "identical")
