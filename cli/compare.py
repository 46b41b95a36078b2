"""`slipstream compare`: the same seeded races on two versions of a pack, every measure side by
side, and the changes that are clear (docs/reports.md)."""

from __future__ import annotations

import json
import sys
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
@click.argument("pack_a", type=click.Path(path_type=Path, file_okay=False))
@click.argument("pack_b", type=click.Path(path_type=Path, file_okay=False))
@click.option("--races", type=click.IntRange(2, 1_000_000), default=200, show_default=True,
              help="Races per pack (the same seeds on both).")
@click.option("--seed", type=click.IntRange(-(2**62), 2**62), default=1, show_default=True, help="Seed of the first race.")
@click.option("--track", "track_id", metavar="ID", help="Track id in both packs (default: first-oval, else PACK_A's first).")
@click.option("--players", type=click.IntRange(1), help="Number of cars (default: the number of bots).")
@click.option("--bots", default=None, metavar="BOT,BOT,...", help="Bots by seat (default: the ruleset's usual field).")
@setup_flags()
@click.option("--laps", type=click.IntRange(1), help="Race length (default: the track's).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A rule option for both packs.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True, help="Worker processes.")
@click.option("--skill", type=click.IntRange(0, 100_000), default=0, show_default=True,
              help="Also race this many head-to-head races per pair of --skill-pairs on each pack (seats "
                   "swapped every race) and compare how often the first bot wins: the skill gap, how "
                   "much the game rewards play over dice.")
@click.option("--skill-pairs", default="greedy:random,lookahead:greedy", show_default=True, metavar="A:B,...",
              help="The bot pairs of --skill, stronger first (pairs with a bot the ruleset lacks are left out).")
@click.option("--alpha", type=click.FloatRange(0.0, 1.0, min_open=True, max_open=True), default=0.05,
              show_default=True, help="Family-wise error rate of the Holm correction over all measures.")
@click.option("--fail-on-clear-change", "fail_on", default="", metavar="METRIC,...",
              help="Exit 1 when one of these measures changes clearly (a name, or a dotted prefix: "
                   "`eliminations` covers `eliminations.overshoot`; `all` covers every measure).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text", show_default=True,
              help="github: a Markdown job summary (to $GITHUB_STEP_SUMMARY when set, else stdout) "
                   "and an error annotation per failing measure.")
@click.option("--html", "html_path", type=click.Path(path_type=Path, dir_okay=False),
              help="Also write an interactive HTML report with charts that opens offline (the reports extra).")
@click.option("--chart", "chart_path", type=click.Path(path_type=Path, dir_okay=False),
              help="Also write the charts as one static .svg or .png (the reports extra).")
def compare(pack_a: Path, pack_b: Path, races: int, seed: int, track_id: str | None, players: int | None,
            bots: str | None, laps: int | None, options: tuple[str, ...], jobs: int, skill: int, skill_pairs: str,
            alpha: float, fail_on: str,
            fmt: str, html_path: Path | None, chart_path: Path | None, **setup_values: str) -> None:
    """Race PACK_A and PACK_B on the same seeds and show every measure side by side: the shared
    ones (win rate by grid slot and by seat, race length, completion, lead changes, last-round
    overtakes) and the ruleset's own (e.g. finish rate, eliminations by cause, stops missed per
    corner), each with a 95% interval.

    A change is clear when its test stays significant after Holm's step-down correction over all
    the measures compared: a two-proportion z-test for rates, Welch's t-test for means per race.
    The measures named by --fail-on-clear-change are tested as a family of their own (Holm over
    them alone). Exit status: 0, or 1 when one of them changed clearly; 2 on a usage error.
    """
    from slipstream.engine.play.batch import run_many
    from slipstream.engine.play.races import RaceSpec

    arg_a, arg_b = pack_argument(pack_a), pack_argument(pack_b)
    rs, pk = open_pack(arg_a)
    rs_b, pk_b = open_pack(arg_b)
    if rs_b.id != rs.id:
        raise click.UsageError(f"{pack_a} is a {rs.name} pack and {pack_b} a {rs_b.name} pack: compare two "
                               "versions of one ruleset's pack")
    track_id, seat_bots = race_field(rs, pk, track_id, bots, players)
    if track_id not in pk_b.tracks:
        raise click.BadParameter(f"no track {track_id!r} in {pack_b}; tracks: {', '.join(sorted(pk_b.tracks))}",
                                 param_hint="--track")
    setup = setup_of(rs, pk, setup_values)
    opts = tuple(sorted(parse_options(rs, options).items()))
    if chart_path is not None and chart_path.suffix.lower() not in (".svg", ".png"):
        raise click.BadParameter(f"{chart_path.name}: write the charts as .svg or .png", param_hint="--chart")
    if html_path is not None or chart_path is not None:  # say so before racing, not after
        from slipstream.engine.play.charts import ChartsMissing, require

        try:
            require()
        except ChartsMissing as e:
            raise click.UsageError(str(e)) from None
    wanted = [w.strip() for w in fail_on.split(",") if w.strip()]
    jobs = cap_jobs(jobs)
    seeds = range(seed, seed + races)
    specs = [RaceSpec(arg, track_id, s, seat_bots, laps, opts, setup, record=False)
             for arg in (arg_a, arg_b) for s in seeds]
    pairs = _skill_pairs(rs, skill_pairs) if skill else []
    cars = max(2, rs.players[0])
    for arg in (arg_a, arg_b):
        for pair in pairs:
            specs += [RaceSpec(arg, track_id, seed + i, tuple(pair[(k + i) % 2] for k in range(cars)), laps, opts,
                               setup, record=False) for i in range(skill)]
    try:
        results = run_many(specs, jobs)
    except (ValueError, RuntimeError) as e:
        click.echo(f"cannot race: {e}", err=True)
        sys.exit(1)
    main_a, main_b = results[:races], results[races:2 * races]
    per_pack = len(pairs) * skill
    skill_a, skill_b = results[2 * races:2 * races + per_pack], results[2 * races + per_pack:]
    from slipstream.engine.play.base import stats_of
    from slipstream.engine.play.measures import matches

    data = compare_data(rs, stats_of(rs), main_a, main_b, alpha,
                        (skill_measures(skill_a, pairs, skill), skill_measures(skill_b, pairs, skill)))
    data.update({"pack_a": str(pack_a), "pack_b": str(pack_b), "ruleset": rs.id, "track": track_id,
                 "bots": list(seat_bots), "seed": seed, "alpha": alpha})
    names = [r["name"] for r in data["measures"]]
    unknown = [w for w in wanted if w != "all" and not any(matches(n, w) for n in names)]
    if unknown:
        raise click.BadParameter(f"no measure {unknown[0]!r} in this comparison; measures: {', '.join(names)}",
                                 param_hint="--fail-on-clear-change")
    failing = gate(data["measures"], wanted, alpha)
    data["gate"] = {"measures": wanted, "failing": [r["name"] for r in failing]}
    data["failing"] = [r["name"] for r in failing]
    _write_charts(data, html_path, chart_path)
    if fmt == "json":
        click.echo(json.dumps(data, indent=2))
    elif fmt == "github":
        _github(data, failing)
    else:
        click.echo(format_compare_text(data))
        for p in (html_path, chart_path):
            if p is not None:
                click.echo(f"wrote {p}")
    if failing:
        sys.exit(1)


def gate(rows: list[dict[str, Any]], wanted: list[str], alpha: float) -> list[dict[str, Any]]:
    """The measures named by --fail-on-clear-change that changed clearly. They are the
    hypotheses chosen before the races, so Holm's correction runs over them alone (the report's
    `clear` column corrects over every measure); each row gets its `p_gate`."""
    from slipstream.engine.play.measures import holm, matches

    named = [r for r in rows if any(w == "all" or matches(r["name"], w) for w in wanted)]
    adjusted, clear = holm([r["p"] for r in named], alpha)
    for r, adj in zip(named, adjusted, strict=True):
        r["p_gate"] = round(adj, 6)
    return [r for r, c in zip(named, clear, strict=True) if c]


def _write_charts(data: dict[str, Any], html_path: Path | None, chart_path: Path | None) -> None:
    if html_path is None and chart_path is None:
        return
    from slipstream.engine.core.files import atomic_write_bytes, atomic_write_text
    from slipstream.engine.play.charts import ChartsMissing, compare_html, compare_static

    try:
        if html_path is not None:
            atomic_write_text(html_path, compare_html(data))
        if chart_path is not None:
            atomic_write_bytes(chart_path, compare_static(data, chart_path.suffix.lower().lstrip(".")))
    except ChartsMissing as e:
        raise click.UsageError(str(e)) from None
    except OSError as e:
        raise click.UsageError(f"cannot write the charts: {e.strerror or e}") from None


def _skill_pairs(rs: Any, text: str) -> list[tuple[str, str]]:
    pairs = []
    for item in text.split(","):
        a, sep, b = item.strip().partition(":")
        if not sep or not a or not b or a == b:
            raise click.BadParameter(f"{item.strip()!r}: write a pair as STRONGER:WEAKER", param_hint="--skill-pairs")
        if a in rs.bots and b in rs.bots:
            pairs.append((a, b))
    if not pairs:
        raise click.BadParameter(f"no pair of bots {rs.name} has; its bots: {', '.join(rs.bots)}",
                                 param_hint="--skill-pairs")
    return pairs


def skill_measures(results: list[Any], pairs: list[tuple[str, str]], per_pair: int) -> list[list[Any]]:
    """A measure per head-to-head race: whether the first bot of its pair won."""
    from slipstream.engine.play.measures import RATE, Measure

    out = []
    for k, (a, b) in enumerate(pairs):
        for r in results[k * per_pair:(k + 1) * per_pair]:
            won = bool(r.standings) and r.bots[r.standings[0]] == a
            out.append([Measure(f"skill.{a}_vs_{b}", f"skill gap: {a} wins against {b} (seats swapped)", RATE,
                                float(won))])
    return out


def compare_data(rs: Any, stats: Any, a: list[Any], b: list[Any], alpha: float,
                 skill: tuple[list[list[Any]], list[list[Any]]] = ([], [])) -> dict[str, Any]:
    """The comparison of two batches (results raced on the same seeds), JSON-able; `skill`
    holds the head-to-head races' measures of each side."""
    from slipstream.engine.play.measures import aggregate, compare, shared_measures

    def measures(r: Any) -> list[Any]:
        return [*shared_measures(r), *stats.measures(r)]

    def merged(races: list[Any], extra: list[list[Any]]) -> tuple[int, dict[str, Any]]:
        n, figs = aggregate(measures(r) for r in races)
        _, more = aggregate(extra)  # rates only: their trials count, not the race count
        return n, {**figs, **more}

    agg_a = merged(a, skill[0])
    agg_b = merged(b, skill[1])
    rows = compare(agg_a, agg_b, alpha)
    return {"races": len(a), "measures": rows,
            "lengths": {"a": [int(r.rounds) for r in a], "b": [int(r.rounds) for r in b]},
            "clear": [r["name"] for r in rows if r["clear"]],
            "method": "two-proportion z-test (rates), Welch t-test (means), Holm correction"}


def _fmt_value(kind: str, v: float) -> str:
    return f"{100 * v:.1f}%" if kind == "rate" else f"{v:.3g}"


def _cell(kind: str, side: dict[str, Any]) -> str:
    return f"{_fmt_value(kind, side['value'])} [{_fmt_value(kind, side['low'])}, {_fmt_value(kind, side['high'])}]"


def _change(row: dict[str, Any]) -> str:
    c = row["change"]
    return (f"{100 * c:+.1f} pts" if row["kind"] == "rate" else f"{c:+.3g}")


def format_compare_text(data: dict[str, Any]) -> str:
    rows = data["measures"]
    width = max([len(r["name"]) for r in rows] + [7])
    lines = [f"{data['races']} races per pack on {data['track']} (seeds {data['seed']}..{data['seed'] + data['races'] - 1}), "
             f"bots by seat: {', '.join(data['bots'])}",
             f"A: {data['pack_a']}", f"B: {data['pack_b']}",
             f"clear: Holm-corrected p <= {data['alpha']} over {len(rows)} measures "
             "(two-proportion z-test for rates, Welch's t-test for means); intervals are 95%",
             f"{'measure':<{width}}  {'A':<26} {'B':<26} {'change':>10}  {'p (Holm)':>9}"]
    for r in rows:
        mark = "  CLEAR" if r["clear"] else ""
        lines.append(f"{r['name']:<{width}}  {_cell(r['kind'], r['a']):<26} {_cell(r['kind'], r['b']):<26} "
                     f"{_change(r):>10}  {r['p_holm']:>9.4f}{mark}")
    lines.append("clear changes: " + (", ".join(data["clear"]) or "none"))
    if data.get("gate", {}).get("measures"):
        named = [r for r in rows if "p_gate" in r]
        lines.append(f"gate (--fail-on-clear-change, Holm over its {len(named)} measure(s)): "
                     + (", ".join(f"{r['name']} p {r['p_gate']:.4f}" for r in named if r["name"] in data["failing"])
                        or "no clear change"))
    if data.get("failing"):
        lines.append("failing (--fail-on-clear-change): " + ", ".join(data["failing"]))
    return "\n".join(lines)


def format_compare_markdown(data: dict[str, Any]) -> str:
    """The comparison as a GitHub job summary (Markdown)."""
    rows = data["measures"]
    clear = [r for r in rows if r["clear"]]
    out = [f"## Balance: {data['pack_b']} against {data['pack_a']}", "",
           f"{data['races']} races per pack on `{data['track']}` (same seeds from {data['seed']}), "
           f"bots: {', '.join(data['bots'])}. A change is **clear** when Holm-corrected p <= {data['alpha']} "
           f"over {len(rows)} measures.", ""]
    if data.get("failing"):
        out += [f"**Failing** (Holm over the measures named by --fail-on-clear-change): "
                f"{', '.join(data['failing'])}", ""]
    out += [f"**Clear changes:** {', '.join(r['name'] for r in clear) or 'none'}", "",
            "| measure | A | B | change | p (Holm) | |", "|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['label']} (`{r['name']}`) | {_cell(r['kind'], r['a'])} | {_cell(r['kind'], r['b'])} | "
                   f"{_change(r)} | {r['p_holm']:.4f} | {'clear' if r['clear'] else ''} |")
    return "\n".join(out) + "\n"


def _github(data: dict[str, Any], failing: list[dict[str, Any]]) -> None:
    import os

    md = format_compare_markdown(data)
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if target:
        with open(target, "a", encoding="utf-8") as f:
            f.write(md)
    else:
        click.echo(md, nl=False)
    for r in failing:
        click.echo(f"::error title=clear balance change::{r['name']} ({r['label']}) went from "
                   f"{_fmt_value(r['kind'], r['a']['value'])} to {_fmt_value(r['kind'], r['b']['value'])} "
                   f"(Holm p over the gated measures {r['p_gate']:.4f})")
