"""The pack view's scenario runner goes through the registry: a Formula Dé-style pack's own
scenarios (fd-scenario/1) run there with its ruleset's runner, as `slipstream test` runs them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from slipstream.editor.pack.packview import PackWindow  # noqa: E402
from slipstream.editor.pack.scenariopanel import run_scenarios  # noqa: E402
from slipstream.engine.editing.packdoc import PackDocument  # noqa: E402

from .conftest import ROOT, SHOTS  # noqa: E402

FD = ROOT / "content" / "formula-de"


def test_a_formula_de_packs_scenarios_run_in_the_pack_view(qtbot, tmp_path: Path):
    dst = tmp_path / "formula-de"
    shutil.copytree(FD, dst, ignore=shutil.ignore_patterns("__pycache__"))
    f = dst / "tests" / "pit-box-tyres.yaml"
    f.write_text(f.read_text().replace("wear: {tyres: 5, brakes: 5}", "wear: {tyres: 4, brakes: 5}"))
    w = PackWindow(PackDocument.open(dst))
    qtbot.addWidget(w, before_close_func=lambda win: setattr(win.doc, "saved", win.doc.state))
    w.show()
    qtbot.waitExposed(w)
    outcomes = w.scenarios.run()
    files = sorted((dst / "tests").glob("*.yaml"))
    assert len(outcomes) == len(files) and len(files) > 80
    failed = [o for o in outcomes if not o.ok]
    assert [o.id for o in failed] == ["pit-box-tyres"]
    assert any("tyres: expected 4, got 5" in line for line in failed[0].details)
    assert w.scenarios.summary.text() == f"{len(files) - 1} passed, 1 failed"
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert w.grab().save(str(SHOTS / "formula-de-scenarios.png"))


def test_the_automobiles_pack_still_runs_its_own_scenarios():
    doc = PackDocument.open(ROOT / "content" / "base")
    outcomes, message = run_scenarios(doc)
    assert message == "" and outcomes and all(o.ok for o in outcomes)
    doc.close()
