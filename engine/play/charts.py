"""Charts of batch reports with Altair (Vega-Lite): one chart definition gives the interactive
offline HTML (hover values; the vega, vega-lite and vega-embed scripts inlined, so the file
opens without a network) and the static SVG/PNG (vl-convert renders them without a browser).

Both libraries are the optional `reports` extra (`pip install 'slipstream[reports]'`); without
it the text, JSON and CSV reports still work and `ChartsMissing` says what to install. Why
Vega-Lite: a chart is data plus a declarative spec, so the HTML and the static files cannot
drift apart, hover tooltips come free, and vl-convert needs no browser or display.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

A_COLOUR, B_COLOUR = "#4c78a8", "#f58518"
WIDTH = 520


class ChartsMissing(RuntimeError):
    """The `reports` extra (altair, vl-convert-python) is not installed."""


def _alt() -> Any:
    try:
        import altair as alt
        import vl_convert  # noqa: F401  (inline HTML and static files need it)
    except ImportError:
        raise ChartsMissing("charts need the reports extra: pip install 'slipstream[reports]' "
                            "(altair and vl-convert-python); the text and JSON reports need nothing") from None
    return alt


def require() -> None:
    """ChartsMissing unless the reports extra is installed."""
    _alt()


def _group(name: str) -> str:
    """The chart a measure goes to: its dotted prefix (`stops_missed.Fosse` -> `stops_missed`)."""
    return name.split(".", 1)[0] if "." in name else ""


def _rows(rows: Sequence[Mapping[str, Any]], labels: tuple[str, str]) -> list[dict[str, Any]]:
    out = []
    for r in rows:
        item = (r["label"].removeprefix("win rate, ") if r["name"].startswith("win.") else
                r["name"].split(".", 1)[1] if "." in r["name"] else r["label"])
        for side, label in zip(("a", "b"), labels, strict=True):
            v = r[side]
            scale = 100.0 if r["kind"] == "rate" else 1.0
            out.append({"item": item + (" (clear)" if r["clear"] else ""), "pack": label,
                        "value": round(v["value"] * scale, 4), "low": round(v["low"] * scale, 4),
                        "high": round(v["high"] * scale, 4), "change": r["change"] * scale,
                        "p_holm": r["p_holm"], "clear": "yes" if r["clear"] else "no"})
    return out


def _bars(alt: Any, values: list[dict[str, Any]], title: str, unit: str, labels: tuple[str, str]) -> Any:
    """Side-by-side bars of packs A and B per item, with their 95% intervals as error bars."""
    data = alt.Data(values=values)
    colour = alt.Color("pack:N", scale=alt.Scale(domain=list(labels), range=[A_COLOUR, B_COLOUR]),
                       legend=alt.Legend(title="pack", orient="bottom"))
    y = alt.Y("item:N", title=None, sort=None, axis=alt.Axis(labelLimit=320))
    off = alt.YOffset("pack:N", sort=list(labels))
    tip = [alt.Tooltip("item:N"), alt.Tooltip("pack:N"), alt.Tooltip("value:Q", format=".3g"),
           alt.Tooltip("low:Q", title="95% low", format=".3g"), alt.Tooltip("high:Q", title="95% high", format=".3g"),
           alt.Tooltip("change:Q", title="change B - A", format="+.3g"), alt.Tooltip("p_holm:Q", title="p (Holm)", format=".4f"),
           alt.Tooltip("clear:N", title="clear change")]
    base = alt.Chart(data)
    bars = base.mark_bar().encode(x=alt.X("value:Q", title=unit), y=y, yOffset=off, color=colour, tooltip=tip)
    err = base.mark_rule(color="#333").encode(x="low:Q", x2="high:Q", y=y, yOffset=off, tooltip=tip)
    rows = len({v["item"] for v in values})
    return (bars + err).properties(title=title, width=WIDTH, height=max(40, 26 * rows))


def _histogram(alt: Any, lengths: Mapping[str, Sequence[int]], labels: tuple[str, str]) -> Any:
    values = [{"rounds": n, "pack": label} for side, label in zip(("a", "b"), labels, strict=True)
              for n in lengths.get(side, ())]
    colour = alt.Color("pack:N", scale=alt.Scale(domain=list(labels), range=[A_COLOUR, B_COLOUR]),
                       legend=alt.Legend(title="pack", orient="bottom"))
    return alt.Chart(alt.Data(values=values)).mark_bar(opacity=0.6, binSpacing=0).encode(
        x=alt.X("rounds:Q", bin=alt.Bin(maxbins=30), title="rounds per race"),
        y=alt.Y("count():Q", stack=None, title="races"), color=colour,
        tooltip=[alt.Tooltip("pack:N"), alt.Tooltip("rounds:Q", bin=True), alt.Tooltip("count():Q", title="races")],
    ).properties(title="Race length distribution", width=WIDTH, height=160)


_TITLES = {"win": "Win rate (%)", "": "Game measures"}


def compare_chart(data: Mapping[str, Any]) -> Any:
    """Every chart of a comparison (`slipstream compare --format json`), stacked: win rates by
    grid slot and by seat, the race length distribution, the shared measures, then the
    ruleset's own measures a chart per group (rates in %, means per race)."""
    alt = _alt()
    labels = ("A: " + str(data["pack_a"]), "B: " + str(data["pack_b"]))
    rows = list(data["measures"])
    charts = []
    slots = [r for r in rows if r["name"].startswith("win.slot")]
    seats = [r for r in rows if r["name"].startswith("win.seat")]
    if slots:
        charts.append(_bars(alt, _rows(slots, labels), "Win rate by grid slot (95% interval)", "% of races", labels))
    if seats:
        charts.append(_bars(alt, _rows(seats, labels), "Win rate by seat and bot (95% interval)", "% of races", labels))
    if data.get("lengths"):
        charts.append(_histogram(alt, data["lengths"], labels))
    rest = [r for r in rows if not r["name"].startswith("win.")]
    rates = [r for r in rest if r["kind"] == "rate" and not _group(r["name"])]
    # race length has its own chart (the distribution above) and would dwarf the small counts
    means = [r for r in rest if r["kind"] == "mean" and not _group(r["name"])
             and (r["name"] != "rounds" or not data.get("lengths"))]
    if rates:
        charts.append(_bars(alt, _rows(rates, labels), "Rates (95% interval)", "%", labels))
    if means:
        charts.append(_bars(alt, _rows(means, labels), "Per race (95% interval)", "mean per race", labels))
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for r in rest:
        if _group(r["name"]):
            groups.setdefault(_group(r["name"]), []).append(r)
    for g, members in groups.items():
        unit = "%" if members[0]["kind"] == "rate" else "mean per race"
        charts.append(_bars(alt, _rows(members, labels), f"{g.replace('_', ' ')} (95% interval)", unit, labels))
    title = {"text": f"{data['ruleset']}: B against A, {data['races']} races each on {data['track']}",
             "subtitle": ["clear: Holm-corrected p <= %s (two-proportion z / Welch t)" % data["alpha"],
                          "clear changes: " + (", ".join(data.get("clear", ())) or "none")]}
    return alt.vconcat(*charts).properties(title=title).resolve_scale(color="shared")


def compare_html(data: Mapping[str, Any]) -> str:
    """The comparison as one offline HTML page: interactive charts (scripts inlined) and the
    table of every measure."""
    chart = compare_chart(data)
    page = chart.to_html(inline=True, embed_options={"actions": False})
    table = ["<h2>Every measure</h2><table><tr><th>measure</th><th>A</th><th>B</th><th>change</th>"
             "<th>p (Holm)</th><th></th></tr>"]
    for r in data["measures"]:
        pct = r["kind"] == "rate"

        def cell(v: Mapping[str, Any], pct: bool = pct) -> str:
            f = (lambda x: f"{100 * x:.1f}%") if pct else (lambda x: f"{x:.3g}")
            return f"{f(v['value'])} [{f(v['low'])}, {f(v['high'])}]"

        table.append(f"<tr{' class=clear' if r['clear'] else ''}><td>{html.escape(r['label'])} "
                     f"<code>{html.escape(r['name'])}</code></td><td>{cell(r['a'])}</td><td>{cell(r['b'])}</td>"
                     f"<td>{r['change']:+.4g}</td><td>{r['p_holm']:.4f}</td><td>{'clear' if r['clear'] else ''}</td></tr>")
    table.append("</table>")
    style = ("<style>body{font-family:sans-serif;margin:1em} table{border-collapse:collapse} "
             "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px} tr.clear{background:#fde2c8}</style>")
    head, _, tail = page.rpartition("</body>")  # the last one: the inlined scripts hold the word too
    return head + style + "\n".join(table) + "\n</body>" + tail


def compare_static(data: Mapping[str, Any], fmt: str) -> bytes:
    """The comparison's charts as one SVG or PNG (vl-convert, no browser)."""
    chart = compare_chart(data)
    import vl_convert as vlc

    spec = json.loads(chart.to_json())
    if fmt == "svg":
        return str(vlc.vegalite_to_svg(spec)).encode("utf-8")
    return bytes(vlc.vegalite_to_png(spec, scale=1.5))


# --- batches and sweeps -----------------------------------------------------------------------

# variant colours (Tableau 10, as Vega's default scheme)
PALETTE = ["#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#ff9da6",
           "#9d755d", "#bab0ac"]


def _item(r: Mapping[str, Any]) -> str:
    return (str(r["label"]).removeprefix("win rate, ") if str(r["name"]).startswith("win.") else
            str(r["name"]).split(".", 1)[1] if "." in str(r["name"]) else str(r["label"]))


def _batch_rows(batches: Sequence[tuple[str, Sequence[Mapping[str, Any]]]],
                keep: Any) -> list[dict[str, Any]]:
    out = []
    for label, rows in batches:
        for r in rows:
            if keep(r):
                scale = 100.0 if r["kind"] == "rate" else 1.0
                out.append({"item": _item(r), "name": r["name"], "batch": label,
                            "value": round(r["value"] * scale, 4), "low": round(r["low"] * scale, 4),
                            "high": round(r["high"] * scale, 4), "n": r["n"]})
    return out


def _batch_bars(alt: Any, values: list[dict[str, Any]], title: str, unit: str, labels: Sequence[str]) -> Any:
    """Bars per item, one per batch (variant), with their 95% intervals as error bars."""
    colour = alt.Color("batch:N", scale=alt.Scale(domain=list(labels), range=PALETTE[:len(labels)] or PALETTE),
                       legend=alt.Legend(title="variant", orient="bottom", labelLimit=400)
                       if len(labels) > 1 else None)
    y = alt.Y("item:N", title=None, sort=None, axis=alt.Axis(labelLimit=320))
    off = alt.YOffset("batch:N", sort=list(labels))
    tip = [alt.Tooltip("item:N"), alt.Tooltip("batch:N", title="variant"), alt.Tooltip("value:Q", format=".3g"),
           alt.Tooltip("low:Q", title="95% low", format=".3g"), alt.Tooltip("high:Q", title="95% high", format=".3g"),
           alt.Tooltip("n:Q", title="sample")]
    base = alt.Chart(alt.Data(values=values))
    bars = base.mark_bar().encode(x=alt.X("value:Q", title=unit), y=y, yOffset=off, color=colour, tooltip=tip)
    err = base.mark_rule(color="#333").encode(x="low:Q", x2="high:Q", y=y, yOffset=off, tooltip=tip)
    items = len({v["item"] for v in values})
    return (bars + err).properties(title=title, width=WIDTH,
                                   height=max(40, (12 if len(labels) > 1 else 22) * items * max(1, len(labels))))


def _heatmap(alt: Any, values: list[dict[str, Any]], title: str, what: str, labels: Sequence[str]) -> Any:
    """Items (rows) by variant (columns), the colour the estimate, with a legend naming it."""
    tip = [alt.Tooltip("item:N"), alt.Tooltip("batch:N", title="variant"),
           alt.Tooltip("value:Q", title=what, format=".3g"), alt.Tooltip("low:Q", title="95% low", format=".3g"),
           alt.Tooltip("high:Q", title="95% high", format=".3g")]
    base = alt.Chart(alt.Data(values=values)).encode(
        x=alt.X("batch:N", title="variant", sort=list(labels), axis=alt.Axis(labelAngle=-30, labelLimit=200)),
        y=alt.Y("item:N", title=None, sort=None, axis=alt.Axis(labelLimit=320)))
    rects = base.mark_rect().encode(
        color=alt.Color("value:Q", title=what, scale=alt.Scale(scheme="orangered", zero=True),
                        legend=alt.Legend(orient="right", gradientLength=120)),
        tooltip=tip)
    top = max([float(v["value"]) for v in values] + [0.0])
    ink = alt.condition(f"datum.value > {0.6 * top!r}", alt.value("white"), alt.value("black"))
    text = base.mark_text(fontSize=10).encode(text=alt.Text("value:Q", format=".3g"), color=ink, tooltip=tip)
    items = len({v["item"] for v in values})
    return (rects + text).properties(title=title, width=max(120, 90 * len(labels)), height=max(40, 20 * items))


def _fill_counts(values: list[dict[str, Any]], labels: Sequence[str],
                 batches: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> list[dict[str, Any]]:
    """`values` with a 0 row (interval [0, 0]) for each item a variant has no row for: the
    races of a batch that never report a count count 0 (engine/play/measures.py)."""
    races = {label: next((r["n"] for r in rows if r["name"] == "rounds"), 0) for label, rows in batches}
    have = {(v["name"], v["batch"]) for v in values}
    items = list(dict.fromkeys((v["name"], v["item"]) for v in values))
    return values + [{"item": item, "name": name, "batch": label, "value": 0.0, "low": 0.0, "high": 0.0,
                      "n": races.get(label, 0)}
                     for name, item in items for label in labels if (name, label) not in have]


def _lengths(alt: Any, lengths: Mapping[str, Sequence[int]], labels: Sequence[str]) -> Any:
    values = [{"rounds": n, "batch": label} for label in labels for n in lengths.get(label, ())]
    colour = alt.Color("batch:N", scale=alt.Scale(domain=list(labels), range=PALETTE[:len(labels)]),
                       legend=alt.Legend(title="variant", orient="bottom") if len(labels) > 1 else None)
    return alt.Chart(alt.Data(values=values)).mark_bar(opacity=0.7 if len(labels) > 1 else 1.0, binSpacing=0).encode(
        x=alt.X("rounds:Q", bin=alt.Bin(maxbins=30), title="rounds per race"),
        y=alt.Y("count():Q", stack=None, title="races"), color=colour,
        tooltip=[alt.Tooltip("batch:N", title="variant"), alt.Tooltip("rounds:Q", bin=True),
                 alt.Tooltip("count():Q", title="races")],
    ).properties(title="Race length distribution", width=WIDTH, height=160)


def batch_charts(batches: Sequence[tuple[str, Sequence[Mapping[str, Any]]]],
                 lengths: Mapping[str, Sequence[int]] | None = None) -> list[Any]:
    """The charts of one or more batches' measures (`measures.batch_measures` rows, labelled by
    batch): win rate by grid slot and by seat, race length (its distribution when `lengths`
    gives every race's rounds, else the mean), the shared measures, then the ruleset's own a
    chart per group (a heat map of items by variant when there are several variants)."""
    alt = _alt()
    labels = [label for label, _ in batches]
    charts = []
    for prefix, title in (("win.slot", "Win rate by grid slot (95% interval)"),
                          ("win.seat", "Win rate by seat and bot (95% interval)")):
        values = _batch_rows(batches, lambda r, p=prefix: str(r["name"]).startswith(p))
        if values:
            charts.append(_batch_bars(alt, values, title, "% of races", labels))
    if lengths and any(lengths.values()):
        charts.append(_lengths(alt, lengths, labels))
    else:
        values = _batch_rows(batches, lambda r: r["name"] == "rounds")
        if values:
            charts.append(_batch_bars(alt, values, "Race length (mean, 95% interval)", "rounds per race", labels))
    rest = [(label, [r for r in rows if not str(r["name"]).startswith("win.") and r["name"] != "rounds"])
            for label, rows in batches]
    rates = _batch_rows(rest, lambda r: r["kind"] == "rate" and not _group(r["name"]))
    means = _batch_rows(rest, lambda r: r["kind"] == "mean" and not _group(r["name"]))
    if rates:
        charts.append(_batch_bars(alt, rates, "Rates (95% interval)", "%", labels))
    if means:
        charts.append(_batch_bars(alt, means, "Per race (95% interval)", "mean per race", labels))
    groups: list[str] = list(dict.fromkeys(_group(r["name"]) for _, rows in rest for r in rows if _group(r["name"])))
    for g in groups:
        values = _batch_rows(rest, lambda r, g=g: _group(r["name"]) == g)
        kind = next(r["kind"] for _, rows in rest for r in rows if _group(r["name"]) == g)
        unit = "% of trials" if kind == "rate" else "mean per race"
        name = g.replace("_", " ")
        if len(labels) > 1:
            if kind == "mean":  # a count a variant never recorded is 0 there, not unknown
                values = _fill_counts(values, labels, batches)
            charts.append(_heatmap(alt, values, f"{name}: {unit}, by variant (colour: the estimate)",
                                   f"{name} ({unit})", labels))
        else:
            charts.append(_batch_bars(alt, values, f"{name} (95% interval)", unit, labels))
    return charts


def _sweep_series(alt: Any, series: Mapping[str, Any]) -> Any:
    """A sweep's metric against one varied value: line, points and the 95% interval band."""
    values = [{"x": json.dumps(p["x"]) if not isinstance(p["x"], str) else p["x"], "rate": round(100 * p["rate"], 2),
               "low": round(100 * p["low"], 2), "high": round(100 * p["high"], 2), "n": p["n"],
               "rounds": p["rounds"]} for p in series["points"]]
    order = [v["x"] for v in values]
    x = alt.X("x:N", title=str(series["path"]), sort=order, axis=alt.Axis(labelAngle=0))
    tip = [alt.Tooltip("x:N", title=str(series["path"])), alt.Tooltip("rate:Q", title="%", format=".1f"),
           alt.Tooltip("low:Q", title="95% low", format=".1f"), alt.Tooltip("high:Q", title="95% high", format=".1f"),
           alt.Tooltip("n:Q", title="sample"), alt.Tooltip("rounds:Q", title="mean rounds")]
    base = alt.Chart(alt.Data(values=values)).encode(x=x)
    band = base.mark_area(opacity=0.2, color=A_COLOUR).encode(y=alt.Y("low:Q", title="%"), y2="high:Q")
    line = base.mark_line(color=A_COLOUR, point=True).encode(y="rate:Q", tooltip=tip)
    err = base.mark_rule(color=A_COLOUR).encode(y="low:Q", y2="high:Q", tooltip=tip)
    return (band + line + err).properties(
        title={"text": f"{series['metric']} by {series['path']}", "subtitle": "band and bars: 95% interval"},
        width=WIDTH, height=220)


def sweep_chart(data: Mapping[str, Any], series: Sequence[Mapping[str, Any]]) -> Any:
    """Every chart of a sweep report (`sweepreport.report_data`): the metric against each varied
    value (`series`, `sweepreport.plot_series`), then every variant's measures (`batch_charts`)."""
    alt = _alt()
    charts = [_sweep_series(alt, s) for s in series if s["points"]]
    batches = [(f"{v['variant']}: {v['label'] or '(as the pack is)'}", v.get("measures") or [])
               for v in data["variants"]]
    if any(rows for _, rows in batches):
        charts += batch_charts(batches, data.get("lengths"))
    unit = data.get("unit", "races")
    title = {"text": f"Sweep of {data['pack']} ({data['ruleset']})",
             "subtitle": f"{len(data['variants'])} variants x {data['races']} {unit} on {data['track']}, "
                         f"bots {', '.join(data['bots'])}"}
    return alt.vconcat(*charts).properties(title=title).resolve_scale(color="independent")


def page(chart: Any, extra_html: str, style: str = "") -> str:
    """One offline HTML page: the chart (scripts inlined, no network) then `extra_html`."""
    html_page = chart.to_html(inline=True, embed_options={"actions": False})
    head, _, tail = html_page.rpartition("</body>")  # the last one: the inlined scripts hold the word too
    return head + style + extra_html + "\n</body>" + tail


def batch_chart(measures: Sequence[Mapping[str, Any]], rounds: Sequence[int], title: str) -> Any:
    """The charts of one batch (the editor's batch report): its measures and race lengths."""
    alt = _alt()
    return alt.vconcat(*batch_charts([("batch", measures)], {"batch": list(rounds)})).properties(title=title)


def static(chart: Any, fmt: str) -> bytes:
    """A chart as SVG or PNG (vl-convert, no browser)."""
    import vl_convert as vlc

    spec = json.loads(chart.to_json())
    if fmt == "svg":
        return str(vlc.vegalite_to_svg(spec)).encode("utf-8")
    return bytes(vlc.vegalite_to_png(spec, scale=1.5))
