"""Forms generated from the JSON schemas: a new schema field shows up without new widget code.

`Schemas` resolves `$ref`s between the bundled schemas (by `$id`). `make_field` turns a schema
into a widget: text, number, switch and choice fields for scalars, a row per property for
objects (optional properties have a tick box that adds or removes them), an editable list for
arrays (a list of whole numbers, such as a die's faces, on one line), and a variant picker for `oneOf` (a number, `all` or `{up_to: N}` ...). A ruleset's
pack panels may take over parts of its own schemas with hooks (`FieldHook`, loaded through the
registry: a ruleset with card effects gives them its effect editor). Every field shows its schema
description as a tooltip. Fields never own data: they emit `edited` and the pack view turns that into a command.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any, Protocol
from urllib.parse import urljoin

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from slipstream.editor.spinvalue import set_spin
from slipstream.engine.core.schema import schema_files

Schema = dict[str, Any]
ERROR_STYLE = "border: 2px solid #c01c28;"
INDENT_PX = 18
LONG_TEXT = 500  # strings allowed this long get a multi-line box


# ---------------------------------------------------------------------------------------------
# Schema walking (plain Python)
# ---------------------------------------------------------------------------------------------


class FieldHook(Protocol):
    """A ruleset's own field for parts of its schemas (registered by its pack panels)."""

    def takes(self, s: Schemas, schema: Schema) -> bool:
        """Whether it makes the field of `schema` (resolved)."""
        ...

    def make(self, s: Schemas, schema: Schema, base: str, value: Any) -> Field: ...


class Schemas:
    """The bundled schemas by `$id`, with `$ref` resolution relative to a base URL, and the
    form fields (`hooks`) that take over parts of them."""

    def __init__(self) -> None:
        self.hooks: tuple[FieldHook, ...] = ()
        self.docs: dict[str, Schema] = {}
        self.names: dict[str, str] = {}
        for name, data in schema_files().items():
            self.docs[data["$id"]] = data
            self.names[name.removesuffix(".schema.json")] = data["$id"]

    def item(self, kind: str, defname: str) -> tuple[Schema, str]:
        """The schema of `$defs/defname` in the schema of file kind `kind`, or of the JSON
        pointer `defname` when it starts with `/` (`/properties/cards/items`), `$ref`s followed."""
        base = self.names[kind]
        if not defname.startswith("/"):
            return self.docs[base]["$defs"][defname], base
        schema: Schema = self.docs[base]
        for part in defname.strip("/").split("/"):
            schema, base = self.resolve(schema, base)
            schema = schema[part]
        return self.resolve(schema, base)

    def top(self, kind: str) -> tuple[Schema, str]:
        base = self.names[kind]
        return self.docs[base], base

    def resolve(self, schema: Schema, base: str) -> tuple[Schema, str]:
        """Follow `$ref`s; a description next to a `$ref` wins over the target's."""
        desc = schema.get("description")
        seen = 0
        while "$ref" in schema and seen < 32:
            seen += 1
            url = urljoin(base, schema["$ref"])
            doc_id, _, frag = url.partition("#")
            target: Any = self.docs[doc_id or base]
            for part in [p for p in frag.split("/") if p]:
                target = target[part]
            schema, base = target, doc_id or base
        if desc and schema.get("description") != desc:
            schema = {**schema, "description": desc}
        return schema, base


@cache
def schemas() -> Schemas:
    """The bundled schemas, with the form fields every installed ruleset's pack panels give
    for parts of its own schemas (e.g. an effect editor), loaded by the registry."""
    from slipstream.engine.play.registry import RulesetError, get, ids, panels

    s = Schemas()
    for rid in ids():
        try:  # a ruleset that does not load (or its panels) adds no fields
            found = panels(get(rid), "editor-pack")
        except (RulesetError, ImportError, AttributeError):
            continue
        s.hooks += tuple(found.fields) if found is not None else ()
    return s


def alternatives(schema: Schema) -> list[Schema]:
    """The variants of a `oneOf`, else of an `anyOf` (none: [])."""
    found: list[Schema] = schema["oneOf"] if "oneOf" in schema else schema.get("anyOf", [])
    return found


def branches(s: Schemas, schema: Schema, base: str) -> list[tuple[Schema, str]]:
    return [s.resolve(b, base) for b in alternatives(schema)]


def matches(s: Schemas, schema: Schema, base: str, value: Any) -> bool:
    """Whether `value` has the shape of `schema` (types, consts, required keys)."""
    schema, base = s.resolve(schema, base)
    if "const" in schema:
        return bool(value == schema["const"])
    if "enum" in schema:
        return value in schema["enum"]
    if "oneOf" in schema or "anyOf" in schema:
        return any(matches(s, b, bb, value) for b, bb in branches(s, schema, base))
    t = schema.get("type")
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if t == "string":
        return isinstance(value, str)
    if t == "boolean":
        return isinstance(value, bool)
    if t == "array":
        return isinstance(value, list)
    if t == "object" or "properties" in schema or "required" in schema:
        if not isinstance(value, dict):
            return False
        if not all(r in value for r in schema.get("required", ())):
            return False
        if schema.get("additionalProperties") is False:
            props = schema.get("properties", {})
            return all(k in props or str(k).startswith("x-") for k in value)
        return True
    return True


def default_for(s: Schemas, schema: Schema, base: str) -> Any:
    """A value that has the schema's shape (the first choice of every variant)."""
    schema, base = s.resolve(schema, base)
    if "default" in schema:
        return copy.deepcopy(schema["default"])
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    if "oneOf" in schema or "anyOf" in schema:
        b, bb = branches(s, schema, base)[0]
        return default_for(s, b, bb)
    t = schema.get("type")
    if t == "integer" or t == "number":
        return max(0, int(schema.get("minimum", 0)))
    if t == "string":
        return ""
    if t == "boolean":
        return False
    if t == "array":
        item = schema.get("items", {})
        return [default_for(s, item, base) for _ in range(int(schema.get("minItems", 0)))]
    if t == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {k: default_for(s, props[k], base) for k in schema.get("required", ()) if k in props}
    return None


def flat_variants(s: Schemas, schema: Schema, base: str) -> list[tuple[Schema, str, str]]:
    """The variants of a `oneOf` as (schema, base, label), with nested `oneOf`s spread out
    (`{up_to: N}` where N is a number or a count expression gives one list: number, count,
    distinct_kinds ..., all); one a hook takes stays one variant. A variant naming a
    definition is labelled with its name."""
    out: list[tuple[Schema, str, str]] = []
    for raw in alternatives(schema):
        b, bb = s.resolve(raw, base)
        if ("oneOf" in b or "anyOf" in b) and not any(h.takes(s, b) for h in s.hooks):
            out += flat_variants(s, b, bb)
            continue
        ref = raw.get("$ref", "") if isinstance(raw, dict) else ""
        out.append((b, bb, ref.rpartition("/")[2] if "#/$defs/" in ref else branch_label(b)))
    return out


def branch_label(schema: Schema) -> str:
    """A short name for a variant: its single required key, its const, or its type."""
    if "const" in schema:
        return str(schema["const"])
    req = schema.get("required")
    if req:
        return str(req[0])
    t = schema.get("type")
    if t == "integer":
        return "number"
    if t == "array":
        return "list"
    if "enum" in schema:
        return "choice"
    return str(t or "value")


def humanise(key: str) -> str:
    return key.replace("_", " ")


# ---------------------------------------------------------------------------------------------
# Fields
# ---------------------------------------------------------------------------------------------


class Field(QWidget):
    """A widget editing one value of a schema; emits `edited` when the user changes it."""

    edited = Signal()

    def value(self) -> Any:
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        raise NotImplementedError

    def child(self, key: str | int) -> Field | None:
        """The field editing part `key` of this value (for diagnostics), if any."""
        return None

    def focus_widget(self) -> QWidget:
        return self


class TextField(Field):
    def __init__(self, schema: Schema, value: Any) -> None:
        super().__init__()
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.edit = QLineEdit()
        lay.addWidget(self.edit)
        self.edit.setPlaceholderText(schema.get("description", "")[:80])
        self.set_value(value)
        self.edit.editingFinished.connect(self._finished)
        self._last = self.edit.text()

    def _finished(self) -> None:
        if self.edit.text() != self._last:
            self._last = self.edit.text()
            self.edited.emit()

    def value(self) -> Any:
        return self.edit.text()

    def set_value(self, value: Any) -> None:
        text = "" if value is None else str(value)
        if self.edit.text() != text:
            self.edit.setText(text)
        self._last = text

    def focus_widget(self) -> QWidget:
        return self.edit


class TextAreaField(Field):
    """A long text (card texts, notes): several lines, committed when the box loses focus."""

    def __init__(self, schema: Schema, value: Any) -> None:
        super().__init__()
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.edit = _AreaEdit(self._finished)
        self.edit.setPlaceholderText(schema.get("description", "")[:80])
        self.edit.setFixedHeight(64)
        lay.addWidget(self.edit)
        self._last = ""
        self.set_value(value)

    def _finished(self) -> None:
        if self.edit.toPlainText() != self._last:
            self._last = self.edit.toPlainText()
            self.edited.emit()

    def value(self) -> Any:
        return self.edit.toPlainText()

    def set_value(self, value: Any) -> None:
        text = "" if value is None else str(value)
        if self.edit.toPlainText() != text:
            self.edit.setPlainText(text)
        self._last = text

    def focus_widget(self) -> QWidget:
        return self.edit


class _AreaEdit(QPlainTextEdit):
    def __init__(self, on_leave: Any) -> None:
        super().__init__()
        self.on_leave = on_leave
        self.setTabChangesFocus(True)

    def focusOutEvent(self, event: Any) -> None:  # noqa: N802
        self.on_leave()
        super().focusOutEvent(event)


def is_scalar_field(field: Field) -> bool:
    """Fields that fit on one line beside a label or picker."""
    if isinstance(field, VariantField):
        return field.current is not None and is_scalar_field(field.current)
    return isinstance(field, TextField | IntField | NumberListField | BoolField | ChoiceField | ConstField | RawField)


class IntField(Field):
    def __init__(self, schema: Schema, value: Any) -> None:
        super().__init__()
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.spin = QSpinBox()
        self.spin.setRange(int(schema.get("minimum", -1_000_000)), int(schema.get("maximum", 1_000_000)))
        self.spin.setKeyboardTracking(False)
        lay.addWidget(self.spin)
        lay.addStretch(1)
        self.set_value(value)
        self.spin.valueChanged.connect(lambda _v: self.edited.emit())

    def value(self) -> Any:
        return self.spin.value()

    def set_value(self, value: Any) -> None:
        self.spin.blockSignals(True)
        set_spin(self.spin, value if isinstance(value, int) else 0, 0)
        self.spin.blockSignals(False)

    def focus_widget(self) -> QWidget:
        return self.spin


class NumberListField(Field):
    """A list of whole numbers (a die's faces, a card's speeds) on one line, the numbers parted
    by spaces or commas: a line to read and type, not a column of spin boxes. A text that is
    not all whole numbers is refused (the line shows the list again and says why)."""

    def __init__(self, schema: Schema, item: Schema, value: Any) -> None:
        super().__init__()
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.edit = QLineEdit()
        self.edit.setObjectName("number-list")
        lo, hi = item.get("minimum"), item.get("maximum")
        bounds = f" from {lo} to {hi}" if lo is not None and hi is not None else ""
        self.hint = f"whole numbers{bounds}, parted by spaces"
        self.edit.setPlaceholderText(self.hint)
        self.edit.setToolTip(f"{schema.get('description', '')} ({self.hint})".strip())
        lay.addWidget(self.edit, 1)
        self._value: list[int] = []
        self.set_value(value)
        self.edit.editingFinished.connect(self._finished)

    def _finished(self) -> None:
        parts = self.edit.text().replace(",", " ").split()
        try:
            values = [int(p) for p in parts]
        except ValueError:
            self.edit.setStyleSheet(ERROR_STYLE)
            self.edit.setToolTip(f"{self.edit.text()!r} is not a list of {self.hint}; the list is unchanged")
            self.set_value(self._value)
            return
        self.edit.setStyleSheet("")
        if values != self._value:
            self._value = values
            self.edit.setText(_numbers(values))
            self.edited.emit()

    def value(self) -> Any:
        return list(self._value)

    def set_value(self, value: Any) -> None:
        self._value = [v for v in value if isinstance(v, int) and not isinstance(v, bool)] \
            if isinstance(value, list) else []
        if self.edit.text() != _numbers(self._value):
            self.edit.setText(_numbers(self._value))

    def child(self, key: str | int) -> Field | None:
        return self if isinstance(key, int) else None  # an entry's diagnostic outlines the line

    def focus_widget(self) -> QWidget:
        return self.edit


def _numbers(values: list[int]) -> str:
    return " ".join(str(v) for v in values)


class BoolField(Field):
    def __init__(self, schema: Schema, value: Any) -> None:
        super().__init__()
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.box = QCheckBox()
        lay.addWidget(self.box)
        self.set_value(value)
        self.box.toggled.connect(lambda _v: self.edited.emit())

    def value(self) -> Any:
        return self.box.isChecked()

    def set_value(self, value: Any) -> None:
        self.box.blockSignals(True)
        self.box.setChecked(bool(value))
        self.box.blockSignals(False)

    def focus_widget(self) -> QWidget:
        return self.box


class ChoiceField(Field):
    """An `enum`: a drop-down of its values."""

    def __init__(self, schema: Schema, value: Any) -> None:
        super().__init__()
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.options = list(schema["enum"])
        self.combo = QComboBox()
        self.combo.addItems([str(o) for o in self.options])
        lay.addWidget(self.combo)
        lay.addStretch(1)
        self.set_value(value)
        self.combo.currentIndexChanged.connect(lambda _i: self.edited.emit())

    def value(self) -> Any:
        return self.options[max(0, self.combo.currentIndex())]

    def set_value(self, value: Any) -> None:
        self.combo.blockSignals(True)
        self.combo.setCurrentIndex(self.options.index(value) if value in self.options else 0)
        self.combo.blockSignals(False)

    def focus_widget(self) -> QWidget:
        return self.combo


class ConstField(Field):
    def __init__(self, schema: Schema, value: Any) -> None:
        super().__init__()
        self.const = schema["const"]
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(f"<i>{self.const}</i>"))
        lay.addStretch(1)

    def value(self) -> Any:
        return self.const

    def set_value(self, value: Any) -> None:
        pass


class ObjectField(Field):
    """One row per property; optional properties have a tick box that adds or removes them."""

    def __init__(self, s: Schemas, schema: Schema, base: str, value: Any, *, frame: bool = True) -> None:
        super().__init__()
        self.s, self.schema, self.base = s, schema, base
        self.props: dict[str, Schema] = schema.get("properties", {})
        self.required = set(schema.get("required", ()))
        self.fields: dict[str, Field] = {}
        self.ticks: dict[str, QCheckBox] = {}
        self.extra: dict[str, Any] = {}
        self.form = QFormLayout(self)
        self.form.setContentsMargins(6 if frame else 0, 2, 0, 2)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.set_value(value)

    def set_value(self, value: Any) -> None:
        value = value if isinstance(value, dict) else {}
        if self.fields and self.value() == value:
            return
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields.clear()
        self.ticks.clear()
        self.extra = {k: v for k, v in value.items() if k not in self.props}
        for key, sub in self.props.items():
            if key == "slipstream":
                continue
            rsub, rbase = self.s.resolve(sub, self.base)
            present = key in value
            shown = value[key] if present else default_for(self.s, rsub, rbase)
            field = make_field(self.s, rsub, rbase, shown)
            field.setObjectName(f"field-{key}")
            field.setProperty("key", key)  # completions are looked up by property name
            tip = rsub.get("description", "")
            field.setToolTip(tip)
            label: QWidget
            if key in self.required:
                label = QLabel(humanise(key))
            else:
                tick = QCheckBox(humanise(key))
                tick.setObjectName(f"tick-{key}")
                tick.setChecked(present)
                field.setEnabled(present)
                tick.toggled.connect(lambda on, f=field: self._ticked(f, on))
                self.ticks[key] = tick
                label = tick
            label.setToolTip(tip)
            field.edited.connect(self.edited.emit)
            self.fields[key] = field
            self.form.addRow(label, field)

    def _ticked(self, field: QWidget, on: bool) -> None:
        field.setEnabled(on)
        self.edited.emit()

    def value(self) -> Any:
        out: dict[str, Any] = {}
        for key, field in self.fields.items():
            if key in self.ticks and not self.ticks[key].isChecked():
                continue
            out[key] = field.value()
        if "slipstream" in self.props:
            out = {"slipstream": self.props["slipstream"].get("const"), **out}
        out.update(self.extra)
        return out

    def child(self, key: str | int) -> Field | None:
        return self.fields.get(key) if isinstance(key, str) else None

    def set_present(self, key: str, on: bool = True) -> None:
        if key in self.ticks:
            self.ticks[key].setChecked(on)


class ListField(Field):
    """An array: one row per item with move up, move down and remove; Add appends."""

    def __init__(self, s: Schemas, schema: Schema, base: str, value: Any) -> None:
        super().__init__()
        self.s, self.base = s, base
        self.item_schema, self.item_base = s.resolve(schema.get("items", {}), base)
        self.rows: list[Field] = []
        self.lay = QVBoxLayout(self)
        self.lay.setContentsMargins(0, 0, 0, 0)
        self.lay.setSpacing(2)
        self.box = QVBoxLayout()
        self.box.setSpacing(2)
        self.lay.addLayout(self.box)
        self.add_button = QPushButton("Add")
        self.add_button.setObjectName("list-add")
        self.add_button.clicked.connect(self.add)
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addStretch(1)
        self.lay.addLayout(row)
        self.set_value(value)

    def set_value(self, value: Any) -> None:
        value = value if isinstance(value, list) else []
        if self.rows and self.value() == value:
            return
        while self.box.count():
            item = self.box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.rows = []
        for i, v in enumerate(value):
            self._add_row(i, v)

    def _add_row(self, i: int, v: Any) -> None:
        holder = QWidget()
        h = QHBoxLayout(holder)
        h.setContentsMargins(0, 0, 0, 0)
        field = make_field(self.s, self.item_schema, self.item_base, v)
        field.edited.connect(self.edited.emit)
        h.addWidget(field, 1)
        for text, tip, step in (("↑", "Move up", -1), ("↓", "Move down", 1), ("✕", "Remove", 0)):
            b = QToolButton()
            b.setText(text)
            b.setToolTip(tip)
            b.clicked.connect(lambda _c=False, f=field, st=step: self._row_action(f, st))
            h.addWidget(b, 0, Qt.AlignmentFlag.AlignTop)
        self.rows.append(field)
        self.box.addWidget(holder)

    def _row_action(self, field: Field, step: int) -> None:
        values = self.value()
        i = self.rows.index(field)
        if step == 0:
            del values[i]
        elif 0 <= i + step < len(values):
            values.insert(i + step, values.pop(i))
        else:
            return
        self.set_value(values)
        self.edited.emit()

    def add(self, value: Any = None) -> None:
        v = default_for(self.s, self.item_schema, self.item_base) if value is None or value is False else value
        self._add_row(len(self.rows), v)
        self.edited.emit()

    def value(self) -> Any:
        return [f.value() for f in self.rows]

    def child(self, key: str | int) -> Field | None:
        return self.rows[key] if isinstance(key, int) and 0 <= key < len(self.rows) else None


class VariantField(Field):
    """A `oneOf`: pick the variant, then edit it (a number, `all`, `{up_to: N}` ...)."""

    def __init__(self, s: Schemas, schema: Schema, base: str, value: Any) -> None:
        super().__init__()
        self.s = s
        flat = flat_variants(s, schema, base)
        self.choices = [(b, bb) for b, bb, _label in flat]
        self.labels = [label for _b, _bb, label in flat]
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        self.top = QHBoxLayout()
        outer.addLayout(self.top)
        self.combo = QComboBox()
        self.combo.setObjectName("variant")
        self.combo.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        for (b, _bb), label in zip(self.choices, self.labels, strict=True):
            self.combo.addItem(label)
            self.combo.setItemData(self.combo.count() - 1, b.get("description", ""), Qt.ItemDataRole.ToolTipRole)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.top.addWidget(self.combo, 0, Qt.AlignmentFlag.AlignTop)
        self.beside = QHBoxLayout()  # a scalar variant sits beside the picker
        self.top.addLayout(self.beside)
        self.top.addStretch(1)
        self.below = QVBoxLayout()  # a mapping or list goes below it, indented
        self.below.setContentsMargins(INDENT_PX, 0, 0, 0)
        outer.addLayout(self.below)
        self.current: Field | None = None
        self.set_value(value)
        self.combo.currentIndexChanged.connect(self._switch)

    def _index_of(self, value: Any) -> int:
        for i, (b, bb) in enumerate(self.choices):
            if matches(self.s, b, bb, value):
                return i
        return 0

    def _show(self, i: int, value: Any) -> None:
        b, bb = self.choices[i]
        field = make_field(self.s, b, bb, value, inline=True)
        field.edited.connect(self.edited.emit)
        if self.current is not None:
            self.current.setParent(None)
            self.current.deleteLater()
        self.current = field
        (self.beside if is_scalar_field(field) else self.below).addWidget(field)

    def _switch(self, i: int) -> None:
        b, bb = self.choices[i]
        self._show(i, default_for(self.s, b, bb))
        self.edited.emit()

    def set_value(self, value: Any) -> None:
        if self.current is not None and self.value() == value:
            return
        i = self._index_of(value)
        self.combo.blockSignals(True)
        self.combo.setCurrentIndex(i)
        self.combo.blockSignals(False)
        self._show(i, value)

    def value(self) -> Any:
        return self.current.value() if self.current is not None else None

    def child(self, key: str | int) -> Field | None:
        return self.current.child(key) if self.current is not None else None

    def choose(self, label: str) -> None:
        """Pick a variant by its label (as the user does in the drop-down)."""
        self.combo.setCurrentIndex(self.labels.index(label))


class RawField(Field):
    """Anything the schema does not describe: shown as YAML-ish text, kept as is."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self._value = value
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(repr(value)))

    def value(self) -> Any:
        return self._value

    def set_value(self, value: Any) -> None:
        self._value = value


def make_field(s: Schemas, schema: Schema, base: str, value: Any, *, inline: bool = False) -> Field:
    """The field for `schema` showing `value` (a hook's field when one takes the schema)."""
    schema, base = s.resolve(schema, base)
    for hook in s.hooks:
        if hook.takes(s, schema):
            return hook.make(s, schema, base, value)
    if "const" in schema:
        return ConstField(schema, value)
    if "enum" in schema:
        return ChoiceField(schema, value)
    if "oneOf" in schema or "anyOf" in schema:
        return VariantField(s, schema, base, value)
    t = schema.get("type")
    if t == "string":
        if int(schema.get("maxLength", 0)) >= LONG_TEXT:
            return TextAreaField(schema, value)
        return TextField(schema, value)
    if t == "integer":
        return IntField(schema, value)
    if t == "boolean":
        return BoolField(schema, value)
    if t == "array":
        item, _item_base = s.resolve(schema.get("items", {}), base)
        if item.get("type") == "integer" and not ({"enum", "const", "oneOf", "anyOf"} & set(item)):
            return NumberListField(schema, item, value)
        return ListField(s, schema, base, value)
    if t == "object" or "properties" in schema:
        return ObjectField(s, schema, base, value, frame=not inline)
    return RawField(value)


class ItemForm(QFrame):
    """The form of one pack item (card, driver, sponsor, card set, cube, override, a deck's
    card, a table's row), or of a whole file (`defname` None: the manifest, the rules);
    `defname` names a `$defs` entry or is a JSON pointer into the kind's schema, and `heading`
    names the item when the pointer does not.

    Emits `propertyEdited(key, value)` with the new value of one top-level property (None
    when an optional property was removed)."""

    propertyEdited = Signal(str, object)

    def __init__(self, kind: str, defname: str | None, value: Any,
                 completions: dict[str, list[str]] | None = None, heading: str | None = None) -> None:
        super().__init__()
        self.s = schemas()
        self.completions = completions or {}
        schema, base = self.s.item(kind, defname) if defname else self.s.top(kind)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        heading = heading or (defname or kind).replace("_", " ")
        desc = schema.get("description", "")
        title = QLabel(f"<b>{heading}</b>" + (f" — {desc}" if desc else ""))
        title.setWordWrap(True)
        lay.addWidget(title)
        self.root = ObjectField(self.s, schema, base, value, frame=False)
        self.root.setObjectName("item-form")
        lay.addWidget(self.root)
        lay.addStretch(1)
        self._value = self.root.value()
        self.root.edited.connect(self._edited)
        self.marked: QWidget | None = None
        self._complete()

    def _complete(self) -> None:
        """Offer the pack's ids in text fields named after them (colour, cards, kind ...)."""
        if not self.completions:
            return
        for field in self.findChildren(TextField):
            if field.edit.completer() is not None:
                continue
            w: QWidget | None = field
            key = None
            while w is not None and w is not self and key is None:
                key = w.property("key")
                w = w.parentWidget()
            words = self.completions.get(str(key)) if key is not None else None
            if words:
                comp = QCompleter(sorted(words), field.edit)
                comp.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
                field.edit.setCompleter(comp)

    def _edited(self) -> None:
        self._complete()
        new = self.root.value()
        old = self._value
        self._value = new
        for key in dict.fromkeys([*old, *new]):
            if old.get(key, _MISSING) != new.get(key, _MISSING):
                self.propertyEdited.emit(key, new.get(key))

    def value(self) -> Any:
        return self.root.value()

    def set_value(self, value: Any) -> None:
        """Show `value` (after an undo or a YAML edit); nothing happens when it is shown."""
        if value != self._value:
            self.root.set_value(value)
            self._value = self.root.value()
            self._complete()

    def field(self, path: tuple[str | int, ...]) -> Field | None:
        """The deepest field along `path` (relative to the item)."""
        f: Field | None = self.root
        last = f
        for p in path:
            f = f.child(p) if f is not None else None
            if f is None:
                break
            last = f
        return last

    def mark(self, path: tuple[str | int, ...]) -> Field | None:
        """Select and outline the field a diagnostic points at."""
        if self.marked is not None:
            self.marked.setStyleSheet("")
        f = self.field(path)
        if f is None:
            return None
        w = f.focus_widget()
        w.setStyleSheet(ERROR_STYLE)
        w.setFocus()
        self.marked = w
        return f


_MISSING = object()
