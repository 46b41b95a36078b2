"""Tracing a board: the backdrop image under the canvas, its dock and its drag tool.

The track file keeps only a reference (`backdrop:` of track/2, engine/tracks/backdrop.py); the
image is read from beside the file and drawn under every space. The Backdrop dock opens,
removes, places (x, y), scales, rotates, fades and locks it; the Backdrop tool drags it on the
canvas (Shift+wheel scales it about the cursor). Every change is a `SetBackdrop` command, so
it is undone like any edit; one drag or one run of spin-box steps is one undo step.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QPixmap, QTransform, QWheelEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGraphicsPixmapItem,
    QGraphicsScene,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from slipstream.editor.spinvalue import set_spin
from slipstream.engine.editing.commands import Command
from slipstream.engine.editing.document import TrackDocument
from slipstream.engine.editing.v2commands import SetBackdrop
from slipstream.engine.tracks.backdrop import Backdrop, backdrop_of

Push = Callable[[Command], None]
Z_BACKDROP = -10.0  # under every space (spaces take z in [0, 1))
IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.gif);;All files (*)"
TOOL = ("backdrop", "Backdrop", "Drag the backdrop image to place it (unless locked); Shift+wheel scales it")


def folder_of(doc: TrackDocument) -> Path:
    """The folder a backdrop path is relative to: the track file's (else the working folder)."""
    return doc.path.parent if doc.path is not None else Path.cwd()


class BackdropLayer:
    """The backdrop's pixmap item in the track scene."""

    def __init__(self, scene: QGraphicsScene) -> None:
        self.scene = scene
        self.item: QGraphicsPixmapItem | None = None
        self._source: tuple[str, float] | None = None
        self.problem = ""

    def show(self, backdrop: Backdrop | None, folder: Path) -> None:
        if backdrop is None:
            self._drop()
            self.problem = ""
            return
        path = folder / backdrop.image
        try:
            key = (str(path), path.stat().st_mtime)
        except OSError:
            self._drop()
            self.problem = f"backdrop image {backdrop.image} not found beside the track file"
            return
        if self.item is None or key != self._source:
            pixmap = QPixmap(str(path))
            if pixmap.isNull():
                self._drop()
                self.problem = f"backdrop image {backdrop.image} cannot be read"
                return
            if self.item is None:
                self.item = QGraphicsPixmapItem()
                self.item.setZValue(Z_BACKDROP)
                self.item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                self.item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
                self.scene.addItem(self.item)
            self.item.setPixmap(pixmap)
            self._source = key
        a, b, c, d, e, f = backdrop.transform()
        self.item.setTransform(QTransform(a, b, c, d, e, f))
        self.item.setOpacity(backdrop.opacity)
        self.problem = ""

    def _drop(self) -> None:
        if self.item is not None and self.item.scene() is self.scene:
            self.scene.removeItem(self.item)
        self.item = None
        self._source = None


def _double(name: str, lo: float, hi: float, decimals: int, step: float, suffix: str = "") -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setObjectName(name)
    box.setRange(lo, hi)
    box.setDecimals(decimals)
    box.setSingleStep(step)
    box.setSuffix(suffix)
    box.setKeyboardTracking(False)
    return box


class BackdropPanel(QWidget):
    """The Backdrop dock: open, remove, place, scale, rotate, fade and lock the image."""

    def __init__(self, push: Push, seal: Callable[[], None], status: Callable[[str], None]) -> None:
        super().__init__()
        self.push, self.seal, self.status = push, seal, status
        self.doc: TrackDocument | None = None
        self._filling = False
        layout = QVBoxLayout(self)
        self.note = QLabel("")
        self.note.setObjectName("backdrop-note")
        self.note.setWordWrap(True)
        buttons = QHBoxLayout()
        self.open_button = QPushButton("Open image…")
        self.open_button.setObjectName("backdrop-open")
        self.open_button.clicked.connect(self.open_dialog)
        self.remove_button = QPushButton("Remove")
        self.remove_button.setObjectName("backdrop-remove")
        self.remove_button.clicked.connect(lambda: self.push(SetBackdrop(None)))
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.remove_button)
        form = QFormLayout()
        self.x_box = _double("backdrop-x", -1e6, 1e6, 1, 10)
        self.y_box = _double("backdrop-y", -1e6, 1e6, 1, 10)
        self.scale_box = _double("backdrop-scale", 0.001, 1000, 4, 0.01, " ×")
        self.rotation_box = _double("backdrop-rotation", -360, 360, 1, 1, "°")
        self.opacity_slider = QSlider(Qt.Orientation.Horizontal)
        self.opacity_slider.setObjectName("backdrop-opacity")
        self.opacity_slider.setRange(0, 100)
        self.locked_box = QCheckBox("Locked")
        self.locked_box.setObjectName("backdrop-locked")
        form.addRow("X", self.x_box)
        form.addRow("Y", self.y_box)
        form.addRow("Scale", self.scale_box)
        form.addRow("Rotation", self.rotation_box)
        form.addRow("Opacity", self.opacity_slider)
        form.addRow("", self.locked_box)
        layout.addWidget(self.note)
        layout.addLayout(buttons)
        layout.addLayout(form)
        layout.addStretch(1)
        for key, box in (("x", self.x_box), ("y", self.y_box), ("scale", self.scale_box), ("rotation", self.rotation_box)):
            box.valueChanged.connect(lambda v, k=key: self._set(k, float(v)))
            box.editingFinished.connect(self.seal)
        self.opacity_slider.valueChanged.connect(lambda v: self._set("opacity", v / 100))
        self.opacity_slider.sliderReleased.connect(self.seal)
        self.locked_box.toggled.connect(lambda on: self._set("locked", bool(on)))
        self.show_document(None)

    def _set(self, key: str, value: Any) -> None:
        if not self._filling:
            self.push(SetBackdrop({key: value}))

    def show_document(self, doc: TrackDocument | None) -> None:
        self.doc = doc
        data = doc.data if doc is not None else None
        v2 = isinstance(data, dict) and data.get("slipstream") == "track/2"
        b = backdrop_of(data) if v2 else None
        self._filling = True
        try:
            if not v2:
                self.note.setText("A backdrop needs a track/2 file." if data is not None else "")
            elif b is None:
                self.note.setText("No backdrop: open a board scan to trace the track over it.")
            else:
                self.note.setText(f"Image: {b.image}")
            shown = b or Backdrop("")
            set_spin(self.x_box, shown.x)
            set_spin(self.y_box, shown.y)
            set_spin(self.scale_box, shown.scale)
            set_spin(self.rotation_box, shown.rotation)
            self.opacity_slider.setValue(round(shown.opacity * 100))
            self.locked_box.setChecked(shown.locked)
        finally:
            self._filling = False
        self.open_button.setEnabled(v2)
        self.remove_button.setEnabled(b is not None)
        self.locked_box.setEnabled(b is not None)
        self.opacity_slider.setEnabled(b is not None)
        for box in (self.x_box, self.y_box, self.scale_box, self.rotation_box):
            box.setEnabled(b is not None and not b.locked)

    def open_dialog(self) -> None:
        doc = self.doc
        if doc is None:
            return
        name, _ = QFileDialog.getOpenFileName(self, "Open backdrop image", str(folder_of(doc)), IMAGE_FILTER)
        if name:
            self.set_image(Path(name))

    def set_image(self, path: Path) -> None:
        """Use `path` as the backdrop, referred to relative to the track file's folder."""
        doc = self.doc
        if doc is None:
            return
        if doc.path is None:
            self.status("Save the track first: the backdrop is kept as a path beside the track file.")
            return
        try:
            rel = Path(os.path.relpath(path.resolve(), doc.path.resolve().parent)).as_posix()
        except ValueError:  # another drive (Windows): no relative path exists
            self.status(f"{path} is on another drive than the track file; copy it beside the track.")
            return
        self.push(SetBackdrop({"image": rel}))


class BackdropTool(QObject):
    """The Backdrop tool: a left drag moves the image, Shift+wheel scales it about the cursor."""

    def __init__(self, view: Any, push: Push, seal: Callable[[], None], doc: Callable[[], TrackDocument],
                 status: Callable[[str], None]) -> None:
        super().__init__()
        self.view, self.push, self.seal, self.doc, self.status = view, push, seal, doc, status
        self._start: tuple[QPointF, float, float] | None = None
        view.viewport().installEventFilter(self)

    def _backdrop(self) -> Backdrop | None:
        return backdrop_of(self.doc().data)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        kind = event.type()
        if kind not in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseMove, QEvent.Type.MouseButtonRelease,
                        QEvent.Type.Wheel) or self.view.tool != TOOL[0]:
            return False
        if kind == QEvent.Type.Wheel:
            assert isinstance(event, QWheelEvent)
            if not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                return False
            steps = (event.angleDelta().y() or event.angleDelta().x()) / 120
            self.scale_at(self.view.mapToScene(event.position().toPoint()), 1.02 ** steps)
            return True
        assert isinstance(event, QMouseEvent)
        if kind == QEvent.Type.MouseButtonPress and event.button() != Qt.MouseButton.LeftButton:
            return False  # the middle button still pans
        pos = self.view.mapToScene(event.position().toPoint())
        if kind == QEvent.Type.MouseButtonPress:
            b = self._backdrop()
            if b is None:
                self.status("No backdrop: open an image in the Backdrop dock.")
            elif b.locked:
                self.status("The backdrop is locked (Backdrop dock).")
            else:
                self._start = (pos, b.x, b.y)
            return True
        if kind == QEvent.Type.MouseMove:
            if self._start is not None and event.buttons() & Qt.MouseButton.LeftButton:
                p0, x0, y0 = self._start
                self.push(SetBackdrop({"x": round(x0 + pos.x() - p0.x(), 1), "y": round(y0 + pos.y() - p0.y(), 1)}))
            return True
        if self._start is not None:
            self._start = None
            self.seal()  # one drag, one step
        return True

    def scale_at(self, pos: QPointF, factor: float) -> None:
        """Scale the backdrop by `factor`, keeping the image point under `pos` where it is."""
        b = self._backdrop()
        if b is None or b.locked:
            return
        scale = min(1000.0, max(0.001, b.scale * factor))
        k = scale / b.scale
        self.push(SetBackdrop({"scale": round(scale, 5), "x": round(pos.x() + (b.x - pos.x()) * k, 2),
                               "y": round(pos.y() + (b.y - pos.y()) * k, 2)}))

