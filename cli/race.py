"""`slipstream race`, `slipstream replay` and `slipstream test`: races, replays, rule scenarios."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click

from slipstream.engine import diagnostics as dg


def _parse_options(values: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    from slipstream.engine.ruleset import Options

    out: dict[str, Any] = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep:
            raise click.BadParameter(f"{item!r}: write KEY=VALUE, e.g. weaving=true", param_hint="--option")
        if key not in Options.names():
            raise click.BadParameter(f"unknown rule option {key!r}; known: {', '.join(Options.names())}",
                                     param_hint="--option")
        low = raw.lower()
        val: Any = raw
        if low in ("true", "yes", "on"):
            val = True
        elif low in ("false", "no", "off"):
            val = False
        elif raw.isdigit():
            val = int(raw)
        out[key] = val
    return tuple(sorted(out.items()))


def check_card_set(pk: Any, card_set: str | None) -> None:
    """Refuse an unknown --set (`random` picks one per race)."""
    if card_set and card_set != "random":
        try:
            pk.card_set(card_set)
        except KeyError:
            raise click.BadParameter(f"no card set {card_set!r}; sets: {', '.join(sorted(pk.card_sets))}",
                                     param_hint="--set") from None


def parse_bots(bots: str) -> list[str]:
    """The --bots list, each name checked against the known bots."""
    from slipstream.engine.bots import BOTS

    names = [b.strip() for b in bots.split(",") if b.strip()]
    for b in names:
        if b not in BOTS:
            raise click.BadParameter(f"unknown bot {b!r}; bots: {', '.join(sorted(BOTS))}", param_hint="--bots")
    return names


def _first_track(pack_arg: str) -> str:
    from slipstream.engine.runner import load_pack_cached

    pack = load_pack_cached(pack_arg)
    if "first-oval" in pack.tracks:
        return "first-oval"
    return str(next(iter(pack.tracks)))


@click.command()
@click.argument("pack", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--track", "track_id", metavar="ID", help="Track id in the pack (default: first-oval).")
@click.option("--players", type=click.IntRange(2, 5), help="Number of cars (default: the number of bots).")
@click.option("--bots", default="greedy,greedy,greedy,random", show_default=True,
              help="Comma-separated bots by seat, repeated to fill --players (random, greedy).")
@click.option("--set", "card_set", default="", metavar="NAME|random",
              help="Card set by id or name, or `random` (default: the pack's first set).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first race.")
@click.option("--races", type=click.IntRange(1), default=1, show_default=True, help="How many races.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True, help="Parallel processes.")
@click.option("--laps", type=click.IntRange(1), help="Race length (default: the track's).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="Rule option from the pack's rules file, e.g. weaving=true; repeatable.")
@click.option("--drivers", "drivers", default="", metavar="ID,ID,...",
              help="Drivers by seat (empty entries for none).")
@click.option("--log", "log_dir", type=click.Path(path_type=Path, file_okay=False),
              help="Write every race's JSON-lines log into this folder.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def race(pack: Path | None, track_id: str | None, players: int | None, bots: str, card_set: str,
         seed: int, races: int, jobs: int, laps: int | None, options: tuple[str, ...],
         drivers: str, log_dir: Path | None, fmt: str) -> None:
    """Race bots on a track of PACK (default: the bundled base pack).

    One race prints a turn-by-turn summary and the final standings; several races show a
    progress bar and end with statistics (win rates with 95% intervals, turns, wear, pit
    stops, drafting, most bought cubes).
    """
    from slipstream.engine.runner import RaceSpec, load_pack_cached, run_many, run_race
    from slipstream.engine.stats import format_summary, summarise

    pack_arg = str(pack) if pack else ""
    try:
        pk = load_pack_cached(pack_arg)
    except (ValueError, RuntimeError) as e:
        click.echo(str(e), err=True)
        sys.exit(1)
    track_id = track_id or _first_track(pack_arg)
    if track_id not in pk.tracks:
        raise click.BadParameter(f"no track {track_id!r} in the pack; tracks: {', '.join(sorted(pk.tracks))}",
                                 param_hint="--track")
    check_card_set(pk, card_set)
    names = parse_bots(bots)
    n = players or len(names)
    if not 2 <= n <= 5:
        raise click.BadParameter("a race needs 2 to 5 cars", param_hint="--players")
    seat_bots = tuple(names[i % len(names)] for i in range(n))
    drv = tuple((d.strip() or None) for d in drivers.split(",")) if drivers else ()
    for d in drv:
        if d and d not in pk.drivers:
            raise click.BadParameter(f"unknown driver {d!r}", param_hint="--drivers")
    opts = _parse_options(options)
    from slipstream.engine.ruleset import unsupported_options
    from slipstream.engine.runner import setup

    rs, _, _ = setup(RaceSpec(pack_arg, track_id, seed, seat_bots, card_set, laps, opts))
    bad = unsupported_options(rs.options)
    if bad:
        raise click.BadParameter("rule option value(s) not implemented by this engine: " + ", ".join(bad),
                                 param_hint="--option / the pack's rules file")
    record = races == 1 or log_dir is not None
    specs = [RaceSpec(pack_arg, track_id, seed + i, seat_bots, card_set, laps, opts, drv, record)
             for i in range(races)]
    if log_dir:
        log_dir.mkdir(parents=True, exist_ok=True)

    if races == 1:
        res = run_race(specs[0])
        _write(res, log_dir)
        if fmt == "json":
            click.echo(json.dumps(_race_json(res), indent=2))
        else:
            click.echo(_race_text(res, pk))
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
    summary = summarise(results)
    summary["seconds"] = round(elapsed, 3)
    summary["races_per_second"] = round(races / elapsed, 2) if elapsed else 0.0
    if fmt == "json":
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(format_summary(summary))
        click.echo(f"{races} races in {elapsed:.1f}s ({summary['races_per_second']} races/s, {jobs} job(s))")


def _write(res: Any, log_dir: Path | None) -> None:
    if not log_dir:
        return
    from slipstream.engine.racelog import log_lines, write_log

    write_log(log_dir / f"race-{res.spec.seed}.jsonl", log_lines(res.header, res.log, res.result))


def _race_json(res: Any) -> dict[str, Any]:
    return {"seed": res.spec.seed, "track": res.spec.track, "card_set": res.card_set,
            "standings": [{"place": i + 1, "name": res.names[p], "bot": res.bots[p],
                           "grid_slot": res.grid.index(p) + 1} for i, p in enumerate(res.standings)],
            "rounds": res.rounds, "capped": res.capped, "decisions": res.decisions,
            "wear": res.stats["wear"], "pit_stops": res.stats["pits"]}


def _race_text(res: Any, pack: Any) -> str:
    names = res.names
    lines = [f"Race on {res.spec.track} with card set {res.card_set}, seed {res.spec.seed}",
             "grid: " + ", ".join(f"{i + 1}. {names[p]} ({res.bots[p]}"
                                  + (f", {res.drivers[p]}" if res.drivers[p] else "") + ")"
                                  for i, p in enumerate(res.grid)), ""]
    cur: dict[str, Any] | None = None
    out_turns: list[str] = []

    def flush() -> None:
        if cur is None:
            return
        p = cur["p"]
        if cur["pit"]:
            what = f"pit stop, {cur['pit_wear']} wear removed"
        else:
            plays = ", ".join(f"{n}x {k}" if n > 1 else k for k, n in cur["plays"].items()) or "nothing"
            what = f"played {plays}"
            if cur["move"]:
                what += f"; moved {cur['move']}"
            else:
                what += "; stayed"
        extras = []
        if cur["wear"]:
            extras.append(f"+{cur['wear']} wear")
        if cur["draft"]:
            extras.append("drafting")
        if cur["bought"]:
            extras.append("bought " + ", ".join(cur["bought"]))
        if cur["lap"]:
            extras.append(cur["lap"])
        out_turns.append(f"R{cur['round']:<3} {names[p]:<4} {what}" + (f" ({'; '.join(extras)})" if extras else ""))

    for ev in res.log:
        if ev.get("t") != "event":
            continue
        e = ev["ev"]
        if e == "turn":
            flush()
            cur = {"p": ev["p"], "round": ev["round"], "pit": ev["choice"] == "pit", "pit_wear": 0,
                   "plays": {}, "move": "", "wear": 0, "draft": False, "bought": [], "lap": ""}
        elif cur is None:
            continue
        elif e == "pit":
            cur["pit_wear"] = ev["wear_removed"]
        elif e == "play" and ev["p"] == cur["p"]:
            cur["plays"][ev["kind"]] = cur["plays"].get(ev["kind"], 0) + 1
        elif e == "car" and ev["p"] == cur["p"]:
            cur["move"] = f"{ev['src']} -> {ev['dst']}"
        elif e == "drive" and ev["p"] == cur["p"]:
            cur["move"] = (cur["move"] or "") + f" -> {ev['dst']}"
        elif e == "gain" and ev["p"] == cur["p"]:
            if ev["why"] == "buy":
                cur["bought"].append(ev["kind"])
            elif ev["kind"] == "wear":
                cur["wear"] += ev["n"]
        elif e == "decline" and ev["p"] == cur["p"]:
            cur["draft"] = ev["drafting"]
        elif e == "final_round":
            cur["lap"] = "finish line: final round"
    flush()
    lines += out_turns
    lines += ["", "final standings:"]
    for i, p in enumerate(res.standings):
        lines.append(f"  {i + 1}. {names[p]} ({res.bots[p]}), wear gained {res.stats['wear'][p]}, "
                     f"pit stops {res.stats['pits'][p]}")
    lines.append(f"{res.rounds} rounds{' (ended by the round cap)' if res.capped else ''}, "
                 f"{res.decisions} decisions")
    return "\n".join(lines)


@click.command()
@click.argument("log", type=click.Path(path_type=Path, dir_okay=False))
def replay(log: Path) -> None:
    """Re-run a race or season log: verify its header, then report the first divergence, or `identical`.

    Exit 0 when identical, 1 when the log differs or cannot be replayed (one line naming the
    line of the log), 2 when the file cannot be read.
    """
    from slipstream.engine.racelog import replay_file

    if not log.is_file():
        click.echo(f"{log}: no such file", err=True)
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
    from slipstream.engine.scenarios import run_pack_scenarios

    report = run_pack_scenarios(str(pack) if pack else "", select)
    diags = sorted(report.diagnostics, key=dg.sort_key)
    if fmt == "json":
        click.echo(json.dumps({"passed": [r.id for r in report.results if r.ok],
                               "failed": [{"id": r.id, "file": r.file, "problems": r.problems}
                                          for r in report.results if not r.ok],
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
                       f"{sum(d.is_error for d in diags)} malformed")
        if fmt == "text":
            for r in report.results:
                click.echo(f"{'PASS' if r.ok else 'FAIL'} {r.id} ({_rel(r.file)})")
                for prob in r.problems:
                    click.echo(f"     {prob}")
            ok = sum(r.ok for r in report.results)
            click.echo(f"{ok} passed, {len(report.results) - ok} failed, "
                       f"{sum(d.is_error for d in diags)} malformed")
    failed = any(not r.ok for r in report.results) or any(d.is_error for d in diags)
    sys.exit(1 if failed else 0)


def dg_cut(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _rel(path: str) -> str:
    import os

    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


