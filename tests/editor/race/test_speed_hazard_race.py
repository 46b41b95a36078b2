"""The Test race dock on the speed-and-hazard pack: the batch report's hazard map per curve and
wreck / ram maps per square equal the batch's statistics; a watched race shows every car's
speedometer and damage and the tokens and wrecks on their squares as the game holds them; a
human seat plays with its card chosen in secret and shops in the pit road."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import click
from PySide6.QtWidgets import QGraphicsPixmapItem, QGraphicsSimpleTextItem

from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import for_pack
from slipstream.engine.play.watch import run_on_track

from .conftest import ROOT, SHOTS

PACK = ROOT / "content" / "speed-hazard"
BOTS = ("greedy", "greedy", "random", "random")


@pytest.fixture
def sh_window(race_window, monkeypatch):
    """The race window on the Redline Loop, the speed-hazard pack picked through "Pack folder…"."""
    from PySide6.QtWidgets import QFileDialog

    w = race_window
    assert w.open_path(PACK / "tracks" / "redline-loop.yaml", ask=False)
    panel = w.race_panel
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(PACK))
    index = panel.pack_box.findData(None)
    panel.pack_box.setCurrentIndex(index)
    panel.pack_box.activated.emit(index)
    assert panel.pack_box.currentData() == str(PACK)
    for box, bot in zip(panel.seat_boxes, BOTS, strict=False):
        box.setCurrentIndex(box.findData(bot))
    panel.players.setValue(4)
    return w


def marks_of(game) -> list[tuple[int, int, str, str]]:
    """Tokens and wrecks read straight from the game state."""
    sp = game.track.spaces
    tokens = [(sp[n].lane, sp[n].first, k, game.token_kinds[k].name) for n, k in sorted(game.on_board.items())]
    wrecks = [(sp[c.node].lane, sp[c.node].first, "wreck", f"wreck of {game.names[c.seat]}")
              for c in game.cars if c.wreck and c.node >= 0]
    return tokens + wrecks


def test_the_batch_report_maps_hazards_per_curve_and_wrecks_per_square_as_the_batch_counted(qtbot, sh_window):
    w = sh_window
    panel = w.race_panel
    panel.races.setMinimum(1)
    panel.races.setValue(5)
    panel.jobs.setValue(1)
    panel.seed.setValue(1)  # seeds 1-5: three-lap races with wrecks in them
    settings = panel.settings()
    click(qtbot, panel.batch_button)
    qtbot.waitUntil(lambda: panel.worker is None, timeout=120_000)
    data = panel.report.data
    assert data is not None and not data.cancelled and data.summary["races"] == 5

    track = w.doc.track
    results = [run_on_track((RaceSpec(str(PACK), track.id, 1 + i, settings.bots, settings.laps,
                                      settings.options), track)) for i in range(5)]
    by_curve: Counter[str] = Counter()
    wrecks: Counter[str] = Counter()
    for r in results:
        by_curve.update(r.stats["hazards_by_corner"])
        wrecks.update(r.stats["wrecks_at"])
    assert data.summary["hazards_by_corner"] == dict(by_curve)
    hazards = data.maps["Hazard cards per race, by curve"]
    assert hazards == {f"corner:{k}": round(v / 5, 4) for k, v in by_curve.items() if k.isdigit()}
    assert sum(hazards.values()) > 0 and sum(wrecks.values()) > 0
    assert data.maps["Wrecks per race, by square"] == {f"space:{k}": round(v / 5, 4) for k, v in wrecks.items()}
    # every hazard drawn is on a curve, in a pit entry or (accelerating) on a straight
    assert sum(by_curve.values()) == sum(r.stats["hazards"] for r in results)

    pane = panel.report.map_pane
    assert pane.isVisibleTo(panel.report)
    pane.box.setCurrentText("Hazard cards per race, by curve")
    assert pane.overlay is not None and pane.overlay.shown == hazards  # every curve of the loop has a zone
    pane.on_canvas.setChecked(True)
    assert pane.canvas_overlay.shown == hazards
    # on the canvas: every curve with a zone named, and a legend saying what the colours count
    texts = [i.text() for i in pane.canvas_overlay.items if isinstance(i, QGraphicsSimpleTextItem)]
    named = [c.name for c in track.corners if f"corner:{c.index}" in hazards]
    assert named and all(n in texts for n in named)
    top = max(hazards.values())
    assert f"Hazard cards per race, by curve\n0 … {top:.3g} (pale … dark red)" in texts
    assert any(isinstance(i, QGraphicsPixmapItem) for i in pane.canvas_overlay.items)  # the colour scale
    SHOTS.mkdir(parents=True, exist_ok=True)
    w.resize(1400, 900)
    qtbot.wait(100)
    assert w.view.grab().save(str(SHOTS / "editor-heat-speed-hazard-canvas.png"))
    pane.box.setCurrentText("Wrecks per race, by square")
    assert pane.overlay.shown == data.maps["Wrecks per race, by square"]
    pane.box.setCurrentText("Hazard cards per race, by curve")
    dock = w.docks["batch-report"]
    dock.setFloating(True)
    dock.resize(1400, 800)
    qtbot.wait(100)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert panel.report.grab().save(str(SHOTS / "speed-hazard-batch-report.png"))
    pane.on_canvas.setChecked(False)


def test_a_watched_race_shows_speedometers_and_the_tokens_and_wrecks_the_game_holds(qtbot, sh_window):
    from slipstream.engine.play import watch

    panel = sh_window.race_panel
    panel.seed.setValue(5)  # a race with nitrous past the maximum and a wreck
    click(qtbot, panel.run_button)
    qtbot.waitUntil(lambda: panel.worker is None, timeout=60_000)
    rec = panel.recorder
    frames = rec.frames
    # replay the race decision by decision: every frame's marks and gauges are the state's
    rs, pack = for_pack(str(PACK))
    spec = RaceSpec(str(PACK), "redline-loop", 5, BOTS, None, ())
    game, _ = watch.start(rs, pack, spec, sh_window.doc.track)
    choices = [e["choice"] for e in rec.game.log if e.get("t") == "decision"]
    assert len(choices) == len(frames) - 1
    assert frames[0].marks == marks_of(game)
    for fr, key in zip(frames[1:], choices, strict=True):
        assert game.apply(key) is None
        assert fr.marks == marks_of(game)
        assert [[g[:3] for g in row] for row in fr.gauges] == [
            [("speed", c.speed, c.maximum), ("damage", (140 - c.maximum) // 10, 14)] for c in game.cars]
    over = [i for i, f in enumerate(frames) if any(row[0][1] > row[0][2] for row in f.gauges)]
    wrecked = [i for i, f in enumerate(frames) if any(m[2] == "wreck" for m in f.marks)]
    assert over and wrecked  # nitrous past the maximum, and a wreck left on the track

    i = next(k for k in wrecked if any(m[2] != "wreck" for m in frames[k].marks))
    panel.step_to_turn(i)
    # a symbol per kind in the order the race first shows them, whatever step is on show
    first = list(dict.fromkeys(m[2] for f in frames for m in f.marks))
    assert [k for _g, _c, k in panel.overlay.legend()] == first
    overlay = panel.overlay
    assert overlay.shown_marks == frames[i].marks and len(overlay.mark_items) == len(frames[i].marks)
    assert all(item.scene() is sh_window.scene for item in overlay.mark_items)
    kinds = {m[2] for m in frames[i].marks}
    legend = panel.marks_legend.text()
    assert all(k in legend for k in kinds) and {k for _g, _c, k in overlay.legend()} >= kinds
    assert panel.gauges.isVisibleTo(panel) and panel.gauges.rows == frames[i].gauges
    text = panel.player_panel.text()
    assert "The field" in text and all(b in text for b in frames[i].briefs)
    fr = frames[i]
    assert fr.briefs[0].startswith(f"{fr.gauges[0][0][1]:g}/{fr.gauges[0][0][2]:g} km/h")
    dock = sh_window.docks["race"]
    dock.setFloating(True)
    dock.resize(460, 940)
    qtbot.wait(50)
    panel.tabs.setCurrentIndex(1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert sh_window.grab().save(str(SHOTS / "speed-hazard-race-canvas.png"))
    assert dock.grab().save(str(SHOTS / "speed-hazard-race-panel.png"))
    panel.step_to_turn(over[0])
    assert panel.gauges.rows == frames[over[0]].gauges
    assert dock.grab().save(str(SHOTS / "speed-hazard-nitrous-panel.png"))
    # stepping back to the grid clears the marks
    panel.set_step(0)
    assert overlay.shown_marks == frames[0].marks == []


def test_a_human_seat_chooses_its_card_in_secret_and_shops_in_the_pit_road(qtbot, sh_window):
    panel = sh_window.race_panel
    panel.seat_boxes[1].setCurrentIndex(panel.seat_boxes[1].findData("human"))
    panel.laps.setValue(1)
    panel.seed.setValue(4)
    click(qtbot, panel.run_button)
    human = panel.human
    assert human.active and human.seat == 1
    d = human.decision
    assert d is not None and d.kind == "card"
    # P1 chose before us: its frame is there, but its card is not shown to the person
    secret = [f for f in panel.frames if f.secret]
    assert secret and all(f.player == 0 for f in secret)
    panel.set_step(2 * secret[0].index)
    text = panel.player_panel.text()
    assert "(chosen in secret)" in text and secret[0].choice not in text
    assert "card " not in panel.recorder.briefs()[0]  # nothing revealed yet
    assert panel.human_panel.buttons and all(k.startswith("card ") for k in panel.human_panel.buttons)
    click(qtbot, panel.human_panel.buttons["card accelerate"])
    kinds = []
    for _ in range(3000):
        d = human.decision
        if d is None:
            break
        if d.kind == "shop" and "shop" not in kinds:
            # one button per purchase the pit road offers now
            assert set(panel.human_panel.buttons) == set(d.keys()) and "done" in d.keys()
            dock = sh_window.docks["race"]
            dock.setFloating(True)
            dock.resize(460, 940)
            qtbot.wait(50)
            SHOTS.mkdir(parents=True, exist_ok=True)
            assert dock.grab().save(str(SHOTS / "speed-hazard-human-shop.png"))
        kinds.append(d.kind)
        keys = d.keys()
        pick = next((k for k in ("pit", "repair", "card accelerate", "accelerate 20", "accelerate 10", "done")
                     if k in keys), None) or next((k for k in keys if k.startswith("to 0:")), keys[0])
        if pick.startswith("to "):
            cell = tuple(int(x) for x in pick[3:].split(":"))
            assert cell in panel.overlay.target_cells  # an outlined cell to click
        assert human.choose(pick) is None
    assert panel.recorder.game.pending is None  # the race ran to its end
    assert "shop" in kinds and "card" in kinds
    log = panel.recorder.game.log
    assert any(e.get("ev") == "pit" and e.get("p") == 1 for e in log)
    assert any(e.get("ev") == "buy" and e.get("p") == 1 for e in log)
