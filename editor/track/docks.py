"""Dock widgets: track properties, grid slots, problems (live validation) and YAML source.

Docks never own game data: they show the document and turn user input into commands
through the `push` callable they are given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from slipstream.editor.spinvalue import seat, set_spin
from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.editing import commands as cmds
from slipstream.engine.editing.commands import Command
from slipstream.engine.editing.document import TrackDocument
from slipstream.engine.tracks import edits as te

Push = Callable[[Command], None]


class TrackPanel(QWidget):
    """Track properties: id, name, laps, lanes, segments, lane width, smoothing."""

    def __init__(self, push: Push, selected_segment: Callable[[], int | None]) -> None:
        super().__init__()
        self.push = push
        self.selected_segment = selected_segment
        form = QFormLayout(self)
        self.id_edit = QLineEdit()
        self.id_edit.setObjectName("track-id")
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("track-name")
        self.laps = QSpinBox()
        self.laps.setObjectName("track-laps")
        self.laps.setRange(1, 99)
        self.lanes = QSpinBox()
        self.lanes.setObjectName("track-lanes")
        self.lanes.setRange(1, 16)
        self.segments = QSpinBox()
        self.segments.setObjectName("track-segments")
        self.segments.setRange(0, 100_000)  # 0: an empty track
        self.lane_width = QDoubleSpinBox()
        self.lane_width.setObjectName("track-lane-width")
        self.lane_width.setRange(5, 400)
        self.lane_width.setDecimals(1)
        self.smooth = QCheckBox("smooth curve through the points")
        self.smooth.setObjectName("track-smooth")
        self.smooth_button = QPushButton("Relax points")
        self.smooth_button.setToolTip("Move every centreline point halfway towards its neighbours")
        for w in (self.laps, self.lanes, self.segments, self.lane_width):
            w.setKeyboardTracking(False)  # one edit per value entered, not per keystroke
        form.addRow("Id", self.id_edit)
        form.addRow("Name", self.name_edit)
        form.addRow("Laps", self.laps)
        form.addRow("Lanes", self.lanes)
        form.addRow("Segments", self.segments)
        form.addRow("Lane width", self.lane_width)
        form.addRow("", self.smooth)
        form.addRow("", self.smooth_button)
        self.id_edit.editingFinished.connect(lambda: self._set("id", self.id_edit.text().strip()))
        self.name_edit.editingFinished.connect(lambda: self._set("name", self.name_edit.text()))
        self.laps.valueChanged.connect(lambda v: self._set("laps", v))
        self.lanes.valueChanged.connect(lambda v: self.push(cmds.SetLaneCount(v)))
        self.segments.valueChanged.connect(self._segments)
        self.lane_width.valueChanged.connect(
            lambda v: self.push(cmds.SetGeometryValue("lane_width", int(v) if v == int(v) else v)))
        self.smooth.toggled.connect(lambda v: self.push(cmds.SetGeometryValue("smooth", v)))
        self.smooth_button.clicked.connect(lambda: self.push(cmds.SmoothPoints()))
        self._data: Any = None

    def _set(self, key: str, value: Any) -> None:
        if self._data is not None and self._data.get(key) != value:
            self.push(cmds.SetProperty(key, value))

    def _segments(self, value: int) -> None:
        seg = self.selected_segment()
        self.push(cmds.SetSegmentCount(value, None if seg is None else seg + 1))

    def show_document(self, doc: TrackDocument) -> None:
        data = doc.data
        self._data = data
        self.setEnabled(data is not None)
        if data is None:
            return
        geo = data.get("geometry")
        geo = geo if isinstance(geo, dict) else {}
        values: list[tuple[QWidget, Any]] = [
            (self.id_edit, str(data.get("id", ""))),
            (self.name_edit, str(data.get("name", ""))),
            (self.laps, data.get("laps", 3)),
            (self.lanes, len(te.layout(data)) or 1),
            (self.segments, _safe_segments(data)),
            (self.lane_width, geo.get("lane_width", 40)),
            (self.smooth, bool(geo.get("smooth", False))),
        ]
        for widget, value in values:
            widget.blockSignals(True)
            try:
                if isinstance(widget, QLineEdit):
                    if widget.text() != value:
                        widget.setText(value)
                elif isinstance(widget, QCheckBox):
                    widget.setChecked(value)
                elif isinstance(widget, QSpinBox | QDoubleSpinBox):
                    set_spin(widget, value, 0)
            finally:
                widget.blockSignals(False)


def _safe_segments(data: dict[str, Any]) -> int:
    try:
        return te.segment_count(data)
    except (ValueError, TypeError, AttributeError):
        return 0


class GridPanel(QWidget):
    """Grid slots, pole first: select, reorder, price and remove them."""

    slotSelected = Signal(int, int)  # lane, segment

    def __init__(self, push: Push, add_at_selection: Callable[[], None]) -> None:
        super().__init__()
        self.push = push
        layout = QVBoxLayout(self)
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("grid-table")
        self.table.setHorizontalHeaderLabels(["slot", "lane", "segment", "money"])
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        layout.addWidget(self.table)
        row = QHBoxLayout()
        self.money = QSpinBox()
        self.money.setObjectName("grid-money")
        self.money.setRange(0, 1000)
        self.money.setPrefix("$")
        self.money.setKeyboardTracking(False)
        row.addWidget(QLabel("Money"))
        row.addWidget(self.money)
        layout.addLayout(row)
        buttons = QHBoxLayout()
        self.add_button = QPushButton("Add at selection")
        self.up_button = QPushButton("Up")
        self.down_button = QPushButton("Down")
        self.remove_button = QPushButton("Remove")
        for b in (self.add_button, self.up_button, self.down_button, self.remove_button):
            buttons.addWidget(b)
        layout.addLayout(buttons)
        self.add_button.clicked.connect(add_at_selection)
        self.up_button.clicked.connect(lambda: self._move(-1))
        self.down_button.clicked.connect(lambda: self._move(+1))
        self.remove_button.clicked.connect(self._remove)
        self.money.valueChanged.connect(self._money)
        self.table.itemSelectionChanged.connect(self._selected)
        self._grid: list[dict[str, Any]] = []

    def current(self) -> int | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return rows[0].row() if rows else None

    def select_row(self, row: int) -> None:
        if 0 <= row < self.table.rowCount():
            self.table.selectRow(row)

    def _selected(self) -> None:
        row = self.current()
        self.money.blockSignals(True)
        self.money.setEnabled(row is not None)
        if row is not None and row < len(self._grid):
            slot = self._grid[row]
            set_spin(self.money, slot.get("money", 0), 0)
            lane, segment = seat(slot.get("lane", 0)), seat(slot.get("segment", 0))
            if lane is not None and segment is not None:
                self.slotSelected.emit(lane, segment)
        self.money.blockSignals(False)

    def _move(self, step: int) -> None:
        row = self.current()
        if row is None:
            return
        to = row + step
        if 0 <= to < len(self._grid):
            self.push(cmds.MoveGridSlot(row, to))
            self.select_row(to)

    def _remove(self) -> None:
        row = self.current()
        if row is not None:
            self.push(cmds.RemoveGridSlot(row))

    def _money(self, value: int) -> None:
        row = self.current()
        if row is not None:
            self.push(cmds.SetGridSlot(row, money=value))

    def show_document(self, doc: TrackDocument) -> None:
        data = doc.data
        grid = data.get("grid") if isinstance(data, dict) else None
        self._grid = [s for s in grid if isinstance(s, dict)] if isinstance(grid, list) else []
        row = self.current()
        self.table.blockSignals(True)
        self.table.setRowCount(len(self._grid))
        for i, slot in enumerate(self._grid):
            for col, value in enumerate((f"P{i + 1}", slot.get("lane"), slot.get("segment"), slot.get("money"))):
                item = QTableWidgetItem("" if value is None else str(value))
                self.table.setItem(i, col, item)
        self.table.blockSignals(False)
        if row is not None and row < len(self._grid):
            self.table.blockSignals(True)
            self.table.selectRow(row)
            self.table.blockSignals(False)
            self.money.blockSignals(True)
            set_spin(self.money, self._grid[row].get("money", 0), 0)
            self.money.blockSignals(False)
        self.setEnabled(data is not None)
        self.money.setEnabled(self.current() is not None)


class ProblemsPanel(QWidget):
    """The diagnostics of the document, as `slipstream validate` reports them."""

    diagnosticActivated = Signal(object)  # Diagnostic

    def __init__(self) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.summary = QLabel()
        layout.addWidget(self.summary)
        self.tree = QTreeWidget()
        self.tree.setObjectName("problems")
        self.tree.setHeaderLabels(["", "code", "where", "message"])
        self.tree.setRootIsDecorated(False)
        self.tree.setColumnWidth(0, 72)
        self.tree.setColumnWidth(1, 50)
        self.tree.setColumnWidth(2, 70)
        layout.addWidget(self.tree)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemActivated.connect(self._clicked)
        self.diagnostics: list[Diagnostic] | None = None

    def show_diagnostics(self, diags: list[Diagnostic]) -> None:
        if diags == self.diagnostics:
            return
        self.diagnostics = list(diags)
        self.tree.clear()
        bold = QFont()
        bold.setBold(True)
        items = []
        for d in diags:
            item = QTreeWidgetItem([d.severity, d.code, f"{d.line}:{d.column}", d.message])
            item.setForeground(0, QColor("#c01c28") if d.is_error else QColor("#9c6500"))
            item.setFont(0, bold)
            tip = f"{d.file}:{d.line}:{d.column}: {d.severity} {d.code} {d.message} [{d.path}]"
            if d.hint:
                tip += f"\nhint: {d.hint}"
            item.setToolTip(3, tip)
            item.setData(0, Qt.ItemDataRole.UserRole, d)
            items.append(item)
        self.tree.addTopLevelItems(items)
        errors = sum(d.is_error for d in diags)
        warnings = len(diags) - errors
        self.summary.setText(f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
                             if diags else "No problems: the track is valid.")

    def _clicked(self, item: QTreeWidgetItem, _col: int = 0) -> None:
        self.diagnosticActivated.emit(item.data(0, Qt.ItemDataRole.UserRole))


class SourcePanel(QWidget):
    """The YAML text the document saves; edit it and Apply to change the track (undoable)."""

    def __init__(self, push: Push) -> None:
        super().__init__()
        self.push = push
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.edit = QPlainTextEdit()
        self.edit.setObjectName("source")
        font = QFont("DejaVu Sans Mono")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.edit.setFont(font)
        self.edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        layout.addWidget(self.edit)
        row = QHBoxLayout()
        self.apply_button = QPushButton("Apply")
        self.revert_button = QPushButton("Revert")
        row.addStretch(1)
        row.addWidget(self.revert_button)
        row.addWidget(self.apply_button)
        layout.addLayout(row)
        self._text = ""
        self.apply_button.clicked.connect(lambda: self.push(cmds.ReplaceText(self.edit.toPlainText())))
        self.revert_button.clicked.connect(lambda: self._set(self._text))

    def _set(self, text: str) -> None:
        self.edit.setPlainText(text)
        self.edit.document().setModified(False)

    def show_text(self, text: str, force: bool = False) -> None:
        # keep the user's unapplied typing unless told otherwise
        if text == self._text and not force:
            return
        self._text = text
        if force or not self.edit.document().isModified():
            self._set(text)
