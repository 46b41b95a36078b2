"""What a sweep found: metrics per variant with 95% intervals, clear changes, plots.

Per variant: races, the win rate of the pole slot, mean race length, the ruleset's own
statistics, and for every varied item the win rate of players who bought / played / held it
against those who did not. Each variant is compared with the first (the baseline) by a
two-proportion z; a change is called clear only beyond the z that keeps the chance of any false
call at 5% over all comparisons made (Bonferroni). Plots are SVG drawn here (no plotting
library): a metric against the varied value with its interval band.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
from collections.abc import Mapping, Sequence
from statistics import NormalDist
from typing import Any

from slipstream.engine.play.stats import wilson

Z95 = 1.96


def two_proportion_z(w1: int, n1: int, w2: int, n2: int) -> float:
    """z of the difference of two win rates (pooled); 0 when either side is empty."""
    if not n1 or not n2:
        return 0.0
    p = (w1 + w2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return 0.0 if se == 0 else (w2 / n2 - w1 / n1) / se


def corrected_z(comparisons: int) -> float:
    """The two-sided z for a 5% family-wise error over `comparisons` tests (Bonferroni)."""
    if comparisons <= 1:
        return Z95
    return NormalDist().inv_cdf(1 - 0.05 / (2 * comparisons))


def _rate(wins: int, n: int) -> dict[str, Any]:
    p, lo, hi = wilson(wins, n)
    return {"wins": wins, "n": n, "rate": round(p, 4), "low": round(lo, 4), "high": round(hi, 4)}


def variant_metrics(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The shared metrics of one variant's races."""
    n = len(records)
    pole_w = sum(1 for r in records if r["grid"] and r["standings"][0] == r["grid"][0])
    out: dict[str, Any] = {
        "races": n,
        "capped": sum(1 for r in records if r["capped"]),
        "pole_win": _rate(pole_w, n),
        "mean_rounds": round(sum(r["rounds"] for r in records) / n, 2) if n else 0.0,
        "users": {},
    }
    for item in sorted({i for r in records for i in r.get("users", {})}):
        uses = sorted({u for r in records for u in r["users"].get(item, {})})
        per: dict[str, Any] = {}
        for use in uses:
            uw = un = ow = on = 0
            for r in records:
                flags = r["users"].get(item, {}).get(use)
                if flags is None:
                    continue
                winner = r["standings"][0]
                for p, flag in enumerate(flags):
                    if flag:
                        un += 1
                        uw += p == winner
                    else:
                        on += 1
                        ow += p == winner
            per[use] = {"users": _rate(uw, un), "others": _rate(ow, on),
                        "z": round(two_proportion_z(ow, on, uw, un), 2)}
        out["users"][item] = per
    return out


def compare(metrics: Sequence[Mapping[str, Any]]) -> tuple[float, list[dict[str, Any]]]:
    """Clear differences of every variant against the first, with the corrected z."""
    if len(metrics) < 2:
        return Z95, []
    base = metrics[0]
    rows: list[tuple[int, str, dict[str, Any], dict[str, Any]]] = []
    for i, m in enumerate(metrics[1:], start=1):
        rows.append((i, "pole win rate", base["pole_win"], m["pole_win"]))
        for item, per in m["users"].items():
            for use, d in per.items():
                b = base["users"].get(item, {}).get(use)
                if b is not None:
                    rows.append((i, f"{item} {use}: users' win rate", b["users"], d["users"]))
    zc = corrected_z(len(rows))
    out = []
    for i, what, a, b in rows:
        z = two_proportion_z(a["wins"], a["n"], b["wins"], b["n"])
        out.append({"variant": i, "metric": what, "baseline": a["rate"], "rate": b["rate"],
                    "z": round(z, 2), "clear": abs(z) > zc})
    return zc, out


def report_data(meta: Mapping[str, Any], variants: Sequence[tuple[int, str, Mapping[str, Any], str]],
                records: Mapping[int, Sequence[Mapping[str, Any]]], rs: Any) -> dict[str, Any]:
    """Everything the text, JSON, CSV and HTML reports show."""
    from slipstream.engine.play import measures as ms
    from slipstream.engine.play.base import stats_of
    from slipstream.engine.play.sweeps import as_result

    rows = []
    metrics = []
    batches = []
    for idx, label, assignment, digest in variants:
        recs = list(records.get(idx, []))
        m = variant_metrics(recs)
        metrics.append(m)
        try:
            ruleset_stats = stats_of(rs).summarise([as_result(r) for r in recs]) if recs else {}
        except (KeyError, TypeError, IndexError, AttributeError):
            ruleset_stats = {}
        batch = _measures_of(stats_of(rs), [as_result(r) for r in recs], meta.get("unit") == "seasons")
        batches.append(batch)
        rows.append({"variant": idx + 1, "label": label, "values": dict(assignment), "digest": digest,
                     **m, "ruleset": ruleset_stats, "measures": ms.batch_measures(*batch)})
    zc, diffs = compare(metrics)
    # every measure of each variant against variant 1 (Holm over the measures of each pair)
    changes = [{"variant": k, "clear": [r for r in ms.compare(batches[0], b) if r["clear"]]}
               for k, b in enumerate(batches) if k and batches[0][0] and b[0]]
    return {**meta, "variants": rows, "corrected_z": round(zc, 3), "comparisons": diffs,
            "measure_changes": changes}


def _measures_of(stats: Any, results: list[Any], seasons: bool) -> tuple[int, dict[str, Any]]:
    """The measures of a variant's stored races (none for seasons, whose records are not races)."""
    from slipstream.engine.play import measures as ms

    if seasons:
        return 0, {}
    try:
        return ms.aggregate([*ms.shared_measures(r), *stats.measures(r)] for r in results)
    except (KeyError, TypeError, IndexError, AttributeError):  # a store of an older version
        return ms.aggregate(ms.shared_measures(r) for r in results)


def _pct(r: Mapping[str, Any]) -> str:
    return f"{100 * r['rate']:5.1f}% [{100 * r['low']:4.1f}, {100 * r['high']:4.1f}] ({r['wins']}/{r['n']})"


def format_text(data: Mapping[str, Any]) -> str:
    unit = data.get("unit", "races")
    lines = [f"sweep of {data['pack']} ({data['ruleset']}): {len(data['variants'])} variants x "
             f"{data['races']} {unit} on {data['track']}, bots {','.join(data['bots'])}, seeds from {data['seed']}",
             ""]
    for v in data["variants"]:
        lines.append(f"variant {v['variant']}: {v['label'] or '(as the pack is)'}")
        lines.append(f"  {unit} {v['races']}{' (' + str(v['capped']) + ' ended by the round cap)' if v['capped'] else ''},"
                     f" mean rounds {v['mean_rounds']}, pole wins {_pct(v['pole_win'])}")
        for item, per in v["users"].items():
            for use, d in per.items():
                lines.append(f"  {item} {use}: users win {_pct(d['users'])}; others {_pct(d['others'])}; z {d['z']}")
    for v in data["variants"]:
        if v.get("measures"):
            from slipstream.engine.play.measures import format_measures

            lines.append(f"variant {v['variant']} " + format_measures(v["measures"]))
    clear = [c for c in data["comparisons"] if c["clear"]]
    lines.append("")
    lines.append(f"against variant 1 ({len(data['comparisons'])} comparisons, clear beyond |z| > "
                 f"{data['corrected_z']}):")
    if not clear:
        lines.append("  no clear change")
    for c in clear:
        lines.append(f"  variant {c['variant'] + 1}: {c['metric']} {100 * c['baseline']:.1f}% -> "
                     f"{100 * c['rate']:.1f}% (z {c['z']}) CLEAR")
    for ch in data.get("measure_changes", ()):
        for r in ch["clear"]:
            lines.append(f"  variant {ch['variant'] + 1}: {r['name']} {r['a']['value']:.4g} -> {r['b']['value']:.4g} "
                         f"(Holm p {r['p_holm']:.4f} over the measures of the pair) CLEAR")
    return "\n".join(lines)


def format_csv(data: Mapping[str, Any]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["variant", "label", "metric", "wins", "n", "rate", "low", "high"])
    for v in data["variants"]:
        w.writerow([v["variant"], v["label"], "pole_win", *(v["pole_win"][k] for k in ("wins", "n", "rate", "low", "high"))])
        w.writerow([v["variant"], v["label"], "mean_rounds", "", v["races"], v["mean_rounds"], "", ""])
        for item, per in v["users"].items():
            for use, d in per.items():
                for side in ("users", "others"):
                    r = d[side]
                    w.writerow([v["variant"], v["label"], f"{item} {use} {side}", r["wins"], r["n"], r["rate"],
                                r["low"], r["high"]])
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# Plots
# ---------------------------------------------------------------------------------------------


def plot_series(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One plot per varied path: its values on x, a win rate (with interval) on y, pooled over
    the other varied paths."""
    out = []
    for path in data["vary"]:
        groups: dict[str, list[Mapping[str, Any]]] = {}
        for v in data["variants"]:
            groups.setdefault(json.dumps(v["values"][path]), []).append(v)
        metric = "pole win rate"
        points = []
        for xval, vs in groups.items():
            item_rates = [d for v in vs for item, per in v["users"].items() if path.startswith(item)
                          for use, d in per.items() if use in ("bought", "held", "played")][:len(vs)]
            if item_rates:
                metric = "win rate of players who bought / held the item"
                w = sum(d["users"]["wins"] for d in item_rates)
                n = sum(d["users"]["n"] for d in item_rates)
            else:
                w = sum(v["pole_win"]["wins"] for v in vs)
                n = sum(v["pole_win"]["n"] for v in vs)
            p, lo, hi = wilson(w, n)
            rounds = sum(v["mean_rounds"] * v["races"] for v in vs) / max(1, sum(v["races"] for v in vs))
            points.append({"x": json.loads(xval), "rate": p, "low": lo, "high": hi, "n": n,
                           "rounds": round(rounds, 2)})
        out.append({"path": path, "metric": metric, "points": points})
    return out


def svg_plot(series: Mapping[str, Any], width: int = 640, height: int = 360) -> str:
    """A metric against the varied value: points, a line and the 95% interval band."""
    pts = series["points"]
    left, right, top, bottom = 64, 20, 36, 56
    pw, ph = width - left - right, height - top - bottom
    numeric = all(isinstance(p["x"], int | float) and not isinstance(p["x"], bool) for p in pts)
    if numeric and len(pts) > 1:
        xs = [float(p["x"]) for p in pts]
        lo_x, hi_x = min(xs), max(xs)
        span = (hi_x - lo_x) or 1.0
        xpos = [left + pw * (0.06 + 0.88 * (x - lo_x) / span) for x in xs]
    else:
        xpos = [left + pw * (i + 0.5) / max(1, len(pts)) for i in range(len(pts))]
    top_rate = max([0.5, *(p["high"] for p in pts)])
    ymax = min(1.0, math.ceil(top_rate * 10) / 10)

    def y(v: float) -> float:
        return top + ph * (1 - v / ymax)

    esc = html.escape
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{left}" y="20" font-size="14" font-weight="bold">{esc(series["metric"])} '
             f'by {esc(series["path"])}</text>']
    for k in range(0, 11):
        v = ymax * k / 10
        parts.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#e4e4e4"/>')
        if k % 2 == 0:
            parts.append(f'<text x="{left - 8}" y="{y(v) + 4:.1f}" text-anchor="end">{100 * v:.0f}%</text>')
    if pts:
        band = " ".join(f"{x:.1f},{y(p['high']):.1f}" for x, p in zip(xpos, pts, strict=True))
        band += " " + " ".join(f"{x:.1f},{y(p['low']):.1f}" for x, p in reversed(list(zip(xpos, pts, strict=True))))
        parts.append(f'<polygon points="{band}" fill="#4a7bd0" fill-opacity="0.2" stroke="none"/>')
        line = " ".join(f"{x:.1f},{y(p['rate']):.1f}" for x, p in zip(xpos, pts, strict=True))
        parts.append(f'<polyline points="{line}" fill="none" stroke="#2456a6" stroke-width="2"/>')
    for x, p in zip(xpos, pts, strict=True):
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y(p["low"]):.1f}" y2="{y(p["high"]):.1f}" '
                     'stroke="#2456a6"/>')
        parts.append(f'<circle cx="{x:.1f}" cy="{y(p["rate"]):.1f}" r="4" fill="#2456a6">'
                     f'<title>{esc(json.dumps(p["x"]))}: {100 * p["rate"]:.1f}% '
                     f'[{100 * p["low"]:.1f}, {100 * p["high"]:.1f}] of {p["n"]}</title></circle>')
        parts.append(f'<text x="{x:.1f}" y="{top + ph + 18}" text-anchor="middle">{esc(json.dumps(p["x"]))}</text>')
    parts.append(f'<line x1="{left}" x2="{left + pw}" y1="{top + ph}" y2="{top + ph}" stroke="black"/>')
    parts.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + ph}" stroke="black"/>')
    parts.append(f'<text x="{left + pw / 2}" y="{height - 12}" text-anchor="middle">{esc(series["path"])} '
                 '(band: 95% interval)</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def format_html(data: Mapping[str, Any]) -> str:
    esc = html.escape
    rows = []
    for v in data["variants"]:
        uses = "; ".join(f"{esc(item)} {esc(use)}: {_pct(d['users'])} vs {_pct(d['others'])}"
                         for item, per in v["users"].items() for use, d in per.items())
        rows.append(f"<tr><td>{v['variant']}</td><td>{esc(v['label'] or '(as the pack is)')}</td>"
                    f"<td>{v['races']}</td><td>{v['mean_rounds']}</td><td>{_pct(v['pole_win'])}</td>"
                    f"<td>{uses}</td></tr>")
    clear = [c for c in data["comparisons"] if c["clear"]]
    verdict = "".join(f"<li>variant {c['variant'] + 1}: {esc(c['metric'])} {100 * c['baseline']:.1f}% &rarr; "
                      f"{100 * c['rate']:.1f}% (z {c['z']})</li>" for c in clear) or "<li>no clear change</li>"
    plots = "\n".join(f"<figure>{svg_plot(s)}</figure>" for s in plot_series(data))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sweep of {esc(data['pack'])}</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:70em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:4px 8px;text-align:left}}figure{{margin:1em 0}}</style></head>
<body><h1>Sweep of {esc(data['pack'])} ({esc(data['ruleset'])})</h1>
<p>{len(data['variants'])} variants &times; {data['races']} races on {esc(data['track'])}, bots
{esc(', '.join(data['bots']))}, seeds {data['seed']} to {data['seed'] + data['races'] - 1} (the same for every variant).</p>
{plots}
<h2>Variants</h2>
<table><tr><th>#</th><th>values</th><th>races</th><th>mean rounds</th><th>pole wins (95%)</th>
<th>varied items: users vs others</th></tr>
{''.join(rows)}</table>
<h2>Clear changes against variant 1</h2>
<p>{len(data['comparisons'])} comparisons; clear beyond |z| &gt; {data['corrected_z']} (5% over all).</p>
<ul>{verdict}</ul>
</body></html>
"""
