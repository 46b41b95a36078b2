"""The effect editor: build effect lists from the vocabulary of schemas/effect.schema.json.

An effect list is a column of steps run top to bottom. Each step picks a primitive from a
drop-down (the `oneOf` of the schema's `effect`, so a new primitive shows up by itself) and
edits its parameters with the generated form; steps move up and down and are removed with the
buttons beside them. Steps holding effect lists (`choose_one`, `if`, `schedule`, `others`)
nest the same editor.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...forms import INDENT_PX, Field, RawField, Schemas, default_for, is_scalar_field, make_field


def effect_defs(s: Schemas) -> dict[str, Any]:
    """The `$defs` of schemas/effect.schema.json."""
    defs: dict[str, Any] = s.docs[s.names["effect"]]["$defs"]
    return defs


def is_def(s: Schemas, schema: dict[str, Any], name: str) -> bool:
    """Whether `schema` is the effect schema's `$defs/name` (a copy with a description too)."""
    if "effect" not in s.names:
        return False
    defs = effect_defs(s)
    if name not in defs:
        return False
    if schema is defs[name]:
        return True
    strip = ("description",)  # a description beside a `$ref` makes a copy of the target
    return {k: v for k, v in schema.items() if k not in strip} == \
        {k: v for k, v in defs[name].items() if k not in strip}


def primitives(s: Schemas) -> list[tuple[str, dict[str, Any], str]]:
    """(name, parameter schema, description) of every primitive, in vocabulary order."""
    out = []
    eff, base = s.resolve({"$ref": "#/$defs/effect"}, s.names["effect"])
    for branch in eff.get("oneOf", []):
        b, _bb = s.resolve(branch, base)
        name = b["required"][0]
        out.append((name, b["properties"][name], b.get("description", "")))
    return out


class EffectStepField(Field):
    """One step: the primitive's name and its parameters."""

    def __init__(self, s: Schemas, value: Any) -> None:
        super().__init__()
        self.s = s
        self.base = s.names["effect"]
        self.prims = primitives(s)
        self.names = [p[0] for p in self.prims]
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        top = QHBoxLayout()
        outer.addLayout(top)
        self.combo = QComboBox()
        self.combo.setObjectName("primitive")
        for name, _schema, desc in self.prims:
            self.combo.addItem(name)
            self.combo.setItemData(self.combo.count() - 1, desc, Qt.ItemDataRole.ToolTipRole)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        top.addWidget(self.combo, 0, Qt.AlignmentFlag.AlignTop)
        self.beside = QHBoxLayout()  # scalar parameters (gain_wear: 2) sit beside the name
        top.addLayout(self.beside)
        top.addStretch(1)
        self.body_holder = QVBoxLayout()  # mappings and lists go below, indented
        self.body_holder.setContentsMargins(INDENT_PX, 0, 0, 0)
        outer.addLayout(self.body_holder)
        self.body: Field | None = None
        self.name = ""
        self.set_value(value)
        self.combo.currentIndexChanged.connect(self._switch)

    def _show(self, name: str, params: Any) -> None:
        if self.body is not None:
            self.body.setParent(None)
            self.body.deleteLater()
        self.name = name
        if name in self.names:
            schema = self.prims[self.names.index(name)][1]
            self.body = make_field(self.s, schema, self.base, params, inline=True)
            self.combo.setToolTip(self.prims[self.names.index(name)][2])
        else:
            self.body = RawField(params)
        self.body.edited.connect(self.edited.emit)
        (self.beside if is_scalar_field(self.body) else self.body_holder).addWidget(self.body)

    def _switch(self, i: int) -> None:
        if i >= len(self.prims):
            return
        name, schema, _desc = self.prims[i]
        self._show(name, default_for(self.s, schema, self.base))
        self.edited.emit()

    def set_value(self, value: Any) -> None:
        if self.body is not None and self.value() == value:
            return
        if isinstance(value, dict) and len(value) == 1:
            name, params = next(iter(value.items()))
        else:
            name, params = self.names[0], default_for(self.s, self.prims[0][1], self.base)
        self.combo.blockSignals(True)
        if name in self.names:
            self.combo.setCurrentIndex(self.names.index(name))
        else:  # not in the vocabulary (a typo in the YAML): shown and kept as written
            self.combo.addItem(f"{name} (unknown)")
            self.combo.setCurrentIndex(self.combo.count() - 1)
        self.combo.blockSignals(False)
        self._show(str(name), params)

    def value(self) -> Any:
        return {self.name: self.body.value() if self.body is not None else None}

    def child(self, key: str | int) -> Field | None:
        return self.body if key == self.name else None

    def choose(self, name: str) -> None:
        """Pick a primitive (as the user does in the drop-down)."""
        self.combo.setCurrentIndex(self.names.index(name))

    def focus_widget(self) -> QWidget:
        return self.combo


class EffectListField(Field):
    """A numbered column of steps with up / down / remove, and Add step."""

    def __init__(self, s: Schemas, value: Any) -> None:
        super().__init__()
        self.s = s
        self.steps: list[EffectStepField] = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(3)
        self.box = QVBoxLayout()
        self.box.setSpacing(3)
        lay.addLayout(self.box)
        row = QHBoxLayout()
        self.pick = QComboBox()
        self.pick.setObjectName("add-primitive")
        for name, _schema, desc in primitives(s):
            self.pick.addItem(name)
            self.pick.setItemData(self.pick.count() - 1, desc, Qt.ItemDataRole.ToolTipRole)
        self.add_button = QPushButton("Add step")
        self.add_button.setObjectName("add-step")
        self.add_button.clicked.connect(lambda: self.add_step(self.pick.currentText()))
        row.addWidget(self.pick)
        row.addWidget(self.add_button)
        row.addStretch(1)
        lay.addLayout(row)
        self.set_value(value)

    def set_value(self, value: Any) -> None:
        value = value if isinstance(value, list) else []
        if self.steps and self.value() == value:
            return
        while self.box.count():
            item = self.box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.steps = []
        for v in value:
            self._add_row(v)

    def _add_row(self, v: Any) -> EffectStepField:
        frame = QFrame()
        frame.setFrameShape(QFrame.Shape.StyledPanel)
        frame.setObjectName("effect-step")
        h = QHBoxLayout(frame)
        h.setContentsMargins(3, 3, 3, 3)
        number = QLabel(f"{len(self.steps) + 1}.")
        number.setMinimumWidth(18)
        h.addWidget(number, 0, Qt.AlignmentFlag.AlignTop)
        step = EffectStepField(self.s, v)
        step.edited.connect(self.edited.emit)
        h.addWidget(step, 1)
        for text, tip, move in (("↑", "Run earlier", -1), ("↓", "Run later", 1), ("✕", "Remove step", 0)):
            b = QToolButton()
            b.setText(text)
            b.setToolTip(tip)
            b.clicked.connect(lambda _c=False, st=step, m=move: self.step_action(self.steps.index(st), m))
            h.addWidget(b, 0, Qt.AlignmentFlag.AlignTop)
        self.steps.append(step)
        self.box.addWidget(frame)
        return step

    def add_step(self, name: str) -> EffectStepField:
        """Append a step running primitive `name` with default parameters."""
        prims = {p[0]: p[1] for p in primitives(self.s)}
        step = self._add_row({name: default_for(self.s, prims[name], self.s.names["effect"])})
        self.edited.emit()
        return step

    def step_action(self, i: int, move: int) -> None:
        """Move step `i` by `move` (-1 up, +1 down), or remove it when `move` is 0."""
        values = self.value()
        if move == 0:
            del values[i]
        elif 0 <= i + move < len(values):
            values.insert(i + move, values.pop(i))
        else:
            return
        self.set_value(values)
        self.edited.emit()

    def value(self) -> Any:
        return [s.value() for s in self.steps]

    def child(self, key: str | int) -> Field | None:
        return self.steps[key] if isinstance(key, int) and 0 <= key < len(self.steps) else None
