"""Driving the editor like a user: clicks on canvas cells, typing into dock fields."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit, QWidget


def key(qtbot, widget: QWidget, k, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(widget, k, modifier)


def type_into(qtbot, field: QWidget, text: str) -> None:
    """Click a line edit or spin box, select its text, type, press Enter."""
    target = field.lineEdit() if isinstance(field, QAbstractSpinBox) else field
    assert isinstance(target, QLineEdit)
    qtbot.mouseClick(target, Qt.MouseButton.LeftButton)
    qtbot.keyClick(target, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(target, text)
    qtbot.keyClick(target, Qt.Key.Key_Return)


def click_tool(qtbot, window, name: str) -> None:
    """Click a tool's button on the toolbar."""
    act = window.tool_actions[name]
    bar = window.findChild(QWidget, "toolbar-tools")
    button = bar.widgetForAction(act)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert window.view.tool == name


def space_colours(window) -> dict[tuple[int, int, int], int]:
    """What the canvas shows: every space item's (lane, first, length) and colour."""
    return {k: item.brush().color().name() for k, item in window.scene.spaces.items()}
