"""`slipstream season`: bot championships of several races with points, for any ruleset that
offers them (its `seasons` capability, engine/play/protocol.py `Championships`).

The flags every ruleset shares are written here; the race settings (setup keys such as a card
set) and a ruleset's own season settings (e.g. how sponsors are drafted) come from the
installed rulesets, each helped by the name of the ruleset that declares it. A flag the pack's
ruleset does not take is a usage error naming the ruleset that does.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import click

from slipstream.cli.race import (
    default_bots,
    make_log_folder,
    open_pack,
    pack_argument,
    parse_bots,
    parse_options,
    setup_flags,
    setup_of,
)
from slipstream.engine.play.protocol import SeasonPlan

F = TypeVar("F", bound=Callable[..., Any])


def season_flags() -> Callable[[F], F]:
    """Click options for the season settings of every installed ruleset (`Championships.settings`)."""
    from slipstream.engine.play.registry import season_settings, setup_keys

    taken = {k.name for k in setup_keys() if not k.per_seat}

    def add(f: F) -> F:
        for s, owner in reversed(season_settings()):
            if s.name in taken:
                continue
            help_ = f"{owner.name}: {s.help[:1].lower()}{s.help[1:]}"
            if s.type == "switch":
                f = click.option(s.flag, s.name, default=None, help=help_)(f)
            elif s.type == "choice":
                f = click.option(s.flag, s.name, type=click.Choice(list(s.choices)), default=s.default,
                                 show_default=True, help=help_)(f)
            else:
                f = click.option(s.flag, s.name, default=s.default or "", metavar=s.metavar or "TEXT",
                                 help=help_)(f)
        return f

    return add


def _tracks_help() -> str:
    """`--tracks` help: how many races each installed ruleset's seasons take (`Championships.races`)."""
    from slipstream.engine.play.registry import season_lengths

    counts = ", ".join(f"{rs.name}: {lo}-{hi}" for rs, (lo, hi) in season_lengths())
    return ("Tracks in race order: ids of the pack or track files"
            + (f" ({counts} races)" if counts else "")
            + "; default: the ruleset's usual season on the pack.")


def _run_plan(plan: SeasonPlan) -> Any:
    """One season in any process (the plan names its ruleset)."""
    from slipstream.engine.play.registry import get

    seasons = get(plan.ruleset).seasons
    if seasons is None:
        raise ValueError(f"{plan.ruleset} has no championships")
    return seasons.run(plan)


@click.command()
@click.argument("pack", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--tracks", "tracks_arg", default="", metavar="A,B,C", help=_tracks_help())
@click.option("--players", type=click.IntRange(1), help="Number of cars (default: the number of bots).")
@click.option("--bots", default=None, metavar="BOT,BOT,...",
              help="Comma-separated bots by seat, repeated to fill --players (default: the ruleset's usual field).")
@setup_flags(per_seat=False)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first season.")
@click.option("--seasons", type=click.IntRange(1), default=1, show_default=True, help="How many seasons.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True, help="Parallel processes.")
@click.option("--laps", type=click.IntRange(1), help="Race length (default: each track's).")
@season_flags()
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="Rule or season option, e.g. season_grid=reverse, season_points=10,6,4,3; repeatable.")
@click.option("--log", "log_dir", type=click.Path(path_type=Path, file_okay=False),
              help="Write every season's JSON-lines log into this folder (replay with `slipstream replay`).")
@click.option("--against", "against", type=click.Path(path_type=Path, file_okay=False),
              help="Also run the same seasons on this pack (`base` for the bundled one) and compare them "
                   "(needs --seasons > 1; rulesets whose seasons compare, e.g. every sponsor's holder race wins).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def season(pack: Path | None, tracks_arg: str, players: int | None, bots: str | None, seed: int,
           seasons: int, jobs: int, laps: int | None, options: tuple[str, ...], log_dir: Path | None,
           against: Path | None, fmt: str, **values: Any) -> None:
    """Run a season of races between bots on PACK (default: the bundled base pack), in the
    championships of the pack's ruleset (docs/seasons.md).

    One season prints every race and the points table (and whatever the ruleset adds between
    races, e.g. sponsor drafts); several seasons show a progress bar and statistics (season
    win rates by bot and first-race grid slot, with 95% intervals, and the ruleset's own).
    """
    from slipstream.cli.race import _ruleset_id
    from slipstream.engine.play.registry import RulesetError, get, setup_keys

    pack_arg = pack_argument(pack)
    if seasons > 1:
        from slipstream.cli.race import cap_jobs

        jobs = cap_jobs(jobs)
    try:
        rs = get(_ruleset_id(pack_arg))
    except RulesetError as e:
        raise click.UsageError(str(e)) from None
    ch = rs.seasons
    if ch is None:
        raise click.UsageError(f"{rs.name} has no championships")
    setup_names = {k.name for k in setup_keys() if not k.per_seat}
    setup_values = {k: v for k, v in values.items() if k in setup_names}
    own = {s.name for s in ch.settings}
    _refuse_foreign(rs, ch.noun, setup_values, {k: v for k, v in values.items() if k not in setup_names}, own,
                    against is not None and not ch.compares)
    rs, pk = open_pack(pack_arg)
    parsed = parse_options(rs, options, scopes=("race", "season"))
    tracks = [t.strip() for t in tracks_arg.split(",") if t.strip()] if tracks_arg else list(ch.tracks(pk, parsed))
    if not tracks:
        raise click.BadParameter("the pack has no tracks", param_hint="PACK")
    names = parse_bots(bots if bots is not None else default_bots(rs), rs)
    n = players or len(names)
    lo, hi = rs.players
    if not lo <= n <= hi:
        raise click.BadParameter(f"a race of {rs.name} needs {lo} to {hi} cars, not {n}", param_hint="--players")
    seat_bots = tuple(names[i % len(names)] for i in range(n))
    setup = setup_of(rs, pk, setup_values)
    settings = tuple(sorted((k, v) for k, v in values.items() if k in own))
    record = seasons == 1 or log_dir is not None
    plan = SeasonPlan(pack_arg, tuple(tracks), seed, seat_bots, laps, tuple(sorted(parsed.items())), setup,
                      settings, record, rs.id)
    for flag, message in ch.problems(pk, plan):
        raise click.BadParameter(message, param_hint=flag)
    against_arg = pack_argument(against)  # a folder, or a bundled pack's id
    if against is not None:
        if seasons < 2:
            raise click.BadParameter("comparing two packs needs --seasons 2 or more", param_hint="--against")
        other = _other_pack(against_arg, rs)
        for flag, message in ch.problems(other, plan):
            raise click.BadParameter(message, param_hint="--against" if flag == "--tracks" else flag)
        setup_of(rs, other, setup_values)
    plans = [replace(plan, seed=seed + i) for i in range(seasons)]
    make_log_folder(log_dir)
    if seasons == 1:
        res = _run_plan(plans[0])
        _write(res, plans[0], log_dir)
        click.echo(json.dumps(ch.json(res), indent=2) if fmt == "json" else ch.text(res, pk))
        return
    t0 = time.perf_counter()
    results = _run(plans, jobs, fmt, f"{seasons} {ch.noun}s of {len(tracks)} races")
    elapsed = time.perf_counter() - t0
    for r, p in zip(results, plans, strict=True):
        _write(r, p, log_dir)
    summary = ch.summarise(results)
    summary["seconds"] = round(elapsed, 3)
    comparison = None
    if against is not None:
        other_plans = [replace(p, pack=against_arg, record=False) for p in plans]
        other_results = _run(other_plans, jobs, fmt, f"{seasons} {ch.noun}s on {against}")
        comparison = ch.compare(summary, ch.summarise(other_results))
        elapsed = time.perf_counter() - t0
    if fmt == "json":
        if comparison is not None:
            summary["against"] = {"pack": str(against), **comparison}
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(ch.format_summary(summary, pk))
    if comparison is not None:
        click.echo(ch.format_comparison(comparison, str(pack or "base"), str(against)))
    runs = seasons * (2 if comparison is not None else 1)
    click.echo(f"{runs} {ch.noun}s in {elapsed:.1f}s ({runs / elapsed:.2f} seasons/s, {jobs} job(s))")


def _refuse_foreign(rs: Any, noun: str, setup_values: dict[str, Any], settings: dict[str, Any],
                    own: set[str], against: bool) -> None:
    """A usage error for a flag given that the pack's ruleset does not take, naming the
    ruleset whose seasons do."""
    from slipstream.engine.play.registry import (
        comparing,
        owner_of_setting,
        season_settings,
        setup_keys,
    )

    keys = {k.name: k for k in setup_keys()}
    declared = {k.name for k in rs.setup.keys} if rs.setup is not None else set()
    for name, value in setup_values.items():
        if value and name not in declared:
            _foreign(keys[name].flag, owner_of_setting(name), rs, noun)
    for s, owner in season_settings():
        value = settings.get(s.name)
        if s.name not in own and value not in (None, "", s.default):
            _foreign(s.flag.split("/")[0], owner, rs, noun)
    if against:
        _foreign("--against", comparing(), rs, noun)


def _foreign(flag: str, owner: Any, rs: Any, noun: str) -> None:
    where = f"an option of {owner.name} seasons" if owner is not None else "not an option here"
    raise click.UsageError(f"{flag} is {where}; {rs.name} {noun}s take no such setting")


def _other_pack(path: str, rs: Any) -> Any:
    """The pack `--against` names, of the same ruleset (usage error otherwise)."""
    from slipstream.engine.play.registry import RulesetError, for_pack

    try:
        other_rs, other = for_pack(path)
    except (ValueError, RuntimeError, OSError, RulesetError) as e:
        raise click.BadParameter(str(e), param_hint="--against") from None
    if other_rs.id != rs.id:
        raise click.BadParameter(f"{path} is a pack of the {other_rs.id!r} ruleset, not {rs.id!r}",
                                 param_hint="--against")
    return other


def _run(plans: list[SeasonPlan], jobs: int, fmt: str, label: str) -> list[Any]:
    """Run the seasons in `jobs` processes, with a progress bar on stderr for text output."""
    from slipstream.engine.play.batch import run_many

    if fmt != "text":
        return run_many(plans, jobs, run=_run_plan)
    with click.progressbar(length=len(plans), label=label, file=sys.stderr) as bar:
        return run_many(plans, jobs, progress=bar.update, run=_run_plan)


def _write(res: Any, plan: SeasonPlan, log_dir: Path | None) -> None:
    if not log_dir:
        return
    from slipstream.engine.play.racelog import write_log

    write_log(log_dir / f"season-{plan.seed}.jsonl", res.lines)
