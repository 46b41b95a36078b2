"""Show a document's undo history (engine/editing/history.py) through Qt's QUndoStack.

The document owns its history; the window owns an `UndoStack` that follows it, one Qt command
per step, so Qt's Edit menu actions, the History view (QUndoView) and the stack's signals work
as with any QUndoStack. Edits are pushed on the history (`doc.history.push(cmd)`); the stack
follows its change events. Undo and redo asked of the stack (the Edit menu, a click in the
History view) are passed to the history. `attach` shows another document's history.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoCommand, QUndoStack

from slipstream.engine.editing.history import History, HistoryChange, Step

_STEP_ID = 1  # every step command has this id: only a _Follow merges into one


class _StepCommand(QUndoCommand):
    """One step of the history on the Qt stack."""

    def __init__(self, stack: UndoStack, step: Step) -> None:
        super().__init__(step.text)
        self.stack = stack
        self.step = step

    def redo(self) -> None:
        self.stack._qt_moves(redo=True)

    def undo(self) -> None:
        self.stack._qt_moves(redo=False)

    def id(self) -> int:
        return _STEP_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, _Follow):
            return False
        self.setText(self.step.text)  # e.g. a paint stroke says how many cells it covers
        if other.drop:
            self.setObsolete(True)  # Qt removes this step
        return True


class _Follow(QUndoCommand):
    """Pushed to make the Qt top follow a merge (or a drop) the history made."""

    def __init__(self, drop: bool) -> None:
        super().__init__()
        self.drop = drop

    def id(self) -> int:
        return _STEP_ID


class UndoStack(QUndoStack):
    """A QUndoStack that follows one document's `History` (see the module docstring)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.history: History | None = None
        self._following = False  # Qt calls made to follow the history: the steps do nothing
        self._asking = False  # the history moves because Qt asked: nothing to follow

    def attach(self, history: History | None) -> None:
        """Show `history` (None: none); the steps shown before are dropped from the stack."""
        if self.history is not None:
            self.history.unsubscribe(self._follow)
        self.history = history
        with self._follow_only():
            self.clear()
            if history is None:
                return
            for i, step in enumerate(history.commands):
                if history.clean_index == i:
                    self.setClean()
                self.push(_StepCommand(self, step))
            if history.clean_index == len(history.commands):
                self.setClean()
            elif history.clean_index is None:
                self.resetClean()
            self.setIndex(history.index)
        history.subscribe(self._follow)

    def detach(self) -> None:
        self.attach(None)

    @contextmanager
    def _follow_only(self) -> Iterator[None]:
        self._following = True
        try:
            yield
        finally:
            self._following = False

    def _qt_moves(self, redo: bool) -> None:
        """Qt undoes or redoes a step (Edit menu, History view): the history does it."""
        if self._following or self.history is None:
            return
        self._asking = True
        try:
            if redo:
                self.history.redo()
            else:
                self.history.undo()
        finally:
            self._asking = False

    def _follow(self, change: HistoryChange) -> None:
        history = self.history
        if self._asking or history is None:
            return
        with self._follow_only():
            kind = change.kind
            if kind == "push":
                self.push(_StepCommand(self, history.commands[history.index - 1]))
            elif kind in ("merge", "drop"):
                if history.clean_index is None and self.cleanIndex() != -1:
                    self.resetClean()  # the saved step was merged into (Qt merges nothing into it)
                self.push(_Follow(drop=kind == "drop"))
            elif kind == "truncate":
                obsolete = QUndoCommand()
                obsolete.setObsolete(True)
                self.push(obsolete)  # Qt drops the steps that could be redone, records nothing
            elif kind in ("undo", "redo"):
                self.setIndex(history.index)
            elif kind == "clear":
                self.clear()
            self._sync_clean()

    def _sync_clean(self) -> None:
        history = self.history
        if history is None:
            return
        if history.clean_index is None:
            if self.cleanIndex() != -1:
                self.resetClean()
        elif history.clean_index == history.index and self.cleanIndex() != self.index():
            self.setClean()


def seal(stack: UndoStack) -> None:
    """End a gesture (a drag): the next edit starts a new undo step."""
    if stack.history is not None:
        stack.history.seal()
