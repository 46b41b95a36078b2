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
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from slipstream.engine.play.racelog import ReplayReport, dumps
from slipstream.engine.rulesets.automobiles.bots import make_bot
from slipstream.engine.rulesets.automobiles.game import Seat
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
    from slipstream.engine.rulesets.automobiles.runner import (
        RaceSpec,
        _ruleset,
        load_pack_cached,
        resolve_card_set,
    )

    pack = load_pack_cached(spec.pack)
    cs = resolve_card_set(RaceSpec(spec.pack, "", spec.seed, spec.bots, spec.card_set))
    rs = _ruleset(spec.pack, cs, spec.options)
    tracks = [resolve_track(pack, t) for t in spec.tracks]
    config: SeasonConfig = season_config(pack, dict(spec.season_options))
    seats = [Seat(f"P{i + 1}", b) for i, b in enumerate(spec.bots)]
    season = Season(rs, tracks, seats, seed=spec.seed, config=config, laps=spec.laps, record=spec.record)
    if spec.deck_top:
        season.deck = list(spec.deck_top) + [s for s in season.deck if s not in spec.deck_top]
    head = {"t": "season", "format": FORMAT, "pack": rs.pack_id, "pack_path": spec.pack,
            "digest": rs.pack_digest, "card_set": cs, "tracks": list(spec.tracks), "laps": spec.laps,
            "options": dict(spec.options), "season_options": config.as_dict(), "seed": spec.seed,
            "deck_top": list(spec.deck_top),
            "seats": [{"name": s.name, "bot": s.bot} for s in seats]}
    return season, cs, head


def season_lines(head: dict[str, Any], season: Season) -> list[str]:
    return [dumps(head)] + [dumps(x) for x in season.log]


def run_season(spec: SeasonSpec) -> SeasonResult:
    season, cs, head = build(spec)
    bots = [make_bot(b, spec.seed * 1009 + i) for i, b in enumerate(spec.bots)]
    n = play_season(season, bots, policy=spec.draft_policy)
    supply = [r.supply for r in season.races] + [season.supply_totals()]
    lines = season_lines(head, season) if spec.record else []
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest() if lines else ""
    return SeasonResult(spec=spec, card_set=cs, names=[s.name for s in season.seats], bots=list(spec.bots),
                        first_grid=list(season.first_grid), standings=season.standings,
                        points=list(season.points), drivers=list(season.drivers), races=season.races,
                        drafts=season.drafts, decisions=n, supply=supply,
                        lines=lines if spec.keep_lines else [], digest=digest,
                        sponsor_changes=list(season.sponsor_changes))


def run_seasons(specs: list[SeasonSpec], jobs: int = 1, progress: Any = None) -> list[SeasonResult]:
    """Run seasons, in `jobs` processes when jobs > 1; results come back in spec order."""
    if jobs <= 1:
        out = []
        for s in specs:
            out.append(run_season(s))
            if progress:
                progress(1)
        return out
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    results: list[SeasonResult] = []
    with ctx.Pool(jobs) as pool:
        for r in pool.imap(run_season, specs, chunksize=max(1, len(specs) // (jobs * 8))):
            results.append(r)
            if progress:
                progress(1)
    return results


def _spec_from_header(head: dict[str, Any]) -> SeasonSpec:
    return SeasonSpec(pack=head.get("pack_path", ""), tracks=tuple(head["tracks"]), seed=int(head["seed"]),
                      bots=tuple(s.get("bot", "human") for s in head["seats"]), card_set=head.get("card_set", ""),
                      laps=head.get("laps"), options=tuple(sorted(head.get("options", {}).items())),
                      season_options=tuple(sorted(head.get("season_options", {}).items())), record=True,
                      deck_top=tuple(head.get("deck_top", ())))


def replay_season_lines(lines: list[str]) -> ReplayReport:
    """Re-run a season log from its header and decisions; compare every line."""
    from slipstream.engine.rulesets.automobiles.runner import load_pack_cached

    try:
        head = json.loads(lines[0])
    except (json.JSONDecodeError, IndexError) as e:
        return ReplayReport(False, 1, lines[0] if lines else "", "", f"line 1 is not JSON: {e}")
    if head.get("t") != "season" or head.get("format") != FORMAT:
        return ReplayReport(False, 1, lines[0], "", f"line 1 is not a {FORMAT} header")
    try:
        pack = load_pack_cached(head.get("pack_path", ""))
        season, _cs, head2 = build(_spec_from_header(head))
    except (ValueError, RuntimeError, OSError, KeyError) as e:
        return ReplayReport(False, 1, lines[0], "", f"cannot set the season up: {e}")
    note = " (the pack's content changed since the log was written)" if pack.digest != head.get("digest") else ""
    choices = []
    for i, line in enumerate(lines[1:], start=2):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            return ReplayReport(False, i, line, "", f"line {i} is not JSON: {e}")
        if obj.get("t") == "decision":
            choices.append((i, obj["choice"]))
    for i, choice in choices:
        if season.pending is None:
            break
        r = season.apply(choice)
        if r is not None:
            return ReplayReport(False, i, lines[i - 1], "", f"decision at line {i} was rejected: {r.message}{note}")
    got = [lines[0]] + [dumps(x) for x in season.log]
    for i, (a, b) in enumerate(zip(lines, got, strict=False), start=1):
        if a != b:
            return ReplayReport(False, i, a, b, f"first divergence at line {i}{note}")
    if len(lines) != len(got):
        i = min(len(lines), len(got)) + 1
        return ReplayReport(False, i, lines[i - 1] if i <= len(lines) else "", got[i - 1] if i <= len(got) else "",
                            f"the logs differ in length ({len(lines)} vs {len(got)} lines){note}")
    return ReplayReport(True, 0, "", "", "identical")
