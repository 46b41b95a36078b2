"""`slipstream season`: bot championships of several races with points; Automobiles seasons
with drivers, sponsors and drafts here, those of other rulesets through the registry
(cli/championship.py)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click


def _parse_options(values: tuple[str, ...]) -> tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]]:
    """Split KEY=VALUE items into race options and season options (the ruleset's option spec)."""
    from slipstream.cli.race import parse_options
    from slipstream.engine.play.registry import get

    rs = get("automobiles")  # seasons are an Automobiles command
    scope = {s.name: s.scope for s in rs.options}
    parsed = parse_options(rs, values, scopes=("race", "season"))
    race = {k: v for k, v in parsed.items() if scope[k] == "race"}
    season = {k: v for k, v in parsed.items() if scope[k] == "season"}
    return tuple(sorted(race.items())), tuple(sorted(season.items()))


def _default_tracks(pack: Any) -> list[str]:
    ids = sorted(pack.tracks, key=lambda t: (t != "first-oval", t))
    n = pack.rules.season_races if pack.rules is not None else 3
    return [ids[i % len(ids)] for i in range(n)] if ids else []


@click.command()
@click.argument("pack", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--tracks", "tracks_arg", default="", metavar="A,B,C",
              help="Tracks in race order: ids of the pack or track files (Automobiles: 3-5 races, other "
                   "rulesets: 1-20; default: the pack's tracks).")
@click.option("--players", type=click.IntRange(1), help="Number of cars (default: the number of bots).")
@click.option("--bots", default="greedy,greedy,greedy,random", show_default=True,
              help="Comma-separated bots by seat, repeated to fill --players (random, greedy, lookahead[:N]).")
@click.option("--set", "card_set", default="", metavar="NAME|random",
              help="Card set by id or name, or `random` (default: the pack's first set).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first season.")
@click.option("--seasons", type=click.IntRange(1), default=1, show_default=True, help="How many seasons.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True, help="Parallel processes.")
@click.option("--laps", type=click.IntRange(1), help="Race length (default: each track's).")
@click.option("--drivers/--no-drivers", "drivers", default=None,
              help="Deal drivers for the season (default: the pack's `drivers` option).")
@click.option("--draft", "draft", type=click.Choice(["value", "random"]), default="value", show_default=True,
              help="How bots draft sponsors: by a simple evaluation, or at random (to measure sponsors).")
@click.option("--sponsor-first", "sponsor_first", default="", metavar="ID,ID",
              help="Put these sponsors on top of the deck, so they are in the first pool (to measure them).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="Rule or season option, e.g. season_grid=reverse, season_points=10,6,4,3; repeatable.")
@click.option("--log", "log_dir", type=click.Path(path_type=Path, file_okay=False),
              help="Write every season's JSON-lines log into this folder (replay with `slipstream replay`).")
@click.option("--against", "against", type=click.Path(path_type=Path, file_okay=False),
              help="Also run the same seasons on this pack (`base` for the bundled one) and compare every "
                   "sponsor's holder race wins between the two (needs --seasons > 1).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def season(pack: Path | None, tracks_arg: str, players: int | None, bots: str, card_set: str, seed: int,
           seasons: int, jobs: int, laps: int | None, drivers: bool | None, draft: str, sponsor_first: str,
           options: tuple[str, ...],
           log_dir: Path | None, against: Path | None, fmt: str) -> None:
    """Run a season of races between bots on PACK (default: the bundled base pack).

    A pack of another ruleset with championships (e.g. formula-de) runs that ruleset's
    season: its races, points and standings (docs/seasons.md).
    Automobiles: cube collections and the stock carry over from race to race; race 1 has a random grid,
    later races start in the previous finishing order; sponsors are drafted between races.
    One season prints every race, the drafts and the points table; several seasons show a
    progress bar and statistics (season win rates by bot and first-race grid slot, sponsor
    pick rates and how often their holders win, with 95% intervals).
    """
    from slipstream.cli.race import check_card_set, make_log_folder, pack_argument, parse_bots

    kit = _kit()
    load_pack_cached, season_config, SeasonSpec, run_season = (  # noqa: N806 - a class
        kit.load_pack_cached, kit.season_config, kit.SeasonSpec, kit.run_season)
    format_season_summary, summarise_seasons = kit.format_season_summary, kit.summarise_seasons

    pack_arg = pack_argument(pack)
    if _other_ruleset(pack_arg, tracks_arg, players, bots, card_set, seed, seasons, jobs, laps, drivers, draft,
                      sponsor_first, options, log_dir, against, fmt):
        return
    try:
        pk = load_pack_cached(pack_arg)
    except (ValueError, RuntimeError) as e:
        click.echo(str(e), err=True)
        sys.exit(1)
    tracks = [t.strip() for t in tracks_arg.split(",") if t.strip()] if tracks_arg else _default_tracks(pk)
    if not 3 <= len(tracks) <= 5:
        raise click.BadParameter(f"a season has 3 to 5 races, got {len(tracks)}", param_hint="--tracks")
    _check_tracks(pk, tracks, "--tracks")
    check_card_set(pk, card_set)
    names = parse_bots(bots)
    if not names:
        raise click.BadParameter("give at least one bot", param_hint="--bots")
    n = players or len(names)
    if not 2 <= n <= 5:
        raise click.BadParameter("a race needs 2 to 5 cars", param_hint="--players")
    seat_bots = tuple(names[i % len(names)] for i in range(n))
    top = tuple(x.strip() for x in sponsor_first.split(",") if x.strip())
    for sid in top:
        if sid not in pk.sponsors:
            raise click.BadParameter(f"no sponsor {sid!r}; sponsors: {', '.join(sorted(pk.sponsors))}",
                                     param_hint="--sponsor-first")
    race_opts, season_opts = _parse_options(options)
    if drivers is not None:
        season_opts = tuple(sorted({**dict(season_opts), "drivers": drivers}.items()))
    try:
        season_config(pk, dict(season_opts))
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--option") from None
    against_arg = "" if against is not None and str(against) == "base" else str(against or "")
    if against is not None:
        if seasons < 2:
            raise click.BadParameter("comparing two packs needs --seasons 2 or more", param_hint="--against")
        try:
            other = load_pack_cached(against_arg)
        except (ValueError, RuntimeError) as e:
            raise click.BadParameter(str(e), param_hint="--against") from None
        _check_tracks(other, tracks, "--against")
        check_card_set(other, card_set)
    record = seasons == 1 or log_dir is not None
    specs = [SeasonSpec(pack_arg, tuple(tracks), seed + i, seat_bots, card_set, laps, race_opts, season_opts, record,
                        draft_policy=draft, deck_top=top) for i in range(seasons)]
    make_log_folder(log_dir)
    if seasons == 1:
        res = run_season(specs[0])
        _write(res, log_dir)
        if fmt == "json":
            click.echo(json.dumps(_season_json(res), indent=2))
        else:
            click.echo(_season_text(res, {k: v.name for k, v in pk.sponsors.items()}))
        return
    t0 = time.perf_counter()
    results = _run(specs, jobs, fmt, f"{seasons} seasons of {len(tracks)} races")
    elapsed = time.perf_counter() - t0
    for r in results:
        _write(r, log_dir)
    summary = summarise_seasons(results)
    summary["seconds"] = round(elapsed, 3)
    comparison = None
    if against is not None:
        from dataclasses import replace

        compare_sponsors, format_sponsor_comparison = kit.compare_sponsors, kit.format_sponsor_comparison

        other_specs = [replace(sp, pack=against_arg, record=False) for sp in specs]
        other_results = _run(other_specs, jobs, fmt, f"{seasons} seasons on {against}")
        comparison = compare_sponsors(summary, summarise_seasons(other_results))
        elapsed = time.perf_counter() - t0
    if fmt == "json":
        if comparison is not None:
            summary["against"] = {"pack": str(against), "sponsors": comparison}
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(format_season_summary(summary, {k: v.name for k, v in pk.sponsors.items()}))
        if comparison is not None:
            click.echo(format_sponsor_comparison(comparison, str(pack or "base"), str(against)))
        runs = seasons * (2 if comparison is not None else 1)
        click.echo(f"{runs} seasons in {elapsed:.1f}s ({runs / elapsed:.2f} seasons/s, {jobs} job(s))")


def _other_ruleset(pack_arg: str, tracks_arg: str, players: int | None, bots: str, card_set: str, seed: int,
                   seasons: int, jobs: int, laps: int | None, drivers: bool | None, draft: str,
                   sponsor_first: str, options: tuple[str, ...], log_dir: Path | None, against: Path | None,
                   fmt: str) -> bool:
    """Run the season of a pack whose ruleset offers championships through the protocol;
    False for the Automobiles seasons of this module (a usage error for a ruleset without any)."""
    from slipstream.cli.championship import offers_championships, run_championships
    from slipstream.cli.race import _ruleset_id
    from slipstream.engine.play.registry import RulesetError, get

    try:
        rs = get(_ruleset_id(pack_arg))
    except RulesetError as e:
        raise click.UsageError(str(e)) from None
    if not offers_championships(rs):
        if hasattr(rs, "run_season"):
            return False  # Automobiles: drivers, sponsors and drafts, below
        raise click.UsageError(f"{rs.name} has no championships")
    ctx = click.get_current_context()
    given_bots = None if ctx.get_parameter_source("bots") == click.core.ParameterSource.DEFAULT else bots
    run_championships(rs, pack_arg, {"--set": card_set, "--drivers": drivers is not None,
                                     "--draft": draft != "value", "--sponsor-first": sponsor_first,
                                     "--against": against is not None},
                      tracks_arg, players, given_bots, seed, seasons, jobs, laps, options, log_dir, fmt)
    return True


def _kit() -> Any:
    """The Automobiles season toolkit, through the registry."""
    from slipstream.engine.play.registry import get

    return get("automobiles").season_kit()  # type: ignore[attr-defined]


def _check_tracks(pk: Any, tracks: list[str], option: str) -> None:
    resolve_track = _kit().resolve_track
    for t in tracks:
        try:
            resolve_track(pk, t)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint=option) from None


def _run(specs: list[Any], jobs: int, fmt: str, label: str) -> list[Any]:
    """Run the seasons, with a progress bar on stderr for text output."""
    run_seasons = _kit().run_seasons
    if fmt != "text":
        return run_seasons(specs, jobs)
    with click.progressbar(length=len(specs), label=label, file=sys.stderr) as bar:
        return run_seasons(specs, jobs, progress=bar.update)


def _write(res: Any, log_dir: Path | None) -> None:
    if not log_dir:
        return
    _kit().write_log(log_dir / f"season-{res.spec.seed}.jsonl", res.lines)


def _season_json(res: Any) -> dict[str, Any]:
    names = res.names
    return {
        "seed": res.spec.seed, "card_set": res.card_set, "tracks": list(res.spec.tracks),
        "drivers": {names[p]: d for p, d in enumerate(res.drivers)},
        "races": [{"race": i + 1, "track": rr.track, "grid": [names[p] for p in rr.grid],
                   "finish": [names[p] for p in rr.finish], "points": rr.points,
                   "sponsors": {names[p]: s for p, s in enumerate(rr.sponsors)}, "rounds": rr.rounds}
                  for i, rr in enumerate(res.races)],
        "drafts": [{"after_race": d.after_race, "pool": d.pool, "pick_order": [names[p] for p in d.order],
                    "events": d.events, "applied": [{"player": names[p], "sponsor": s, "bracket": b}
                                                     for p, s, b in d.applied]} for d in res.drafts],
        "standings": [{"place": i + 1, "name": names[p], "bot": res.bots[p], "points": res.points[p]}
                      for i, p in enumerate(res.standings)],
        "supply_conserved": all(s == res.supply[0] for s in res.supply),
    }


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if abs(n) == 1 else "s")


def _season_text(res: Any, sponsor_names: dict[str, str] | None = None) -> str:
    """One season in words; sponsors by their card name with the id `--sponsor-first` takes."""
    names = res.names
    n = len(names)
    known = sponsor_names or {}

    def sp(sid: str) -> str:
        return f"{known[sid]} ({sid})" if sid in known and known[sid] != sid else str(sid)

    def who(p: int) -> str:
        return f"{names[p]} ({res.bots[p]}" + (f", {res.drivers[p]}" if res.drivers[p] else "") + ")"

    lines = [f"Season of {len(res.races)} races ({', '.join(res.spec.tracks)}), card set {res.card_set}, "
             f"seed {res.spec.seed}"]
    if any(res.drivers):
        lines.append("drivers: " + ", ".join(f"{names[p]} {d}" for p, d in enumerate(res.drivers) if d))
    totals = [0] * n
    drafts = {d.after_race: d for d in res.drafts}
    for i, rr in enumerate(res.races, start=1):
        lines += ["", f"Race {i}: {rr.track} ({rr.rounds} rounds{', round cap' if rr.capped else ''})",
                  "  grid: " + ", ".join(f"{s + 1}. {names[p]}" for s, p in enumerate(rr.grid))]
        if any(rr.sponsors):
            lines.append("  sponsors: " + ", ".join(f"{names[p]} {sp(s)}" for p, s in enumerate(rr.sponsors) if s))
        for place, p in enumerate(rr.finish, start=1):
            totals[p] += rr.points[p]
            lines.append(f"  {place}. {who(p):<28} +{_plural(rr.points[p], 'point')}")
        left = ", ".join(f"{k} {v}" for k, v in rr.stock_left.items() if v)
        lines.append(f"  stock left: {left or 'nothing'}")
        d = drafts.get(i)
        if d is not None:
            lines.append(f"  draft after race {i}: pool {', '.join(map(sp, d.pool)) or '(empty)'}; pick order "
                         + ", ".join(names[p] for p in d.order))
            for e in d.events:
                if e["ev"] == "draft_take":
                    lines.append(f"    {names[e['p']]} takes {sp(e['sponsor'])}"
                                 + (f" (drops {sp(e['replaced'])})" if e["replaced"] else ""))
                elif e["ev"] == "draft_keep":
                    lines.append(f"    {names[e['p']]} keeps {sp(e['sponsor'])}"
                                 + (f", discards {sp(e['discard'])}" if e["discard"] else ""))
                elif e["ev"] == "draft_none":
                    lines.append(f"    {names[e['p']]} gets no sponsor (pool empty)")
                elif e["ev"] == "draft_unpicked":
                    lines.append(f"    left in the pool: {', '.join(map(sp, e['sponsors']))}")
            for p, s, b in d.applied:
                lines.append(f"    {names[p]} applies {sp(s)}, {b} bracket")
        order = sorted(range(n), key=lambda p: (-totals[p], rr.finish.index(p)))
        lines.append("  points: " + ", ".join(f"{names[p]} {totals[p]}" for p in order))
    lines += ["", "season standings (ties: better place in the last race):"]
    for place, p in enumerate(res.standings, start=1):
        lines.append(f"  {place}. {who(p):<28} {_plural(res.points[p], 'point')}")
    ok = all(s == res.supply[0] for s in res.supply)
    lines.append(f"{res.decisions} decisions; cube supply {'conserved' if ok else 'NOT conserved'} across races")
    return "\n".join(lines)


