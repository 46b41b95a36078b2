"""A human seat plays a whole turn through clicks only: option buttons and outlined cells."""

from __future__ import annotations

from helpers import click, click_cell
from PySide6.QtWidgets import QPushButton

from .conftest import SHOTS


def buttons(panel) -> dict[str, QPushButton]:
    """The option buttons on show (the panel rebuilds them after every decision)."""
    shown = panel.human_panel.buttons
    for b in shown.values():
        assert b.objectName().startswith("option:")
    return {b.objectName()[len("option:"):]: b for b in shown.values()}


def test_a_human_plays_a_full_turn_by_clicking(qtbot, race_window):
    w = race_window
    panel = w.race_panel
    panel.seed.setValue(2)  # P1 can place a cube on its first turn
    box = panel.seat_boxes[0]
    box.setCurrentIndex(box.findData("human"))
    click(qtbot, panel.run_button)
    seat = panel.human
    assert seat.active and seat.seat == 0
    game = seat.recorder.game

    # bots bought before the race; the human may too: finish the pre-race purchase
    while seat.decision is not None and seat.decision.kind == "purchase":
        click(qtbot, buttons(panel)["done"])
    assert seat.decision is not None and seat.decision.kind == "turn"
    start = game.race.players[0].car
    start_cell = (start.lane, start.segment)
    decisions_before = sum(1 for e in game.log if e.get("t") == "decision" and e["p"] == 0)
    turns_before = len(seat.recorder.finished_frames)

    click(qtbot, buttons(panel)["standard"])
    my_turn = game.race.turn
    assert my_turn is not None and my_turn.player == 0
    clicked_cells = []
    guard = 0
    while game.race.turn is my_turn:
        guard += 1
        assert guard < 60, "the turn did not end"
        d = seat.decision
        opts = buttons(panel)
        if d.kind in ("move", "drive"):
            cells = panel.overlay.target_cells
            assert cells, "the legal cells are outlined"
            # the furthest outlined cell
            lane, seg = max(cells, key=lambda c: (c[1] - start_cell[1]) % w.doc.track.segments)
            if not clicked_cells:
                SHOTS.mkdir(parents=True, exist_ok=True)
                qtbot.wait(20)
                assert w.grab().save(str(SHOTS / "human-seat-move.png"))
            click_cell(qtbot, w, lane, seg)
            clicked_cells.append((lane, seg))
        elif d.kind == "action":
            gears = [k for k in opts if k.startswith("play gear-")]
            if gears and len(clicked_cells) < 3:
                click(qtbot, opts[sorted(gears)[-1]])
            else:
                click(qtbot, opts["end"])
        elif d.kind == "buy":
            click(qtbot, opts["end"])
        else:  # any other choice a card asks for: stop, no, or the first button
            key = next((k for k in ("stop", "no", "done", "end") if k in opts), next(iter(opts)))
            click(qtbot, opts[key])
        qtbot.wait(1)

    # the turn is over: the bots played on until the human's next decision
    frames = seat.recorder.finished_frames
    mine = [f for f in frames[turns_before:] if f.player == 0]
    assert len(mine) == 1
    fr = mine[0]
    assert fr.choice == "standard"
    assert clicked_cells, "a cube was placed by clicking a cell"
    assert fr.route[0] == start_cell and fr.route[1:] == clicked_cells
    assert fr.cars_after[0][:2] == clicked_cells[-1] or fr.cars_after[0][0] == clicked_cells[-1][0]
    decisions = [e for e in game.log if e.get("t") == "decision" and e["p"] == 0]
    assert len(decisions) > decisions_before + 2
    assert seat.decision is not None and seat.decision.kind == "turn"  # my next turn waits for me
    assert panel.overlay.cars[0].cell == (game.race.players[0].car.lane, game.race.players[0].car.segment)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert w.grab().save(str(SHOTS / "human-seat.png"))


def test_clicks_off_the_outlined_cells_do_nothing_during_a_move(qtbot, race_window):
    w = race_window
    panel = w.race_panel
    panel.seed.setValue(3)  # P2's opening hand has a cube with a choice of cells
    box = panel.seat_boxes[1]
    box.setCurrentIndex(box.findData("human"))
    click(qtbot, panel.run_button)
    seat = panel.human
    while seat.decision is not None and seat.decision.kind == "purchase":
        click(qtbot, buttons(panel)["done"])
    click(qtbot, buttons(panel)["standard"])
    # play gear cubes until one has a choice of cells (a single legal cell is taken for us)
    while seat.decision.kind != "move":
        gear = sorted(k for k in buttons(panel) if k.startswith("play gear-"))
        assert gear, "no gear cube in hand gave a choice of cells"
        click(qtbot, buttons(panel)[gear[0]])
    cells = set(panel.overlay.target_cells)
    assert len(cells) > 1
    track = w.doc.track
    far = next((ln, s) for s in range(track.segments) for ln in range(track.lanes)
               if (ln, s) not in cells and track.cells[ln][s] >= 0)
    n = len(seat.recorder.game.log)
    click_cell(qtbot, w, *far)
    assert len(seat.recorder.game.log) == n
    assert seat.decision.kind == "move"
    assert w.doc.state == w.doc.saved  # nothing edited
