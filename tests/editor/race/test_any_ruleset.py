"""The Test race dock races any installed ruleset: the toy ruleset of tests/toyruleset.py, which
no editor code names, is picked by its pack, watched to the end, batched and played by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import click, wait_idle
from PySide6.QtWidgets import QComboBox

from slipstream.engine.play.base import stats_of
from slipstream.engine.play.batch import run_many
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.play.registry import for_pack

from .conftest import ROOT, SHOTS

TOY = ROOT / "tests" / "toy"


@pytest.fixture
def toy_window(race_window, monkeypatch):
    """The race window on the toy track, the toy pack picked through "Pack folder…"."""
    from PySide6.QtWidgets import QFileDialog

    w = race_window
    assert w.open_path(TOY / "tracks" / "toy-oval.yaml", ask=False)
    panel = w.race_panel
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(TOY))
    index = panel.pack_box.findData(None)  # "Pack folder…"
    panel.pack_box.setCurrentIndex(index)
    panel.pack_box.activated.emit(index)
    assert panel.pack_box.currentData() == str(TOY)
    return w


def test_picking_a_pack_of_another_ruleset_sets_up_the_form_from_that_ruleset(toy_window):
    panel = toy_window.race_panel
    rs, _ = for_pack(str(TOY))
    assert panel.rs is rs and panel.ruleset_label.text() == "Toy race"
    # its one race setting, the die, offers the plain die and the pack's dice (tests/toy/dice.yaml)
    assert list(panel.setup_boxes) == ["named_die"]
    box = panel.setup_boxes["named_die"]
    assert [(box.itemData(i), box.itemText(i)) for i in range(box.count())] == \
        [("", "plain die (option die)"), ("d6", "Plain die"), ("d4", "Small die")]
    assert (panel.players.minimum(), panel.players.maximum()) == rs.players
    assert len(panel.seat_boxes) == rs.players[1]
    # the Automobiles seats are gone, not only out of the layout
    seats = [b for b in panel.findChildren(QComboBox) if b.objectName().startswith("race-seat-")
             and b.isVisibleTo(panel)]
    assert sorted(seats, key=lambda b: b.objectName()) == sorted(panel.seat_boxes, key=lambda b: b.objectName())
    assert [panel.seat_boxes[0].itemData(i) for i in range(panel.seat_boxes[0].count())] == ["bold", "random", "human"]
    assert list(panel.option_widgets) == ["die"]
    panel.option_widgets["die"].setValue(4)
    assert panel.settings().options == (("die", 4),)
    assert panel.settings().setup == ()
    box.setCurrentIndex(box.findData("d4"))
    assert panel.settings().setup == (("named_die", "d4"),)


def test_a_toy_race_is_watched_to_the_end_and_is_the_race_slipstream_race_runs(qtbot, toy_window):
    w = toy_window
    panel = w.race_panel
    panel.players.setValue(3)
    for box, bot in zip(panel.seat_boxes, ("bold", "random", "bold"), strict=False):
        box.setCurrentIndex(box.findData(bot))
    panel.seed.setValue(5)
    click(qtbot, panel.run_button)
    wait_idle(qtbot, panel)
    assert "finish:" in panel.status.text()

    res = run_race(RaceSpec(str(TOY), "toy-oval", 5, ("bold", "random", "bold")))
    rec = panel.recorder
    assert rec.game.log == res.log
    assert len(panel.frames) - 1 == res.decisions  # a frame per decision after the grid
    rs, _ = for_pack(str(TOY))

    # to the end with the slider: every car where the game left it, the last move told
    panel.slider.setValue(panel.slider.maximum())
    assert panel.frame_at(panel.step)[0] == len(panel.frames) - 1
    assert [c.cell for c in panel.overlay.cars] == rs.race_view.cars(rec.game)
    told = [t for t in (rs.describe(e, res) for e in res.log[-3:]) if t]
    assert panel.events.toPlainText().splitlines() == told[-len(panel.events.toPlainText().splitlines()):]
    assert "finishes" in panel.events.toPlainText()
    assert "segments driven" in panel.player_panel.text()  # the seat's view from the ruleset

    # a move half-way: before it the car where the decision began, after it where it went
    mid = next(f for f in panel.frames[len(panel.frames) // 2:] if f.route)
    panel.step_to_turn(mid.index, moved=False)
    assert panel.overlay.cars[mid.player].cell == mid.cars_before[mid.player]
    assert not panel.overlay.route.path().isEmpty()
    panel.step_to_turn(mid.index, moved=True)
    assert panel.overlay.cars[mid.player].cell == mid.cars_after[mid.player]
    assert panel.turn_label.text().startswith(f"Turn {mid.index} of")
    SHOTS.mkdir(parents=True, exist_ok=True)
    qtbot.wait(50)
    assert w.grab().save(str(SHOTS / "toy-race.png"))


def test_a_toy_batch_of_20_in_2_processes_equals_the_batch_runner(qtbot, toy_window):
    w = toy_window
    panel = w.race_panel
    panel.races.setMinimum(1)
    panel.races.setValue(20)
    panel.jobs.setValue(2)
    panel.seed.setValue(40)
    bots = panel.settings().bots
    click(qtbot, panel.batch_button)
    wait_idle(qtbot, panel, timeout=120_000)
    data = panel.report.data
    assert data is not None and not data.cancelled and data.summary["races"] == 20
    assert data.heat is None and not panel.report.heat_pane.isVisibleTo(panel.report)
    assert panel.pool is not None and panel.pool.jobs == 2

    rs, _ = for_pack(str(TOY))
    results = run_many([RaceSpec(str(TOY), "toy-oval", 40 + i, bots) for i in range(20)], jobs=1)
    want = stats_of(rs).summarise(results)
    assert data.summary["win_rate_by_slot"] == want["win_rate_by_slot"]
    assert data.summary["win_rate_by_bot"] == want["win_rate_by_bot"]
    assert data.rounds == [r.rounds for r in results]
    shown = [panel.report.bot_table.item(r, 0).text() for r in range(panel.report.bot_table.rowCount())]
    assert shown == [r["label"] for r in want["win_rate_by_bot"]]
    assert "card set" not in panel.report.title.text()
    html = panel.report.html()
    assert "Win rate by bot" in html and "data:image/png" not in html


def test_a_person_plays_a_toy_race_with_the_generic_seat(qtbot, toy_window):
    panel = toy_window.race_panel
    panel.players.setValue(2)
    panel.seat_boxes[0].setCurrentIndex(panel.seat_boxes[0].findData("human"))
    panel.seat_boxes[1].setCurrentIndex(panel.seat_boxes[1].findData("bold"))
    click(qtbot, panel.run_button)
    seat = panel.human
    assert seat.active and seat.seat == 0
    game = seat.recorder.game
    clicks = 0
    while seat.decision is not None:
        shown = panel.human_panel.buttons
        assert set(shown) == {"roll", "creep"}  # the decision's options as buttons
        before = game.progress[0]
        click(qtbot, shown["creep"])
        clicks += 1
        assert game.progress[0] == before + 1
        assert clicks < 200
    assert game.pending is None and clicks > 0
    assert "The race is over." in panel.human_panel.text.text()
    assert "the race is over" in panel.turn_label.text()
    assert [e["choice"] for e in game.log if e.get("t") == "decision" and e["p"] == 0] == ["creep"] * clicks


def test_a_pack_that_cannot_be_used_leaves_the_pack_in_use(toy_window, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QFileDialog

    panel = toy_window.race_panel
    (tmp_path / "pack.yaml").write_text("slipstream: pack/1\nid: broken\nruleset: nowhere\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tmp_path))
    index = panel.pack_box.findData(None)
    panel.pack_box.setCurrentIndex(index)
    panel.pack_box.activated.emit(index)
    assert "cannot be used" in panel.status.text()
    assert panel.pack_box.currentData() == str(TOY) and panel.settings().pack == str(TOY)
    assert panel.rs.id == "toy"


def test_no_face_code_names_the_toy_ruleset():
    faces = [*(ROOT / "editor").rglob("*.py"), *(ROOT / "cli").rglob("*.py")]
    assert faces
    named = [str(p.relative_to(ROOT)) for p in faces if "toy" in Path(p).read_text(encoding="utf-8").lower()]
    assert named == []


def test_saved_batch_reports_come_back_with_the_heat_of_their_ruleset(tmp_path):
    from slipstream.editor.race.raceworker import BatchReportData, ResultCache
    from slipstream.engine.rulesets.automobiles.heatmap import Heat

    track = for_pack("")[1].tracks["first-oval"]
    heat = Heat.empty(track)
    heat.turn_ends[3] = 7
    auto = BatchReportData({"bots": ["greedy"]}, "first-oval", {"races": 1}, [30], [40], heat,
                           ruleset="automobiles", note="mean wear 3")
    toy = BatchReportData({"bots": ["bold"]}, "toy-oval", {"races": 1}, [50], [90], None, ruleset="toy")
    ResultCache(tmp_path).put("a", auto)
    ResultCache(tmp_path).put("t", toy)
    fresh = ResultCache(tmp_path)  # as after a restart: read from the JSON files
    back = fresh.get("a")
    assert isinstance(back.heat, Heat) and back.heat == heat and back.note == "mean wear 3"
    assert fresh.get("t").heat is None and fresh.get("t").rounds == [50]
