"""The Test race dock races the Formula Dé-style ruleset on its circuit: picked by its pack,
watched to the end, and played by a person through the generic seat (gear, then square)."""

from __future__ import annotations

import pytest
from helpers import click

from slipstream.editor.race.humanseat import cell_of, target_cells
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.play.registry import for_pack

from .conftest import ROOT, SHOTS

PACK = ROOT / "content" / "formula-de"


@pytest.fixture
def fd_window(race_window, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    w = race_window
    assert w.open_path(PACK / "tracks" / "tilleuls.yaml", ask=False)
    panel = w.race_panel
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(PACK))
    index = panel.pack_box.findData(None)  # "Pack folder…"
    panel.pack_box.setCurrentIndex(index)
    panel.pack_box.activated.emit(index)
    assert panel.pack_box.currentData() == str(PACK)
    return w


def test_a_formula_de_race_is_watched_to_the_end_and_is_the_race_slipstream_race_runs(qtbot, fd_window):
    panel = fd_window.race_panel
    assert panel.rs.id == "formula-de"
    assert set(panel.option_widgets) == {"cars_per_player", "collision_diagonal", "downshift_needs_points",
                                         "flying_start_swerve", "pit_entry_max_gear", "stall_first_gear",
                                         "tyre_limit_counts", "wear_model"}
    panel.players.setValue(4)
    for box, bot in zip(panel.seat_boxes, ("greedy", "random", "greedy", "random"), strict=False):
        box.setCurrentIndex(box.findData(bot))
    panel.seed.setValue(5)
    click(qtbot, panel.run_button)
    qtbot.waitUntil(lambda: panel.worker is None, timeout=60_000)
    res = run_race(RaceSpec(str(PACK), "tilleuls", 5, ("greedy", "random", "greedy", "random")))
    assert panel.recorder.game.log == res.log
    panel.slider.setValue(panel.slider.maximum())
    rs, _ = for_pack(str(PACK))
    assert [c.cell for c in panel.overlay.cars] == rs.race_view.cars(panel.recorder.game)
    assert "gear" in panel.player_panel.text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    qtbot.wait(50)
    assert fd_window.grab().save(str(SHOTS / "formula-de-race.png"))


def test_a_person_drives_a_formula_de_car_with_the_generic_seat(qtbot, fd_window):
    panel = fd_window.race_panel
    panel.players.setValue(2)
    panel.seat_boxes[0].setCurrentIndex(panel.seat_boxes[0].findData("human"))
    panel.seat_boxes[1].setCurrentIndex(panel.seat_boxes[1].findData("greedy"))
    click(qtbot, panel.run_button)
    seat = panel.human
    assert seat.active and seat.seat == 0
    game = seat.recorder.game
    kinds = []
    while seat.decision is not None and len(kinds) < 12:
        d = seat.decision
        kinds.append(d.kind)
        if d.kind == "move":  # the squares to stop on are outlined cells on the canvas
            assert sorted(target_cells(d)) == sorted(cell_of(k) for k in d.keys())
            seat.choose(d.keys()[0])  # what a click on that cell applies
        else:  # gears (and the pit lane offer) are buttons
            shown = panel.human_panel.buttons
            assert set(shown) == set(d.keys())
            click(qtbot, shown[d.keys()[-1]])
    assert "gear" in kinds and "move" in kinds
    mine = [e for e in game.log if e.get("t") == "decision" and e["p"] == 0]
    assert [e["kind"] for e in mine] == kinds
