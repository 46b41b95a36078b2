"""The race view of the Test race dock with several cars a player and a car in the pit lane:
each car is drawn in its player's colour, the move trail is the moving car's (not the car with
the player's index), and a car in the pit lane is drawn on its pit square, where the track
drawing puts the pit lane (engine/tracks/pitdrawing.py)."""

from __future__ import annotations

from helpers import click

from slipstream.editor.race.raceview import player_colour
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import for_pack
from slipstream.engine.play.watch import seats
from slipstream.engine.tracks.pitdrawing import place_pit
from slipstream.engine.tracks.track import PIT_LANE

from .conftest import SHOTS
from .test_formula_de_maps import PACK, fd_window  # noqa: F401 (the fixture)


def _close(a, b) -> bool:  # type: ignore[no-untyped-def]
    return abs(a.x() - b.x()) < 1e-6 and abs(a.y() - b.y()) < 1e-6


def test_with_two_cars_a_player_the_trail_and_the_colours_follow_the_moving_car(qtbot, fd_window):  # noqa: F811
    panel = fd_window.race_panel
    panel.players.setValue(2)
    panel.seed.setValue(5)
    panel.laps.setValue(1)
    panel.option_widgets["cars_per_player"].setValue(2)
    assert panel.settings().options == (("cars_per_player", 2),)
    click(qtbot, panel.run_button)
    qtbot.waitUntil(lambda: panel.worker is None, timeout=60_000)
    frames = panel.recorder.frames
    assert frames[0].owners == [0, 0, 1, 1] and len(frames[0].cars_before) == 4
    # a move of a player's second car: car 1 is P1's, car 3 is P2's
    fr = next(f for f in frames[1:] if f.car in (1, 3) and len(f.route) >= 3)
    assert fr.player == fr.car // 2
    assert fr.route[0] == fr.cars_before[fr.car] and fr.route[-1] == fr.cars_after[fr.car]
    overlay = panel.overlay
    overlay.show_frame(fr, True, walk_ms=5)
    assert [c.brush().color().name() for c in overlay.cars] == [player_colour(p).name() for p in (0, 0, 1, 1)]
    assert [c.label.text() for c in overlay.cars] == ["1a", "1b", "2a", "2b"]
    car, other = overlay.cars[fr.car], overlay.cars[fr.player]
    assert overlay.walking and overlay._walk[0][0] is car
    qtbot.waitUntil(lambda: not overlay.walking, timeout=2_000)
    assert _close(car.centre(), overlay.cell_centre(tuple(fr.cars_after[fr.car])))
    assert _close(other.centre(), overlay.cell_centre(tuple(fr.cars_after[fr.player])))
    # the field: one line a player, with each of their cars
    assert all(b.startswith("#1 gear ") and "; #2 gear " in b for b in fr.briefs) and len(fr.briefs) == 2


def test_a_car_in_its_box_is_drawn_on_its_pit_square(qtbot, fd_window):  # noqa: F811
    rs, pack = for_pack(str(PACK))
    track = fd_window.doc.track
    spec = RaceSpec(str(PACK), track.id, 3, ("greedy", "greedy"), 2, (("cars_per_player", 2),))
    g = rs.new_game(pack, track, seats(spec), 3, dict(spec.options), 2)
    c = g.cars[3]
    c.node, c.pit, c.serviced = g.pit_route.entry, g.box_of(c), True
    cells = rs.race_view.cars(g)
    assert cells[3] == (PIT_LANE, c.pit)
    overlay = fd_window.race_panel.overlay
    overlay.show_cars(cells, rs.race_view.car_owners(g))
    item = overlay.cars[3]
    place = place_pit(fd_window.scene.drawing)
    x, y = place.point(c.pit + 0.5)
    assert item.isVisible() and item.cell == (PIT_LANE, c.pit)
    assert abs(item.centre().x() - x) < 1e-6 and abs(item.centre().y() - y) < 1e-6
    # beside the outermost lane, not on a track square
    assert all(not _close(item.centre(), overlay.cell_centre(cell)) for cell in cells[:3])
    assert "in the pit lane" in rs.race_view.brief(g, 1).split("; ")[1]
    # a jump into the pit lane is drawn as a trail too (both ends are valid cells)
    overlay.show_route(1, [cells[2], cells[3]])
    assert overlay.route.path().elementCount() == 2
    qtbot.wait(50)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert fd_window.grab().save(str(SHOTS / "formula-de-car-in-box.png"))
