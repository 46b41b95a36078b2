"""The editor opens hostile track files with their diagnostics instead of failing to start."""

from __future__ import annotations

import pytest
from helpers import BUNDLED

OVAL = BUNDLED[0].read_text(encoding="utf-8")


@pytest.mark.parametrize(("old", "new", "codes"), [
    ("laps: 3\n", "laps: 3\n1: 7\n7:\n", ["S002", "S002"]),
    ("laps: 3", "laps: 0x" + "f" * 5000, ["Y011"]),
    ("lane_width: 40", "lane_width: .nan", ["S001"]),
])
def test_a_hostile_track_opens_with_its_diagnostics(window, tmp_path, old, new, codes):
    assert old in OVAL
    bad = tmp_path / "bad.yaml"
    bad.write_text(OVAL.replace(old, new, 1), encoding="utf-8")
    assert window.open_path(bad, ask=False)
    assert [d.code for d in window.doc.diagnostics] == codes
    assert window.problems.tree.topLevelItemCount() == len(codes)
