"""Race logs as JSON lines, and replay with a report of the first divergence.

Line 1 is the race header (pack id and content digest, card set, track, laps, options, seed,
seats); then every decision and every event in order, each event with its phase; the last
line is the result. The same seed and decisions give a byte-identical log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from slipstream.engine.play.racelog import ReplayReport, dumps, log_lines, write_log
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.options import RACE_OPTIONS

__all__ = ["ReplayReport", "dumps", "log_lines", "replay_file", "replay_lines", "result_line", "write_log"]


def result_line(game: Game) -> dict[str, Any]:
    """The last line of a race log (`Game.result`)."""
    return game.result()


def _error(e: Any) -> ReplayReport:
    return ReplayReport(False, e.line, e.text, "", e.message, e.kind)


def replay_lines(lines: list[str], origin: Path | None = None) -> ReplayReport:
    """Re-run a logged race from its header and decisions; compare every line.

    `lines` are the file's physical lines (blank ones are skipped but counted); `origin` is
    the log file's folder (its pack is looked for from there first). The header is verified
    first (pack name and digest, track content, options, seats and their bots); any problem
    is a report naming its line, never an exception. Each bot seat's decisions must be the
    ones its bot makes (engine/play/logcheck.py `SeatBots`).
    """
    from slipstream.engine.play.logcheck import LogError, parse

    first = next(((i, s) for i, s in enumerate(lines, start=1) if s and not s.isspace()), None)
    if first is None:
        return ReplayReport(False, 1, "", "", "the log is empty", "malformed")
    try:
        head = parse(*first)
        if head.get("t") == "season":  # a season log (engine/rulesets/automobiles/seasonrun.py)
            from slipstream.engine.rulesets.automobiles.seasonrun import replay_season_lines

            return replay_season_lines(lines, origin)
        return _replay_race(lines, first, head, origin)
    except LogError as e:
        return _error(e)


def _race_setup(n: int, text: str, head: dict[str, Any], origin: Path | None) -> tuple[Game, Any]:
    """The game a race header describes and its seats' bots (logcheck.SeatBots), after checking
    every field against the pack (found from the log's folder `origin`, logcheck.find_pack)."""
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
    from slipstream.engine.play.protocol import SeatSpec
    from slipstream.engine.play.races import RaceSpec, header, parse_setup
    from slipstream.engine.play.registry import get
    from slipstream.engine.rulesets.automobiles.racesetup import _ruleset, load_pack_cached
    from slipstream.engine.rulesets.automobiles.roster import make_bot

    if head.get("t") != "race" or head.get("format") != "racelog/1":
        raise LogError(n, f"line {n} is not a racelog/1 header", text=text[:300])
    for key in ("pack", "pack_path", "digest", "card_set", "track"):
        need(head, key, "str", n)
    seed = check_seed(head, n)
    laps = check_laps(head, n)
    opts = check_options(head, n, RACE_OPTIONS)
    path = find_pack(head, n, origin)
    try:
        pack = load_pack_cached(path)
    except (ValueError, RuntimeError, OSError) as e:
        raise LogError(n, f"cannot load the pack: {one_line(str(e))}", "setup") from None
    cs = head["card_set"]
    if cs and cs not in pack.card_sets:
        raise LogError(n, f"the pack has no card set {cs[:60]!r}", "header")
    track = pack.tracks.get(head["track"])
    if track is None:
        raise LogError(n, f"the pack has no track {head['track'][:60]!r}", "header")
    rs = _ruleset(path, cs, opts)
    seat_data = check_seats(head, n, rs.players_min, rs.players_max)
    bots = check_bots(get("automobiles"), seat_data, n)
    known = {d.id for d in rs.drivers}
    for s in seat_data:
        if s.get("driver") is not None and s["driver"] not in known:
            raise LogError(n, f"the pack has no driver {s['driver'][:60]!r}", "header")
    seats = [Seat(s["name"], b, s.get("driver")) for s, b in zip(seat_data, bots, strict=True)]
    spec = RaceSpec(path, track.id, seed, bots, laps, opts,
                    parse_setup({"card_set": cs, "drivers": tuple(s.driver for s in seats)}))
    rebuilt = header(get(pack.ruleset), spec, pack, track, [SeatSpec(s.name, s.bot) for s in seats])
    rebuilt["pack_path"] = head["pack_path"]  # the log names its pack as it was written
    verify_header(n, text, head, rebuilt)
    return Game(rs, track, seats, seed=seed, laps=laps, record=True), SeatBots(make_bot, bots, seed)


_CHOICE = '{"choice":"'  # how every decision line starts (sorted keys: `choice` comes first)
_DECISION_END = '"t":"decision"}'  # and how it ends (`t` is its last key)


def _replays_exactly(game: Game, bots: Any, texts: list[str]) -> bool:
    """Whether the log is, line for line, what `game` writes when the decision lines are applied.

    `texts` are the non-blank lines after the header. The lines that look like decisions give
    the choices; before each is applied the game must have written exactly the lines above
    it and the seat's bot (`bots`) must choose it, and at the end every line must equal what the game wrote (compared as text) and the
    last one its result. A line the game writes is a JSON object within the limits of
    logcheck: no event nests more than two levels, and none is longer than the header that
    holds all the seats' names. Any difference returns False, and `_replay_race` does the full
    check that names the first problem.
    """
    from itertools import compress, repeat
    from json.decoder import scanstring  # type: ignore[attr-defined]  # not in the typing stubs

    from slipstream.engine.play.logcheck import MAX_LINE, dumps_all

    if not texts:
        return False
    body = texts[:-1]  # every line but the result
    log = game.log
    at = len(_CHOICE)  # the first character of the choice
    for i in compress(range(len(body)), map(str.endswith, body, repeat(_DECISION_END))):
        text = body[i]
        if len(log) != i or game.pending is None or not text.startswith(_CHOICE):
            return False
        try:
            choice = scanstring(text, at)[0]
        except ValueError:  # not a well-formed JSON string: the full check says where
            return False
        want = bots.choice(game)
        if (want is not None and want != choice) or game.apply(choice) is not None:
            return False
    return (game.pending is None and len(log) == len(body) and dumps_all(log) == body
            and texts[-1] == dumps(game.result()) and max(map(len, texts)) <= MAX_LINE)


def _without_bot_lines(lines: list[str], n0: int, bots: Any) -> list[str] | ReplayReport:
    """`lines` with each `t: bot` line (a note of an external bot's fault) blanked, its line
    number kept; the report of a note that names no external bot's seat."""
    from slipstream.engine.play.logcheck import LogError, parse
    from slipstream.engine.play.racelog import bot_line_problem

    out = list(lines)
    for i in range(n0, len(lines)):
        if '"t":"bot"' not in lines[i]:
            continue
        try:
            obj = parse(i + 1, lines[i])
        except LogError as e:
            return ReplayReport(False, e.line, lines[i][:300], "", e.message, e.kind)
        if obj.get("t") == "bot":
            problem = bot_line_problem(obj, bots)
            if problem:
                return ReplayReport(False, i + 1, lines[i][:300], "", problem, "malformed")
            out[i] = ""
    return out


def _replay_race(lines: list[str], first: tuple[int, str], head: dict[str, Any],
                 origin: Path | None = None) -> ReplayReport:
    """Replay from the header `first` (line number, text); `lines` are all physical lines."""
    from slipstream.engine.play.logcheck import LogError, numbered, parse

    n0, text0 = first
    game, bots = _race_setup(n0, text0, head, origin)
    if '"t":"bot"' in "".join(lines[n0:]):  # an external bot's faults (engine/play/extbots.py)
        noted = _without_bot_lines(lines, n0, bots)
        if isinstance(noted, ReplayReport):
            return noted
        lines = noted
    # the non-blank lines after the header (the header is physical line n0)
    if _replays_exactly(game, bots, [s for s in lines[n0:] if s and not s.isspace()]):
        return ReplayReport(True, 0, "", "", "identical", "identical")
    rows = numbered(lines)
    game, bots = _race_setup(n0, text0, head, origin)  # again from the start: the full check reports
    objs = [parse(n, t) for n, t in rows[1:]]
    decisions = []
    for (n, _t), obj in zip(rows[1:], objs, strict=True):
        if obj.get("t") == "decision":
            if not isinstance(obj.get("choice"), str):
                raise LogError(n, "a decision needs a string 'choice'", text=_t[:300])
            decisions.append((n, obj))
    end = rows[-1][0] + 1  # the line after the last one
    checked = 0  # game.log entries compared so far (entry k belongs to rows[k + 1])

    def compare() -> ReplayReport | None:
        nonlocal checked
        while checked < len(game.log):
            got = dumps(game.log[checked])
            n, want = rows[checked + 1] if checked + 1 < len(rows) else (end, "")
            if got != want:
                return ReplayReport(False, n, want, got, f"first divergence at line {n}")
            checked += 1
        return None

    text = dict(rows)
    for n, obj in decisions:
        bad = compare()
        if bad is not None:
            return bad
        if game.pending is None:
            return ReplayReport(False, n, text[n], "", f"the replayed race is over before the decision at line {n}")
        seat, want = game.pending.player, bots.choice(game)
        r = game.apply(obj["choice"])
        if r is not None:
            return ReplayReport(False, n, text[n], "", f"decision at line {n} was rejected: {r.message[:300]}")
        problem = bots.problem(seat, want, obj["choice"], n)
        if problem is not None:
            return ReplayReport(False, n, text[n], "", problem)
    bad = compare()
    if bad is not None:
        return bad
    if game.pending is not None:
        return ReplayReport(False, end, "", "", f"the log ends before the race does: a decision is pending "
                            f"after line {end - 1} (a truncated log?)")
    # every event line is compared already: what is left is the length and the result line
    got_count = len(game.log) + 2  # header, the log, the result
    result = dumps(game.result())
    if len(rows) != got_count:
        k = min(len(rows), got_count)
        n, want = rows[k] if k < len(rows) else (end, "")
        got = result if k == got_count - 1 else dumps(game.log[k - 1]) if k < got_count else ""
        return ReplayReport(False, n, want, got,
                            f"the logs differ in length ({len(rows)} vs {got_count} lines)")
    if rows[-1][1] != result:
        return ReplayReport(False, rows[-1][0], rows[-1][1], result, "the results differ")
    return ReplayReport(True, 0, "", "", "identical", "identical")


def replay_file(path: Path) -> ReplayReport:
    """Replay a log file; unreadable bytes are a report too (OSError is left to the caller)."""
    from slipstream.engine.core.files import read_regular
    from slipstream.engine.play.logcheck import LogError, decode

    try:
        lines = decode(read_regular(path))
    except LogError as e:
        return _error(e)
    return replay_lines(lines, path.parent)
