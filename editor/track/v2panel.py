"""The "Corners & pit" dock: the track's corners (name, range, stops, speed limit, chicane),
speed limits per lane and for the selected space, and the pit lane's length and options.

Like the other docks it shows the document and turns input into commands through `push`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from slipstream.editor.spinvalue import set_spin
from slipstream.engine.editing import v2commands as v
from slipstream.engine.editing.commands import Command
from slipstream.engine.editing.document import TrackDocument
from slipstream.engine.tracks import v2edits as v2
from slipstream.engine.tracks.track import Track

Push = Callable[[Command], None]
COLUMNS = ("name", "from", "to", "stops", "speed", "chicane")
NO_VALUE = 0  # a spin box at 0 shows "—": the value is not set
DEFAULT_PIT_LENGTH = 10


def _spin(name: str, maximum: int, none_text: str = "—") -> QSpinBox:
    box = QSpinBox()
    box.setObjectName(name)
    box.setRange(NO_VALUE, maximum)
    box.setSpecialValueText(none_text)
    box.setKeyboardTracking(False)
    return box


class Track2Panel(QWidget):
    """Corners, speed limits and the pit lane of a track/2 file."""

    def __init__(self, push: Push, selected_cell: Callable[[], tuple[int, int] | None],
                 seal: Callable[[], None]) -> None:
        super().__init__()
        self.push, self.selected_cell, self.seal = push, selected_cell, seal
        self._data: dict[str, Any] | None = None
        self._track: Track | None = None
        self._filling = False
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("corners")
        self.table.setHorizontalHeaderLabels(["Name", "From", "To", "Stops", "Speed", "Chicane"])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, len(COLUMNS)):  # the numbers and the check box take what they need
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setMinimumHeight(140)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.itemChanged.connect(self._item_changed)
        self.table.currentCellChanged.connect(lambda *_a: self._show_corner())
        outer.addWidget(QLabel("Corners (drag over segments with the Corner tool)"))
        outer.addWidget(self.table, 1)
        buttons = QHBoxLayout()
        self.remove_corner = QPushButton("Remove corner")
        self.remove_corner.setObjectName("remove-corner")
        self.remove_corner.clicked.connect(self._remove_corner)
        buttons.addWidget(self.remove_corner)
        buttons.addStretch(1)
        outer.addLayout(buttons)

        self.speeds_box = QGroupBox("Speed limits of the corner")
        self.speeds_form = QFormLayout(self.speeds_box)
        self.lane_spins: list[QSpinBox] = []
        self.space_label = QLabel("Selected space")
        self.space_speed = _spin("space-speed", 999)
        self.space_speed.valueChanged.connect(self._space_speed)
        self.speeds_form.addRow(self.space_label, self.space_speed)
        outer.addWidget(self.speeds_box)

        pit = QGroupBox("Pit lane")
        form = QFormLayout(pit)
        self.pit_length = QSpinBox()
        self.pit_length.setObjectName("pit-length")
        self.pit_length.setRange(1, 200)
        self.pit_length.setValue(DEFAULT_PIT_LENGTH)
        self.pit_length.setKeyboardTracking(False)
        self.pit_length.setToolTip("Squares of the pit lane the Pit lane tool draws (a drawn lane is redrawn)")
        self.pit_length.valueChanged.connect(self._pit_length)
        self.entry_speed = _spin("pit-entry-speed", 999)
        self.entry_speed.setToolTip("Speed limit on the way into the pit lane (its main entry)")
        self.entry_speed.valueChanged.connect(
            lambda value: None if self._filling else self.push(v.SetEntrySpeed(0, value or None)))
        self.lap_counts = QCheckBox("a lap through the pit counts")
        self.lap_counts.setObjectName("pit-lap-counts")
        self.lap_counts.toggled.connect(lambda on: self._pit_value("lap_counts", on))
        self.can_win = QCheckBox("the race can be won in the pit lane")
        self.can_win.setObjectName("pit-can-win")
        self.can_win.toggled.connect(lambda on: self._pit_value("can_win", on))
        self.side = QComboBox()
        self.side.setObjectName("pit-side")
        self.side.addItems(["outside", "inside"])
        self.side.currentTextChanged.connect(lambda t: self._pit_value("side", t))
        self.pit_where = QLabel("No pit lane: click its entry, then its exit, with the Pit lane tool.")
        self.pit_where.setWordWrap(True)
        self.remove_pit = QPushButton("Remove pit lane")
        self.remove_pit.setObjectName("remove-pit")
        self.remove_pit.clicked.connect(lambda: self.push(v.RemovePit()))
        form.addRow(self.pit_where)
        form.addRow("Length", self.pit_length)
        form.addRow("Entry speed limit", self.entry_speed)
        form.addRow("", self.lap_counts)
        form.addRow("", self.can_win)
        form.addRow("Side", self.side)
        form.addRow("", self.remove_pit)
        outer.addWidget(pit)

    # --- input ---------------------------------------------------------------------------
    def current_corner(self) -> int | None:
        row = self.table.currentRow()
        return row if 0 <= row < self.table.rowCount() else None

    def pick_corner(self, index: int) -> None:
        if 0 <= index < self.table.rowCount():
            self.table.setCurrentCell(index, 0)

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if self._filling:
            return
        key = COLUMNS[item.column()]
        if key == "chicane":
            value: Any = item.checkState() == Qt.CheckState.Checked
        elif key == "name":
            value = item.text().strip() or None
        else:
            text = item.text().strip()
            value = int(text) if text.isdigit() else None
        before = self._data
        self.push(v.SetCorner(item.row(), key, value))
        self.seal()
        if self._data is before and before is not None:  # refused (not a number): show the value again
            self._filling = True
            try:
                self._fill(before)
            finally:
                self._filling = False

    def _remove_corner(self) -> None:
        row = self.current_corner()
        if row is not None:
            self.push(v.RemoveCorner(row))

    def _lane_speed(self, lane: int, value: int) -> None:
        row = self.current_corner()
        if row is not None and not self._filling:
            self.push(v.SetLaneSpeed(row, lane, value or None))

    def _space_speed(self, value: int) -> None:
        if self._filling or self._data is None:
            return
        name = self._selected_space()
        if name is None:
            return
        lane, seg = (int(x) for x in name.split(":"))
        index = v2.corner_at(self._data, seg)
        if index is not None:
            self.push(v.SetSpaceSpeed(index, name, value or None))

    def _selected_space(self) -> str | None:
        cell = self.selected_cell()
        doc_track = self._track
        if cell is None or doc_track is None:
            return None
        sp = doc_track.space_at(*cell)
        return None if sp is None else sp.name

    def _pit_length(self, value: int) -> None:
        if self._filling or self._data is None:
            return
        pit = self._data.get("pit")
        if not isinstance(pit, dict):
            return
        entries, exits = pit.get("entries") or [], pit.get("exits") or []
        if entries and exits and isinstance(entries[0], dict) and isinstance(exits[0], dict):
            self.push(v.DrawPit(str(entries[0].get("from")), value, str(exits[0].get("to"))))

    def _pit_value(self, key: str, value: Any) -> None:
        if not self._filling:
            self.push(v.SetPitValue(key, value))

    # --- showing the document ---------------------------------------------------------------
    def show_document(self, doc: TrackDocument) -> None:
        data = doc.data
        self._data = data
        self._track = doc.track
        self.setEnabled(data is not None)
        if data is None:
            return
        self._filling = True
        try:
            self._fill(data)
        finally:
            self._filling = False
        self._show_corner()

    def _fill(self, data: dict[str, Any]) -> None:
        corners = [c for c in data.get("corners") or [] if isinstance(c, dict)]
        row = self.current_corner()
        self.table.setRowCount(len(corners))
        for r, c in enumerate(corners):
            for col, key in enumerate(COLUMNS):
                item = self.table.item(r, col)
                if item is None:
                    item = QTableWidgetItem()
                    self.table.setItem(r, col, item)
                if key == "chicane":
                    item.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled
                                  | Qt.ItemFlag.ItemIsSelectable)
                    item.setCheckState(Qt.CheckState.Checked if c.get("chicane") else Qt.CheckState.Unchecked)
                else:
                    value = c.get(key)
                    item.setText("" if value is None else str(value))
        if row is not None and row < len(corners):
            self.table.setCurrentCell(row, self.table.currentColumn())
        pit = data.get("pit") if isinstance(data.get("pit"), dict) else None
        for w in (self.entry_speed, self.lap_counts, self.can_win, self.side, self.remove_pit):
            w.setEnabled(pit is not None)
        if pit is None:
            self.pit_where.setText("No pit lane: click its entry, then its exit, with the Pit lane tool.")
            return
        length = v2.pit_length(data)
        if length:
            set_spin(self.pit_length, length, DEFAULT_PIT_LENGTH)
        entries = ", ".join(str(e.get("from")) for e in pit.get("entries") or [] if isinstance(e, dict))
        exits = ", ".join(str(x.get("to")) for x in pit.get("exits") or [] if isinstance(x, dict))
        boxes = len(pit.get("boxes") or [])
        self.pit_where.setText(f"Entry {entries} → {length} squares → exit {exits}; {boxes} boxes")
        first = (pit.get("entries") or [{}])[0]
        speed = first.get("speed") if isinstance(first, dict) else None
        set_spin(self.entry_speed, speed if isinstance(speed, int) else NO_VALUE, NO_VALUE)
        self.lap_counts.setChecked(bool(pit.get("lap_counts", True)))
        self.can_win.setChecked(bool(pit.get("can_win", True)))
        self.side.setCurrentText(str(pit.get("side", "outside")))

    def show_selection(self) -> None:
        """The canvas selection changed: show the selected space's speed limit."""
        self._show_corner()

    def _show_corner(self) -> None:
        """The speed-limit fields of the current corner: one per lane and the selected space."""
        data = self._data
        row = self.current_corner()
        lanes = len(data.get("layout") or []) if data is not None else 0
        while len(self.lane_spins) < lanes:
            lane = len(self.lane_spins)
            spin = _spin(f"lane-speed-{lane}", 999)
            spin.valueChanged.connect(lambda value, k=lane: self._lane_speed(k, value))
            self.lane_spins.append(spin)
            self.speeds_form.addRow(f"Lane {lane}", spin)
        for lane, spin in enumerate(self.lane_spins):
            self.speeds_form.setRowVisible(spin, lane < lanes)
        corner = (data.get("corners") or [])[row] if data is not None and row is not None else None
        self._filling = True
        try:
            speeds = list(corner.get("lane_speeds") or []) if isinstance(corner, dict) else []
            for lane, spin in enumerate(self.lane_spins[:lanes]):
                value = speeds[lane] if lane < len(speeds) else None
                set_spin(spin, value if isinstance(value, int) else NO_VALUE, NO_VALUE)
            name = self._selected_space()
            index = v2.corner_at(data, int(name.split(":")[1])) if data is not None and name else None
            self.space_speed.setEnabled(index is not None)
            value = None
            if index is not None and name is not None:
                c = (data.get("corners") or [])[index] if data is not None else {}
                value = dict(c.get("space_speeds") or {}).get(name)
                self.space_label.setText(f"Space {name}")
            else:
                self.space_label.setText("Space (select one in a corner)")
            set_spin(self.space_speed, value if isinstance(value, int) else NO_VALUE, NO_VALUE)
        finally:
            self._filling = False
        self.speeds_box.setEnabled(row is not None)
        self.remove_corner.setEnabled(row is not None)
