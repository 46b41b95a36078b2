"""The track editor serves every registered ruleset (issue 29, item 9; the toy ruleset of
tests/toyruleset.py included): File > New offers, under "For <ruleset>", the starting tracks
`slipstream new track --ruleset ID` writes (engine/editing/scaffold.py `track_templates`), each
opening clean, and the opened track prints to a PDF through File > Export > Printable PDF.

The CLI half of the parity test is tests/cli/test_parity.py; the pack editor's and the Test race
dock's halves are tests/editor/pack/test_parity.py and tests/editor/race/test_parity.py."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtWidgets import QDialog, QFileDialog  # noqa: E402

from slipstream.engine.core.yamlsource import load_text  # noqa: E402
from slipstream.engine.editing.scaffold import track_data, track_templates  # noqa: E402
from slipstream.engine.play import registry  # noqa: E402


def _menu_path(window, action) -> list[str]:
    """The menu titles above an action, from the menu bar down."""
    for top in window.menuBar().actions():
        found = _find(top.menu(), action, [top.text()])
        if found:
            return found
    return []


def _find(menu, action, path):
    if menu is None:
        return []
    for a in menu.actions():
        if a is action:
            return path
        if a.menu() is not None and (found := _find(a.menu(), action, [*path, a.text()])):
            return found
    return []


@pytest.mark.parametrize("rid", registry.ids())
def test_file_new_offers_the_rulesets_templates_and_each_prints(window, monkeypatch, tmp_path, rid):
    rs = registry.get(rid)
    w = window
    by_name = {a.objectName(): a for a in w.actions()}
    templates = track_templates(rid)
    assert templates, f"{rid}: no starting track at all"
    for tid, label in templates:
        act = by_name.get(f"new-{rid}-{tid}")
        assert act is not None, f"{rid}: File > New does not offer its template {tid}"
        assert _menu_path(w, act) == ["&File", "&New", f"For {rs.name}"]
        assert act.text() == f"{label} template"
        act.trigger()
        doc = w.doc
        assert doc.data == track_data(rid, tid), f"{rid}: File > New {tid} is not what `new track` writes"
        assert doc.track is not None and doc.diagnostics == [], f"{rid} {tid}: {doc.diagnostics}"
        assert w.made_for == rid  # the Test race dock picks a pack of this ruleset for it
        # what the ruleset itself asks of its tracks (corners with stops ...): nothing missing
        src = load_text(doc.text(), "new.yaml").source
        assert rs.track_checks(doc.track, doc.data, src) == [], f"{rid} {tid}"
        # File > Export > Printable PDF…, the dialogs answered as a person would
        out = tmp_path / f"{rid}-{tid}.pdf"
        monkeypatch.setattr("slipstream.editor.mainwindow.PrintDialog.exec",
                            lambda self: QDialog.DialogCode.Accepted)
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, out=out, **k: (str(out), "PDF (*.pdf)"))
        w.act_pdf.trigger()
        assert out.read_bytes().startswith(b"%PDF"), f"{rid} {tid}: no PDF"
        assert w.statusBar().currentMessage().startswith(f"Wrote {out.name}: ")
        w.doc.saved = w.doc.state  # the next template without the unsaved-changes prompt
    # an opened document is no longer a new track of the ruleset
    w.new_empty()
    assert w.made_for == ""
