"""Numbers of a data file edited as a table: gear dice faces, wear rows, decks, price lists.

A `DataTable` (engine/play/protocol.py), which a ruleset's `authoring` capability gives, says
where the rows are in a file and which fields are columns. `TableEditor` shows them in a
QTableWidget and turns each cell the user changes into one command on the pack's undo history
(`SetValue` of that field, `InsertItem` / `RemoveItem` for rows), so undo, redo and the
minimal-splice save (engine/packs/splice.py: only the edited lines change) work as for forms.
Cell types come from the file's schema: whole numbers, on/off ticks, text. A `spread` field (a
die's faces) shows one cell per entry and one empty cell to add one; clearing a cell removes
its entry. An optional field cleared in its cell is removed from the row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from slipstream.engine.editing.commands import Command
from slipstream.engine.editing.packdoc import (
    DELETE,
    InsertItem,
    RemoveItem,
    SetValue,
    get_in,
    next_row,
)
from slipstream.engine.play.protocol import DataTable

from ..forms import Schema, Schemas, humanise, schemas

Push = Callable[[Command], None]


class TableEditor(QWidget):
    """One `DataTable` of one file: a cell per number, edits pushed as commands."""

    message = Signal(str)  # a refused edit, in words (the window shows it in its status bar)

    def __init__(self, spec: DataTable, rel: str, data: Any, push: Push, s: Schemas | None = None) -> None:
        super().__init__()
        self.spec, self.rel, self.push = spec, rel, push
        self.s = s or schemas()
        self.mapping = bool(spec.key)
        self.row_schema, self.cell_schemas = self._schemas()
        self.rows: list[Any] = []
        self.keys: list[str] = []  # the mapping's keys, a row each
        self.columns: list[tuple[str, int | None]] = []  # (field, index of a spread entry or None)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        title = QLabel(f"<b>{spec.title}</b> ({rel}) — double-click a cell to change it; "
                       f"Edit > Undo takes the change back.")
        title.setWordWrap(True)
        lay.addWidget(title)
        self.table = QTableWidget()
        self.table.setObjectName("data-table")
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemChanged.connect(self._cell_changed)
        lay.addWidget(self.table, 1)
        row = QHBoxLayout()
        self.add_button = QPushButton("Add row")
        self.add_button.setObjectName("table-add-row")
        self.add_button.clicked.connect(self.add_row)
        self.remove_button = QPushButton("Remove row")
        self.remove_button.setObjectName("table-remove-row")
        self.remove_button.clicked.connect(self.remove_row)
        for b in (self.add_button, self.remove_button):
            b.setVisible(not self.mapping)
            row.addWidget(b)
        row.addStretch(1)
        lay.addLayout(row)
        self.set_data(data)

    # --- schema ------------------------------------------------------------------------------
    def _schemas(self) -> tuple[Schema, dict[str, Schema]]:
        """The schema of a row (a list table) or of the mapping, and of each column's cells."""
        pointer = "".join(f"/properties/{k}" for k in self.spec.path)
        try:
            outer, base = self.s.item(self.spec.kind, pointer + ("" if self.mapping else "/items"))
        except (KeyError, TypeError):
            return {}, {}
        props = outer.get("properties", {})
        cells = {k: self.s.resolve(v, base)[0] for k, v in props.items()}
        if self.spec.spread and self.spec.spread in cells:
            cells[self.spec.spread] = self.s.resolve(cells[self.spec.spread].get("items", {}), base)[0]
        return outer, cells

    def _required(self, field: str) -> bool:
        return field in self.row_schema.get("required", ()) or self.mapping

    # --- showing -----------------------------------------------------------------------------
    def set_data(self, data: Any) -> None:
        """Show the file's data (after an edit, an undo or a YAML change); no signals."""
        self._data: Any = data
        try:
            found = get_in(data, self.spec.path)
        except (KeyError, IndexError, TypeError):
            found = None
        if self.mapping:
            found = found if isinstance(found, dict) else {}
            self.keys = [str(k) for k in found]
            self.rows = list(found.values())
            self.columns = [("", None)]
            headers = [humanise(self.spec.value)]
        else:
            self.rows = list(found) if isinstance(found, list) else []
            self.columns = [(c, None) for c in self.spec.columns]
            headers = [humanise(c) for c in self.spec.columns]
            if self.spec.spread:
                longest = max((len(r.get(self.spec.spread) or []) for r in self.rows if isinstance(r, dict)), default=0)
                self.columns += [(self.spec.spread, i) for i in range(longest + 1)]
                headers += [f"{humanise(self.spec.spread).rstrip('s')} {i + 1}" for i in range(longest + 1)]
        self.table.blockSignals(True)
        self.table.clear()
        self.table.setRowCount(len(self.rows))
        self.table.setColumnCount(len(self.columns))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setVerticalHeaderLabels(
            [humanise(k) for k in self.keys] if self.mapping else [str(i + 1) for i in range(len(self.rows))])
        for r in range(len(self.rows)):
            for c, (field, index) in enumerate(self.columns):
                self.table.setItem(r, c, self._item(r, field, index))
        self.table.blockSignals(False)
        self.remove_button.setEnabled(bool(self.rows))

    def _item(self, r: int, field: str, index: int | None) -> QTableWidgetItem:
        value = self._value(self.rows[r], field, index)
        schema = self.cell_schemas.get(self.keys[r] if self.mapping else field, {})
        it = QTableWidgetItem()
        if schema.get("type") == "boolean" and index is None:
            it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsUserCheckable)
            it.setCheckState(Qt.CheckState.Checked if value else Qt.CheckState.Unchecked)
        else:
            it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsUserCheckable)
            it.setText("" if value is None else _text(value))
            if isinstance(value, int) and not isinstance(value, bool):
                it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if schema.get("description"):
            it.setToolTip(str(schema["description"]))
        return it

    def _value(self, row: Any, field: str, index: int | None) -> Any:
        if self.mapping:
            return row
        if not isinstance(row, dict):
            return None
        value = row.get(field)
        if index is not None:
            values = value if isinstance(value, list) else []
            return values[index] if index < len(values) else None
        return value

    def cell(self, r: int, c: int) -> str:
        """The text of a cell (tests and screenshots read the table like a person)."""
        it = self.table.item(r, c)
        return it.text() if it is not None else ""

    # --- editing -----------------------------------------------------------------------------
    def _cell_changed(self, it: QTableWidgetItem) -> None:
        r, c = it.row(), it.column()
        if not (0 <= r < len(self.rows) and 0 <= c < len(self.columns)):
            return
        field, index = self.columns[c]
        if self.mapping:
            key = self.keys[r]
            schema = self.cell_schemas.get(key, {})
        else:
            key = field
            schema = self.cell_schemas.get(field, {})
        if schema.get("type") == "boolean" and index is None:
            on = it.checkState() == Qt.CheckState.Checked
            value: Any = True if on or self._required(key) else DELETE  # an optional switch off: gone
        else:
            text = it.text().strip()
            if text == "":
                value = DELETE
            else:
                parsed = _parse(text, schema)
                if parsed is _BAD:
                    self.message.emit(f"{humanise(key)}: {text!r} is not {_kind(schema)}")
                    self.set_data(self._data)
                    return
                value = parsed
        self.edit(r, key, index, value)

    def edit(self, r: int, key: str, index: int | None, value: Any) -> None:
        """Set one cell of row `r` (DELETE: clear it) as one command."""
        base: tuple[str | int, ...] = (*self.spec.path, self.keys[r]) if self.mapping else (*self.spec.path, r)
        label = f"{self.spec.title}: {humanise(key)}"
        if self.mapping:
            if value is DELETE:
                self.message.emit(f"{humanise(key)} needs a value")
                self.set_data(self._data)
                return
            self.push(SetValue(self.rel, base, value, f"Set {label}"))
            return
        row = self.rows[r] if isinstance(self.rows[r], dict) else {}
        if index is not None:
            values = list(row.get(key) or [])
            if value is DELETE:
                if index >= len(values):
                    return
                del values[index]
            elif index < len(values):
                values[index] = value
            else:
                values.append(value)
            self.push(SetValue(self.rel, (*base, key), values, f"Set {label} {index + 1}"))
            return
        if value is DELETE and self._required(key):
            self.message.emit(f"{humanise(key)} needs a value in every row")
            self.set_data(self._data)
            return
        self.push(SetValue(self.rel, (*base, key), value, f"{'Clear' if value is DELETE else 'Set'} {label}"))

    def add_row(self) -> None:
        """A new row: a copy of the last one, with its first column one higher when that is a
        whole number (the next gear, the next race length) and an `id` made unique (the user
        then changes what differs)."""
        if self.mapping:
            return
        last = next_row(self.rows, self.spec.columns[0] if self.spec.columns else "")
        self.push(InsertItem(self.rel, self.spec.path, last, None, f"Add a row to {self.spec.title}"))

    def remove_row(self) -> None:
        r = self.table.currentRow()
        r = r if 0 <= r < len(self.rows) else len(self.rows) - 1
        if r >= 0 and not self.mapping:
            self.push(RemoveItem(self.rel, self.spec.path, r))


_BAD = object()


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    return str(value)


def _kind(schema: Schema) -> str:
    t = schema.get("type")
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    return {"integer": "a whole number", "array": "a list of whole numbers", "boolean": "true or false"}.get(
        str(t), "a value")


def _parse(text: str, schema: Schema) -> Any:
    """The value a cell's text stands for under `schema`, or _BAD."""
    t = schema.get("type")
    if "enum" in schema:
        return text if text in schema["enum"] else _BAD
    if t == "integer":
        try:
            return int(text)
        except ValueError:
            return _BAD
    if t == "boolean":
        return {"true": True, "yes": True, "false": False, "no": False}.get(text.lower(), _BAD)
    if t == "array":
        try:
            return [int(x) for x in text.replace(",", " ").split()]
        except ValueError:
            return _BAD
    return text
