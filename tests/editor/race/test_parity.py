"""The Test race dock serves every registered ruleset (issue 29, item 9; the toy ruleset of
tests/toyruleset.py included), walked as a designer of that game would: a new pack
(`slipstream new pack --ruleset ID`), a new track from File > New > For <ruleset> (the dock
picks a pack of that ruleset while the track is unsaved, or says to pick one), saved into the
pack's tracks/ folder (the dock now races it with that pack), then a race watched to the end
and a small batch with its report."""

from __future__ import annotations

import pytest
from helpers import click, wait_idle

pytest.importorskip("PySide6")

from PySide6.QtWidgets import QFileDialog  # noqa: E402

from slipstream.engine.editing.scaffold import new_pack, track_templates  # noqa: E402
from slipstream.engine.packs.loader import bundled_packs, bundled_rulesets  # noqa: E402
from slipstream.engine.play import registry  # noqa: E402


@pytest.mark.parametrize("rid", registry.ids())
def test_a_new_track_of_the_ruleset_races_and_batches_in_the_dock(qtbot, race_window, monkeypatch, tmp_path, rid):
    rs = registry.get(rid)
    w = race_window
    panel = w.race_panel
    pack = new_pack(tmp_path, "Parity", ruleset=rid).root
    tid = track_templates(rid)[0][0]
    next(a for a in w.actions() if a.objectName() == f"new-{rid}-{tid}").trigger()  # File > New > For …
    bundled = [bundled_packs()[p] for p, r in sorted(bundled_rulesets().items()) if r == rid]
    if bundled:  # the unsaved track races with a pack of its ruleset at once
        assert panel.rs.id == rid, f"{rid}: the dock kept {panel.rs.id} for a new {rid} track"
        assert rs.name in panel.pack_note.text() or panel.pack_note.text().endswith("the pack in use plays it.")
    else:  # no pack of it to pick: the dock says so
        assert panel.pack_note.text() == (f"the new track is made for {rs.name}, and no bundled pack plays it: "
                                          "pick a pack folder of that ruleset.")
    # File > Save as… into the new pack: the pack holding the file races it
    target = pack / "tracks" / "ring.yaml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    assert w.save_as()
    assert panel.rs.id == rid and panel.pack_box.currentText() == "parity"
    assert panel.pack_note.text() == "ring.yaml belongs to the pack parity, so that pack races it."

    panel.laps.setValue(1)
    panel.seed.setValue(3)
    click(qtbot, panel.run_button)
    wait_idle(qtbot, panel)
    assert "finish:" in panel.status.text(), f"{rid}: {panel.status.text()}"
    assert len(panel.frames) > 1

    panel.races.setValue(panel.races.minimum())  # a small batch
    panel.jobs.setValue(1)
    click(qtbot, panel.batch_button)
    wait_idle(qtbot, panel, timeout=120_000)
    text = panel.status.text()
    assert text.startswith(f"{panel.races.value()} races in "), f"{rid}: {text}"
    assert panel.report.data is not None
