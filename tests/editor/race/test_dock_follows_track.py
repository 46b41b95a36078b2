"""The Test race dock follows the open track: a track of a ruleset gets a pack of that ruleset
(the pack holding the file, else a bundled pack of a ruleset it names), the dock says which;
a failed race says why in words, and a failing batch stops at its first failure."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import CONTENT, TESTS, click, wait_idle

from slipstream.engine.packs.loader import bundled_packs
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.play.registry import get

from .conftest import SHOTS

V2 = CONTENT / "tracks-v2"


def _folder(panel) -> Path:
    return Path(panel.pack_box.currentData()).resolve()


def _pick_by_hand(panel, data: str) -> None:
    index = panel.pack_box.findData(data)
    panel.pack_box.setCurrentIndex(index)
    panel.pack_box.activated.emit(index)


def test_a_formula_de_track2_file_gets_the_bundled_formula_de_pack_and_races(qtbot, race_window):
    w = race_window
    panel = w.race_panel
    assert panel.rs.id == "automobiles" and panel.pack_box.currentData() == ""  # first-oval
    assert w.open_path(V2 / "tilleuls.yaml", ask=False)  # `rulesets: [formula-de]`, in no pack
    bundled = bundled_packs()["formula-de"]
    assert panel.rs.id == "formula-de" and panel.ruleset_label.text() == get("formula-de").name
    assert _folder(panel) == bundled.resolve()
    assert panel.pack_box.currentText() == "Bundled formula-de pack"
    note = panel.pack_note.text()
    assert "tilleuls.yaml is made for" in note and get("formula-de").name in note
    assert "the bundled pack formula-de" in note
    assert "cars_per_player" in panel.option_widgets  # the form is the ruleset's

    panel.players.setValue(3)
    panel.seed.setValue(7)
    bots = panel.settings().bots
    click(qtbot, panel.run_button)
    wait_idle(qtbot, panel)
    assert "finish:" in panel.status.text(), panel.status.text()
    # the race `slipstream race content/formula-de --track tilleuls` runs (the same circuit)
    assert panel.recorder.game.log == run_race(RaceSpec(str(bundled), "tilleuls", 7, bots)).log
    panel.slider.setValue(panel.slider.maximum() // 2)
    SHOTS.mkdir(parents=True, exist_ok=True)
    qtbot.wait(50)
    assert w.grab().save(str(SHOTS / "dock-follows-formula-de.png"))
    panel.tabs.setCurrentIndex(0)  # the Setup tab: the pack, its ruleset and why
    qtbot.wait(50)
    assert w.docks["race"].grab().save(str(SHOTS / "dock-follows-formula-de-setup.png"))


def test_a_track_in_a_pack_folder_gets_that_pack(race_window, tmp_path):
    w = race_window
    panel = w.race_panel
    assert w.open_path(CONTENT / "speed-hazard" / "tracks" / "redline-loop.yaml", ask=False)
    assert panel.rs.id == "speed-hazard" and _folder(panel) == (CONTENT / "speed-hazard").resolve()
    assert "belongs to the bundled pack speed-hazard" in panel.pack_note.text()
    # a pack of one's own, opened by one of its tracks
    mine = tmp_path / "my-toy-pack"
    shutil.copytree(TESTS / "toy", mine)
    assert w.open_path(mine / "tracks" / "toy-oval.yaml", ask=False)
    assert panel.rs.id == "toy" and panel.pack_box.currentText() == "my-toy-pack"
    assert _folder(panel) == mine.resolve()
    assert "belongs to the pack my-toy-pack" in panel.pack_note.text()
    # a bundled track of the default pack: back to it
    assert w.open_path(CONTENT / "base" / "tracks" / "first-oval.yaml", ask=False)
    assert panel.rs.id == "automobiles" and panel.pack_box.currentData() == ""


def test_a_pack_picked_by_hand_stays_until_another_track_is_opened(race_window, tmp_path):
    w = race_window
    panel = w.race_panel
    track = tmp_path / "tilleuls.yaml"
    shutil.copy(V2 / "tilleuls.yaml", track)
    assert w.open_path(track, ask=False)
    assert panel.rs.id == "formula-de"
    _pick_by_hand(panel, "")
    assert panel.rs.id == "automobiles" and panel.pack_note.text() == ""
    w.undo_stack.indexChanged.emit(0)  # an edit that leaves the rulesets as they are
    assert panel.rs.id == "automobiles"
    assert w.open_path(track, ask=False)
    assert panel.rs.id == "formula-de"


@pytest.fixture
def mismatched(race_window):
    """The Formula Dé circuit with the Automobiles pack picked by hand: its races fail."""
    w = race_window
    assert w.open_path(V2 / "tilleuls.yaml", ask=False)
    _pick_by_hand(w.race_panel, "")
    assert w.race_panel.rs.id == "automobiles"
    return w


def test_a_failed_race_says_why_in_words(qtbot, mismatched):
    panel = mismatched.race_panel
    click(qtbot, panel.run_button)
    wait_idle(qtbot, panel)
    text = panel.status.text()
    assert text.startswith("The race could not run: the track Circuit des Tilleuls lacks what "
                           "Automobiles needs: "), text
    assert "needs a gear colour on every space [T154]" in text
    assert f"The track is made for {get('formula-de').name}, not Automobiles" in text
    assert not text.rstrip(".").endswith(": 0")


def test_a_failing_batch_stops_at_its_first_failure(qtbot, mismatched):
    panel = mismatched.race_panel
    panel.races.setMinimum(1)
    panel.races.setValue(40)
    panel.jobs.setValue(2)
    click(qtbot, panel.batch_button)
    wait_idle(qtbot, panel, timeout=120_000)
    text = panel.status.text()
    assert text.startswith("The batch stopped at its first failed race, after 0 of 40 races: "
                           "the track Circuit des Tilleuls lacks what Automobiles needs"), text
    assert panel.pool is not None and panel.pool._pool is None  # its worker processes were ended
    assert panel.report.data is None
    assert panel.run_button.isEnabled() and panel.batch_button.isEnabled()


def test_a_failure_without_a_track_problem_names_the_exception_and_where(race_window):
    from slipstream.editor.race.raceworker import failure_text

    panel = race_window.race_panel
    track = race_window.doc.analysis().track

    def deep() -> None:
        raise KeyError(0)

    try:
        deep()
    except KeyError as e:
        text = failure_text(e, panel.rs, track, race_window.doc.text())
    line = deep.__code__.co_firstlineno + 1
    assert text == (f"Automobiles stopped on an unexpected KeyError (0) in "
                    f"tests/editor/race/test_dock_follows_track.py line {line}.")
    assert failure_text(KeyError(track.id), panel.rs, track) == f"the track {track.id!r} is not in the pack."
    assert failure_text(ValueError("the pack has errors: P001"), panel.rs, track) == \
        "the pack has errors: P001 (ValueError)."


def test_a_track_whose_own_pack_cannot_be_used_gets_a_bundled_pack_of_its_ruleset(race_window, tmp_path):
    w = race_window
    panel = w.race_panel
    broken = tmp_path / "broken"
    (broken / "tracks").mkdir(parents=True)
    (broken / "pack.yaml").write_text("slipstream: pack/1\nid: broken\nruleset: nowhere\n", encoding="utf-8")
    shutil.copy(V2 / "tilleuls.yaml", broken / "tracks" / "tilleuls.yaml")
    assert w.open_path(broken / "tracks" / "tilleuls.yaml", ask=False)
    assert "cannot be used" in panel.status.text()
    assert panel.rs.id == "formula-de" and _folder(panel) == bundled_packs()["formula-de"].resolve()
    assert panel.pack_note.text().startswith("The pack broken cannot be used (see the status line). "
                                             "tilleuls.yaml is made for")


def test_tracks_naming_no_ruleset_or_none_with_a_bundled_pack_keep_the_pack_in_use(tmp_path):
    from slipstream.editor.race.trackpack import pick

    loose = tmp_path / "oval.yaml"
    assert pick(loose, (), "formula-de").folder is None
    assert pick(loose, ("formula-de",), "formula-de").folder is None  # the pack in use plays it
    nobody = pick(loose, ("nowhere",), "automobiles")
    assert nobody.folder is None
    assert nobody.why == ("oval.yaml is made for nowhere, and no bundled pack plays it: "
                          "pick a pack folder of that ruleset.")
    both = pick(None, ("nowhere", "speed-hazard"), "automobiles")
    assert both.folder == bundled_packs()["speed-hazard"]
    assert both.why.startswith("the new track is made for nowhere or ")
