"""Commands over a TrackDocument, with do / undo / merge.

Every edit in the editor is one command object (one class per kind of edit, as in Tiled).
A command computes the new state from the old one the first time it runs and keeps both, so
undo and redo are exact. Repeated edits of the same thing (dragging one point, typing a
name) merge into one step; an edit that changes nothing leaves no step. Commands are pushed
on the document's own history (`doc.history`, engine/editing/history.py), which the editor
shows through a QUndoStack (editor/undo.py).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from slipstream.engine.editing.document import State, state_from_text
from slipstream.engine.editing.history import Editable, History
from slipstream.engine.tracks import edits as te
from slipstream.engine.tracks.track import COLOUR_NAMES


class Command:
    """One edit. Subclasses set `text` and implement `edit(data) -> data`."""

    text = "Edit"
    # Commands with equal, non-None merge keys merge when pushed one after the other.
    merge_key: Hashable | None = None

    def __init__(self) -> None:
        self.before: State | None = None
        self.after: State | None = None
        self.sealed = False

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def new_state(self, state: State) -> State:
        if state.data is None:
            return state  # unreadable YAML: only ReplaceText applies
        return replace(state, data=self.edit(state.data))

    def do(self, doc: Editable) -> None:
        """Apply (the first time: compute) the edit."""
        if self.after is None:
            self.before = doc.state
            self.after = self.new_state(doc.state)
        doc.set_state(self.after)

    def undo(self, doc: Editable) -> None:
        assert self.before is not None, "undo before do"
        doc.set_state(self.before)

    @property
    def changes_nothing(self) -> bool:
        return self.after is None or self.before is None or self.after == self.before

    def merge(self, other: Command) -> bool:
        """Absorb `other` (pushed right after this one) when both edit the same thing."""
        if self.sealed or self.merge_key is None or other.merge_key != self.merge_key:
            return False
        self.after = other.after
        return True


# A history of its own over a document (the document's `doc.history` is the one the editor shows).
CommandStack = History


# --- the commands, one class per kind of edit ------------------------------------------------

class Paint(Command):
    def __init__(self, lane: int, segment: int, colour: int) -> None:
        super().__init__()
        self.lane, self.segment, self.colour = lane, segment, colour
        self.text = f"Paint {lane}:{segment} {COLOUR_NAMES.get(colour, colour)}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.paint(data, self.lane, self.segment, self.colour)


class PaintStroke(Paint):
    """One cell of a paint stroke (a drag): the cells of one stroke merge into one undo step,
    and the stroke ends when the gesture is sealed (the mouse is released)."""

    merge_key = "paint-stroke"

    def __init__(self, lane: int, segment: int, colour: int) -> None:
        super().__init__(lane, segment, colour)
        self.cells = [(lane, segment)]

    def merge(self, other: Command) -> bool:
        if not isinstance(other, PaintStroke) or other.colour != self.colour or not super().merge(other):
            return False
        self.cells += [c for c in other.cells if c not in self.cells]
        if len(self.cells) > 1:
            self.text = f"Paint stroke of {len(self.cells)} cells {COLOUR_NAMES.get(self.colour, self.colour)}"
        return True


class SplitSpace(Command):
    def __init__(self, lane: int, boundary: int) -> None:
        super().__init__()
        self.lane, self.boundary = lane, boundary
        self.text = f"Split space at {lane}:{boundary}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.split(data, self.lane, self.boundary)


class MergeSpaces(Command):
    def __init__(self, lane: int, segment: int) -> None:
        super().__init__()
        self.lane, self.segment = lane, segment
        self.text = f"Merge space {lane}:{segment} with the next"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.merge_next(data, self.lane, self.segment)


class SetLanePresent(Command):
    def __init__(self, lane: int, first: int, last: int, present: bool, colour: int = te.DEFAULT_COLOUR) -> None:
        super().__init__()
        self.args = (lane, first, last, present, colour)
        what = "Restore" if present else "Remove"
        self.text = f"{what} lane {lane}, segments {first}-{last}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.set_lane_present(data, *self.args)


class SetLaneCount(Command):
    merge_key = "lanes"

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count
        self.text = f"Set lanes to {count}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.set_lane_count(data, self.count)


class SetSegmentCount(Command):
    merge_key = "segments"

    def __init__(self, count: int, at: int | None = None) -> None:
        super().__init__()
        self.count, self.at = count, at
        self.text = f"Set segments to {count}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.set_segment_count(data, self.count, self.at)


class ResizeAt(Command):
    def __init__(self, at: int, delta: int) -> None:
        super().__init__()
        self.at, self.delta = at, delta
        self.text = (f"Insert {delta} segment(s) at {at}" if delta > 0
                     else f"Delete {-delta} segment(s) at {at}")

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.resize(data, self.at, self.delta)


class MoveFinish(Command):
    def __init__(self, segment: int) -> None:
        super().__init__()
        self.segment = segment
        self.text = f"Move finish line to segment {segment}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.move_finish(data, self.segment)


class AddGridSlot(Command):
    def __init__(self, lane: int, segment: int, money: int | None = None) -> None:
        super().__init__()
        self.lane, self.segment, self.money = lane, segment, money
        self.text = f"Add grid slot at {lane}:{segment}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.add_slot(data, self.lane, self.segment, self.money)


class RemoveGridSlot(Command):
    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index
        self.text = f"Remove grid slot P{index + 1}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.remove_slot(data, self.index)


class MoveGridSlot(Command):
    def __init__(self, index: int, to: int) -> None:
        super().__init__()
        self.index, self.to = index, to
        self.text = f"Move grid slot P{index + 1} to P{to + 1}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.move_slot(data, self.index, self.to)


class SetGridSlot(Command):
    def __init__(self, index: int, **fields: int) -> None:
        super().__init__()
        self.index, self.fields = index, fields
        self.merge_key = ("grid", index, tuple(sorted(fields)))
        what = ", ".join(f"{k} {v}" for k, v in sorted(fields.items()))
        self.text = f"Set grid slot P{index + 1}: {what}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.set_slot(data, self.index, **self.fields)


class SetProperty(Command):
    """Set a top-level value: id, name or laps."""

    def __init__(self, key: str, value: Any) -> None:
        super().__init__()
        self.key, self.value = key, value
        self.merge_key = ("property", key)
        self.text = f"Set {key} to {value!r}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.set_value(data, self.key, self.value)


class SetGeometryValue(Command):
    """Set lane width or smoothing of the drawing."""

    def __init__(self, key: str, value: Any) -> None:
        super().__init__()
        self.key, self.value = key, value
        self.merge_key = ("geometry", key)
        self.text = f"Set {key.replace('_', ' ')} to {value}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.set_geometry_value(data, self.key, self.value)


class AddPoint(Command):
    def __init__(self, index: int, point: tuple[float, float]) -> None:
        super().__init__()
        self.index, self.point = index, point
        self.text = f"Add centreline point {index}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.add_point(data, self.index, self.point)


class MovePoint(Command):
    def __init__(self, index: int, point: tuple[float, float]) -> None:
        super().__init__()
        self.index, self.point = index, point
        self.merge_key = ("point", index)
        self.text = f"Move centreline point {index}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.move_point(data, self.index, self.point)


class DeletePoint(Command):
    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index
        self.text = f"Delete centreline point {index}"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.delete_point(data, self.index)


class SmoothPoints(Command):
    text = "Smooth centreline"

    def edit(self, data: dict[str, Any]) -> dict[str, Any]:
        return te.smooth_points(data)


class ReplaceData(Command):
    """Replace the whole track (a template, or data pasted in)."""

    def __init__(self, data: dict[str, Any], text: str = "Replace track") -> None:
        super().__init__()
        self.data = data
        self.text = text

    def new_state(self, state: State) -> State:
        return State(self.data, None, state.header)


class ReplaceText(Command):
    """Replace the document by YAML text (the source view; repairs unreadable files)."""

    text = "Edit source"

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def new_state(self, state: State) -> State:
        if state.text() == self.source:
            return state
        return state_from_text(self.source)
