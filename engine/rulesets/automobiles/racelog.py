"""Race logs as JSON lines, and replay with a report of the first divergence.

Line 1 is the race header (pack id and content digest, card set, track, laps, options, seed,
seats); then every decision and every event in order, each event with its phase; the last
line is the result. The same seed and decisions give a byte-identical log.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from slipstream.engine.play.racelog import ReplayReport, dumps, log_lines, write_log
from slipstream.engine.rulesets.automobiles.game import Game, Seat

__all__ = ["ReplayReport", "dumps", "log_lines", "replay_file", "replay_lines", "result_line", "write_log"]


def result_line(game: Game) -> dict[str, Any]:
    """The last line of a race log (`Game.result`)."""
    return game.result()


def replay_lines(lines: list[str]) -> ReplayReport:
    """Re-run a logged race from its header and decisions; compare every line."""
    from slipstream.engine.rulesets.automobiles.runner import _ruleset, load_pack_cached

    if not lines:
        return ReplayReport(False, 1, "", "", "empty log")
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError as e:
        return ReplayReport(False, 1, lines[0], "", f"line 1 is not JSON: {e}")
    if head.get("t") == "season":  # a season log (engine/rulesets/automobiles/seasonrun.py)
        from slipstream.engine.rulesets.automobiles.seasonrun import replay_season_lines

        return replay_season_lines(lines)
    if head.get("t") != "race" or head.get("format") != "racelog/1":
        return ReplayReport(False, 1, lines[0], "", "line 1 is not a racelog/1 header")
    try:
        pack = load_pack_cached(head.get("pack_path", ""))
    except (ValueError, RuntimeError, OSError) as e:
        return ReplayReport(False, 1, lines[0], "", f"cannot load the pack: {e}")
    if pack.digest != head.get("digest"):
        note = " (the pack's content changed since the log was written)"
    else:
        note = ""
    rs = _ruleset(head.get("pack_path", ""), head.get("card_set", ""),
                  tuple(sorted(head.get("options", {}).items())))
    track = pack.tracks.get(head["track"])
    if track is None:
        return ReplayReport(False, 1, lines[0], "", f"unknown track {head['track']!r}")
    seats = [Seat(s["name"], s.get("bot", "human"), s.get("driver")) for s in head["seats"]]
    game = Game(rs, track, seats, seed=int(head["seed"]), laps=int(head["laps"]), record=True)
    decisions = []
    for i, line in enumerate(lines[1:], start=2):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            return ReplayReport(False, i, line, "", f"line {i} is not JSON: {e}")
        if obj.get("t") == "decision":
            decisions.append((i, obj))
    checked = 0  # game.log entries compared so far (log line = entry index + 2)

    def compare() -> ReplayReport | None:
        nonlocal checked
        while checked < len(game.log):
            got = dumps(game.log[checked])
            want = lines[checked + 1] if checked + 1 < len(lines) else ""
            if got != want:
                return ReplayReport(False, checked + 2, want, got,
                                    f"first divergence at line {checked + 2}{note}")
            checked += 1
        return None

    for i, obj in decisions:
        bad = compare()
        if bad is not None:
            return bad
        if game.pending is None:
            return ReplayReport(False, i, lines[i - 1], "",
                                f"the replayed race is over before the decision at line {i}{note}")
        r = game.apply(obj["choice"])
        if r is not None:
            return ReplayReport(False, i, lines[i - 1], "",
                                f"decision at line {i} was rejected: {r.message}{note}")
    bad = compare()
    if bad is not None:
        return bad
    got_lines = log_lines(head, game.log, game.result())
    if len(lines) != len(got_lines):
        i = min(len(lines), len(got_lines)) + 1
        return ReplayReport(False, i, lines[i - 1] if i <= len(lines) else "",
                            got_lines[i - 1] if i <= len(got_lines) else "",
                            f"the logs differ in length ({len(lines)} vs {len(got_lines)} lines){note}")
    if lines[-1] != got_lines[-1]:
        return ReplayReport(False, len(lines), lines[-1], got_lines[-1], f"the results differ{note}")
    return ReplayReport(True, 0, "", "", "identical")


def replay_file(path: Path) -> ReplayReport:
    text = path.read_text(encoding="utf-8")
    return replay_lines([ln for ln in text.splitlines() if ln.strip()])
