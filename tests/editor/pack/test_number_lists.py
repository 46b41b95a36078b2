"""A list of whole numbers in a form (a gear die's faces, an action card's speeds) is one line of
numbers, not a column of spin boxes: typed, refused when it is not all numbers, undone like any
edit, and saved on its own line."""

from __future__ import annotations

import shutil

import pytest
from helpers import CONTENT

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402

from slipstream.editor.forms import NumberListField  # noqa: E402
from slipstream.editor.pack.packview import PackWindow  # noqa: E402
from slipstream.engine.editing.packdoc import PackDocument  # noqa: E402
from slipstream.engine.packs.splice import changed_lines  # noqa: E402


@pytest.fixture
def fd_window(qtbot, tmp_path):
    root = tmp_path / "fd"
    shutil.copytree(CONTENT / "formula-de", root, ignore=shutil.ignore_patterns("__pycache__"))
    w = PackWindow(PackDocument.open(root))
    qtbot.addWidget(w, before_close_func=lambda win: setattr(win.doc, "saved", win.doc.state))
    w.show()
    qtbot.waitExposed(w)
    return w, root


def _type(qtbot, field: NumberListField, text: str) -> None:
    field.edit.selectAll()
    qtbot.keyClicks(field.edit, text)
    qtbot.keyClick(field.edit, Qt.Key.Key_Return)


def test_a_gear_dies_faces_are_one_line_of_numbers(fd_window, qtbot):
    w, root = fd_window
    w.select(("item", "gears.yaml", "gears", 0))  # 1st gear
    faces = w.form.root.fields["faces"]
    assert isinstance(faces, NumberListField) and faces.edit.text() == "1 1 2 2"
    assert faces.edit.placeholderText().startswith("whole numbers from ")  # the schema's bounds
    before = (root / "gears.yaml").read_text()
    _type(qtbot, faces, "1, 1 2 2 3")  # commas or spaces
    assert w.doc.state.file("gears.yaml").data["gears"][0]["faces"] == [1, 1, 2, 2, 3]
    assert faces.edit.text() == "1 1 2 2 3"
    _type(qtbot, faces, "1 1 two")  # not all numbers: refused, the list stays
    assert w.doc.state.file("gears.yaml").data["gears"][0]["faces"] == [1, 1, 2, 2, 3]
    assert faces.edit.text() == "1 1 2 2 3" and "not a list of whole numbers" in faces.edit.toolTip()
    w.undo_stack.undo()
    assert w.doc.state.file("gears.yaml").data["gears"][0]["faces"] == [1, 1, 2, 2]
    assert w.form.root.fields["faces"].edit.text() == "1 1 2 2"
    w.undo_stack.redo()
    assert w.save()
    after = (root / "gears.yaml").read_text()
    assert len(changed_lines(before, after)) == 1  # the one gear's line


def test_a_diagnostic_on_one_face_outlines_the_line(fd_window):
    w, _root = fd_window
    w.select(("item", "gears.yaml", "gears", 0))  # 1st gear
    w._form_edited("faces", [1, 1, 2, 0])  # below the schema's minimum
    problem = next(d for d in w.validate_now() if d.path.startswith("$.gears[0].faces"))
    w.go_to_diagnostic(problem)
    assert w.form.marked is w.form.root.fields["faces"].edit
