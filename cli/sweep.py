"""`slipstream sweep`: vary a pack's numbers over many seeded races (docs/sweeps.md)."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from slipstream.cli.race import (
    cap_jobs,
    open_pack,
    pack_argument,
    parse_options,
    race_field,
    setup_flags,
    setup_of,
)


@click.command()
@click.argument("pack", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--vary", "varies", multiple=True, required=True, metavar="PATH=VALUES",
              help="A value of the pack and the values to try: card:manager.cost=1..4, "
                   "option:weaving=true,false, sponsor:e1.brackets.first[0].remove.count=1,3, "
                   "track:first-oval.grid[0].money=8..12, FILE#FIELD=...; repeat for a grid.")
@click.option("--races", type=click.IntRange(1, 1_000_000), default=200, show_default=True,
              help="Races per variant (the same seeds for every variant).")
@click.option("--seasons", type=click.IntRange(1, 100_000),
              help="Sweep whole seasons instead of races: this many seasons per variant (rulesets with "
                   "seasons; sponsors only act in seasons).")
@click.option("--tracks", "tracks_arg", default="", metavar="A,B,C",
              help="With --seasons: the season's tracks (default: the ruleset's usual season).")
@click.option("--track", "track_id", metavar="ID", help="Track id in the pack (default: first-oval, else the first).")
@click.option("--players", type=click.IntRange(1), help="Number of cars (default: the number of bots).")
@click.option("--bots", default=None, metavar="BOT,BOT,...", help="Bots by seat (default: the ruleset's usual field).")
@setup_flags()
@click.option("--laps", type=click.IntRange(1), help="Race length (default: the track's).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A rule option fixed for every variant.")
@click.option("--seed", type=click.IntRange(-(2**62), 2**62), default=1, show_default=True, help="Seed of the first race.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Worker processes (or Dask workers with --scheduler local).")
@click.option("--scheduler", metavar="tcp://HOST:PORT|local",
              help="Run on a Dask cluster (the dask extra): a scheduler's address, or `local` for a "
                   "LocalCluster of --jobs workers.")
@click.option("--db", "db_path", type=click.Path(path_type=Path, dir_okay=False), default=Path("sweep.sqlite"),
              show_default=True, help="The SQLite result store: an interrupted sweep resumes from it, a "
                                      "finished one reports again without racing.")
@click.option("--fresh", is_flag=True, help="Replace what the store holds (another sweep) instead of refusing.")
@click.option("--chunk", type=click.IntRange(1, 10_000), default=10, show_default=True,
              help="Races per piece of work (and per commit to the store).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True)
@click.option("--html", "html_path", type=click.Path(path_type=Path, dir_okay=False),
              help="Also write an HTML report with plots.")
@click.option("--plot", "plot_path", type=click.Path(path_type=Path, dir_okay=False),
              help="Also write the plot of the first varied value: .svg, or .png (gui extra).")
def sweep(pack: Path | None, varies: tuple[str, ...], races: int, seasons: int | None, tracks_arg: str,
          track_id: str | None, players: int | None,
          bots: str | None, laps: int | None, options: tuple[str, ...], seed: int, jobs: int,
          scheduler: str | None, db_path: Path, fresh: bool, chunk: int, fmt: str, html_path: Path | None,
          plot_path: Path | None, **setup_values: str) -> None:
    """Race every variant of PACK (default: the bundled base pack) on the same seeds and report
    how win rates move, with 95% intervals and the changes that are clear.

    Every variant is written as a pack and validated before any race runs. Results go to the
    SQLite store (--db) as races finish: run the same command again to resume an interrupted
    sweep or to see a finished one again.
    """
    from slipstream.engine.play.sweepreport import format_csv, format_html, format_text, report_data
    from slipstream.engine.play.sweeps import (
        SweepError,
        item_refs,
        make_variants,
        parse_vary,
        sweep_key,
    )
    from slipstream.engine.play.sweepstore import Store, StoreError

    pack_arg = pack_argument(pack)
    rs, pk = open_pack(pack_arg)
    try:
        vs = [parse_vary(v) for v in varies]
    except SweepError as e:
        raise click.BadParameter(str(e), param_hint="--vary") from None
    track_id, seat_bots = race_field(rs, pk, track_id, bots, players)
    setup = setup_of(rs, pk, setup_values)
    scopes = ("race", "season") if seasons else ("race",)
    season: tuple[str, ...] = ()
    if seasons:
        if rs.seasons is None:
            raise click.BadParameter(f"{rs.name} has no seasons", param_hint="--seasons")
        season = tuple(t.strip() for t in tracks_arg.split(",") if t.strip()) or tuple(rs.seasons.tracks(pk, {}))
        unknown = [t for t in season if t not in pk.tracks]
        if unknown or not season:
            raise click.BadParameter(f"no track {unknown[0] if unknown else ''!r} in the pack; tracks: "
                                     f"{', '.join(sorted(pk.tracks))}", param_hint="--tracks")
        races = seasons
    fixed = parse_options(rs, options, scopes=scopes)
    jobs = cap_jobs(jobs, scheduler)
    if scheduler is not None:
        from importlib.util import find_spec

        if find_spec("dask") is None or find_spec("distributed") is None:
            raise click.UsageError("--scheduler needs the dask extra: pip install 'slipstream[dask]' "
                                   "(or leave --scheduler out to use local processes)")
    root = Path(pk.root)
    work = _work_folder()
    try:
        variants = make_variants(root, vs, rs, work, scopes)
    except SweepError as e:
        raise click.UsageError(str(e)) from None
    for v in variants:
        v.options = {**fixed, **v.options}
    settings = {"vary": [[v.path, list(v.values)] for v in vs], "races": races, "track": track_id,
                "season": list(season),
                "bots": list(seat_bots), "laps": laps, "seed": seed, "setup": dict(setup), "options": fixed}
    key = sweep_key(pk.digest, settings)
    try:
        store = Store(db_path)
        store.open_sweep(key, pk.id, pk.digest, rs.id, settings,
                         [(v.index, v.label, v.values, v.digest) for v in variants], fresh)
    except StoreError as e:
        raise click.UsageError(str(e)) from None
    seeds = list(range(seed, seed + races))
    total = len(variants) * races
    done = store.done(key)
    todo = _jobs(variants, seeds, track_id, seat_bots, laps, item_refs(vs), chunk, done, setup, season,
                 str(work) if scheduler in (None, "local") else "")
    if todo:
        _run(store, key, todo, total, len(done), jobs, scheduler, fmt)
    meta = {"pack": pk.id, "ruleset": rs.id, "races": races, "unit": "seasons" if season else "races",
            "track": ",".join(season) if season else track_id, "bots": list(seat_bots),
            "seed": seed, "vary": [v.path for v in vs], "store": str(db_path)}
    try:
        data = report_data(meta, store.variants(key, {v.index for v in variants}),
                           store.records(key, {(v.index, s) for v in variants for s in seeds}), rs)
    except StoreError as e:
        raise click.UsageError(str(e)) from None
    if store.left_out:
        click.echo(f"note: {store.left_out} row(s) of {db_path} are not part of this sweep and are left out "
                   "of the report", err=True)
    store.close()
    if html_path:
        from slipstream.engine.core.files import atomic_write_text

        atomic_write_text(html_path, format_html(data))
    if plot_path:
        _plot(data, plot_path)
    if fmt == "json":
        click.echo(json.dumps(data, indent=2, default=str))
    elif fmt == "csv":
        click.echo(format_csv(data), nl=False)
    else:
        click.echo(format_text(data))
        for p in (html_path, plot_path):
            if p:
                click.echo(f"wrote {p}")


def _work_folder() -> Path:
    """The sweep's temporary folder (variant packs, workers' copies): removed when the command
    ends, whether it finishes, fails or is interrupted (Ctrl-C, or SIGTERM turned into an exit).
    Folders an earlier sweep left when it was killed outright (SIGKILL) are removed first."""
    import shutil
    import signal
    import threading

    from slipstream.engine.play.sweeps import make_work_folder, remove_stale_work_folders

    remove_stale_work_folders()
    work = make_work_folder()
    ctx = click.get_current_context()
    ctx.call_on_close(lambda: shutil.rmtree(work, ignore_errors=True))
    if threading.current_thread() is threading.main_thread():
        def stop(signum: int, frame: Any) -> None:
            sys.exit(128 + signum)

        before = signal.signal(signal.SIGTERM, stop)
        if before is not None:
            ctx.call_on_close(lambda: signal.signal(signal.SIGTERM, before))
    return work


def _jobs(*args: Any) -> list[Any]:
    from slipstream.engine.play.sweeps import jobs_for

    variants, seeds, track, bots, laps, items, chunk, done, setup, season, scratch = args
    return jobs_for(variants, seeds, track, bots, laps, items, chunk, done, setup, season, scratch)


def _run(store: Any, key: str, todo: list[Any], total: int, already: int, jobs: int,
         scheduler: str | None, fmt: str) -> None:
    """Race the jobs, storing each as it finishes; a progress bar with ETA on the terminal."""
    from slipstream.engine.play.batch import Pool, SchedulerMissing, dask_each
    from slipstream.engine.play.sweeps import run_job

    pool = None
    if scheduler is not None:
        results = dask_each(run_job, todo, scheduler, jobs)
    else:
        pool = Pool(jobs)
        results = pool.each(run_job, todo)
    stored = already
    bar = None
    if fmt == "text":
        bar = click.progressbar(length=total, label="sweep", file=sys.stderr, show_eta=True, show_pos=True)
        bar.update(already)
    try:
        for recs in results:
            store.add(key, recs)
            stored += len(recs)
            if bar is not None:
                bar.update(len(recs))
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: {stored} of {total} races stored in {store.path}; "
                   "run the same command again to resume", err=True)
        sys.exit(130)
    except SchedulerMissing as e:
        raise click.UsageError(str(e)) from None
    except OSError as e:
        click.echo(f"cannot reach the scheduler: {e}" if scheduler is not None
                   else f"cannot run the worker processes: {e}", err=True)
        sys.exit(1)
    finally:
        if bar is not None:
            bar.render_finish()
        if pool is not None:
            pool.close()


def _plot(data: Any, path: Path) -> None:
    import subprocess

    from slipstream.engine.core.files import atomic_write_bytes, atomic_write_text
    from slipstream.engine.play.sweepreport import plot_series, svg_plot

    series = plot_series(data)
    if not series:
        return
    svg = svg_plot(series[0])
    if path.suffix.lower() == ".svg":
        atomic_write_text(path, svg)
        return
    if path.suffix.lower() != ".png":
        raise click.UsageError(f"{path.name}: write the plot as .svg or .png")
    from slipstream.cli.main import _gui_missing

    if _gui_missing():
        raise click.UsageError("PNG plots need the gui extra: pip install 'slipstream[gui]' (or write .svg)")
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "plot.svg", Path(tmp) / "plot.png"
        src.write_text(svg, encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "slipstream.editor.track.export", "--svg", str(src), str(out)],
                              capture_output=True, text=True)
        if done.returncode != 0 or not out.is_file():
            click.echo(f"cannot draw {path}: {done.stderr.strip()}", err=True)
            sys.exit(1)
        atomic_write_bytes(path, out.read_bytes())
