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
    from slipstream.engine.core.files import atomic_write_text

    atomic_write_text(path, "\n".join(lines) + "\n")


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


def replay_lines(lines: list[str]) -> ReplayReport:
    """Re-run a logged race (or season) with its ruleset; compare every line."""
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
    return rs.replay(lines)


def replay_file(path: Path) -> ReplayReport:
    """Replay a log file (its physical lines; bad UTF-8 is reported on its line)."""
    from slipstream.engine.play.logcheck import LogError, decode

    try:
        lines = decode(path.read_bytes())
    except LogError as e:
        return _fail(e.line, e.text, e.message, kind=e.kind)
    return replay_lines(lines)


def replay_simple(rs: Ruleset, lines: list[str]) -> ReplayReport:
    """Replay a log written by engine/play/races.py's `play_race` for ruleset `rs`."""
    from slipstream.engine.play.races import RaceSpec, header, seats_of
    from slipstream.engine.play.registry import load_pack

    head = header_of(lines)
    if isinstance(head, ReplayReport):
        return head
    try:
        spec = RaceSpec(pack=str(head["pack_path"]), track=str(head["track"]), seed=int(head["seed"]),
                        bots=tuple(str(s["bot"]) for s in head["seats"]),
                        laps=None if head.get("laps") is None else int(head["laps"]),
                        options=tuple(sorted(dict(head.get("options", {})).items())),
                        setup=tuple(sorted(dict(head.get("setup", {})).items())))
    except (KeyError, TypeError, ValueError, OverflowError) as e:
        return _fail(1, lines[0], f"line 1 is not a complete race header ({type(e).__name__}: {e})")
    try:
        pack = load_pack(spec.pack)
    except (ValueError, RuntimeError, OSError) as e:
        return _fail(1, lines[0], f"cannot load the pack: {e}")
    track = pack.tracks.get(spec.track)
    if track is None:
        return _fail(1, lines[0], f"unknown track {spec.track!r}")
    want_head = dumps(header(rs, spec, pack, track))
    if want_head != lines[0]:
        what = [k for k in ("pack", "digest", "ruleset", "options", "setup", "seats")
                if json.loads(want_head).get(k) != head.get(k)]
        return _fail(1, lines[0], "the header differs from this pack and ruleset"
                     + (f" ({', '.join(what)})" if what else ""), want_head)
    game = rs.new_game(pack, track, seats_of(spec.bots), spec.seed, dict(spec.options), spec.laps,
                       dict(spec.setup), True)
    for i, line in enumerate(lines[1:-1], start=2):
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError) as e:
            return _fail(i, line, f"line {i} is not JSON: {e}")
        if isinstance(obj, dict) and obj.get("t") == "decision":
            if game.pending is None:
                return _fail(i, line, f"the replayed race is over before the decision at line {i}")
            r = game.apply(str(obj.get("choice")))
            if r is not None:
                return _fail(i, line, f"decision at line {i} was rejected: {r.message}")
    got = log_lines(json.loads(want_head), game.log, game.result())
    for i, (want, have) in enumerate(zip(lines, got, strict=False), start=1):
        if want != have:
            return _fail(i, want, f"first divergence at line {i}", have)
    if len(lines) != len(got):
        return _fail(min(len(lines), len(got)) + 1, "",
                     f"the logs differ in length ({len(lines)} vs {len(got)} lines)")
    return ReplayReport(True, 0, "", "", "identical", "identical")
