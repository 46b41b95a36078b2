"""`slipstream ladder`: a round robin of bots with ratings (engine/play/ladder.py)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from slipstream.cli.race import (
    cap_jobs,
    open_pack,
    pack_argument,
    parse_bots,
    parse_options,
    race_field,
    setup_flags,
    setup_of,
)


@click.command()
@click.argument("pack", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--bots", default=None, metavar="BOT,BOT,...",
              help="The bots to rate, e.g. random,greedy,lookahead:50 (default: every bot of the ruleset).")
@click.option("--races", type=click.IntRange(1, 1_000_000), default=20, show_default=True,
              help="Races per pair of bots (one against one, seats swapped) and mixed-field races.")
@click.option("--field", type=click.IntRange(0, 100), default=4, show_default=True,
              help="Cars in a mixed field, bots rotated through the seats (0: no mixed fields; "
                   "kept within the ruleset's number of cars).")
@click.option("--track", "track_id", metavar="ID", help="Track id in the pack (default: first-oval, else the first).")
@setup_flags()
@click.option("--laps", type=click.IntRange(1), help="Race length (default: the track's).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A rule option of every race; repeatable.")
@click.option("--seed", type=click.IntRange(-(2**62), 2**62), default=1, show_default=True, help="Seed of the first race.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True, help="Parallel processes.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def ladder(pack: Path | None, bots: str | None, races: int, field: int, track_id: str | None,
           laps: int | None, options: tuple[str, ...], seed: int, jobs: int, fmt: str, **setup_values: str) -> None:
    """Rate bots of PACK's ruleset (default: the bundled base pack) against each other.

    Every pair of bots races --races one-against-one races, and --races mixed fields of --field
    cars run with the bots rotated through the seats; each race's standings count as wins
    between cars of different bots. The report ranks the bots by Bradley-Terry ratings on the
    Elo scale with 95% bootstrap intervals, with the one-against-one results and field wins.
    """
    from slipstream.engine.play.base import stats_of
    from slipstream.engine.play.ladder import LadderSpec, format_ladder, run_ladder, schedule

    pack_arg = pack_argument(pack)
    rs, pk = open_pack(pack_arg)
    names = parse_bots(bots if bots is not None else ",".join(rs.bots), rs)
    names = list(dict.fromkeys(names))
    lo, hi = rs.players
    pairs = lo <= 2 <= hi and len(names) > 1
    cars = min(max(field, lo), hi) if field else 0
    if not pairs and not cars:
        raise click.BadParameter("nothing to race: name two bots, or give a --field", param_hint="--bots")
    track_id, _ = race_field(rs, pk, track_id, names[0], max(lo, 1))
    setup = setup_of(rs, pk, setup_values)
    opts = tuple(sorted(parse_options(rs, options).items()))
    jobs = cap_jobs(jobs)
    ls = LadderSpec(pack_arg, track_id, tuple(names), races, seed, cars, pairs, laps, opts, setup)
    total = len(schedule(ls))
    t0 = time.perf_counter()
    if fmt == "text":
        with click.progressbar(length=total, label=f"{total} ladder races on {track_id}", file=sys.stderr) as bar:
            rep = run_ladder(ls, jobs, progress=bar.update, stats=stats_of(rs))
    else:
        rep = run_ladder(ls, jobs, stats=stats_of(rs))
    elapsed = time.perf_counter() - t0
    rep["ruleset"] = rs.id
    if fmt == "json":
        click.echo(json.dumps(rep, indent=2))
        return
    click.echo(f"{rs.name} bots: " + ", ".join(names))
    click.echo(format_ladder(rep))
    click.echo(f"{total} races in {elapsed:.1f}s ({total / elapsed if elapsed else 0:.2f} races/s, {jobs} job(s))")
