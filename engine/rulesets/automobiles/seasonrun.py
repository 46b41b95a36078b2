"""Run bot seasons from a plain, picklable description; season logs and their replay.

A season log is JSON lines: line 1 is the season header (format `seasonlog/1`: pack id,
path and digest, card set, tracks, laps, race options, season options, seed, seats); then,
in order, season decisions and events (driver deal and picks, grids, the draft and each
sponsor applied), each race's header, decisions and events (tagged with `race`) and
result, and at the end the season result. `slipstream replay` re-runs a season log from
its header and decisions and reports the first line that differs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from slipstream.engine.play.racelog import ReplayReport, dumps
from slipstream.engine.rulesets.automobiles.game import Seat
from slipstream.engine.rulesets.automobiles.options import RACE_OPTIONS
from slipstream.engine.rulesets.automobiles.roster import make_bot
from slipstream.engine.rulesets.automobiles.season import (
    Season,
    SeasonConfig,
    play_season,
    season_config,
)
from slipstream.engine.tracks.track import Track

FORMAT = "seasonlog/1"


@dataclass(frozen=True, slots=True)
class SeasonSpec:
    """Everything that determines a bot season."""

    pack: str  # a pack folder, or "" for the bundled base pack
    tracks: tuple[str, ...]  # track ids of the pack, or track file paths
    seed: int
    bots: tuple[str, ...]
    card_set: str = ""
    laps: int | None = None
    options: tuple[tuple[str, Any], ...] = ()  # race rule options
    season_options: tuple[tuple[str, Any], ...] = ()
    record: bool = True
    draft_policy: str = "value"  # how bots draft sponsors: value | random
    keep_lines: bool = True  # False: only the log's digest comes back (big batches)
    deck_top: tuple[str, ...] = ()  # sponsors put on top of the shuffled deck (to measure one sponsor)


@dataclass(slots=True)
class SeasonResult:
    spec: SeasonSpec
    card_set: str
    names: list[str]
    bots: list[str]
    first_grid: list[int]
    standings: list[int]
    points: list[int]
    drivers: list[str | None]
    races: list[Any]  # season.RaceRecord
    drafts: list[Any]  # season.DraftRecord
    decisions: int
    supply: list[list[int]]  # cube totals per kind at the start of each race and at the end
    lines: list[str] = field(default_factory=list)
    digest: str = ""  # sha256 of the whole log (empty without a log)
    # (after race, player, sponsor, cubes removed, cubes gained) for every sponsor applied
    sponsor_changes: list[Any] = field(default_factory=list)
    # every race's measures: the shared game measures and the ruleset's own (engine/play/measures.py)
    measures: list[list[Any]] = field(default_factory=list)

    # A season reads like a race result (season sweeps, engine/play/sweeps.py): standings are
    # the season standings, the grid the first race's, rounds and decisions summed.
    @property
    def grid(self) -> list[int]:
        return list(self.first_grid)

    @property
    def rounds(self) -> int:
        return sum(r.rounds for r in self.races)

    @property
    def capped(self) -> bool:
        return any(r.capped for r in self.races)

    @property
    def stats(self) -> dict[str, Any]:
        return {"points": list(self.points)}

    @property
    def kind_ids(self) -> list[str]:
        return []  # the cubes bought and played are not counted over a season

    @property
    def sponsors_held(self) -> list[list[str]]:
        """The sponsors each player held during the season."""
        return [sorted({r.sponsors[p] for r in self.races if r.sponsors[p]}) for p in range(len(self.bots))]


def resolve_track(pack: Any, ref: str) -> Track:
    """A track by id in the pack, or a track file path; ValueError with the problems."""
    if ref in pack.tracks:
        return pack.tracks[ref]
    p = Path(ref)
    if p.suffix in (".yaml", ".yml") and p.is_file():
        from slipstream.engine.core.diagnostics import format_text
        from slipstream.engine.tracks.load import load_track

        res = load_track(p)
        errors = [d for d in res.diagnostics if d.is_error]
        if res.track is None or errors:
            raise ValueError(f"track {ref} has errors:\n" + format_text(errors))
        return res.track
    raise ValueError(f"no track {ref!r} in the pack (tracks: {', '.join(sorted(pack.tracks))}) "
                     "and no such track file")


def build(spec: SeasonSpec) -> tuple[Season, str, dict[str, Any]]:
    """The season of a spec (not yet played), its card set and its log header."""
    from slipstream.engine.play.logcheck import track_digest
    from slipstream.engine.rulesets.automobiles.racesetup import (
        _ruleset,
        card_set_of,
        load_pack_cached,
    )

    pack = load_pack_cached(spec.pack)
    cs = card_set_of(pack, spec.card_set, spec.seed)
    rs = _ruleset(spec.pack, cs, spec.options)
    tracks = [resolve_track(pack, t) for t in spec.tracks]
    config: SeasonConfig = season_config(pack, dict(spec.season_options))
    seats = [Seat(f"P{i + 1}", b) for i, b in enumerate(spec.bots)]
    season = Season(rs, tracks, seats, seed=spec.seed, config=config, laps=spec.laps, record=spec.record)
    if spec.deck_top:
        season.deck = list(spec.deck_top) + [s for s in season.deck if s not in spec.deck_top]
    head = {"t": "season", "format": FORMAT, "ruleset": "automobiles", "pack": rs.pack_id, "pack_path": spec.pack,
            "digest": rs.pack_digest, "card_set": cs, "tracks": list(spec.tracks), "laps": spec.laps,
            "options": dict(spec.options), "season_options": config.as_dict(), "seed": spec.seed,
            "deck_top": list(spec.deck_top), "track_digests": [track_digest(t) for t in tracks],
            "seats": [{"name": s.name, "bot": s.bot} for s in seats]}
    return season, cs, head


def season_lines(head: dict[str, Any], season: Season) -> list[str]:
    return [dumps(head)] + [dumps(x) for x in season.log]


def run_season(spec: SeasonSpec) -> SeasonResult:
    from slipstream.engine.play.extbots import is_external, with_faults

    season, cs, head = build(spec)
    faults: list[tuple[int, dict[str, Any]]] = []
    if any(is_external(b) for b in spec.bots):
        n, faults = play_external(season, spec)
    else:
        bots = [make_bot(b, spec.seed * 1009 + i) for i, b in enumerate(spec.bots)]
        n = play_season(season, bots, policy=spec.draft_policy)
    supply = [r.supply for r in season.races] + [season.supply_totals()]
    lines = [dumps(head)] + [dumps(x) for x in with_faults(season.log, faults)] if spec.record else []
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest() if lines else ""
    return SeasonResult(spec=spec, card_set=cs, names=[s.name for s in season.seats], bots=list(spec.bots),
                        first_grid=list(season.first_grid), standings=season.standings,
                        points=list(season.points), drivers=list(season.drivers), races=season.races,
                        drafts=season.drafts, decisions=n, supply=supply,
                        lines=lines if spec.keep_lines else [], digest=digest,
                        sponsor_changes=list(season.sponsor_changes),
                        measures=race_measures(season, spec.bots))


@dataclass(slots=True)
class _RaceView:
    """One race of a season as the batch measures read a race result."""

    bots: list[str]
    grid: list[int]
    standings: list[int]
    rounds: int
    capped: bool
    stats: dict[str, Any]
    orders: list[list[int]]
    kind_ids: list[str]


def race_measures(season: Season, bots: Sequence[str]) -> list[list[Any]]:
    """The measures of every race of a played season, as `race --races` gives them for a race
    alone: the shared ones (win rates by grid slot and seat, length, lead changes...) and
    Automobiles' own (wear, pit stops, standing still, cubes bought and played)."""
    from slipstream.engine.play.measures import shared_measures
    from slipstream.engine.rulesets.automobiles.stats import race_measures as own

    ids = [k.id for k in season.rules.kinds]
    out = []
    for r in season.races:
        view = _RaceView(list(bots), list(r.grid), list(r.finish), r.rounds, r.capped, r.stats, r.orders, ids)
        out.append([*shared_measures(view), *own(view)])
    return out


def play_external(season: Season, spec: SeasonSpec) -> tuple[int, list[tuple[int, dict[str, Any]]]]:
    """Play a season in which some seats are external programs (engine/play/extbots.py,
    docs/bots.md); the number of decisions and each fault line with its place in the season log.

    A seat is a seat: the season deals drivers and sponsors to an external seat as to any
    other, and its season decisions (driver, draft) follow the season's draft policy as every
    seat's do, made for it by a stand-in of the seat's seed (not its fallback bot). Each race,
    with the sponsor effects that follow it, is one conversation per external seat: a `hello`
    with that race's track and seed, `act` for every decision of the seat, then `end`.
    """
    from slipstream.engine.play.extbots import ExternalBot, RaceContext, is_external
    from slipstream.engine.play.races import bot_seed
    from slipstream.engine.play.registry import get
    from slipstream.engine.rulesets.automobiles.season import choose_season

    rs = get("automobiles")
    names = [s.name for s in season.seats]
    # season decisions: as a built-in seat of the same seed would make them (`choose_season`)
    own = [make_bot("greedy" if is_external(b) else b, spec.seed * 1009 + i) for i, b in enumerate(spec.bots)]
    ext: dict[int, ExternalBot] = {}
    game: Any = None
    race = 0
    faults: list[tuple[int, dict[str, Any]]] = []

    def finish() -> None:
        standings = list(game.standings()) if game is not None and game.pending is None else []
        for b in ext.values():
            if standings:
                b.finish(game, standings)
            elif b.pipe is not None:
                b.pipe.close(0.1)
                b.pipe = None

    n = 0
    try:
        while season.pending is not None:
            d = season.pending
            if season.stage in ("drivers", "draft"):
                key = choose_season(season, own[d.player], d, spec.draft_policy)
            else:
                if season.game is not game:  # a new race: new conversations
                    finish()
                    game, race = season.game, season.race_no
                    context = RaceContext(rs, game.track, season.race_seeds[race], names, spec.laps,
                                          dict(spec.options))
                    ext = {i: ExternalBot(b, rs, i, bot_seed(season.race_seeds[race], i), context)
                           for i, b in enumerate(spec.bots) if is_external(b)}
                bot = ext.get(d.player)
                if bot is not None:
                    seen = len(bot.faults)
                    key = bot.choose(game, d)
                    for f in bot.faults[seen:]:  # the line goes where the game's next entry lands
                        at = len(season.log) + f["_at"] - season._mark
                        faults.append((at, {**{k: v for k, v in f.items() if k != "_at"}, "race": race + 1}))
                else:
                    b = own[d.player]
                    between = season.stage == "sponsors" and hasattr(b, "choose_between_races")
                    key = (b.choose_between_races if between else b.choose)(game, d)
            r = season.apply(key)
            if r is not None:
                raise AssertionError(f"seat {d.player} chose an illegal option: {r}")
            n += 1
    finally:
        finish()
    return n, faults


def run_seasons(specs: list[SeasonSpec], jobs: int = 1, progress: Any = None) -> list[SeasonResult]:
    """Run seasons, in `jobs` processes when jobs > 1 (engine/play/batch.py); results in spec order."""
    from slipstream.engine.play.batch import run_many

    return run_many(specs, jobs, progress, run=run_season)


def _spec_from_header(n: int, head: dict[str, Any], origin: Path | None = None) -> SeasonSpec:
    """The spec a season header describes, each field checked (a LogError names the line); its
    pack is found from the log's folder `origin` (logcheck.find_pack)."""
    from slipstream.engine.play.logcheck import (
        LogError,
        check_bots,
        check_laps,
        check_options,
        check_seats,
        check_seed,
        find_pack,
        need,
    )
    from slipstream.engine.play.registry import get

    if head.get("t") != "season" or head.get("format") != FORMAT:
        raise LogError(n, f"line {n} is not a {FORMAT} header")
    for key in ("pack", "pack_path", "digest", "card_set"):
        need(head, key, "str", n)
    tracks = need(head, "tracks", "list", n)
    if not tracks or not all(isinstance(t, str) for t in tracks):
        raise LogError(n, "the header's 'tracks' must be a list of track ids or files")
    deck_top = need(head, "deck_top", "list", n)
    if not all(isinstance(t, str) for t in deck_top):
        raise LogError(n, "the header's 'deck_top' must be a list of sponsor ids")
    need(head, "season_options", "dict", n)
    seats = check_seats(head, n, 2, 5, drivers=False)
    return SeasonSpec(pack=find_pack(head, n, origin), tracks=tuple(tracks), seed=check_seed(head, n),
                      bots=check_bots(get("automobiles"), seats, n), card_set=head["card_set"],
                      laps=check_laps(head, n, optional=True), options=check_options(head, n, RACE_OPTIONS),
                      season_options=tuple(sorted(head["season_options"].items())), record=True,
                      deck_top=tuple(deck_top))


def replay_season_lines(lines: list[str], origin: Path | None = None) -> ReplayReport:
    """Re-run a season log from its header and decisions; compare every line.

    `lines` are physical lines (blank ones skipped, but counted); the header is verified
    against the pack and engine first, and every problem is a report naming its line.
    """
    from slipstream.engine.play.logcheck import (
        LogError,
        numbered,
        one_line,
        parse,
        track_from_log,
        verify_header,
    )
    from slipstream.engine.rulesets.automobiles.racesetup import load_pack_cached

    rows = numbered(lines)
    if not rows:
        return ReplayReport(False, 1, "", "", "the log is empty", "malformed")
    try:
        n0, text0 = rows[0]
        head = parse(n0, text0)
        spec = _spec_from_header(n0, head, origin)
        try:
            # track files from the log's folder when the log names them so (write_log)
            pack = load_pack_cached(spec.pack)
            spec = replace(spec, tracks=tuple(track_from_log(t, pack, origin) for t in spec.tracks))
            season, _cs, head2 = build(spec)
        except (ValueError, TypeError, OverflowError, KeyError, RuntimeError, OSError) as e:
            raise LogError(n0, f"cannot set the season up: {one_line(str(e))}", "setup") from None
        head2["pack_path"] = head["pack_path"]  # the log names its pack and track files as written
        head2["tracks"] = head["tracks"]  # (the track_digests check their content)
        verify_header(n0, text0, head, head2)
        from types import SimpleNamespace

        from slipstream.engine.play.racelog import bot_line_problem

        choices = []
        kept = rows[:1]
        for n, text in rows[1:]:
            obj = parse(n, text)
            if obj.get("t") == "bot":  # an external bot's fault line (engine/play/extbots.py): read past
                problem = bot_line_problem(obj, SimpleNamespace(names=spec.bots))
                if problem:
                    raise LogError(n, problem, "malformed", text=text[:300])
                continue
            kept.append((n, text))
            if obj.get("t") == "decision":
                if not isinstance(obj.get("choice"), str):
                    raise LogError(n, "a decision needs a string 'choice'", text=text[:300])
                choices.append((n, obj["choice"]))
        rows = kept
    except LogError as e:
        return ReplayReport(False, e.line, e.text, "", e.message, e.kind)
    text_of = dict(rows)
    for n, choice in choices:
        if season.pending is None:
            break
        r = season.apply(choice)
        if r is not None:
            return ReplayReport(False, n, text_of[n], "", f"decision at line {n} was rejected: {r.message[:300]}")
    got = [text0] + [dumps(x) for x in season.log]
    for (n, a), b in zip(rows, got, strict=False):
        if a != b:
            return ReplayReport(False, n, a, b, f"first divergence at line {n}")
    if len(rows) != len(got):
        k = min(len(rows), len(got))
        n, want = rows[k] if k < len(rows) else (rows[-1][0] + 1, "")
        return ReplayReport(False, n, want, got[k] if k < len(got) else "",
                            f"the logs differ in length ({len(rows)} vs {len(got)} lines)")
    return ReplayReport(True, 0, "", "", "identical", "identical")
