"""`slipstream season` for any ruleset with championships, through the registry.

A ruleset offers championships with the optional protocol parts of engine/play/protocol.py:
`season_tracks(pack, races)`, `run_season(pack_path, tracks, seed, bots, laps, options, setup,
record)`, `season_text` / `season_json` (one season) and `summarise_seasons` /
`format_season_summary` (many). The Automobiles seasons, with drivers, sponsors and drafts,
keep their own command path in cli/season.py.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

PARTS = ("season_tracks", "run_season", "season_text", "season_json", "summarise_seasons",
         "format_season_summary")


def offers_championships(rs: Any) -> bool:
    return all(hasattr(rs, p) for p in PARTS)


def _run_one(job: tuple[str, str, tuple[str, ...], int, tuple[str, ...], int | None,
                        tuple[tuple[str, Any], ...], bool]) -> Any:
    """One season in any process (a picklable job: ruleset id and the run_season arguments)."""
    from slipstream.engine.play.protocol import Championships
    from slipstream.engine.play.registry import get

    rid, pack, tracks, seed, bots, laps, options, record = job
    rs = get(rid)
    assert isinstance(rs, Championships), "offers_championships chose the ruleset"
    return rs.run_season(pack, tracks, seed, bots, laps, options, (), record)


def run_championships(rs: Any, pack_arg: str, given: Mapping[str, Any], tracks_arg: str, players: int | None,
                      bots: str | None, seed: int, seasons: int, jobs: int, laps: int | None,
                      options: tuple[str, ...], log_dir: Path | None, fmt: str) -> None:
    """The `season` command for ruleset `rs` (Automobiles-only flags in `given` are refused)."""
    from slipstream.cli.race import default_bots, open_pack, parse_bots, parse_options
    from slipstream.engine.play.racelog import write_log

    for flag, value in given.items():
        if value:
            raise click.UsageError(f"{flag} is an option of Automobiles seasons; {rs.name} championships "
                                   "have no drivers, sponsors or card sets")
    rs, pk = open_pack(pack_arg)
    parsed = parse_options(rs, options, scopes=("race", "season"))
    races = parsed.get("season_races")
    tracks = [t.strip() for t in tracks_arg.split(",") if t.strip()] if tracks_arg else \
        list(rs.season_tracks(pk, races))
    if not tracks:
        raise click.BadParameter("the pack has no tracks", param_hint="PACK")
    for t in tracks:
        if t not in pk.tracks:
            raise click.BadParameter(f"no track {t!r} in the pack; tracks: {', '.join(sorted(pk.tracks))}",
                                     param_hint="--tracks")
    names = parse_bots(bots if bots is not None else default_bots(rs), rs)
    n = players or len(names)
    lo, hi = rs.players
    if not lo <= n <= hi:
        raise click.BadParameter(f"a race of {rs.name} needs {lo} to {hi} cars, not {n}", param_hint="--players")
    seat_bots = tuple(names[i % len(names)] for i in range(n))
    opts = tuple(sorted(parsed.items()))
    record = seasons == 1 or log_dir is not None
    work = [(rs.id, pack_arg, tuple(tracks), seed + i, seat_bots, laps, opts, record) for i in range(seasons)]
    if log_dir:
        log_dir.mkdir(parents=True, exist_ok=True)
    if seasons == 1:
        res = _run_one(work[0])
        if log_dir:
            write_log(log_dir / f"season-{seed}.jsonl", res.lines)
        click.echo(json.dumps(rs.season_json(res), indent=2) if fmt == "json" else rs.season_text(res))
        return
    from slipstream.engine.play.batch import run_many

    t0 = time.perf_counter()
    if fmt == "text":
        with click.progressbar(length=seasons, label=f"{seasons} championships of {len(tracks)} races",
                               file=sys.stderr) as bar:
            results = run_many(work, jobs, progress=bar.update, run=_run_one)
    else:
        results = run_many(work, jobs, run=_run_one)
    elapsed = time.perf_counter() - t0
    if log_dir:
        for r, w in zip(results, work, strict=True):
            write_log(log_dir / f"season-{w[3]}.jsonl", r.lines)
    summary = rs.summarise_seasons(results)
    summary["seconds"] = round(elapsed, 3)
    if fmt == "json":
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(rs.format_season_summary(summary))
        click.echo(f"{seasons} championships in {elapsed:.1f}s ({seasons / elapsed:.2f} seasons/s, {jobs} job(s))")
