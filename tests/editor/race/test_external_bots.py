"""The Test race dock races external bots (docs/bots.md): a seat box takes a typed `cmd:` or
`http://` bot, the race is the one `slipstream race` runs, a bad name is refused in the
status line, and the bot process ends with the race."""

from __future__ import annotations

from helpers import click, wait_idle

from slipstream.engine.play.extbots import _LIVE
from slipstream.engine.play.races import RaceSpec, run_race

from .conftest import ROOT

BOT = ROOT / "examples" / "bots" / "python" / "automobiles_bot.py"


def test_a_typed_external_bot_races_in_the_dock_and_plays_the_race_slipstream_race_runs(qtbot, race_window):
    panel = race_window.race_panel
    panel.players.setValue(2)
    panel.seat_boxes[0].setCurrentIndex(panel.seat_boxes[0].findData("greedy"))
    panel.seat_boxes[1].setEditText(f"cmd:{BOT}")
    panel.seed.setValue(7)
    s = panel.settings()
    assert s.bots == ("greedy", f"cmd:{BOT}")
    click(qtbot, panel.run_button)
    wait_idle(qtbot, panel, timeout=120_000)
    assert "finish:" in panel.status.text()
    res = run_race(RaceSpec("", "first-oval", 7, s.bots))
    assert not [e for e in res.log if e.get("t") == "bot"]
    assert panel.recorder.game.log == res.log
    assert not _LIVE  # no bot process left running


def test_a_seat_box_with_a_name_no_bot_has_is_refused_in_the_status_line(qtbot, race_window):
    panel = race_window.race_panel
    panel.players.setValue(2)
    panel.seat_boxes[1].setEditText("cmd:no/such/bot.py")
    click(qtbot, panel.run_button)
    assert panel.worker is None
    assert panel.status.text().startswith("P2: ") and "no bot program" in panel.status.text()
    panel.seat_boxes[1].setEditText("nobody")
    click(qtbot, panel.batch_button)
    assert panel.worker is None and "has no bot 'nobody'" in panel.status.text()


def test_a_batch_in_the_dock_races_an_external_bot(qtbot, race_window):
    panel = race_window.race_panel
    panel.players.setValue(2)
    panel.seat_boxes[0].setCurrentIndex(panel.seat_boxes[0].findData("greedy"))
    panel.seat_boxes[1].setEditText(f"cmd:{BOT}")
    panel.races.setMinimum(1)
    panel.races.setValue(3)
    panel.jobs.setValue(1)
    click(qtbot, panel.batch_button)
    wait_idle(qtbot, panel, timeout=120_000)
    data = panel.report.data
    assert data is not None and not data.cancelled and data.summary["races"] == 3
    assert f"cmd:{BOT}" in [r["label"] for r in data.summary["win_rate_by_bot"]]
    assert not _LIVE
