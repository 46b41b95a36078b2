"""Formula Dé-style championships: several races on the pack's circuits, points by place, no
sponsors (docs/rules/formula-de.md §"Championship", docs/seasons.md).

Every race of a season is an ordinary race (its own grid roll, fresh wear points) played by
engine/play/races.py; race k of a season of seed S has the seed `race_seed(S, k)`. A season log
is JSON lines: the season header (`seasonlog/1`, ruleset `formula-de`), then each race's own
log (header, decisions and events, result) followed by a `season-race` line with the points
it gave, and a `season-result` line at the end. `replay_season` re-runs every race from its
logged decisions and recomputes the points, comparing every line.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from slipstream.engine.play.options import OptionSpec
from slipstream.engine.play.racelog import ReplayReport, dumps, log_lines
from slipstream.engine.play.races import RaceSpec, header, play_race, resolve_track, seats_of
from slipstream.engine.play.stats import Rate, summarise_races

FORMAT = "seasonlog/1"
RULESET_ID = "formula-de"

# HOUSE VALUES: no source gives a championship for this game; these are ours.
HOUSE_POINTS = (10, 8, 6, 5, 4, 3, 2, 1)
HOUSE_RACES = 3
MAX_RACES = 100  # races a season log may hold (replay refuses longer ones)

SEASON_RACES_MAX = 20  # races of a championship, named by --tracks or season_races (house limit)
SEASON_OPTIONS = (
    OptionSpec("season_races", "int", HOUSE_RACES,
               "Races in a championship when --tracks names none: the pack's circuits in turn (house value 3).",
               minimum=1, maximum=SEASON_RACES_MAX, scope="season"),
    OptionSpec("season_points", "points", list(HOUSE_POINTS),
               "Championship points by place, winner first; places beyond the list score 0 "
               "(house value 10,8,6,5,4,3,2,1); `players_minus_place` gives N - place + 1.",
               scope="season"),
    OptionSpec("season_eliminated_score", "bool", False,
               "An eliminated car scores the points of its place (house reading: false, it scores none).",
               scope="season"),
)
SEASON_NAMES = frozenset(s.name for s in SEASON_OPTIONS)


@dataclass(frozen=True, slots=True)
class SeasonSpec:
    """Everything that decides a bot championship."""

    pack: str
    tracks: tuple[str, ...]
    seed: int
    bots: tuple[str, ...]
    laps: int | None = None
    options: tuple[tuple[str, Any], ...] = ()  # race options
    season_options: tuple[tuple[str, Any], ...] = ()
    record: bool = True


@dataclass(slots=True)
class RaceRecord:
    """One race of a season: its grid and standings (seats), who was out and the points."""

    track: str
    seed: int
    grid: list[int]
    standings: list[int]
    out: dict[int, str]  # seat -> cause of elimination
    points: list[int]  # per seat
    rounds: int
    capped: bool
    finished: int = 0  # how many cars crossed the line (the first places)


@dataclass(slots=True)
class SeasonResult:
    """A finished championship; it reads like a race result (`standings`, `grid` = the first
    race's grid, rounds and decisions summed, `stats` summed over the races)."""

    spec: SeasonSpec
    names: list[str]
    bots: list[str]
    grid: list[int]
    standings: list[int]
    points: list[int]
    races: list[RaceRecord]
    rounds: int
    capped: bool
    decisions: int
    stats: dict[str, Any]
    lines: list[str] = field(default_factory=list)
    digest: str = ""


def season_config(options: Mapping[str, Any]) -> dict[str, Any]:
    """The season settings with the house values filled in (ValueError on a bad value)."""
    out = {s.name: s.default for s in SEASON_OPTIONS}
    for k, v in options.items():
        spec = next((s for s in SEASON_OPTIONS if s.name == k), None)
        if spec is None:
            raise ValueError(f"unknown season option {k!r}")
        problem = spec.problem(v)
        if problem:
            raise ValueError(problem)
        out[k] = list(v) if isinstance(v, tuple) else v
    return out


def default_tracks(pack: Any, races: int = HOUSE_RACES) -> list[str]:
    """`races` races over the pack's circuits in turn (the one circuit `races` times)."""
    ids = sorted(pack.tracks)
    return [ids[i % len(ids)] for i in range(races)] if ids else []


def race_seed(seed: int, k: int) -> int:
    """The seed of race k (0-based) of the season of `seed`."""
    return seed * 1000 + k + 1


def race_points(table: Any, standings: Sequence[int], out: Mapping[int, str], eliminated_score: bool) -> list[int]:
    """Points per seat for one race's standings."""
    n = len(standings)
    pts = [0] * n
    for place, p in enumerate(standings, start=1):
        if p in out and not eliminated_score:
            continue
        if table == "players_minus_place":
            pts[p] = n - place + 1
        else:
            pts[p] = int(table[place - 1]) if place <= len(table) else 0
    return pts


def season_standings(points: Sequence[int], races: Sequence[RaceRecord]) -> list[int]:
    """Seats by points; ties go to the better finishes (more wins, then more seconds, ...),
    then to the better place in the last race."""
    n = len(points)

    def key(p: int) -> tuple[Any, ...]:
        places = Counter(r.standings.index(p) for r in races)
        last = races[-1].standings.index(p) if races else p
        return (-points[p], tuple(-places[i] for i in range(n)), last)

    return sorted(range(n), key=key)


def season_header(rs: Any, spec: SeasonSpec, pack: Any, config: Mapping[str, Any],
                  tracks: Sequence[Any] | None = None) -> dict[str, Any]:
    """The season log's header (`tracks`: those of `spec.tracks`, when already resolved)."""
    from slipstream.engine.play.logcheck import track_digest

    tracks = tracks if tracks is not None else [resolve_track(pack, t) for t in spec.tracks]
    return {"t": "season", "format": FORMAT, "ruleset": rs.id, "pack": pack.id, "pack_path": spec.pack,
            "digest": pack.digest, "tracks": list(spec.tracks), "laps": spec.laps,
            "options": dict(spec.options), "season_options": dict(config), "seed": spec.seed,
            "track_digests": [track_digest(t) for t in tracks],
            "seats": [{"name": s.name, "bot": s.bot} for s in seats_of(spec.bots)]}


def _add_stats(total: dict[str, Any], stats: Mapping[str, Any], cars: int) -> None:
    for k, v in stats.items():
        if isinstance(v, Mapping):
            total.setdefault(k, Counter()).update(v)
        elif isinstance(v, int | float) and not isinstance(v, bool):
            total[k] = total.get(k, 0) + v
    total["cars"] = total.get("cars", 0) + cars


def _season_race(k: int, rec: RaceRecord, totals: Sequence[int], names: Sequence[str]) -> dict[str, Any]:
    return {"t": "season-race", "race": k + 1, "track": rec.track,
            "points": {names[p]: rec.points[p] for p in range(len(names))},
            "totals": {names[p]: totals[p] for p in range(len(names))}}


def _season_result(res_points: Sequence[int], order: Sequence[int], names: Sequence[str]) -> dict[str, Any]:
    return {"t": "season-result", "standings": [names[p] for p in order],
            "points": {names[p]: res_points[p] for p in order}}


def record_of(k: int, track: str, seed: int, r: Any, config: Mapping[str, Any]) -> RaceRecord:
    """The season's record of a finished race (`r`: a race result)."""
    name_to_seat = {nm: i for i, nm in enumerate(r.names)}
    out = {name_to_seat[nm]: str(c) for nm, c in dict(r.result.get("out", {})).items() if nm in name_to_seat}
    pts = race_points(config["season_points"], r.standings, out, bool(config["season_eliminated_score"]))
    finished = int(dict(getattr(r, "stats", {}) or {}).get("finished", len(r.standings) - len(out)))
    return RaceRecord(track, seed, list(r.grid), list(r.standings), out, pts, int(r.rounds), bool(r.capped),
                      finished)


def run_season(rs: Any, spec: SeasonSpec) -> SeasonResult:
    """Play the championship of `spec` with bots."""
    from slipstream.engine.play.registry import load_pack

    config = season_config(dict(spec.season_options))
    pack = load_pack(spec.pack)
    n = len(spec.bots)
    names = [s.name for s in seats_of(spec.bots)]
    lines = [dumps(season_header(rs, spec, pack, config))] if spec.record else []
    totals = [0] * n
    races: list[RaceRecord] = []
    stats: dict[str, Any] = {}
    decisions = 0
    for k, track in enumerate(spec.tracks):
        seed = race_seed(spec.seed, k)
        r = play_race(rs, RaceSpec(spec.pack, track, seed, spec.bots, spec.laps, spec.options, (), spec.record), pack)
        rec = record_of(k, track, seed, r, config)
        races.append(rec)
        totals = [a + b for a, b in zip(totals, rec.points, strict=True)]
        decisions += r.decisions
        _add_stats(stats, r.stats, n)
        if spec.record:
            lines += log_lines(r.header, r.log, r.result)
            lines.append(dumps(_season_race(k, rec, totals, names)))
    order = season_standings(totals, races)
    if spec.record:
        lines.append(dumps(_season_result(totals, order, names)))
    stats["points"] = list(totals)
    stats["races"] = len(races)
    stats["race_wins"] = Counter(names[r.standings[0]] for r in races if r.standings[0] not in r.out)
    return SeasonResult(spec, names, list(spec.bots), list(races[0].grid) if races else list(range(n)), order,
                        totals, races, sum(r.rounds for r in races), any(r.capped for r in races), decisions,
                        {k: dict(v) if isinstance(v, Counter) else v for k, v in stats.items()}, lines,
                        hashlib.sha256("\n".join(lines).encode()).hexdigest() if lines else "")


# --------------------------------------------------------------------------------------- output


def season_text(res: SeasonResult) -> str:
    """One championship in words: every race's grid, result and points, then the standings."""
    names, bots = res.names, res.bots
    config = season_config(dict(res.spec.season_options))
    table = config["season_points"]
    shown = table if table == "players_minus_place" else "-".join(str(x) for x in table)
    lines = [f"Championship of {len(res.races)} races ({', '.join(res.spec.tracks)}), seed {res.spec.seed}, "
             f"points {shown}" + ("" if config["season_eliminated_score"] else ", none for an eliminated car")]
    totals = [0] * len(names)
    for i, rr in enumerate(res.races, start=1):
        lines += ["", f"Race {i}: {rr.track} (seed {rr.seed}, {rr.rounds} rounds{', round cap' if rr.capped else ''})",
                  "  grid: " + ", ".join(f"{s + 1}. {names[p]}" for s, p in enumerate(rr.grid))]
        for place, p in enumerate(rr.standings, start=1):
            totals[p] += rr.points[p]
            how = f"out ({rr.out[p]})" if p in rr.out else "finished" if place <= rr.finished else "running"
            lines.append(f"  {place}. {names[p]} ({bots[p]}) {how:<22} +{rr.points[p]}")
        order = sorted(range(len(names)), key=lambda p: (-totals[p], rr.standings.index(p)))
        lines.append("  points: " + ", ".join(f"{names[p]} {totals[p]}" for p in order))
    lines += ["", "championship standings (ties: more wins, then more second places, ...; then the last race):"]
    for place, p in enumerate(res.standings, start=1):
        wins = sum(r.standings[0] == p and p not in r.out for r in res.races)
        lines.append(f"  {place}. {names[p]} ({bots[p]}) {res.points[p]} points, {wins} win(s)")
    lines.append(f"{res.decisions} decisions")
    return "\n".join(lines)


def season_json(res: SeasonResult) -> dict[str, Any]:
    names = res.names
    return {
        "seed": res.spec.seed, "tracks": list(res.spec.tracks),
        "season_options": season_config(dict(res.spec.season_options)),
        "races": [{"race": i + 1, "track": rr.track, "seed": rr.seed, "grid": [names[p] for p in rr.grid],
                   "finish": [names[p] for p in rr.standings],
                   "out": {names[p]: c for p, c in sorted(rr.out.items())},
                   "points": {names[p]: rr.points[p] for p in range(len(names))},
                   "rounds": rr.rounds, "capped": rr.capped}
                  for i, rr in enumerate(res.races)],
        "standings": [{"place": i + 1, "name": names[p], "bot": res.bots[p], "points": res.points[p]}
                      for i, p in enumerate(res.standings)],
        "decisions": res.decisions,
    }


def summarise_seasons(results: Sequence[Any]) -> dict[str, Any]:
    """Statistics of many championships: champion rate by first-race grid slot and by bot (95%
    intervals), mean points and race wins per bot, finish rate and eliminations by cause."""
    s = summarise_races(results)
    s["seasons"] = s.pop("races")
    s["champion_by_slot"] = s.pop("win_rate_by_slot")
    s["champion_by_bot"] = s.pop("win_rate_by_bot")
    s["mean_rounds_per_season"] = s.pop("mean_rounds")
    pts: Counter[str] = Counter()
    seats: Counter[str] = Counter()
    races_n: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    out: Counter[str] = Counter()
    cars = finished = 0
    for r in results:
        points = list(r.stats.get("points", [0] * len(r.bots)))
        for p, b in enumerate(r.bots):
            pts[b] += points[p]
            seats[b] += 1
            races_n[b] += int(r.stats.get("races", 0))
            wins[b] += int(dict(r.stats.get("race_wins", {})).get(r.names[p], 0))
        out.update(r.stats.get("out", {}))
        cars += int(r.stats.get("cars", 0))
        finished += int(r.stats.get("finished", 0))
    s["race_wins_by_bot"] = [Rate(b, wins[b], races_n[b]).as_dict() for b in sorted(seats)]
    s["mean_points_by_bot"] = {b: round(pts[b] / seats[b], 2) for b in sorted(seats)}
    s["finish_rate"] = round(finished / cars, 4) if cars else 0.0
    s["eliminations_by_cause"] = dict(sorted(out.items()))
    return s


def format_season_summary(s: Mapping[str, Any]) -> str:
    def rate_line(r: Mapping[str, Any]) -> str:
        return (f"  {r['label']:<10} {100 * r['rate']:5.1f}%  [{100 * r['low']:5.1f}%, "
                f"{100 * r['high']:5.1f}%]  ({r['wins']}/{r['n']})")

    lines = [f"{s['seasons']} championships" + (f" ({s['capped']} with a race ended by the round cap)" if s["capped"] else ""),
             "champion by first-race grid slot (95% interval):", *map(rate_line, s["champion_by_slot"]),
             "champion by bot (95% interval):", *map(rate_line, s["champion_by_bot"]),
             "race wins by bot (95% interval):", *map(rate_line, s["race_wins_by_bot"]),
             "mean points per car by bot: " + ", ".join(f"{b} {v}" for b, v in s["mean_points_by_bot"].items()),
             f"finish rate: {100 * s['finish_rate']:.1f}% of cars",
             "eliminations by cause: " + (", ".join(f"{k} {v}" for k, v in s["eliminations_by_cause"].items()) or "none"),
             f"mean rounds per championship: {s['mean_rounds_per_season']}"]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------- replay


def _fail(line: int, expected: str, message: str, got: str = "", kind: str = "diverges") -> ReplayReport:
    return ReplayReport(False, line, expected, got, message, kind)


def _spec_from_header(rs: Any, n: int, head: dict[str, Any]) -> SeasonSpec:
    from slipstream.engine.play.logcheck import (
        LogError,
        check_laps,
        check_options,
        check_seats,
        check_seed,
        need,
    )

    if head.get("t") != "season" or head.get("format") != FORMAT:
        raise LogError(n, f"line {n} is not a {FORMAT} header")
    for key in ("pack", "pack_path", "digest"):
        need(head, key, "str", n)
    tracks = need(head, "tracks", "list", n)
    if not tracks or len(tracks) > MAX_RACES or not all(isinstance(t, str) for t in tracks):
        raise LogError(n, f"the header's 'tracks' must be a list of 1 to {MAX_RACES} track ids")
    season_opts = need(head, "season_options", "dict", n)
    lo, hi = rs.players
    seats = check_seats(head, n, lo, hi, drivers=False)
    race_specs = [s for s in rs.options if s.scope == "race"]
    try:
        season_config(season_opts)
    except ValueError as e:
        raise LogError(n, f"the header's season options: {e}", "header") from None
    return SeasonSpec(pack=head["pack_path"], tracks=tuple(tracks), seed=check_seed(head, n),
                      bots=tuple(str(s.get("bot") or "human") for s in seats),
                      laps=check_laps(head, n, optional=True), options=check_options(head, n, race_specs),
                      season_options=tuple(sorted(season_opts.items())), record=True)


def replay_season(rs: Any, lines: list[str]) -> ReplayReport:
    """Re-run a season log: its header against the pack, then every race from its logged
    decisions, the points and the standings; the first line that differs is reported."""
    from slipstream.engine.play.logcheck import LogError, numbered, one_line, parse, verify_header
    from slipstream.engine.play.registry import load_pack

    rows = numbered(lines)
    if not rows:
        return _fail(1, "", "the log is empty", kind="malformed")
    n0, text0 = rows[0]
    try:
        head = parse(n0, text0)
        spec = _spec_from_header(rs, n0, head)
        try:
            pack = load_pack(spec.pack)
            config = season_config(dict(spec.season_options))
            tracks = [resolve_track(pack, t) for t in spec.tracks]  # ids of the pack or track files
        except (ValueError, RuntimeError, OSError) as e:
            raise LogError(n0, f"cannot set the season up: {one_line(str(e))}", "setup") from None
        verify_header(n0, text0, head, season_header(rs, spec, pack, config, tracks))
    except LogError as e:
        return _fail(e.line, e.text or text0, e.message, kind=e.kind)
    names = [s.name for s in seats_of(spec.bots)]
    want: list[tuple[int, str]] = [(n0, text0)]
    at = 1
    totals = [0] * len(names)
    races: list[RaceRecord] = []
    for k, track in enumerate(spec.tracks):
        seed = race_seed(spec.seed, k)
        race = RaceSpec(spec.pack, track, seed, spec.bots, spec.laps, spec.options, (), True)
        game = rs.new_game(pack, tracks[k], seats_of(spec.bots), seed, dict(spec.options), spec.laps, {}, True)
        race_head = header(rs, race, pack, tracks[k])
        start = at
        if at >= len(rows):
            return _fail(rows[-1][0] + 1, "", f"race {k + 1} of the season is missing", dumps(race_head))
        if rows[at][1] != dumps(race_head):
            return _fail(rows[at][0], rows[at][1], f"line {rows[at][0]} is not the header of race {k + 1} "
                         "this season plays", dumps(race_head))
        # the logged decisions of this race: up to its result line
        while at < len(rows):
            try:
                obj = parse(*rows[at])
            except LogError as e:
                return _fail(e.line, rows[at][1], e.message, kind=e.kind)
            at += 1
            if obj.get("t") == "result":
                break
            if obj.get("t") == "decision":
                if game.pending is None:
                    return _fail(rows[at - 1][0], rows[at - 1][1], "the replayed race is over before this decision")
                rej = game.apply(str(obj.get("choice")))
                if rej is not None:
                    return _fail(rows[at - 1][0], rows[at - 1][1], f"the decision was rejected: {rej.message}")
        if game.pending is not None:
            line = rows[at - 1][0] if at > start else n0
            return _fail(line, rows[at - 1][1] if at > start else "", f"race {k + 1} of the season is not over in the log")
        got = log_lines(race_head, game.log, game.result())
        std = game.standings()
        result = game.result()
        r = SimpleNamespace(names=names, grid=list(getattr(game, "grid", range(len(names)))), standings=std,
                            result=result, rounds=int(result.get("rounds", 0)),
                            capped=bool(result.get("capped", False)), stats=dict(getattr(game, "stats", {})))
        rec = record_of(k, track, seed, r, config)
        races.append(rec)
        totals = [a + b for a, b in zip(totals, rec.points, strict=True)]
        got.append(dumps(_season_race(k, rec, totals, names)))
        at += 1  # the season-race line
        want_rows = rows[start:at]
        for (line, have), exp in zip(want_rows, got, strict=False):
            if have != exp:
                return _fail(line, have, f"first divergence at line {line}", exp)
        if len(want_rows) != len(got):
            line = want_rows[-1][0] if want_rows else n0
            return _fail(line, "", f"race {k + 1} of the season differs in length")
        want += want_rows
    tail = dumps(_season_result(totals, season_standings(totals, races), names))
    if at >= len(rows):
        return _fail(rows[-1][0] + 1, "", "the season result line is missing", tail)
    if rows[at][1] != tail:
        return _fail(rows[at][0], rows[at][1], f"first divergence at line {rows[at][0]}", tail)
    if at + 1 != len(rows):
        return _fail(rows[at + 1][0], rows[at + 1][1], "lines after the season result")
    return ReplayReport(True, 0, "", "", "identical", "identical")
