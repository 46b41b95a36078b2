"""Issue 31: numbers the editor cannot draw or show (an infinite or huge lane width, centreline
or speed, laps beyond a spin box) are bounded by the schemas, and a file that parses opens in the
editor with its diagnostics instead of crashing the canvas or the docks."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import BUNDLED, ROOT

from slipstream.cli.main import main

V2 = (ROOT / "content" / "tracks-v2" / "tilleuls.yaml").read_text(encoding="utf-8")
RED = (ROOT / "content" / "tracks-v2" / "redline-loop.yaml").read_text(encoding="utf-8")
OVAL = BUNDLED[0].read_text(encoding="utf-8")

CASES = [
    (V2, "lane_width: 40", "lane_width: .inf"),
    (V2, "lane_width: 40", "lane_width: 1.0e+308"),
    (V2, "laps: 2", "laps: 2147483648"),
    (OVAL, "laps: 3", "laps: 2147483648"),
    (OVAL, "lanes: 3", "lanes: 99999999999999999999"),
    (V2, "[0, 0]", "[1.0e+300, -1.0e+300]"),
    (V2, "stops: 1", "stops: 9223372036854775808"),
    (V2, "- {lane: 0, segment: 119}", "- {lane: 0, segment: 119, money: 99999999999999999999}"),
    (V2, "- {lane: 0, segment: 119}", "- {lane: 99999999999999999999, segment: 119}"),
    (RED, "speed: 40", "speed: 99999999999999999999"),
    (RED, "lane_speeds: [60, 70, 80]", "lane_speeds: [99999999999999999999, 70, 80]"),
    (RED, "speed: 30}", "speed: 9999999999}"),
]


@pytest.mark.parametrize(("text", "old", "new"), CASES)
def test_validate_refuses_the_number(tmp_path: Path, text: str, old: str, new: str):
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    res = CliRunner().invoke(main, ["validate", "--no-cache", str(bad)], catch_exceptions=False)
    assert res.exit_code == 1 and " error " in res.output, res.output


@pytest.mark.parametrize(("text", "old", "new"), CASES)
def test_the_editor_opens_it_with_its_diagnostics(window, tmp_path: Path, text: str, old: str, new: str):
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert window.open_path(bad, ask=False)
    assert window.doc.diagnostics and window.problems.tree.topLevelItemCount() >= 1
    for table in (window.grid_panel.table, window.track2_panel.table):  # each row in the docks
        for row in range(min(table.rowCount(), 8)):
            table.selectRow(row)
    window.repaint()


def test_a_spin_box_shows_any_value_within_its_range(qtbot):
    from PySide6.QtWidgets import QDoubleSpinBox, QSpinBox

    from slipstream.editor.forms import IntField
    from slipstream.editor.spinvalue import set_spin

    box = QSpinBox()
    box.setRange(1, 99)
    for value, shown in ((2**31, 99), (-(2**70), 1), (float("inf"), 1), (float("nan"), 1), ("x", 1), (True, 1),
                         (7.9, 7), (42, 42)):
        set_spin(box, value)
        assert box.value() == shown, value
    double = QDoubleSpinBox()
    double.setRange(0.5, 100.0)
    set_spin(double, 1e308, 40)
    assert double.value() == 100.0
    field = IntField({"type": "integer"}, 10**20)  # a card cost beyond a spin box
    assert field.value() == 1_000_000
