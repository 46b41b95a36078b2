"""Commands for the track/2 parts (corners, speed limits, links, pit lane, boxes, plain squares),
one class per kind of edit over engine/tracks/v2edits.py; see engine/editing/commands.py."""

from __future__ import annotations

from typing import Any

from slipstream.engine.editing.commands import Command
from slipstream.engine.tracks import v2edits as v2

Data = dict[str, Any]


class PaintPlain(Command):
    merge_key = "plain"  # a drag paints many squares in one step (the editor seals on release)

    def __init__(self, lane: int, segment: int) -> None:
        super().__init__()
        self.lane, self.segment = lane, segment
        self.text = f"Paint {lane}:{segment} plain"

    def edit(self, data: Data) -> Data:
        return v2.paint_plain(data, self.lane, self.segment)


class MarkCorner(Command):
    def __init__(self, first: int, last: int, name: str | None = None) -> None:
        super().__init__()
        self.first, self.last, self.name = first, last, name
        self.text = f"Mark corner {first}-{last}"

    def edit(self, data: Data) -> Data:
        return v2.mark_corner(data, self.first, self.last, self.name)


class RemoveCorner(Command):
    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index
        self.text = f"Remove corner {index + 1}"

    def edit(self, data: Data) -> Data:
        return v2.remove_corner(data, self.index)


class SetCorner(Command):
    """Set a corner's name, range, stops, speed limit or chicane flag (None clears)."""

    def __init__(self, index: int, key: str, value: Any) -> None:
        super().__init__()
        self.index, self.key, self.value = index, key, value
        self.merge_key = ("corner", index, key)
        self.text = f"Set corner {index + 1} {key} to {value!r}"

    def edit(self, data: Data) -> Data:
        return v2.set_corner(data, self.index, self.key, self.value)


class SetLaneSpeed(Command):
    def __init__(self, index: int, lane: int, value: int | None) -> None:
        super().__init__()
        self.index, self.lane, self.value = index, lane, value
        self.merge_key = ("lane-speed", index, lane)
        self.text = f"Set corner {index + 1} lane {lane} speed limit to {value}"

    def edit(self, data: Data) -> Data:
        return v2.set_lane_speed(data, self.index, self.lane, self.value)


class SetSpaceSpeed(Command):
    def __init__(self, index: int, space: str, value: int | None) -> None:
        super().__init__()
        self.index, self.space, self.value = index, space, value
        self.merge_key = ("space-speed", index, space)
        self.text = f"Set corner {index + 1} space {space} speed limit to {value}"

    def edit(self, data: Data) -> Data:
        return v2.set_space_speed(data, self.index, self.space, self.value)


class ToggleLink(Command):
    def __init__(self, src: str, dst: str) -> None:
        super().__init__()
        self.src, self.dst = src, dst
        self.text = f"Add or remove link {src} → {dst}"

    def edit(self, data: Data) -> Data:
        return v2.toggle_link(data, self.src, self.dst)


class DrawPit(Command):
    def __init__(self, entry: str, length: int, exit_: str) -> None:
        super().__init__()
        self.entry, self.length, self.exit = entry, length, exit_
        self.text = f"Draw pit lane {entry} → {length} squares → {exit_}"

    def edit(self, data: Data) -> Data:
        return v2.draw_pit(data, self.entry, self.length, self.exit)


class RemovePit(Command):
    text = "Remove pit lane"

    def edit(self, data: Data) -> Data:
        return v2.remove_pit(data)


class ToggleBox(Command):
    def __init__(self, segment: int) -> None:
        super().__init__()
        self.segment = segment
        self.text = f"Place or remove box on pit:{segment}"

    def edit(self, data: Data) -> Data:
        return v2.toggle_box(data, self.segment)


class SetPitValue(Command):
    def __init__(self, key: str, value: Any) -> None:
        super().__init__()
        self.key, self.value = key, value
        self.merge_key = ("pit", key)
        self.text = f"Set pit lane {key.replace('_', ' ')} to {value!r}"

    def edit(self, data: Data) -> Data:
        return v2.set_pit_value(data, self.key, self.value)


class SetEntrySpeed(Command):
    def __init__(self, index: int, value: int | None) -> None:
        super().__init__()
        self.index, self.value = index, value
        self.merge_key = ("entry-speed", index)
        self.text = f"Set pit entry {index + 1} speed limit to {value}"

    def edit(self, data: Data) -> Data:
        return v2.set_entry_speed(data, self.index, self.value)


class SetBackdrop(Command):
    """Set fields of the backdrop (`{"image": ...}` places one; None removes it). Moving,
    scaling, rotating or fading it merges into one step while the same fields change."""

    def __init__(self, changes: dict[str, Any] | None) -> None:
        super().__init__()
        self.changes = changes
        if changes is None:
            self.text = "Remove backdrop"
        elif "image" in changes:
            self.text = f"Set backdrop image {changes['image']}"
        else:
            self.merge_key = ("backdrop", tuple(sorted(changes)))
            self.text = "Change backdrop " + ", ".join(sorted(changes))

    def edit(self, data: Data) -> Data:
        from slipstream.engine.tracks.backdrop import set_backdrop

        return set_backdrop(data, self.changes)
