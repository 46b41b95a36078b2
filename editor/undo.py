"""Adapt the engine's commands (engine/editing/commands.py) to Qt's QUndoStack."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand, QUndoStack

from slipstream.engine.editing.commands import Command, Editable


def _merge_id(cmd: Command) -> int:
    if cmd.merge_key is None:
        return -1
    # Qt only compares ids; the engine command checks the full key in merge().
    return abs(hash(cmd.merge_key)) & 0x3FFFFFFF


class QtCommand(QUndoCommand):
    """One engine command on the Qt undo stack."""

    def __init__(self, cmd: Command, doc: Editable) -> None:
        super().__init__(cmd.text)
        self.cmd = cmd
        self.doc = doc

    def redo(self) -> None:
        self.cmd.do(self.doc)
        if self.cmd.changes_nothing:
            self.setObsolete(True)  # an edit that changes nothing leaves no step

    def undo(self) -> None:
        self.cmd.undo(self.doc)

    def id(self) -> int:
        return _merge_id(self.cmd)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, QtCommand) or not self.cmd.merge(other.cmd):
            return False
        self.setText(self.cmd.text)  # e.g. a paint stroke says how many cells it covers
        if self.cmd.changes_nothing:
            self.setObsolete(True)
        return True


def push(stack: QUndoStack, doc: Editable, cmd: Command) -> None:
    """Do `cmd` on `doc` through the undo stack."""
    stack.push(QtCommand(cmd, doc))


def seal(stack: QUndoStack) -> None:
    """End a gesture (a drag): the next edit starts a new undo step."""
    top = stack.command(stack.index() - 1) if stack.index() > 0 else None
    if isinstance(top, QtCommand):
        top.cmd.sealed = True
