"""The pack editor serves every registered ruleset (issue 29, item 9; the toy ruleset of
tests/toyruleset.py included): on a pack `slipstream new pack --ruleset ID` makes, Edit > New
offers exactly the item kinds of the ruleset (its `authoring` capability and its content model's
item lists); each adds an item that undo takes away and redo puts back; on the ruleset's own
pack a save adds lines and changes none (the minimal splice); and a ruleset with cards prints
every card sheet to a PDF and each kind of card to a PNG.

The ruleset's own sample pack is its bundled pack, else a pack under tests/ whose manifest
names it (the toy's tests/toy)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import TESTS

pytest.importorskip("PySide6")

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox  # noqa: E402

from slipstream.editor.pack.packview import PackWindow  # noqa: E402
from slipstream.engine.core.yamlsource import load_file  # noqa: E402
from slipstream.engine.editing.packdoc import PackDocument, items, row_kinds  # noqa: E402
from slipstream.engine.editing.scaffold import new_pack  # noqa: E402
from slipstream.engine.packs.loader import PackLoader, bundled_packs, bundled_rulesets  # noqa: E402
from slipstream.engine.packs.splice import changed_lines  # noqa: E402
from slipstream.engine.play import registry  # noqa: E402

RULESETS = registry.ids()


def sample_pack(rid: str) -> Path:
    """The pack of a ruleset a designer starts from: its bundled pack, else one under tests/."""
    for pid, r in sorted(bundled_rulesets().items()):
        if r == rid:
            return bundled_packs()[pid]
    for manifest in sorted(TESTS.glob("*/pack.yaml")):
        data = load_file(manifest).data
        if isinstance(data, dict) and data.get("ruleset") == rid:
            return manifest.parent
    raise AssertionError(f"no sample pack of the ruleset {rid}: add one under tests/")


@pytest.fixture
def open_pack(qtbot):
    def make(root: Path) -> PackWindow:
        w = PackWindow(PackDocument.open(root))
        qtbot.addWidget(w, before_close_func=lambda win: setattr(win.doc, "saved", win.doc.state))
        w.show()
        qtbot.waitExposed(w)
        return w

    return make


@pytest.fixture
def answers(monkeypatch):
    """The dialogs of New item and of the print actions, answered as a person would."""
    asked: dict[str, list] = {"ids": [], "info": [], "warnings": []}

    def get_text(_parent, _title, _label, *a, **k):
        ident = f"parity-{len(asked['ids']) + 1}"
        asked["ids"].append(ident)
        return ident, True

    monkeypatch.setattr(QInputDialog, "getText", get_text)
    monkeypatch.setattr(QMessageBox, "information", lambda _p, _t, text, *a, **k: asked["info"].append(text))
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text, *a, **k: asked["warnings"].append(text))
    return asked


def new_actions(w: PackWindow) -> dict[str, object]:
    return {a.objectName(): a for a in w.actions() if a.objectName().startswith("new-")}


def expected_actions(w: PackWindow) -> set[str]:
    """The New item actions the ruleset asks for: every item kind of its authoring capability,
    then the other item lists of its content model (PackWindow.item_kinds reads both)."""
    rs = registry.get(w.ruleset())
    kinds = [("-".join(("new", ik.kind, *ik.path))) for ik in (rs.authoring.item_kinds if rs.authoring else ())]
    lists = getattr(rs.content, "item_lists", {}) or {}
    return set(kinds) | {f"new-{k}" for k in lists if f"new-{k}" not in kinds}


def count(w: PackWindow, kind: str, place: str) -> int:
    return sum(1 for r in items(w.doc.state, kind) if r.place == place)


@pytest.fixture
def main_window(qtbot, tmp_path):
    """The track editor's window (File > New > For <ruleset> > Pack… lives there)."""
    from PySide6.QtCore import QSettings

    from slipstream.editor.mainwindow import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, recovery_dir=tmp_path / "recovery", autosave_ms=3_600_000)
    yield w
    for win in list(getattr(w, "pack_windows", [])):
        win.doc.saved = win.doc.state
        win.close()
    w.doc.saved = w.doc.state
    w.close()
    w.deleteLater()


@pytest.mark.parametrize("rid", RULESETS)
def test_file_new_pack_makes_the_pack_new_pack_makes_and_opens_it(main_window, answers, monkeypatch, tmp_path, rid):
    rs = registry.get(rid)
    act = next(a for a in main_window.actions() if a.objectName() == f"new-pack-{rid}")
    assert act in main_window.new_menus[rid].actions()  # File > New > For <ruleset> > Pack…
    (tmp_path / "mine").mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tmp_path / "mine"))
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Parity", True))
    act.trigger()
    [w] = main_window.pack_windows
    assert w.doc.root == tmp_path / "mine" / "parity" and w.ruleset() == rid
    assert w.windowTitle().startswith("parity (parity)")
    assert w.validate_now() == [], f"{rid}: the new pack does not validate clean in the editor"
    # the files `slipstream new pack Parity --ruleset ID` writes
    (tmp_path / "cli").mkdir()
    cli = new_pack(tmp_path / "cli", "Parity", ruleset=rid).root
    made = {p.relative_to(cli) for p in cli.rglob("*")}
    assert {p.relative_to(w.doc.root) for p in w.doc.root.rglob("*")} == made
    act.trigger()  # the same name again: refused in words, nothing opened
    assert len(main_window.pack_windows) == 1
    assert answers["warnings"] and "exists and is not empty" in answers["warnings"][-1], rs.name


@pytest.mark.parametrize("rid", RULESETS)
def test_new_item_on_a_new_pack_adds_each_kind_of_the_ruleset_with_undo(open_pack, answers, tmp_path, rid):
    root = new_pack(tmp_path, "Parity", ruleset=rid).root
    w = open_pack(root)
    assert w.ruleset() == rid
    assert w.validate_now() == [], f"{rid}: the new pack does not validate clean in the editor"
    acts = new_actions(w)
    assert set(acts) == expected_actions(w), f"{rid}: Edit > New offers other kinds than the ruleset's"
    added = []
    for ik in w.item_kinds():
        key = ".".join(ik.path)
        act = acts["-".join(("new", ik.kind, *ik.path))]
        place = w._place(ik.kind, key).key
        before = count(w, ik.kind, place)
        # a data file read whole that the pack does not hold yet starts as a copy of the
        # inherited one (ItemKind's doc): its inherited items come along
        copied = w.doc.file_for(ik.kind) is None and ik.kind not in row_kinds(rid)
        act.trigger()  # Edit > New <item>… (an id asked where the item has one)
        ref = w.current_ref()
        assert ref is not None and ref.kind == ik.kind, f"{rid}: New {ik.title} selected nothing"
        after = count(w, ik.kind, place)
        assert after == before + 1 or copied and after > before + 1
        assert w.form is not None or w.table is not None, f"{rid}: New {ik.title} shows no form"
        w.undo_stack.undo()
        assert count(w, ik.kind, place) == before, f"{rid}: undo kept the new {ik.title}"
        w.undo_stack.redo()
        assert count(w, ik.kind, place) == after
        added.append(ref)
    assert len(added) == len(w.item_kinds())
    # what is still to fill in is said at the new items themselves, never elsewhere in the pack
    for d in w.validate_now():
        assert d.severity == "error" or d.severity == "warning"
        assert any(Path(d.file).name == Path(r.rel).name and d.path.startswith(_json(r.path)) for r in added), \
            f"{rid}: adding items broke something else: {d}"
    assert w.save()
    pack, _diags = PackLoader().load(root)
    assert pack is not None, f"{rid}: the saved pack no longer loads"
    for ident in answers["ids"]:
        assert any(ident in p.read_text() for p in root.rglob("*.yaml")), f"{rid}: {ident} not saved"


def _json(path) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


@pytest.mark.parametrize("rid", RULESETS)
def test_new_items_on_the_rulesets_pack_save_with_the_minimal_splice(open_pack, answers, tmp_path, rid):
    root = tmp_path / "sample"
    shutil.copytree(sample_pack(rid), root, ignore=shutil.ignore_patterns("__pycache__"))
    before = {p: p.read_text(encoding="utf-8") for p in root.rglob("*.yaml")}
    w = open_pack(root)
    kinds = w.item_kinds()
    for ik in kinds:
        w.new_item(ik.kind, "" if not w.has_ids(ik.kind, ".".join(ik.path)) else f"parity-{ik.kind}",
                   ".".join(ik.path))
    assert w.doc.dirty == bool(kinds)
    assert w.save()
    after = {p: p.read_text(encoding="utf-8") for p in root.rglob("*.yaml")}
    touched = {p for p in after if before.get(p) != after[p]}
    assert len(touched) <= len(kinds)
    for p in touched & set(before):  # a file that was there: lines added, none changed
        assert changed_lines(before[p], after[p]) == [], f"{rid}: the save rewrote lines of {p.name}"
    for _ in kinds:
        w.undo_stack.undo()
    assert w.save()
    assert {p: p.read_text(encoding="utf-8") for p in root.rglob("*.yaml") if p in before} == before


@pytest.mark.parametrize("rid", RULESETS)
def test_card_sheets_print_for_a_ruleset_with_cards(open_pack, answers, monkeypatch, tmp_path, rid):
    rs = registry.get(rid)
    root = new_pack(tmp_path, "Parity", ruleset=rid).root  # a new pack prints its inherited cards
    w = open_pack(root)
    authoring = rs.authoring
    if authoring is None or not authoring.card_kinds:
        assert not w.card_side.isVisible()  # no card preview for a ruleset without cards
        w.findChild(type(w.actions()[0]), "export-card-sheet").trigger()
        assert answers["info"] == ["The pack has no card sheets to print (or cannot be loaded)."]
        return
    pack = w.doc.analysis().pack
    sheets = authoring.sheets(pack)
    assert sheets, f"{rid}: a new pack of a ruleset with cards offers no card sheet"
    for sid, _name in sheets:
        out = tmp_path / f"{sid}.pdf"
        monkeypatch.setattr(QInputDialog, "getItem", lambda _p, _t, _l, ids, *a, sid=sid, **k: (sid, True))
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, out=out, **k: (str(out), "PDF (*.pdf)"))
        w.findChild(type(w.actions()[0]), "export-card-sheet").trigger()  # File > Card sheet PDF…
        assert out.read_bytes().startswith(b"%PDF"), f"{rid}: no card sheet PDF for {sid}"
        assert w.statusBar().currentMessage().startswith(f"Wrote {out.name}: ")
    # a card of each kind: selected, previewed and exported to a PNG (the sample pack has them)
    sample = open_pack(sample_pack(rid))
    for kind in authoring.card_kinds:
        ref = next(r for r in items(sample.doc.state, kind) if r.id)
        sample.select(("item", ref.rel, ref.key, ref.index))
        face = sample.current_face()
        assert face is not None and sample.card_side.isVisible(), f"{rid}: no preview of a {kind} card"
        assert sample.export_card_png(tmp_path / f"{kind}.png").is_file()
