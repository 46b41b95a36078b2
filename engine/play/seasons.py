"""Championships of points by place, shared by the rulesets whose seasons are a row of ordinary
races (Formula Dé-style, speed-and-hazard; docs/seasons.md).

Every race of a season is an ordinary race (its own grid, a fresh car) played by
engine/play/races.py; race k of a season of seed S has the seed `race_seed(S, k)`. Points go by
place from the `season_points` option, and the champion has the most points; a tie goes to more
wins, then more second places, and so on, and last to the better place in the last race. What
differs between rulesets is data: the house values (points, races), the words for a car out of
a race and how a race result names those cars. A ruleset holds one `PointsChampionship` and
offers it as its `seasons` capability through `PointsSeasons`.

A season log is JSON lines: the season header (`seasonlog/1`, the ruleset's id), then each
race's own log (header, decisions and events, result) followed by a `season-race` line with the
points it gave, and a `season-result` line at the end. `replay_season` re-runs every race from
its logged decisions and recomputes the points, comparing every line.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

from slipstream.engine.packs.trackpack import house_options
from slipstream.engine.play.options import OptionSpec
from slipstream.engine.play.protocol import SeasonPlan, SeasonSetting
from slipstream.engine.play.racelog import ReplayReport, dumps, log_lines
from slipstream.engine.play.races import RaceSpec, header, play_race, resolve_track, seats_of
from slipstream.engine.play.stats import Rate, summarise_races

FORMAT = "seasonlog/1"
MAX_RACES = 100  # races a season log may hold (replay refuses longer ones)
SEASON_RACES_MAX = 20  # races of a championship, named by --tracks or season_races (house limit)


def _named_out(result: Mapping[str, Any]) -> Mapping[str, str]:
    """The cars out of a race by name -> cause, as a result's `out` gives them."""
    out = result.get("out", {})
    return dict(out) if isinstance(out, Mapping) else {}


@dataclass(frozen=True)
class PointsChampionship:
    """What a ruleset's championship is made of.

    `house_points` and `house_races` are the values without a pack's house rules or an option;
    `out_car` names a car out of a race in the season options' help and texts (`an eliminated
    car`, `a wrecked car`); `out_of(result)` gives those cars of a race result by name with the
    cause;
    `finishers` says whether the cars that crossed the line are worth a finish rate (a race that
    ends when its winner crosses has one finisher)."""

    house_points: tuple[int, ...]
    house_races: int = 3
    out_car: str = "an eliminated car"
    out_of: Callable[[Mapping[str, Any]], Mapping[str, str]] = _named_out
    finishers: bool = True
    options: tuple[OptionSpec, ...] = field(init=False)

    def __post_init__(self) -> None:
        points = ",".join(str(p) for p in self.house_points)
        object.__setattr__(self, "options", (
            OptionSpec("season_races", "int", self.house_races,
                       f"Races in a championship when --tracks names none: the pack's circuits in turn "
                       f"(house value {self.house_races}).",
                       minimum=1, maximum=SEASON_RACES_MAX, scope="season"),
            OptionSpec("season_points", "points", list(self.house_points),
                       "Championship points by place, winner first; places beyond the list score 0 "
                       f"(house value {points}); `players_minus_place` gives N - place + 1.",
                       scope="season"),
            OptionSpec("season_eliminated_score", "bool", False,
                       f"{self.out_car[0].upper()}{self.out_car[1:]} scores the points of its place "
                       "(house reading: false, it scores none).", scope="season"),
        ))

    @property
    def names(self) -> frozenset[str]:
        return frozenset(s.name for s in self.options)

    def config(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The season settings with the house values filled in (ValueError on a bad value)."""
        out = {s.name: s.default for s in self.options}
        for k, v in options.items():
            spec = next((s for s in self.options if s.name == k), None)
            if spec is None:
                raise ValueError(f"unknown season option {k!r}")
            problem = spec.problem(v)
            if problem:
                raise ValueError(problem)
            out[k] = list(v) if isinstance(v, tuple) else v
        return out

    def pack_config(self, pack: Any, options: Mapping[str, Any]) -> dict[str, Any]:
        """The settings of a season of `pack`: its house rules, then `options`."""
        house = {k: v for k, v in house_options(pack).items() if k in self.names}
        return self.config({**house, **options})

    def tracks(self, pack: Any, races: int | None = None) -> list[str]:
        """The pack's circuits in turn, `season_races` races (the pack's house rules, else the
        house value)."""
        return default_tracks(pack, races or house_options(pack).get("season_races") or self.house_races)


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
    setup: tuple[tuple[str, Any], ...] = ()  # the ruleset's setup values, for every race


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
    race's grid, rounds and decisions summed, `stats` summed over the races). `spec` holds every
    season option it was played by (the pack's house rules and the house values filled in)."""

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


def default_tracks(pack: Any, races: int = 3) -> list[str]:
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
    head = {"t": "season", "format": FORMAT, "ruleset": rs.id, "pack": pack.id, "pack_path": spec.pack,
            "digest": pack.digest, "tracks": list(spec.tracks), "laps": spec.laps,
            "options": dict(spec.options), "season_options": dict(config), "seed": spec.seed,
            "track_digests": [track_digest(t) for t in tracks],
            "seats": [{"name": s.name, "bot": s.bot} for s in seats_of(spec.bots)]}
    if spec.setup:  # only a ruleset with setup keys has any (the other logs stay as they were)
        head["setup"] = dict(spec.setup)
    return head


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


def record_of(champ: PointsChampionship, k: int, track: str, seed: int, r: Any,
              config: Mapping[str, Any]) -> RaceRecord:
    """The season's record of a finished race (`r`: a race result)."""
    name_to_seat = {nm: i for i, nm in enumerate(r.names)}
    out = {name_to_seat[nm]: str(c) for nm, c in champ.out_of(r.result).items() if nm in name_to_seat}
    pts = race_points(config["season_points"], r.standings, out, bool(config["season_eliminated_score"]))
    finished = int(dict(r.stats or {}).get("finished", len(r.standings) - len(out)))
    return RaceRecord(track, seed, list(r.grid), list(r.standings), out, pts, int(r.rounds), bool(r.capped),
                      finished)


def run_season(rs: Any, champ: PointsChampionship, spec: SeasonSpec) -> SeasonResult:
    """Play the championship of `spec` with bots."""
    from slipstream.engine.play.registry import load_pack

    pack = load_pack(spec.pack)
    # the pack's house rules, then the command's; the result keeps every value it played by
    config = champ.pack_config(pack, dict(spec.season_options))
    spec = replace(spec, season_options=tuple(sorted(config.items())))
    n = len(spec.bots)
    names = [s.name for s in seats_of(spec.bots)]
    lines = [dumps(season_header(rs, spec, pack, config))] if spec.record else []
    totals = [0] * n
    races: list[RaceRecord] = []
    stats: dict[str, Any] = {}
    decisions = 0
    for k, track in enumerate(spec.tracks):
        seed = race_seed(spec.seed, k)
        r = play_race(rs, RaceSpec(spec.pack, track, seed, spec.bots, spec.laps, spec.options, spec.setup,
                                   spec.record), pack)
        rec = record_of(champ, k, track, seed, r, config)
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


def season_text(champ: PointsChampionship, res: SeasonResult) -> str:
    """One championship in words: every race's grid, result and points, then the standings."""
    names, bots = res.names, res.bots
    config = champ.config(dict(res.spec.season_options))
    table = config["season_points"]
    shown = table if table == "players_minus_place" else "-".join(str(x) for x in table)
    lines = [f"Championship of {len(res.races)} races ({', '.join(res.spec.tracks)}), seed {res.spec.seed}, "
             f"points {shown}" + ("" if config["season_eliminated_score"] else f", none for {champ.out_car}")]
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


def season_json(champ: PointsChampionship, res: SeasonResult) -> dict[str, Any]:
    names = res.names
    return {
        "seed": res.spec.seed, "tracks": list(res.spec.tracks),
        "season_options": champ.config(dict(res.spec.season_options)),
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


def summarise_seasons(champ: PointsChampionship, results: Sequence[Any]) -> dict[str, Any]:
    """Statistics of many championships: champion rate by first-race grid slot and by bot (95%
    intervals), mean points and race wins per bot, the finish rate (for a ruleset whose cars
    finish) and the cars out of races by cause (the races' own count of them when they keep
    one, `out` in their statistics)."""
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
        out.update(r.stats["out"] if "out" in r.stats else Counter(c for rr in r.races for c in rr.out.values()))
        cars += int(r.stats.get("cars", 0))
        finished += int(r.stats.get("finished", 0))
    s["race_wins_by_bot"] = [Rate(b, wins[b], races_n[b]).as_dict() for b in sorted(seats)]
    s["mean_points_by_bot"] = {b: round(pts[b] / seats[b], 2) for b in sorted(seats)}
    if champ.finishers:
        s["finish_rate"] = round(finished / cars, 4) if cars else 0.0
    s["eliminations_by_cause"] = dict(sorted(out.items()))
    return s


def format_season_summary(champ: PointsChampionship, s: Mapping[str, Any]) -> str:
    def rate_line(r: Mapping[str, Any]) -> str:
        return (f"  {r['label']:<10} {100 * r['rate']:5.1f}%  [{100 * r['low']:5.1f}%, "
                f"{100 * r['high']:5.1f}%]  ({r['wins']}/{r['n']})")

    lines = [f"{s['seasons']} championships" + (f" ({s['capped']} with a race ended by the round cap)" if s["capped"] else ""),
             "champion by first-race grid slot (95% interval):", *map(rate_line, s["champion_by_slot"]),
             "champion by bot (95% interval):", *map(rate_line, s["champion_by_bot"]),
             "race wins by bot (95% interval):", *map(rate_line, s["race_wins_by_bot"]),
             "mean points per car by bot: " + ", ".join(f"{b} {v}" for b, v in s["mean_points_by_bot"].items())]
    if "finish_rate" in s:
        lines.append(f"finish rate: {100 * s['finish_rate']:.1f}% of cars")
    lines += ["eliminations by cause: " + (", ".join(f"{k} {v}" for k, v in s["eliminations_by_cause"].items()) or "none"),
              f"mean rounds per championship: {s['mean_rounds_per_season']}"]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------- replay


def _fail(line: int, expected: str, message: str, got: str = "", kind: str = "diverges") -> ReplayReport:
    return ReplayReport(False, line, expected, got, message, kind)


def _spec_from_header(rs: Any, champ: PointsChampionship, n: int, head: dict[str, Any]) -> SeasonSpec:
    from slipstream.engine.play.logcheck import (
        LogError,
        check_bots,
        check_laps,
        check_options,
        check_seats,
        check_seed,
        need,
    )
    from slipstream.engine.play.races import parse_setup

    if head.get("t") != "season" or head.get("format") != FORMAT:
        raise LogError(n, f"line {n} is not a {FORMAT} header")
    for key in ("pack", "pack_path", "digest"):
        need(head, key, "str", n)
    tracks = need(head, "tracks", "list", n)
    if not tracks or len(tracks) > MAX_RACES or not all(isinstance(t, str) for t in tracks):
        raise LogError(n, f"the header's 'tracks' must be a list of 1 to {MAX_RACES} track ids")
    season_opts = need(head, "season_options", "dict", n)
    setup = need(head, "setup", "dict", n) if "setup" in head else {}
    lo, hi = rs.players
    seats = check_seats(head, n, lo, hi, drivers=False)
    race_specs = [s for s in rs.options if s.scope == "race"]
    try:
        champ.config(season_opts)
    except ValueError as e:
        raise LogError(n, f"the header's season options: {e}", "header") from None
    return SeasonSpec(pack=head["pack_path"], tracks=tuple(tracks), seed=check_seed(head, n),
                      bots=check_bots(rs, seats, n),
                      laps=check_laps(head, n, optional=True), options=check_options(head, n, race_specs),
                      season_options=tuple(sorted(season_opts.items())), record=True, setup=parse_setup(setup))


def replay_season(rs: Any, champ: PointsChampionship, lines: list[str], origin: Any = None) -> ReplayReport:
    """Re-run a season log: its header against the pack (found from the log's folder `origin`,
    logcheck.find_pack), then every race from its logged decisions, each checked against the
    seat's bot (logcheck.SeatBots), the points and the standings; the first line that differs
    is reported."""
    from slipstream.engine.play.logcheck import (
        LogError,
        SeatBots,
        find_pack,
        numbered,
        one_line,
        parse,
        track_from_log,
        verify_header,
    )
    from slipstream.engine.play.racelog import bot_line_problem
    from slipstream.engine.play.registry import load_pack, setup_problems

    rows = numbered(lines)
    if not rows:
        return _fail(1, "", "the log is empty", kind="malformed")
    n0, text0 = rows[0]
    try:
        head = parse(n0, text0)
        spec = _spec_from_header(rs, champ, n0, head)
        spec = replace(spec, pack=find_pack(head, n0, origin))
        try:
            pack = load_pack(spec.pack)
            config = champ.config(dict(spec.season_options))
            # ids of the pack or track files (from the log's folder when the log names them so)
            tracks = [resolve_track(pack, track_from_log(t, pack, origin)) for t in spec.tracks]
        except (ValueError, RuntimeError, OSError) as e:
            raise LogError(n0, f"cannot set the season up: {one_line(str(e))}", "setup") from None
        problems = setup_problems(rs, pack, dict(spec.setup))
        if problems:
            raise LogError(n0, f"the header's setup: {one_line(problems[0][1], 200)}", "header")
        rebuilt = season_header(rs, spec, pack, config, tracks)
        rebuilt["pack_path"] = head["pack_path"]  # the log names its pack as it was written
        verify_header(n0, text0, head, rebuilt)
    except LogError as e:
        return _fail(e.line, e.text or text0, e.message, kind=e.kind)
    kept = rows[:1]
    for row in rows[1:]:  # an external bot's fault notes (engine/play/extbots.py) are read past
        if '"t":"bot"' in row[1]:
            try:
                obj = parse(*row)
            except LogError as e:
                return _fail(e.line, row[1], e.message, kind=e.kind)
            if obj.get("t") == "bot":
                problem = bot_line_problem(obj, SimpleNamespace(names=spec.bots))
                if problem:
                    return _fail(row[0], row[1], problem, kind="malformed")
                continue
        kept.append(row)
    rows = kept
    names = [s.name for s in seats_of(spec.bots)]
    at = 1
    totals = [0] * len(names)
    races: list[RaceRecord] = []
    for k, track in enumerate(spec.tracks):
        seed = race_seed(spec.seed, k)
        race = RaceSpec(spec.pack, track, seed, spec.bots, spec.laps, spec.options, spec.setup, True)
        try:
            game = rs.new_game(pack, tracks[k], seats_of(spec.bots), seed, dict(spec.options), spec.laps,
                               dict(spec.setup), True)
        except ValueError as e:  # a combination the ruleset cannot set up (e.g. too many cars)
            return _fail(n0, text0, f"cannot set race {k + 1} up: {one_line(str(e))}", kind="setup")
        race_head = header(rs, race, pack, tracks[k])
        race_head["pack_path"] = head["pack_path"]
        bots = SeatBots(rs.make_bot, spec.bots, seed)
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
                choice = obj.get("choice")
                if not isinstance(choice, str):
                    return _fail(rows[at - 1][0], rows[at - 1][1], "a decision needs a string 'choice'", kind="malformed")
                seat, bot_choice = game.pending.player, bots.choice(game)
                rej = game.apply(choice)
                if rej is not None:
                    return _fail(rows[at - 1][0], rows[at - 1][1], f"the decision was rejected: {rej.message}")
                problem = bots.problem(seat, bot_choice, choice, rows[at - 1][0])
                if problem is not None:
                    return _fail(rows[at - 1][0], rows[at - 1][1], problem)
        if game.pending is not None:
            line = rows[at - 1][0] if at > start else n0
            return _fail(line, rows[at - 1][1] if at > start else "", f"race {k + 1} of the season is not over in the log")
        got = log_lines(race_head, game.log, game.result())
        std = game.standings()
        result = game.result()
        r = SimpleNamespace(names=names, grid=list(game.grid), standings=std,
                            result=result, rounds=int(result.get("rounds", 0)),
                            capped=bool(result.get("capped", False)), stats=dict(game.stats))
        rec = record_of(champ, k, track, seed, r, config)
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
    tail = dumps(_season_result(totals, season_standings(totals, races), names))
    if at >= len(rows):
        return _fail(rows[-1][0] + 1, "", "the season result line is missing", tail)
    if rows[at][1] != tail:
        return _fail(rows[at][0], rows[at][1], f"first divergence at line {rows[at][0]}", tail)
    if at + 1 != len(rows):
        return _fail(rows[at + 1][0], rows[at + 1][1], "lines after the season result")
    return ReplayReport(True, 0, "", "", "identical", "identical")


# ------------------------------------------------------------------------ the protocol's parts


class PointsSeasons:
    """The `seasons` capability (engine/play/protocol.py's `Championships`) of a ruleset whose
    championships are points by place: `PointsSeasons(rs, championship)`. The ruleset's
    `options` should include `championship.options` (the season options)."""

    noun = "championship"
    settings: tuple[SeasonSetting, ...] = ()
    compares = False
    races = (1, SEASON_RACES_MAX)

    def __init__(self, rs: Any, championship: PointsChampionship) -> None:
        self.rs = rs
        self.championship = championship

    def tracks(self, pack: Any, options: Mapping[str, Any]) -> list[str]:
        """The pack's circuits in turn, `season_races` races (the command's option, the pack's
        house rules, else the house value)."""
        return self.championship.tracks(pack, options.get("season_races"))

    def problems(self, pack: Any, plan: SeasonPlan) -> list[tuple[str, str]]:
        """The tracks: 1 to SEASON_RACES_MAX races, each a track id of the pack or a track file
        (checked as the pack checks its own tracks)."""
        lo, hi = self.races
        if not lo <= len(plan.tracks) <= hi:
            return [("--tracks", f"a championship has {lo} to {hi} races, got {len(plan.tracks)}")]
        for t in plan.tracks:
            try:
                resolve_track(pack, t)
            except ValueError as e:
                return [("--tracks", str(e))]
        return []

    def run(self, plan: SeasonPlan) -> SeasonResult:
        """One bot championship (docs/seasons.md); `plan.record` keeps its log in `lines`."""
        names = self.championship.names
        race_opts = tuple((k, v) for k, v in plan.options if k not in names)
        season_opts = tuple((k, v) for k, v in plan.options if k in names)
        return run_season(self.rs, self.championship, SeasonSpec(plan.pack, tuple(plan.tracks), plan.seed,
                                                                 tuple(plan.bots), plan.laps, race_opts,
                                                                 season_opts, plan.record, tuple(plan.setup)))

    def text(self, result: Any, pack: Any) -> str:
        return season_text(self.championship, result)

    def json(self, result: Any) -> dict[str, Any]:
        return season_json(self.championship, result)

    def summarise(self, results: Sequence[Any]) -> dict[str, Any]:
        return summarise_seasons(self.championship, results)

    def format_summary(self, summary: Mapping[str, Any], pack: Any) -> str:
        return format_season_summary(self.championship, summary)

    def compare(self, summary: Mapping[str, Any], other: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError("championships of points by place compare no two packs")

    def format_comparison(self, comparison: Any, a: str, b: str) -> str:
        raise NotImplementedError("championships of points by place compare no two packs")

    def replay(self, lines: list[str], origin: Any = None) -> ReplayReport:
        return replay_season(self.rs, self.championship, lines, origin)
