"""`slipstream race`, `slipstream replay` and `slipstream test`: races, replays, rule scenarios."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import click

from slipstream.engine.core import diagnostics as dg
from slipstream.engine.play.extbots import external_problem, is_external, program_problem

F = TypeVar("F", bound=Callable[..., Any])


def parse_options(rs: Any, values: tuple[str, ...], scopes: tuple[str, ...] = ("race",)) -> dict[str, Any]:
    """`--option KEY=VALUE` items checked against the ruleset's option spec (usage error, exit 2)."""
    from slipstream.engine.play.options import OptionError, parse_items

    try:
        return parse_items(rs.options, values, scopes=scopes)
    except OptionError as e:
        raise click.BadParameter(str(e), param_hint="--option") from None


def setup_flags(per_seat: bool = True) -> Callable[[F], F]:
    """Click options for the setup keys of every installed ruleset (`Setup.keys`: e.g. a card
    set, drivers by seat), each helped by the name of the ruleset that declares it; the values
    reach the command as keyword arguments named after the keys. Seasons take no per-seat key."""
    from slipstream.engine.play.registry import owner_of_setting, setup_keys

    def add(f: F) -> F:
        for key in reversed(setup_keys()):
            if key.per_seat and not per_seat:
                continue
            owner = owner_of_setting(key.name)
            f = click.option(key.flag, key.name, default="", metavar=key.metavar,
                             help=f"{owner.name}: {key.help[:1].lower()}{key.help[1:]}" if owner is not None else key.help)(f)
        return f

    return add


def setup_of(rs: Any, pk: Any, values: Mapping[str, str]) -> tuple[tuple[str, Any], ...]:
    """The race settings of the setup flags given (a per-seat value split by seat, an empty
    entry none), checked against the ruleset and the pack (usage error, exit 2)."""
    from slipstream.engine.play.races import parse_setup
    from slipstream.engine.play.registry import setup_keys, setup_problems

    keys = {k.name: k for k in setup_keys()}
    items: dict[str, Any] = {}
    for name, text in values.items():
        key = keys.get(name)
        if key is not None and key.per_seat:
            items[name] = tuple((d.strip() or None) for d in text.split(",")) if text else ()
        else:
            items[name] = text
    setup = parse_setup(items)
    for flag, message in setup_problems(rs, pk, dict(setup)):
        raise click.BadParameter(message, param_hint=flag)
    return setup


def parse_bots(bots: str, rs: Any) -> list[str]:
    """The --bots list, each name checked against the ruleset's bots."""
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        raise click.BadParameter(f"name at least one bot; bots: {', '.join(sorted(rs.bots))}",
                                 param_hint="--bots")
    # a bot listed as NAME or as NAME:SETTING (e.g. lookahead:4) is known by NAME
    families = {k.partition(":")[0] for k in rs.bots}
    for b in names:
        if is_external(b):  # cmd:PROGRAM [ARGS...] or http://HOST:PORT, [;SETTING=VALUE...] (docs/bots.md)
            problem = external_problem(rs, b) or program_problem(b)
            if problem:
                raise click.BadParameter(problem, param_hint="--bots")
            continue
        base, _, setting = b.partition(":")
        if b not in rs.bots and base not in families:
            raise click.BadParameter(f"unknown bot {b!r}; bots: {', '.join(sorted(rs.bots))}", param_hint="--bots")
        if setting and b not in rs.bots:
            # `NAME:SETTING` (e.g. lookahead:200): the ruleset's make_bot judges it, and refuses a
            # setting the bot does not take (greedy:3)
            try:
                rs.make_bot(b, 0)
            except (ValueError, TypeError, KeyError) as e:
                raise click.BadParameter(str(e), param_hint="--bots") from None
    return names


def cap_jobs(jobs: int, scheduler: str | None = None) -> int:
    """--jobs, at most the CPUs this process may use (with a note on stderr), unless the work
    runs on a named Dask scheduler elsewhere (`--scheduler tcp://...`)."""
    from slipstream.engine.play.batch import usable_cpus

    cpus = usable_cpus()
    if jobs <= cpus or (scheduler is not None and scheduler != "local"):
        return jobs
    click.echo(f"note: --jobs {jobs} is more than the {cpus} CPU(s) here; running {cpus} "
               "(name a Dask scheduler with `sweep --scheduler` to use more machines)", err=True)
    return cpus


def race_field(rs: Any, pk: Any, track_id: str | None, bots: str | None,
               players: int | None) -> tuple[str, tuple[str, ...]]:
    """The track and the bot of every seat, checked against the pack and the ruleset."""
    track_id = track_id or _first_track(pk)
    if track_id not in pk.tracks:
        raise click.BadParameter(f"no track {track_id!r} in the pack; tracks: {', '.join(sorted(pk.tracks))}",
                                 param_hint="--track")
    names = parse_bots(bots if bots is not None else default_bots(rs), rs)
    n = players or len(names)
    lo, hi = rs.players
    if not lo <= n <= hi:
        raise click.BadParameter(f"a race of {rs.name} needs {lo} to {hi} cars, not {n}", param_hint="--players")
    return track_id, tuple(names[i % len(names)] for i in range(n))


def default_bots(rs: Any) -> str:
    """The field a ruleset races when --bots is not given."""
    return ",".join(rs.default_bots or list(rs.bots))


def pack_argument(pack: Path | str | None) -> str:
    """PACK as the registry takes it: "" for the bundled base pack when none is given, the
    folder of a bundled pack named by its id (e.g. `base`) when no such path exists,
    else the path as given."""
    if pack is None or str(pack) == "":
        return ""
    from slipstream.cli.main import _bundled_or_path

    return str(_bundled_or_path(Path(pack)))


def open_pack(pack_arg: str) -> tuple[Any, Any]:
    """(ruleset, pack) of a pack folder through the registry; exit 1 with its errors."""
    from slipstream.engine.play.registry import RulesetError, for_pack

    try:
        return for_pack(pack_arg)
    except (ValueError, RuntimeError, OSError, RulesetError) as e:
        click.echo(str(e), err=True)
        sys.exit(1)


def make_log_folder(log_dir: Path | None) -> None:
    """Make the --log folder (with its parents) before anything runs; a path that cannot be a
    writable folder (under a file, an existing non-folder such as /dev/null, no permission) is a
    usage error naming --log."""
    import os

    if log_dir is None:
        return
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        why = ("it is there and not a folder" if isinstance(e, FileExistsError) else
               "a part of the path is a file, not a folder" if isinstance(e, NotADirectoryError) else
               e.strerror or str(e))
        raise click.BadParameter(f"cannot write logs into {str(log_dir)!r}: {why}", param_hint="--log") from None
    if not os.access(log_dir, os.W_OK | os.X_OK):
        raise click.BadParameter(f"cannot write logs into {str(log_dir)!r}: permission denied", param_hint="--log")


def _first_track(pk: Any) -> str:
    if "first-oval" in pk.tracks:
        return "first-oval"
    if not pk.tracks:
        raise click.UsageError("the pack has no track to race on")
    return str(next(iter(pk.tracks)))


@click.command()
@click.argument("pack", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--track", "track_id", metavar="ID", help="Track id in the pack (default: first-oval, else the first).")
@click.option("--players", type=click.IntRange(1), help="Number of cars (default: the number of bots).")
@click.option("--bots", default=None, metavar="BOT,BOT,...",
              help="Comma-separated bots by seat, repeated to fill --players (default: the ruleset's "
                   "usual field; `slipstream rulesets` lists them).")
@click.option("--seed", type=click.IntRange(-(2**63), 2**63 - 1), default=1, show_default=True, help="Seed of the first race.")
@click.option("--races", type=click.IntRange(1), default=1, show_default=True, help="How many races.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True, help="Parallel processes.")
@click.option("--laps", type=click.IntRange(1), help="Race length (default: the track's).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="Rule option of the pack's ruleset, e.g. weaving=true; repeatable. "
                   "`slipstream rulesets` lists every option.")
@setup_flags()
@click.option("--log", "log_dir", type=click.Path(path_type=Path, file_okay=False),
              help="Write every race's JSON-lines log into this folder.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def race(pack: Path | None, track_id: str | None, players: int | None, bots: str | None,
         seed: int, races: int, jobs: int, laps: int | None, options: tuple[str, ...],
         log_dir: Path | None, fmt: str, **setup_values: str) -> None:
    """Race bots on a track of PACK (default: the bundled base pack), in the pack's ruleset.

    One race prints a turn-by-turn summary and the final standings; several races show a
    progress bar and end with statistics (win rates with 95% intervals by grid slot and bot,
    race length, and the ruleset's own figures, e.g. wear and pit stops).
    """
    from slipstream.engine.play.base import reports_of, stats_of
    from slipstream.engine.play.batch import run_many
    from slipstream.engine.play.races import RaceSpec, run_race

    pack_arg = pack_argument(pack)
    rs, pk = open_pack(pack_arg)
    track_id, seat_bots = race_field(rs, pk, track_id, bots, players)
    jobs = cap_jobs(jobs) if races > 1 else jobs
    setup = setup_of(rs, pk, setup_values)
    opts = tuple(sorted(parse_options(rs, options).items()))
    _track_warnings(rs, pk, track_id)
    record = races == 1 or log_dir is not None
    specs = [RaceSpec(pack_arg, track_id, seed + i, seat_bots, laps, opts, setup, record)
             for i in range(races)]
    make_log_folder(log_dir)

    if races == 1:
        res = run_race(specs[0])
        _write(res, log_dir)
        if fmt == "json":
            click.echo(json.dumps(reports_of(rs).json(res), indent=2))
        else:
            click.echo(reports_of(rs).text(res))
        return

    t0 = time.perf_counter()
    if fmt == "text":
        with click.progressbar(length=races, label=f"{races} races on {track_id}", file=sys.stderr) as bar:
            results = run_many(specs, jobs, progress=bar.update)
    else:
        results = run_many(specs, jobs)
    elapsed = time.perf_counter() - t0
    if log_dir:
        for r in results:
            _write(r, log_dir)
    summary = stats_of(rs).summarise(results)
    from slipstream.engine.play.measures import batch_of, format_measures

    summary["measures"] = batch_of(stats_of(rs), results)
    summary["seconds"] = round(elapsed, 3)
    summary["races_per_second"] = round(races / elapsed, 2) if elapsed else 0.0
    if fmt == "json":
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(stats_of(rs).format_summary(summary))
        click.echo(format_measures(summary["measures"]))
        click.echo(f"{races} races in {elapsed:.1f}s ({summary['races_per_second']} races/s, {jobs} job(s))")


def _track_warnings(rs: Any, pk: Any, track_id: str) -> None:
    """Print (on stderr) what the ruleset's track checks warn about the track before racing on
    it, e.g. T157 for a track without the corners its races read."""
    from slipstream.engine.packs.trackrules import race_track_warnings

    warnings = race_track_warnings(rs, pk, track_id)
    if warnings:
        click.echo(dg.format_text(sorted(warnings, key=dg.sort_key)), err=True)


def _write(res: Any, log_dir: Path | None) -> None:
    if not log_dir:
        return
    from slipstream.engine.play.racelog import log_lines, write_log

    write_log(log_dir / f"race-{res.spec.seed}.jsonl", log_lines(res.header, res.log, res.result))


@click.command()
@click.argument("log", type=click.Path(path_type=Path, dir_okay=False))
def replay(log: Path) -> None:
    """Re-run a race or season log with its bots: verify its header, then report the first divergence, or `identical`.

    Exit 0 when identical, 1 when the log differs or cannot be replayed (one line naming the
    line of the log), 2 when the file cannot be read.
    """
    from slipstream.engine.play.racelog import replay_file

    if not log.is_file():
        click.echo(f"{log}: {'not a regular file' if log.exists() else 'no such file'}", err=True)
        sys.exit(2)
    try:
        rep = replay_file(log)
    except OSError as e:
        click.echo(f"{log}: cannot read the file: {e.strerror or e}", err=True)
        sys.exit(2)
    if rep.identical:
        click.echo("identical")
        return
    click.echo(f"{log}:{rep.line}: {rep.message}")
    if rep.kind == "diverges":
        if rep.expected:
            click.echo(f"  log:    {rep.expected[:300]}")
        if rep.got:
            click.echo(f"  replay: {rep.got[:300]}")
    sys.exit(1)


@click.command("test")
@click.argument("pack", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text", show_default=True)
@click.option("-k", "select", default="", help="Only scenarios whose id contains this text.")
def test_cmd(pack: Path | None, fmt: str, select: str) -> None:
    """Run the rule scenarios in PACK/tests (default: the bundled base pack)."""
    from slipstream.engine.play.registry import RulesetError, get
    from slipstream.engine.play.scenarios import Report

    pack_arg = pack_argument(pack)
    try:
        rid = _ruleset_id(pack_arg)
        rs = get(rid)
    except RulesetError as e:
        raise click.UsageError(str(e)) from None
    report: Report = rs.scenarios.run_folder(pack_arg, select) if rs.scenarios is not None else Report([], [])
    diags = sorted(report.diagnostics, key=dg.sort_key)
    malformed = len({d.file for d in diags if d.is_error})  # files, however many problems each has
    if fmt == "json":
        click.echo(json.dumps({"passed": [r.id for r in report.results if r.ok],
                               "failed": [{"id": r.id, "file": r.file, "problems": r.problems}
                                          for r in report.results if not r.ok],
                               "malformed": malformed,
                               "diagnostics": [d.to_dict() for d in diags]}, indent=2))
    else:
        if diags:
            click.echo(dg.FORMATTERS[fmt](diags))
        if fmt == "github":
            # a failed scenario is an annotation on its `expect:` line, titled by its id
            failures = [dg.Diagnostic(f"scenario {r.id}", "error", _rel(r.file), r.line, r.column, "$",
                                      dg_cut("failed: " + "; ".join(r.problems)))
                        for r in report.results if not r.ok]
            if failures:
                click.echo(dg.format_github(failures))
            ok = sum(r.ok for r in report.results)
            click.echo(f"::notice title=slipstream test::{ok} passed, {len(report.results) - ok} failed, "
                       f"{malformed} malformed")
        if fmt == "text":
            for r in report.results:
                click.echo(f"{'PASS' if r.ok else 'FAIL'} {r.id} ({_rel(r.file)})")
                for prob in r.problems:
                    click.echo(f"     {prob}")
            ok = sum(r.ok for r in report.results)
            click.echo(f"{ok} passed, {len(report.results) - ok} failed, {malformed} malformed")
    failed = any(not r.ok for r in report.results) or any(d.is_error for d in diags)
    sys.exit(1 if failed else 0)


def dg_cut(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _ruleset_id(pack_arg: str) -> str:
    """The `ruleset:` a pack folder's manifest names (the default ruleset when absent or
    unreadable; the ruleset then reports the unreadable pack as a scenario diagnostic)."""
    from slipstream.engine.core import plugins
    from slipstream.engine.core.yamlsource import load_file
    from slipstream.engine.packs.files import MANIFEST

    if not pack_arg:
        return plugins.DEFAULT
    loaded = load_file(Path(pack_arg) / MANIFEST)
    rid = loaded.data.get("ruleset") if isinstance(loaded.data, dict) else None
    return rid if isinstance(rid, str) else plugins.DEFAULT


def _rel(path: str) -> str:
    import os

    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel




@click.command("rulesets")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rulesets(fmt: str) -> None:
    """List the installed rulesets: players, bots, the bundled packs that play each, and every
    rule option with what it takes.

    A pack names its ruleset in pack.yaml (`ruleset:`, default: the first ruleset listed);
    another installed package can add one through the entry point group `slipstream.rulesets`.
    """
    from slipstream.engine.packs.loader import bundled_packs, bundled_rulesets
    from slipstream.engine.play.registry import RulesetError, get, ids

    folders = bundled_packs()

    out: list[dict[str, Any]] = []
    for rid in ids():
        try:
            rs = get(rid)
        except (RulesetError, ImportError) as e:
            out.append({"id": rid, "error": str(e)})
            continue
        out.append({"id": rs.id, "name": rs.name, "players": list(rs.players), "bots": dict(rs.bots),
                    "packs": [_rel(str(folders[p])) for p, r in bundled_rulesets().items() if r == rs.id],
                    "options": [{"name": s.name, "scope": s.scope, "type": s.type, "default": s.default,
                                 "takes": s.accepts(), "help": s.help} for s in rs.options]})
    if fmt == "json":
        click.echo(json.dumps(out, indent=2))
        return
    for r in out:
        if "error" in r:
            click.echo(f"{r['id']}: cannot be loaded: {r['error']}")
            continue
        lo, hi = r["players"]
        click.echo(f"{r['id']} ({r['name']}): {lo}-{hi} cars; bots: "
                   + ", ".join(f"{b} ({h})" for b, h in r["bots"].items()))
        if r["packs"]:
            click.echo(f"  bundled pack{'s' if len(r['packs']) > 1 else ''}: {', '.join(r['packs'])}")
        for o in r["options"]:
            click.echo(f"  {o['name']} [{o['scope']}] = {json.dumps(o['default'])}: takes {o['takes']}")
            click.echo(f"      {o['help']}")
