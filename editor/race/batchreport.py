"""The batch report: win rates with intervals, race length, heat maps over the track, lane
use, drafting, and the gear colours used in each part of the lap; export as PNG and HTML.

The numbers come from the engine (the ruleset's `summarise` for the win-rate tables, exactly
what `slipstream race` prints; the heat counts of the ruleset's panels, editor/race/racepanels.py,
for the per-space maps, shown only when the panels count heat); this module only draws.
"""

from __future__ import annotations

import base64
import html
import math
import statistics
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontDatabase, QImage, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import (
    QComboBox,
    QGraphicsScene,
    QGraphicsView,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from slipstream.engine.play.measures import format_measures
from slipstream.engine.tracks.drawing import TrackDrawing
from slipstream.engine.tracks.render import FILL
from slipstream.engine.tracks.track import COLOUR_NAMES, Track

from ..track.canvas import BACKGROUND, band
from .heatoverlay import colour_at
from .raceworker import BatchReportData

METRICS = {
    "turn_ends": "Turns ending here (per race)",
    "wear": "Wear taken here (per race)",
    "drafting": "Drafting rate of moves ending here",
}
# spaces without data; the colour scale itself is heatoverlay.SCALE (colour_at)
NO_DATA = QColor("#8a8f98")


def shade(v: float, top: float, metric: str) -> float:
    """0..1 on the colour scale: counts on a square-root scale, so one busy space does not
    wash out the rest; rates linearly."""
    if top <= 0:
        return 0.0
    return v / top if metric == "drafting" else math.sqrt(v / top)


def metric_values(heat: Any, metric: str) -> list[float | None]:
    races = max(1, heat.races)
    if metric == "turn_ends":
        return [n / races for n in heat.turn_ends]
    if metric == "wear":
        return [n / races for n in heat.wear]
    if metric == "drafting":
        # a rate over a handful of moves says little: show it from 5 moves on
        return [heat.drafts[i] / heat.moves[i] if heat.moves[i] >= 5 else None for i in range(heat.spaces)]
    raise KeyError(metric)


def heat_scene(track: Track, heat: Any, metric: str) -> tuple[QGraphicsScene, float]:
    """A scene of the track with every space filled by its value; returns it and the maximum."""
    d = TrackDrawing(track)
    scene = QGraphicsScene()
    scene.setBackgroundBrush(BACKGROUND)
    vals = metric_values(heat, metric)
    top = 1.0 if metric == "drafting" else max([v for v in vals if v is not None] + [1e-9])
    pen = QPen(QColor("#222222"), 1.0)
    for sp in track.spaces:
        v = vals[sp.index] if sp.index < len(vals) else None
        poly = QPolygonF([QPointF(x, y) for x, y in band(d, sp.lane, sp.first, sp.first + sp.length)])
        item = scene.addPolygon(poly, pen, QBrush(NO_DATA if v is None else colour_at(shade(v, top, metric))))
        item.setToolTip(f"space {sp.name} ({COLOUR_NAMES.get(sp.colour, '?')}): "
                        + ("no data" if v is None else f"{v:.3g}"))
        # a chip of the space's own gear colour, to read heat against shade
        cx, cy = d.point(sp.lane, sp.first + sp.length / 2)
        r = d.lane_width * 0.12
        scene.addRect(QRectF(cx - r, cy - r, 2 * r, 2 * r), QPen(QColor("#555555"), 0.8),
                      QBrush(QColor(FILL.get(sp.colour, "#ff00ff"))))
    a, b = d.cross_line(0)
    scene.addLine(a[0], a[1], b[0], b[1], QPen(QColor("#000000"), 4.0))
    x0, y0, x1, y1 = d.bounds
    m = d.lane_width
    scene.setSceneRect(QRectF(x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m))
    return scene, top


def heat_image(track: Track, heat: Any, metric: str, width: int = 900) -> QImage:
    """The heat map of one metric with a title and a colour legend, as an image."""
    from .heatoverlay import titled_image

    scene, top = heat_scene(track, heat, metric)
    img, p = titled_image(scene, f"{METRICS[metric]}, {heat.races} races", width)
    bar = QRectF(10, 26, 220, 12)
    for k in range(220):
        p.fillRect(QRectF(bar.x() + k, bar.y(), 1.2, bar.height()), colour_at(k / 219))
    p.drawText(QRectF(bar.right() + 8, 22, 300, 20), Qt.AlignmentFlag.AlignLeft,
               "0 … " + (f"{100 * top:.0f}%" if metric == "drafting" else f"{top:.3g} (square-root scale)")
               + ("   grey: fewer than 5 moves" if metric == "drafting" else ""))
    p.end()
    return img


def _png_bytes(img: QImage) -> bytes:
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")  # type: ignore[call-overload]  # the stub wants bytes; PySide6 takes only str
    return bytes(QByteArray(buf.data()).data())


class Histogram(QWidget):
    """Race length in rounds: one bar per value."""

    def __init__(self) -> None:
        super().__init__()
        self.values: list[int] = []
        self.setMinimumHeight(110)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_values(self, values: list[int]) -> None:
        self.values = values
        self.update()

    def paintEvent(self, _event) -> None:  # noqa: ANN001, N802 - Qt API
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#ffffff"))
        if not self.values:
            p.end()
            return
        lo, hi = min(self.values), max(self.values)
        counts = [0] * (hi - lo + 1)
        for v in self.values:
            counts[v - lo] += 1
        w, h = self.width(), self.height() - 18
        bw = (w - 20) / len(counts)
        top = max(counts)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#2f6fe0"))
        for i, c in enumerate(counts):
            bh = (h - 6) * c / top
            p.drawRect(QRectF(10 + i * bw + 1, h - bh, max(1.0, bw - 2), bh))
        p.setPen(QColor("#333333"))
        p.drawText(QRectF(10, h + 2, 120, 16), Qt.AlignmentFlag.AlignLeft, f"{lo} rounds")
        p.drawText(QRectF(w - 130, h + 2, 120, 16), Qt.AlignmentFlag.AlignRight, f"{hi} rounds")
        p.end()


def _table(headers: list[str]) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.verticalHeader().setVisible(False)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(False)
    t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    t.setSizeAdjustPolicy(QTableWidget.SizeAdjustPolicy.AdjustToContents)
    return t


def with_charts(doc: str, measures: list[dict], rounds: list[int], title: str) -> str:
    """The report page with the batch's charts above its tables (engine/play/charts.py: win rates
    by grid slot and seat, race length, the ruleset's figures; interactive, and it opens
    offline); the page as it is without the reports extra or without measures."""
    from slipstream.engine.play.charts import ChartsMissing, batch_chart, page

    if not measures:
        return doc
    try:
        chart = batch_chart(measures, rounds, title)
    except ChartsMissing:
        return doc
    head_end, body_start = doc.index("</head>"), doc.index("<body>") + len("<body>")
    style = doc[doc.index("<style>"):head_end]
    return page(chart, doc[body_start:doc.rindex("</body>")], style)


def measures_html(rows: list[dict], table: Any) -> str:
    """Every measure of the batch as a table (name, estimate, 95% interval, what it is); "" without."""
    if not rows:
        return ""

    def show(r: dict, v: float) -> str:
        return f"{100 * v:.1f}%" if r["kind"] == "rate" else f"{v:.3g}"

    body = [[r["name"], show(r, r["value"]), f"[{show(r, r['low'])}, {show(r, r['high'])}]", r["label"]]
            for r in rows]
    return "<h2>Game measures (95% interval)</h2>" + table(["measure", "estimate", "95% interval", "what"], body)


def rate_rows(rates: list[dict]) -> list[list[str]]:
    """Rows of a win-rate table: label, rate, 95% interval, wins/races (as the CLI prints them)."""
    return [[r["label"], f"{100 * r['rate']:.1f}%", f"{100 * r['low']:.1f}% – {100 * r['high']:.1f}%",
             f"{r['wins']}/{r['n']}"] for r in rates]


def length_text(data: BatchReportData) -> str:
    if not data.rounds:
        return "no races"
    r, t = data.rounds, data.turns
    return (f"rounds: mean {statistics.mean(r):.1f}, median {statistics.median(r):g}, "
            f"min {min(r)}, max {max(r)}; turns: mean {statistics.mean(t):.1f}, "
            f"min {min(t)}, max {max(t)}")


def colour_headers(heat: Any) -> list[str]:
    """The gear colour columns of the section table, named as the track editor names them."""
    return [COLOUR_NAMES[c] for c in heat.colour_ids]


def section_rows(track: Track, heat: Any) -> list[list[str]]:
    rows = []
    sections = len(heat.colours)
    for s in range(sections):
        a = s * track.segments // sections
        b = (s + 1) * track.segments // sections - 1
        counts = heat.colours[s]
        tot = sum(counts) or 1
        rows.append([f"{a}–{b}"] + [f"{100 * c / tot:.0f}%" for c in counts] + [str(sum(counts))])
    return rows


def lane_rows(heat: Any) -> list[list[str]]:
    tot = sum(heat.lane_ends) or 1
    return [[f"lane {i}" + (" (inner)" if i == 0 else ""), f"{100 * n / tot:.1f}%", str(n)]
            for i, n in enumerate(heat.lane_ends)]


def drafting_total(heat: Any) -> float:
    m = sum(heat.moves)
    return sum(heat.drafts) / m if m else 0.0


class BatchReport(QWidget):
    """Shows one BatchReportData for a track."""

    def __init__(self) -> None:
        super().__init__()
        self.data: BatchReportData | None = None
        self.track: Track | None = None
        self.title = QLabel("Run a batch of races from the Test race dock.")
        self.title.setWordWrap(True)
        self.title.setObjectName("report-title")
        self.slot_table = _table(["grid slot", "win rate", "95% interval", "wins"])
        self.slot_table.setObjectName("report-slots")
        self.bot_table = _table(["bot", "win rate", "95% interval", "wins"])
        self.bot_table.setObjectName("report-bots")
        self.length = QLabel()
        self.length.setWordWrap(True)
        self.hist = Histogram()
        self.other = QLabel()
        self.other.setWordWrap(True)
        self.summary_text = QPlainTextEdit()  # the ruleset's `format_summary`, when it gives one
        self.summary_text.setObjectName("report-summary-text")
        self.summary_text.setReadOnly(True)
        self.summary_text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.summary_text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.summary_text.setMinimumHeight(160)
        self.summary_box = QGroupBox("The ruleset's figures")
        QVBoxLayout(self.summary_box).addWidget(self.summary_text)
        self.summary_box.setVisible(False)
        # every measure by name with its 95% interval (engine/play/measures.py), as `race --races` prints
        self.measures_text = QPlainTextEdit()
        self.measures_text.setObjectName("report-measures-text")
        self.measures_text.setReadOnly(True)
        self.measures_text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.measures_text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.measures_text.setMinimumHeight(160)
        self.measures_box = QGroupBox("Game measures")
        QVBoxLayout(self.measures_box).addWidget(self.measures_text)
        self.measures_box.setVisible(False)
        self.lane_table = _table(["lane", "turn ends", "count"])
        self.colour_table = _table(["segments", "cubes"])
        self.colour_table.setObjectName("report-colours")
        self.metric_box = QComboBox()
        self.metric_box.setObjectName("report-metric")
        for key, text in METRICS.items():
            self.metric_box.addItem(text, key)
        self.metric_box.currentIndexChanged.connect(lambda _i: self._draw_heat())
        self.heat_view = QGraphicsView()
        self.heat_view.setObjectName("report-heat")
        self.heat_view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.heat_view.setMinimumSize(300, 200)
        self.legend = QLabel()
        self.png_button = QPushButton("Export PNG…")
        self.png_button.setObjectName("report-export-png")
        self.html_button = QPushButton("Export HTML…")
        self.html_button.setObjectName("report-export-html")
        self.png_button.clicked.connect(self._png_dialog)
        self.html_button.clicked.connect(self._html_dialog)

        left = QVBoxLayout()
        left.addWidget(self.title)
        for title, w in (("Win rate by grid slot", self.slot_table), ("Win rate by bot", self.bot_table)):
            box = QGroupBox(title)
            QVBoxLayout(box).addWidget(w)
            left.addWidget(box)
        box = QGroupBox("Race length")
        lay = QVBoxLayout(box)
        lay.addWidget(self.length)
        lay.addWidget(self.hist)
        left.addWidget(box)
        left.addWidget(self.other)
        left.addWidget(self.summary_box, 3)
        left.addWidget(self.measures_box, 3)
        left.addStretch(1)
        self.heat_pane = QWidget()  # shown when the ruleset's panels count heat
        right = QVBoxLayout(self.heat_pane)
        right.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(QLabel("Heat map:"))
        row.addWidget(self.metric_box, 1)
        right.addLayout(row)
        right.addWidget(self.heat_view, 3)
        self.legend_bar = QLabel()  # the colour scale the legend's words read
        self.legend_bar.setObjectName("report-heat-scale")
        leg = QHBoxLayout()
        leg.addWidget(self.legend_bar)
        leg.addWidget(self.legend, 1)
        right.addLayout(leg)
        grid = QGridLayout()
        lb = QGroupBox("Lane use (where turns end)")
        QVBoxLayout(lb).addWidget(self.lane_table)
        cb = QGroupBox("Gear colours of placed cubes, by part of the lap")
        QVBoxLayout(cb).addWidget(self.colour_table)
        lb.setMaximumWidth(300)
        grid.addWidget(lb, 0, 0)
        grid.addWidget(cb, 0, 1)
        grid.setColumnStretch(1, 3)
        right.addLayout(grid, 2)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.png_button)
        buttons.addWidget(self.html_button)
        right.addLayout(buttons)
        from .heatoverlay import MapPane  # maps by corner or space (Ruleset.heat)

        self.map_pane = MapPane()
        self.map_pane.setVisible(False)
        top = QHBoxLayout(self)
        top.addLayout(left, 2)
        top.addWidget(self.heat_pane, 3)
        top.addWidget(self.map_pane, 3)
        self._set_enabled(False)

    def _set_enabled(self, on: bool) -> None:
        for w in (self.png_button, self.html_button, self.metric_box):
            w.setEnabled(on)

    @staticmethod
    def _fill(table: QTableWidget, rows: list[list[str]]) -> None:
        table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                item = QTableWidgetItem(text)
                if j:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                table.setItem(i, j, item)

    def show_report(self, data: BatchReportData, track: Track) -> None:
        self.data, self.track = data, track
        s = data.summary
        st = data.settings
        self.title.setText(
            f"<b>{s.get('races', 0)} races on {html.escape(data.track_id)}</b>"
            + (" <span style='color:#c00'>(cancelled: partial)</span>" if data.cancelled else "")
            + f"<br>bots {', '.join(st.get('bots', []))}; seeds {st.get('seed')}–"
            f"{st.get('seed', 0) + s.get('races', 1) - 1}; "
            + (f"card set {html.escape(str(st['card_set']))}; " if "card_set" in st else "")
            + f"{data.seconds:.1f} s on {st.get('jobs', 1)} process(es)")
        self._fill(self.slot_table, rate_rows(s.get("win_rate_by_slot", [])))
        self._fill(self.bot_table, rate_rows(s.get("win_rate_by_bot", [])))
        self.length.setText(length_text(data))
        self.hist.set_values(data.rounds)
        self.other.setText(data.note)
        self.summary_text.setPlainText(data.text)
        self.summary_box.setVisible(bool(data.text))
        measures = s.get("measures") or []
        self.measures_text.setPlainText(format_measures(measures) if measures else "")
        self.measures_box.setVisible(bool(measures))
        self.map_pane.show_maps(track, data.maps)
        self.heat_pane.setVisible(data.heat is not None)
        self._set_enabled(True)
        if data.heat is None:
            self.metric_box.setEnabled(False)
            self.heat_view.setScene(None)
            return
        self._fill(self.lane_table, lane_rows(data.heat))
        headers = ["segments", *colour_headers(data.heat), "cubes"]
        self.colour_table.setColumnCount(len(headers))
        self.colour_table.setHorizontalHeaderLabels(headers)
        self._fill(self.colour_table, section_rows(track, data.heat))
        self._draw_heat()

    def _draw_heat(self) -> None:
        if self.data is None or self.track is None or self.data.heat is None:
            return
        metric = self.metric_box.currentData()
        scene, top = heat_scene(self.track, self.data.heat, metric)
        self.heat_view.setScene(scene)
        self._scene = scene
        self.heat_view.fitInView(scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        from .heatoverlay import legend_pixmap

        self.legend_bar.setPixmap(legend_pixmap(1.0, 160))
        self.legend.setText(f"{METRICS[metric]}, {self.data.heat.races} races: pale = 0, dark red = "
                            + (f"{100 * top:.0f}%" if metric == "drafting" else f"{top:.3g} (square-root scale)")
                            + ("; grey = fewer than 5 moves" if metric == "drafting" else ""))

    def resizeEvent(self, event) -> None:  # noqa: ANN001, N802
        super().resizeEvent(event)
        if self.heat_view.scene() is not None:
            self.heat_view.fitInView(self.heat_view.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    # ------------------------------------------------------------------ export
    def export_png(self, path: Path) -> None:
        """The whole report as shown, as a PNG."""
        self.grab().save(str(path), "PNG")

    def export_heat_png(self, path: Path, metric: str = "turn_ends") -> None:
        assert self.data is not None and self.track is not None and self.data.heat is not None
        heat_image(self.track, self.data.heat, metric).save(str(path), "PNG")  # type: ignore[call-overload]  # the stub wants bytes; PySide6 takes only str

    def html(self) -> str:
        """A self-contained HTML report (tables, heat maps as embedded images)."""
        assert self.data is not None and self.track is not None
        d, s = self.data, self.data.summary

        def table(headers: list[str], rows: list[list[str]]) -> str:
            head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
            body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
            return f"<table><tr>{head}</tr>{body}</table>"

        heat = "" if d.heat is None else self._heat_html(table)
        heat += self._maps_html()
        st = d.settings
        card_set = f"; card set {html.escape(str(st['card_set']))}" if "card_set" in st else ""
        doc = self._html_doc(d, s, table, heat, st, card_set)
        return with_charts(doc, s.get("measures") or [], d.rounds, f"{s.get('races', 0)} races on {d.track_id}")

    def _html_doc(self, d: Any, s: Any, table: Any, heat: str, st: Any, card_set: str) -> str:
        return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>Batch report: {html.escape(d.track_id)}</title>
<style>body{{font-family:sans-serif;max-width:1000px;margin:2em auto}}table{{border-collapse:collapse;margin:.5em 0}}
td,th{{border:1px solid #bbb;padding:2px 8px;text-align:right}}td:first-child,th:first-child{{text-align:left}}
img{{max-width:100%}}</style></head><body>
<h1>{s.get('races', 0)} races on {html.escape(d.track_id)}</h1>
<p>bots {html.escape(', '.join(st.get('bots', [])))}; first seed {st.get('seed')}{card_set};
options {html.escape(str(st.get('options')))}; {d.seconds:.1f} s
{'(cancelled: partial)' if d.cancelled else ''}</p>
<h2>Win rate by grid slot (95% interval)</h2>{table(['grid slot', 'win rate', '95% interval', 'wins'], rate_rows(s.get('win_rate_by_slot', [])))}
<h2>Win rate by bot (95% interval)</h2>{table(['bot', 'win rate', '95% interval', 'wins'], rate_rows(s.get('win_rate_by_bot', [])))}
<h2>Race length</h2><p>{html.escape(length_text(d))}</p>
<p>{html.escape(d.note)}</p>
{f"<h2>The ruleset's figures</h2><pre>{html.escape(d.text)}</pre>" if d.text else ""}
{measures_html(s.get('measures') or [], table)}
{heat}</body></html>
"""

    def _heat_html(self, table: Any) -> str:
        assert self.data is not None and self.track is not None
        d = self.data
        imgs = "".join(
            f"<figure><img alt='{html.escape(t)}' src='data:image/png;base64,"
            f"{base64.b64encode(_png_bytes(heat_image(self.track, d.heat, m))).decode()}'>"
            f"<figcaption>{html.escape(t)}</figcaption></figure>" for m, t in METRICS.items())
        return (f"<h2>Lane use</h2>{table(['lane', 'turn ends', 'count'], lane_rows(d.heat))}\n"
                f"<p>drafting rate {100 * drafting_total(d.heat):.1f}% of moves</p>\n"
                f"<h2>Gear colours of placed cubes by part of the lap</h2>"
                f"{table(['segments', *colour_headers(d.heat), 'cubes'], section_rows(self.track, d.heat))}\n"
                f"<h2>Heat maps</h2>{imgs}\n")

    def _maps_html(self) -> str:
        """The maps by corner or space (Ruleset.heat) as embedded images."""
        assert self.data is not None and self.track is not None
        if not self.data.maps:
            return ""
        from .heatoverlay import map_image

        races = self.data.summary.get("races", 0)
        imgs = "".join(
            f"<figure><img alt='{html.escape(t)}' src='data:image/png;base64,"
            f"{base64.b64encode(_png_bytes(map_image(self.track, v, f'{t}, {races} races'))).decode()}'>"
            f"<figcaption>{html.escape(t)}</figcaption></figure>" for t, v in self.data.maps.items())
        return f"<h2>Maps</h2>{imgs}\n"

    def export_html(self, path: Path) -> None:
        from slipstream.engine.core.files import atomic_write_text

        atomic_write_text(path, self.html())

    def _png_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        name, _ = QFileDialog.getSaveFileName(self, "Export report as PNG", "batch-report.png", "PNG (*.png)")
        if name:
            self.export_png(Path(name))

    def _html_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        name, _ = QFileDialog.getSaveFileName(self, "Export report as HTML", "batch-report.html", "HTML (*.html)")
        if name:
            self.export_html(Path(name))


__all__ = ["BatchReport", "heat_image"]
