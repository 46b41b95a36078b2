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
