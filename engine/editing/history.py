"""The undo history a document owns, without Qt: push, undo, redo, merge, seal, macros, clean.

Every document of the editors (a `TrackDocument`, a `PackDocument`) owns one `History`, as in
Tiled, where the document and not the window holds the undo stack: switching the window to
another document switches to that document's history, and code without a window (tests,
scripts) edits a document through the same history the editor shows.

A step is a command (engine/editing/commands.py): `do(doc)` applies it, `undo(doc)` takes it
back. Pushing a command does it, then records it:

- it merges into the step on top when both edit the same thing (a dragged point, a typed name,
  the cells of one paint stroke), until that step is sealed (the gesture ended);
- a merge that comes back to where the step started removes the step;
- a command that changes nothing records nothing;
- either way the steps that could be redone are dropped.

A macro (`begin_macro` ... `end_macro`, or `with history.macro(text)`) gathers the commands
pushed meanwhile into one step; a macro that changes nothing leaves no step.

The clean index is the step the saved file matches (the last load or save), as QUndoStack
keeps it; it is lost when that step is dropped or merged into. The documents' own `dirty` flag
compares contents (an undo back to the saved state by another path is clean there).

Listeners get a `HistoryChange` after every change; the editor's Qt stack follows them
(editor/undo.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol


class Editable(Protocol):
    """What a command edits: a TrackDocument, or a PackDocument for the commands of
    engine/editing/packdoc.py (their states differ; a command keeps the one it was given)."""

    @property
    def state(self) -> Any: ...
    def set_state(self, state: Any, reason: str = "edit") -> None: ...


class Step(Protocol):
    """One undo step: a command (engine/editing/commands.py) or a `Macro` of them."""

    text: str
    sealed: bool

    def do(self, doc: Editable) -> None: ...
    def undo(self, doc: Editable) -> None: ...
    def merge(self, other: Any) -> bool: ...
    @property
    def changes_nothing(self) -> bool: ...


class Macro:
    """Several commands as one step: done in order, undone in reverse order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.parts: list[Step] = []
        self.sealed = False

    def do(self, doc: Editable) -> None:
        for part in self.parts:
            part.do(doc)

    def undo(self, doc: Editable) -> None:
        for part in reversed(self.parts):
            part.undo(doc)

    def merge(self, other: Any) -> bool:
        return False  # a macro is a finished step: nothing joins it later

    @property
    def changes_nothing(self) -> bool:
        return all(part.changes_nothing for part in self.parts)


@dataclass(frozen=True, slots=True)
class HistoryChange:
    """What changed in a history. `kind` is one of:

    - "push": a new step is on top (the steps that could be redone are gone);
    - "merge": the step on top took in a command (its text may have changed);
    - "drop": the step on top merged back to where it started and was removed;
    - "truncate": a command changed nothing: no step, but the redo steps are gone;
    - "undo", "redo": the index moved by one;
    - "clean": the clean index changed;
    - "clear": every step was removed (a document was loaded).
    """

    kind: str


HistoryListener = Callable[[HistoryChange], None]


def _record(steps: list[Step], cmd: Step) -> str:
    """Put `cmd` (already done) on top of `steps`: merge, drop or append. Returns the kind."""
    top = steps[-1] if steps else None
    if top is not None and top.merge(cmd):
        if top.changes_nothing:
            steps.pop()
            return "drop"
        return "merge"
    if cmd.changes_nothing:
        return "truncate"
    steps.append(cmd)
    return "push"


class History:
    """The undo history of one document (`doc.history`)."""

    def __init__(self, doc: Editable) -> None:
        self.doc = doc
        self.commands: list[Step] = []  # the steps, oldest first
        self.index = 0  # commands[:index] are done
        self.clean_index: int | None = 0  # the step the saved file matches; None: none does
        self._macros: list[Macro] = []  # open macros, outermost first
        self._listeners: list[HistoryListener] = []

    # --- listeners ---------------------------------------------------------------------------
    def subscribe(self, listener: HistoryListener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: HistoryListener) -> None:
        self._listeners.remove(listener)

    def _emit(self, kind: str) -> None:
        change = HistoryChange(kind)
        for listener in list(self._listeners):
            listener(change)

    # --- recording -------------------------------------------------------------------------
    def push(self, cmd: Step) -> bool:
        """Do a command and record it; returns False when it changed nothing."""
        cmd.do(self.doc)
        if self._macros:
            return _record(self._macros[-1].parts, cmd) != "truncate"
        self._truncate()
        top = self.index
        kind = _record(self.commands, cmd)
        self.index = len(self.commands)
        if kind in ("merge", "drop") and self.clean_index == top:
            self._set_clean(None)  # the saved step changed: no step matches the file now
        self._emit(kind)
        return kind != "truncate"

    def _truncate(self) -> None:
        del self.commands[self.index:]
        if self.clean_index is not None and self.clean_index > self.index:
            self._set_clean(None)

    def seal(self) -> None:
        """End a gesture (a drag, a field left): the next command starts a new step."""
        if self._macros:
            if self._macros[-1].parts:
                self._macros[-1].parts[-1].sealed = True
        elif self.index:
            self.commands[self.index - 1].sealed = True

    def begin_macro(self, text: str) -> None:
        """Gather the commands pushed until `end_macro` into one step named `text`."""
        self._macros.append(Macro(text))

    def end_macro(self) -> None:
        macro = self._macros.pop()
        if self._macros:
            if macro.parts:
                self._macros[-1].parts.append(macro)
            return
        self._truncate()
        if not macro.parts:
            self._emit("truncate")
            return
        self.commands.append(macro)
        self.index = len(self.commands)
        self._emit("push")

    @contextmanager
    def macro(self, text: str) -> Iterator[None]:
        """`with history.macro("Paint 3 spaces"): ...` pushes one step for the whole block."""
        self.begin_macro(text)
        try:
            yield
        finally:
            self.end_macro()

    # --- moving ----------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return self.index > 0 and not self._macros

    @property
    def can_redo(self) -> bool:
        return self.index < len(self.commands) and not self._macros

    @property
    def undo_text(self) -> str:
        return self.commands[self.index - 1].text if self.can_undo else ""

    @property
    def redo_text(self) -> str:
        return self.commands[self.index].text if self.can_redo else ""

    def text(self, index: int) -> str:
        return self.commands[index].text

    def __len__(self) -> int:
        return len(self.commands)

    def undo(self) -> None:
        """Take back the step on top (nothing while a macro is open, as in QUndoStack)."""
        if self.can_undo:
            self.index -= 1
            self.commands[self.index].undo(self.doc)
            self._emit("undo")

    def redo(self) -> None:
        if self.can_redo:
            self.commands[self.index].do(self.doc)
            self.index += 1
            self._emit("redo")

    def set_index(self, index: int) -> None:
        """Undo or redo step by step until `index` steps are done."""
        index = max(0, min(index, len(self.commands)))
        while self.index > index and self.can_undo:
            self.undo()
        while self.index < index and self.can_redo:
            self.redo()

    # --- clean state -----------------------------------------------------------------------
    @property
    def is_clean(self) -> bool:
        """Whether the document is at the step of its last load or save."""
        return self.clean_index == self.index

    def set_clean(self) -> None:
        """The document was saved: the current step matches the file."""
        self._set_clean(self.index)

    def reset_clean(self) -> None:
        """No step matches the file (e.g. new work not saved yet)."""
        self._set_clean(None)

    def _set_clean(self, index: int | None) -> None:
        if index != self.clean_index:
            self.clean_index = index
            self._emit("clean")

    def clear(self) -> None:
        """Forget every step; the current state is the clean one (a file was loaded)."""
        self.commands = []
        self.index = 0
        self.clean_index = 0
        self._macros = []
        self._emit("clear")

    def walk(self) -> Iterator[Step]:
        """Every recorded command, the parts of macros included (oldest first)."""
        def parts(steps: list[Step]) -> Iterator[Step]:
            for step in steps:
                if isinstance(step, Macro):
                    yield from parts(step.parts)
                else:
                    yield step
        return parts(self.commands)
