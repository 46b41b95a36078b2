"""Numbers of a data file edited as a table: gear dice faces, wear rows, decks, price lists.

A `DataTable` (engine/play/protocol.py), which a ruleset's `authoring` capability gives, says
where the rows are in a file and which fields are columns. `TableEditor` shows them in a
QTableWidget and turns each cell the user changes into one command on the pack's undo history
(`SetValue` of that field, `InsertItem` / `RemoveItem` for rows), so undo, redo and the
minimal-splice save (engine/packs/splice.py: only the edited lines change) work as for forms.
Cell types come from the file's schema: whole numbers, on/off ticks, text. A `spread` field (a
die's faces) shows one cell per entry and one empty cell to add one; clearing a cell removes
its entry. An optional field cleared in its cell is removed from the row.

In a pack that extends another, a table whose rows merge one by one (the content model's
`row_kinds`) shows the inherited rows first, as the parents merge them, then the pack's own: a
cell changed in an inherited row becomes that row's `overrides:` entry in the pack's own file
(`change`, engine/editing/packdoc.py `change_inherited_row`), and setting it back to the
inherited value takes the override away again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
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
    merge_rows,
    next_row,
)
from slipstream.engine.play.protocol import DataTable

from ..forms import Schema, Schemas, humanise, schemas

Push = Callable[[Command], None]
# (row key, field, new value, inherited value): change one field of an inherited row
ChangeInherited = Callable[[Any, str, Any, Any], None]
INHERITED_INK = QColor("#6b6f73")  # an inherited value the pack does not change


def _with_entry(values: Any, index: int, value: Any) -> list[Any] | None:
    """A spread list (a die's faces) with entry `index` set to `value`, appended past the end,
    or taken out for DELETE; None when there is nothing to take out."""
    out = list(values or [])
    if value is DELETE:
        if index >= len(out):
            return None
        del out[index]
    elif index < len(out):
        out[index] = value
    else:
        out.append(value)
    return out

class TableEditor(QWidget):
    """One `DataTable` of one file: a cell per number, edits pushed as commands."""

    message = Signal(str)  # a refused edit, in words (the window shows it in its status bar)

    def __init__(self, spec: DataTable, rel: str, data: Any, push: Push, s: Schemas | None = None, *,
                 inherited: list[dict[str, Any]] | None = None, key_field: str = "",
                 change: ChangeInherited | None = None, add: Callable[[dict[str, Any]], None] | None = None) -> None:
        super().__init__()
        self.spec, self.rel, self.push = spec, rel, push
        self.s = s or schemas()
        self.mapping = bool(spec.key)
        self.row_schema, self.cell_schemas = self._schemas()
        # the rows the pack inherits (merged through its parents) and what names a row
        self.inherited = [] if self.mapping else list(inherited or [])
        self.key_field, self.change, self.add = key_field, change, add
        self.base: list[dict[str, Any]] = []  # the inherited rows as this pack changes them
        self.rows: list[Any] = []  # the pack's own rows
        self.keys: list[str] = []  # the mapping's keys, a row each
        self.columns: list[tuple[str, int | None]] = []  # (field, index of a spread entry or None)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        more = (" Grey rows are inherited: a change to one is kept as an override in the pack's own "
                f"{rel}." if self.inherited else "")
        title = QLabel(f"<b>{spec.title}</b> ({rel}) — double-click a cell to change it; "
                       f"Edit > Undo takes the change back.{more}")
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
            changes = {k: data[k] for k in ("removes", "overrides") if isinstance(data, dict) and k in data}
            self.base = merge_rows(self.inherited, changes, ("",), self.key_field) if self.inherited else []
            self.columns = [(c, None) for c in self.spec.columns]
            headers = [humanise(c) for c in self.spec.columns]
            if self.spec.spread:
                longest = max((len(r.get(self.spec.spread) or []) for r in self.shown() if isinstance(r, dict)),
                              default=0)
                self.columns += [(self.spec.spread, i) for i in range(longest + 1)]
                headers += [f"{humanise(self.spec.spread).rstrip('s')} {i + 1}" for i in range(longest + 1)]
        self.table.blockSignals(True)
        self.table.clear()
        shown = self.shown()
        self.table.setRowCount(len(shown))
        self.table.setColumnCount(len(self.columns))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setVerticalHeaderLabels(
            [humanise(k) for k in self.keys] if self.mapping else
            ["inherited"] * len(self.base) + [str(i + 1) for i in range(len(self.rows))])
        for r in range(len(shown)):
            for c, (field, index) in enumerate(self.columns):
                self.table.setItem(r, c, self._item(r, field, index))
        self.table.blockSignals(False)
        self.remove_button.setEnabled(bool(self.rows))

    def shown(self) -> list[Any]:
        """The rows on show: the inherited ones (as the pack changes them), then its own."""
        return [*self.base, *self.rows]

    def _original(self, r: int) -> dict[str, Any]:
        """The inherited row shown in row `r` as the parents have it (before this pack's changes)."""
        key = self.base[r].get(self.key_field)
        return next((row for row in self.inherited if row.get(self.key_field) == key), {})

    def _item(self, r: int, field: str, index: int | None) -> QTableWidgetItem:
        value = self._value(self.shown()[r], field, index)
        schema = self.cell_schemas.get(self.keys[r] if self.mapping else field, {})
        it = QTableWidgetItem()
        if r < len(self.base):  # an inherited row: grey, and bold where this pack changes it
            if self._value(self._original(r), field, index) == value:
                it.setForeground(QBrush(INHERITED_INK))
            else:
                font = QFont()
                font.setBold(True)
                it.setFont(font)
                it.setToolTip("changed by this pack (an override)")
        if schema.get("type") == "boolean" and index is None:
            it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsUserCheckable)
            it.setCheckState(Qt.CheckState.Checked if value else Qt.CheckState.Unchecked)
        else:
            it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsUserCheckable)
            it.setText("" if value is None else _text(value))
            if isinstance(value, int) and not isinstance(value, bool):
                it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if schema.get("description") and not it.toolTip():
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
        if not (0 <= r < len(self.shown()) and 0 <= c < len(self.columns)):
            return
        if r < len(self.base):
            self._inherited_changed(it, r, c)
            return
        r -= len(self.base)
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

    def _inherited_changed(self, it: QTableWidgetItem, r: int, c: int) -> None:
        """A cell of an inherited row: the row's override in the pack's own file (a cleared cell
        goes back to the inherited value)."""
        field, index = self.columns[c]
        schema = self.cell_schemas.get(field, {})
        original = self._original(r)
        current = self.base[r]
        if field == self.key_field or self.change is None:
            self.message.emit(f"{humanise(field)} names the inherited row: it cannot change here")
            self.set_data(self._data)
            return
        if schema.get("type") == "boolean" and index is None:
            value: Any = it.checkState() == Qt.CheckState.Checked
        else:
            text = it.text().strip()
            value = DELETE if text == "" else _parse(text, schema)
            if value is _BAD:
                self.message.emit(f"{humanise(field)}: {text!r} is not {_kind(schema)}")
                self.set_data(self._data)
                return
        if index is not None:  # one entry of a spread list: the override holds the whole list
            values = _with_entry(current.get(field), index, value)
            if values is None:
                return
            value = values
        elif value is DELETE:
            value = original.get(field)  # cleared: back to the inherited value
        self.change(current.get(self.key_field), field, value, original.get(field))

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
            values = _with_entry(row.get(key), index, value)
            if values is None:
                return
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
        last = next_row(self.shown(), self.spec.columns[0] if self.spec.columns else "")
        if self._data is None and self.add is not None:  # no own file yet: the window starts one
            self.add(last)
            return
        self.push(InsertItem(self.rel, self.spec.path, last, None, f"Add a row to {self.spec.title}"))

    def remove_row(self) -> None:
        """Remove the current own row (the last without one); an inherited row stays (a
        `removes:` entry in the YAML leaves it out)."""
        r = self.table.currentRow() - len(self.base)
        if self.table.currentRow() >= 0 and r < 0:
            self.message.emit("an inherited row is left out with `removes:` in the YAML tab")
            return
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
