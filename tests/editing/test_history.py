"""The undo history each document owns, without Qt: push, undo, redo, merging, sealing,
macros, the clean state and the change events the editor's Qt stack follows."""

from __future__ import annotations

from slipstream.engine.editing import commands as c
from slipstream.engine.editing.document import TrackDocument
from slipstream.engine.editing.history import History, Macro
from slipstream.engine.editing.packdoc import PackDocument, SetValue, items


def tiny_doc() -> TrackDocument:
    return TrackDocument.new({"slipstream": "track/1", "id": "t", "name": "T", "laps": 1, "lanes": 1,
                              "layout": ["3 3 3 3 3 3"], "grid": [{"lane": 0, "segment": 5}]})


def recorded(history: History) -> list[str]:
    kinds: list[str] = []
    history.subscribe(lambda change: kinds.append(change.kind))
    return kinds


def test_each_document_owns_its_history_and_edits_through_it():
    a, b = tiny_doc(), tiny_doc()
    assert isinstance(a.history, History) and a.history is not b.history and a.history.doc is a
    a.history.push(c.SetProperty("name", "A"))
    assert a.data["name"] == "A" and b.data["name"] == "T"
    assert len(a.history) == 1 and len(b.history) == 0
    assert a.history.can_undo and a.history.undo_text == "Set name to 'A'"
    a.history.undo()
    assert a.data["name"] == "T" and not a.dirty
    assert a.history.can_redo and a.history.redo_text == "Set name to 'A'" and not a.history.can_undo
    a.history.redo()
    assert a.data["name"] == "A" and a.history.index == 1


def test_repeated_edits_merge_until_sealed_and_a_merge_back_removes_the_step():
    doc = tiny_doc()
    h = doc.history
    kinds = recorded(h)
    h.push(c.SetProperty("name", "N"))
    h.push(c.SetProperty("name", "Ne"))
    assert len(h) == 1 and h.text(0) == "Set name to 'N'" and doc.data["name"] == "Ne"
    h.seal()
    h.push(c.SetProperty("name", "New"))
    assert len(h) == 2
    h.push(c.SetProperty("name", "Ne"))  # typed back to where the step started
    assert len(h) == 1 and h.index == 1 and doc.data["name"] == "Ne"
    assert kinds == ["push", "merge", "push", "drop"]


def test_a_paint_stroke_is_one_step_whose_text_counts_its_cells():
    doc = tiny_doc()
    h = doc.history
    for s in range(3):
        h.push(c.PaintStroke(0, s, 6))
    assert len(h) == 1 and h.text(0) == "Paint stroke of 3 cells black"
    h.undo()
    assert doc.data["layout"] == ["3 3 3 3 3 3"]


def test_an_edit_that_changes_nothing_records_nothing_but_ends_the_redo_steps():
    doc = tiny_doc()
    h = doc.history
    kinds = recorded(h)
    assert h.push(c.SetProperty("laps", 3))
    h.undo()
    assert h.can_redo
    assert not h.push(c.SetProperty("laps", 1))  # laps is 1 already
    assert len(h) == 0 and not h.can_redo
    assert kinds == ["push", "undo", "truncate"]


def test_a_macro_is_one_step_undone_in_reverse_and_an_empty_one_leaves_none():
    doc = tiny_doc()
    h = doc.history
    kinds = recorded(h)
    with h.macro("Paint 2 spaces black"):
        h.push(c.Paint(0, 0, 6))
        h.push(c.Paint(0, 2, 6))
        assert not h.can_undo  # as in QUndoStack: no undo inside a macro
        h.undo()
        assert doc.data["layout"] == ["6 3 6 3 3 3"]
    assert len(h) == 1 and h.text(0) == "Paint 2 spaces black" and isinstance(h.commands[0], Macro)
    assert kinds == ["push"]
    h.undo()
    assert doc.data["layout"] == ["3 3 3 3 3 3"]
    h.redo()
    assert doc.data["layout"] == ["6 3 6 3 3 3"]
    with h.macro("Nothing"):
        h.push(c.Paint(0, 0, 6))  # black already
    assert len(h) == 1 and kinds[-1] == "truncate"


def test_macros_nest_and_merge_inside_and_walk_yields_their_parts():
    doc = tiny_doc()
    h = doc.history
    h.begin_macro("Outer")
    h.push(c.SetProperty("name", "A"))
    h.push(c.SetProperty("name", "AB"))  # merges with the part before
    h.seal()
    h.push(c.SetProperty("name", "ABC"))  # sealed: a part of its own
    h.begin_macro("Inner")
    h.push(c.SetProperty("laps", 4))
    h.end_macro()
    h.end_macro()
    assert len(h) == 1
    outer = h.commands[0]
    assert isinstance(outer, Macro) and len(outer.parts) == 3 and isinstance(outer.parts[2], Macro)
    assert [type(s).__name__ for s in h.walk()] == ["SetProperty", "SetProperty", "SetProperty"]
    h.undo()
    assert doc.data["name"] == "T" and doc.data["laps"] == 1
    h.redo()
    assert doc.data["name"] == "ABC" and doc.data["laps"] == 4
    assert not outer.merge(c.SetProperty("name", "X"))


def test_set_index_walks_step_by_step():
    doc = tiny_doc()
    h = doc.history
    states = [doc.state]
    for laps in (2, 3, 4):
        h.push(c.SetProperty("laps", laps))
        h.seal()
        states.append(doc.state)
    kinds = recorded(h)
    h.set_index(0)
    assert doc.state == states[0] and kinds == ["undo"] * 3
    h.set_index(2)
    assert doc.state == states[2] and h.index == 2
    h.set_index(99)
    assert doc.state == states[3]


def test_the_clean_state_follows_saves_and_is_lost_with_its_step(tmp_path):
    doc = tiny_doc()
    h = doc.history
    assert h.is_clean and h.clean_index == 0
    kinds = recorded(h)
    h.push(c.SetProperty("name", "A"))
    assert not h.is_clean
    doc.save(tmp_path / "t.yaml")
    assert h.is_clean and h.clean_index == 1 and kinds == ["push", "clean"]
    h.undo()
    assert not h.is_clean and doc.dirty
    h.redo()
    assert h.is_clean and not doc.dirty
    # an edit that merges into the saved step changes it: no step matches the file now
    h.push(c.SetProperty("name", "AB"))
    assert h.clean_index is None and not h.is_clean and len(h) == 1
    h.seal()
    doc.save()
    h.push(c.SetProperty("laps", 2))
    h.undo()
    h.undo()
    h.push(c.SetProperty("laps", 3))  # the saved step is among those dropped
    assert h.clean_index is None
    h.reset_clean()
    assert kinds.count("clean") == 4  # reset when it is None already says nothing


def test_loading_a_file_clears_the_history_and_saving_marks_it_clean(tmp_path):
    path = tmp_path / "t.yaml"
    doc = tiny_doc()
    doc.history.push(c.SetProperty("name", "A"))
    doc.save(path)
    doc.history.push(c.SetProperty("laps", 5))
    kinds = recorded(doc.history)
    doc.load(path)
    assert len(doc.history) == 0 and doc.history.is_clean and kinds == ["clear"]
    assert TrackDocument.open(path).history.commands == []


def test_undo_and_redo_outside_the_history_range_do_nothing():
    h = tiny_doc().history
    kinds = recorded(h)
    h.undo()
    h.redo()
    h.seal()
    assert kinds == [] and h.undo_text == "" and h.redo_text == ""


def test_the_pack_document_owns_its_history_and_a_reload_rebases_it(base_copy):
    doc = PackDocument.open(base_copy)
    h = doc.history
    ref = next(r for r in items(doc.state, "cards") if r.id == "manager")
    h.push(SetValue(ref.rel, (*ref.path, "name"), "Manage"))
    assert not h.is_clean
    doc.save()
    assert h.is_clean
    rel = "tracks/first-oval.yaml"
    path = base_copy / rel
    path.write_text(path.read_text().replace("name: First Oval", "name: Other Oval"))
    assert doc.reload_file(path) is True
    h.undo()  # the edit before the reload does not bring the old track back
    assert doc.state.file(rel).data["name"] == "Other Oval"
    h.redo()
    assert doc.state.file(rel).data["name"] == "Other Oval" and not doc.dirty


def test_a_listener_can_unsubscribe():
    h = tiny_doc().history
    seen: list[str] = []

    def listener(change):
        seen.append(change.kind)

    h.subscribe(listener)
    h.push(c.SetProperty("laps", 2))
    h.unsubscribe(listener)
    h.undo()
    h.clear()
    assert seen == ["push"]
