"""The Test race dock on the Formula Dé-style circuit: the batch report's maps by corner equal the
batch's statistics, the map can be laid over the track canvas, the field's gears and rolls are
shown, and a playing race drives each car square by square."""

from __future__ import annotations

import pytest
from helpers import click

from slipstream.editor.race.heatoverlay import zone
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import for_pack
from slipstream.engine.play.watch import run_on_track

from .conftest import ROOT, SHOTS

PACK = ROOT / "content" / "formula-de"
BOTS = ("greedy", "random", "greedy", "random")


@pytest.fixture
def fd_window(race_window, monkeypatch):
    """The race window on the circuit of the formula-de pack, picked through "Pack folder…"."""
    from PySide6.QtWidgets import QFileDialog

    w = race_window
    assert w.open_path(PACK / "tracks" / "tilleuls.yaml", ask=False)
    panel = w.race_panel
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(PACK))
    index = panel.pack_box.findData(None)
    panel.pack_box.setCurrentIndex(index)
    panel.pack_box.activated.emit(index)
    assert panel.pack_box.currentData() == str(PACK)
    return w


def test_the_batch_report_maps_stops_and_overshoots_per_corner_as_the_batch_counted_them(qtbot, fd_window):
    w = fd_window
    panel = w.race_panel
    panel.players.setValue(4)
    for box, bot in zip(panel.seat_boxes, BOTS, strict=False):
        box.setCurrentIndex(box.findData(bot))
    panel.laps.setValue(1)
    panel.races.setMinimum(1)
    panel.races.setValue(6)
    panel.jobs.setValue(1)
    panel.seed.setValue(11)
    settings = panel.settings()
    click(qtbot, panel.batch_button)
    qtbot.waitUntil(lambda: panel.worker is None, timeout=120_000)
    data = panel.report.data
    assert data is not None and not data.cancelled and data.summary["races"] == 6

    rs, pack = for_pack(str(PACK))
    track = w.doc.track
    results = [run_on_track((RaceSpec(str(PACK), track.id, 11 + i, settings.bots, settings.laps,
                                      settings.options), track)) for i in range(6)]
    want = rs.stats.summarise(results)
    assert data.summary["corners"] == want["corners"]
    per = {c["index"]: c for c in want["corners"]}
    assert data.maps["Stops made per race"] == {f"corner:{i}": round(c["stops"] / 6, 4) for i, c in per.items()}
    assert data.maps["Overshoots per race"] == {f"corner:{i}": round(c["overshoots"] / 6, 4) for i, c in per.items()}
    assert sum(c["stops"] for c in want["corners"]) > 0

    pane = panel.report.map_pane
    assert pane.isVisibleTo(panel.report) and not panel.report.heat_pane.isVisibleTo(panel.report)
    assert [pane.box.itemText(i) for i in range(pane.box.count())] == list(data.maps)
    pane.box.setCurrentText("Overshoots per race")
    assert pane.overlay is not None and pane.overlay.shown == data.maps["Overshoots per race"]
    assert "Overshoots per race" in pane.legend.text()
    # every corner of the circuit is a zone of the map
    assert all(zone(pane._drawing, track, k) is not None for k in data.maps["Overshoots per race"])

    pane.on_canvas.setChecked(True)
    assert pane.canvas_overlay is not None and pane.canvas_overlay.shown == data.maps["Overshoots per race"]
    assert all(item.scene() is w.scene for item in pane.canvas_overlay.items)
    pane.box.setCurrentText("Stops made per race")
    assert pane.canvas_overlay.shown == data.maps["Stops made per race"]

    dock = w.docks["batch-report"]
    dock.setFloating(True)
    dock.resize(1400, 800)
    qtbot.wait(100)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert panel.report.grab().save(str(SHOTS / "formula-de-batch-report.png"))
    assert w.grab().save(str(SHOTS / "formula-de-stops-on-canvas.png"))
    pane.on_canvas.setChecked(False)
    assert pane.canvas_overlay.items == []
    page = panel.report.html()
    assert page.count("data:image/png;base64,") == len(data.maps) and "Stops missed per race" in page


def test_a_watched_race_shows_every_cars_gear_and_roll_and_walks_the_route(qtbot, fd_window):
    panel = fd_window.race_panel
    panel.players.setValue(3)
    panel.seed.setValue(7)
    click(qtbot, panel.run_button)
    qtbot.waitUntil(lambda: panel.worker is None, timeout=60_000)
    frames = panel.recorder.frames
    i = next(k for k, f in enumerate(frames) if len(f.route) >= 4)
    fr = frames[i]
    n = fd_window.doc.track.segments
    # one square a step, from where the car stood to where it stopped
    assert fr.route[0] == fr.cars_before[fr.player] and fr.route[-1] == fr.cars_after[fr.player]
    assert all((b[1] - a[1]) % n == 1 for a, b in zip(fr.route, fr.route[1:], strict=False))

    mid = next(k for k, f in enumerate(frames) if k > len(frames) // 3 and len(f.route) >= 4)
    panel.step_to_turn(mid, moved=False)  # the planned route, square by square
    qtbot.wait(50)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert fd_window.grab().save(str(SHOTS / "formula-de-mid-race.png"))
    panel.step_to_turn(i, moved=True)
    text = panel.player_panel.text()
    assert "The field" in text
    view = dict(fr.view)
    assert fr.briefs[fr.player].startswith(f"gear {view['gear']}, rolled {view['last roll']}")
    rs, _ = for_pack(str(PACK))
    assert frames[-1].briefs == [rs.race_view.brief(panel.recorder.game, p) for p in range(3)]
    for b in fr.briefs:
        assert b.startswith("gear ") and "rolled" in b and b in text

    overlay = panel.overlay
    car = overlay.cars[fr.player]
    overlay.show_frame(fr, True, walk_ms=5)
    assert overlay.walking and car.cell == tuple(fr.cars_after[fr.player])
    seen = set()
    for _ in range(len(fr.route) + 2):
        seen.add((round(car.centre().x()), round(car.centre().y())))
        qtbot.wait(8)
    qtbot.waitUntil(lambda: not overlay.walking, timeout=2_000)
    assert len(seen) >= 3  # the car was drawn on squares between its start and its stop
    end = overlay.cell_centre(tuple(fr.cars_after[fr.player]))
    assert abs(car.centre().x() - end.x()) < 1e-6 and abs(car.centre().y() - end.y()) < 1e-6
    # stepping elsewhere mid-walk ends the walk: the car stays where the new step puts it
    overlay.show_frame(fr, True, walk_ms=5)
    overlay.show_frame(frames[0], True)
    qtbot.wait(40)
    assert not overlay.walking
    grid = overlay.cell_centre(tuple(frames[0].cars_after[fr.player]))
    assert abs(car.centre().x() - grid.x()) < 1e-6 and abs(car.centre().y() - grid.y()) < 1e-6


def test_map_keys_name_corners_by_index_and_spaces_by_name():
    from slipstream.engine.tracks.drawing import TrackDrawing

    _, pack = for_pack(str(PACK))
    track = pack.tracks["tilleuls"]
    d = TrackDrawing(track)
    c = track.corners[2]
    outline, mid, name = zone(d, track, "corner:2")
    assert name == c.name and len(outline) >= 4
    sp = track.space_at(1, 10)
    assert zone(d, track, f"space:{sp.name}")[2] == f"space {sp.name}"
    for bad in ("corner:99", "corner:x", "space:9:9999", "lane:1", ""):
        assert zone(d, track, bad) is None
