"""The batch report shows a Formula Dé-style batch's own figures: the ruleset's `format_summary`
(finish rate, eliminations by cause, overshoots and stops per corner), the text `slipstream
race --races N` prints for the same seeds; an Automobiles report keeps its own tables."""

from __future__ import annotations

from helpers import click

from slipstream.editor.race.raceworker import BatchReportData
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import for_pack
from slipstream.engine.play.watch import run_on_track

from .test_formula_de_maps import PACK, fd_window  # noqa: F401 (the fixture)


def _batch(qtbot, panel, races: int) -> BatchReportData:  # type: ignore[no-untyped-def]
    panel.races.setMinimum(1)
    panel.races.setValue(races)
    panel.jobs.setValue(1)
    click(qtbot, panel.batch_button)
    qtbot.waitUntil(lambda: panel.worker is None, timeout=120_000)
    data = panel.report.data
    assert data is not None and not data.cancelled
    return data


def test_a_formula_de_batch_report_shows_the_rulesets_summary_text(qtbot, fd_window):  # noqa: F811
    w = fd_window
    panel = w.race_panel
    panel.players.setValue(3)
    panel.laps.setValue(1)
    panel.seed.setValue(4)
    settings = panel.settings()
    data = _batch(qtbot, panel, 3)
    rs, _ = for_pack(str(PACK))
    track = w.doc.track
    results = [run_on_track((RaceSpec(str(PACK), track.id, 4 + i, settings.bots, settings.laps,
                                      settings.options), track)) for i in range(3)]
    full = rs.stats.format_summary(rs.stats.summarise(results))
    want = full[full.index("finish rate: "):]  # its own figures: the win rates are the tables'
    assert data.text == want and "eliminations by cause" in want and "per corner" in want
    assert "win rate" not in want
    report = panel.report
    assert report.summary_box.isVisibleTo(report) and report.summary_text.toPlainText() == want
    assert "<h2>The ruleset's figures</h2><pre>" in report.html() and "finish rate" in report.html()
    assert BatchReportData.from_dict(data.to_dict()).text == want  # the cache keeps it
    # every measure by name with its 95% interval, as `race --races` gives them for these seeds
    from slipstream.engine.play.measures import batch_of, format_measures

    measures = batch_of(rs.stats, results)
    assert data.summary["measures"] == measures
    names = [m["name"] for m in measures]
    assert "finish_rate" in names and "win.slot1" in names and any(n.startswith("stops_missed.") for n in names)
    assert report.measures_box.isVisibleTo(report) and report.measures_text.toPlainText() == format_measures(measures)
    page = report.html()
    assert "<h2>Game measures (95% interval)</h2>" in page and "finish_rate" in page
    # the same Altair charts as `sweep --html` (the reports extra), scripts inlined
    assert "vegaEmbed" in page and 'src="http' not in page
    assert "Win rate by grid slot (95% interval)" in page and "Race length distribution" in page
    assert "stops missed (95% interval)" in page


def test_an_automobiles_batch_report_has_no_summary_text(qtbot, race_window):
    panel = race_window.race_panel
    panel.players.setValue(2)
    data = _batch(qtbot, panel, 2)
    assert data.text == "" and not panel.report.summary_box.isVisibleTo(panel.report)
