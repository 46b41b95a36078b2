"""Race items on the track canvas: cars in player colours, the planned cube route, targets.

Everything is placed with the canvas's own TrackDrawing (the cell centres the SVG and the PDF
use too), above the track items, and removed again when the race view closes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import (
    QGraphicsPathItem,
    QGraphicsSimpleTextItem,
)

from slipstream.engine.tracks.pitdrawing import PitPlacement, place_pit
from slipstream.engine.tracks.track import PIT_LANE

from ..track.canvas import TrackScene, band

Cell = tuple[int, int]  # lane, segment

PLAYER_COLOURS = ("#e6194b", "#2f6fe0", "#f58231", "#9b30c8", "#19b8c9")
Z_TARGETS, Z_ROUTE, Z_CARS, Z_MARKS = 18.0, 19.0, 20.0, 21.0
# what lies on the track (`RaceView.marks`): a symbol and colour per kind, in order of first sight
MARK_STYLES = (("circle", "●", "#f2f2f2"), ("diamond", "◆", "#111111"), ("triangle", "▲", "#ffd400"),
               ("cross", "✖", "#e6194b"), ("square", "■", "#3cb44b"), ("star", "★", "#9b30c8"))


def player_colour(i: int) -> QColor:
    return QColor(PLAYER_COLOURS[i % len(PLAYER_COLOURS)])


class CarItem(QGraphicsPathItem):
    """A car: a rounded body pointing along the lane, with the seat number on it."""

    def __init__(self, player: int, lane_width: float, label: str = "") -> None:
        super().__init__()
        self.player = player
        w = lane_width
        path = QPainterPath()
        path.addRoundedRect(QRectF(-w * 0.42, -w * 0.26, w * 0.84, w * 0.52), w * 0.14, w * 0.14)
        # a nose so the direction of travel shows
        path.moveTo(w * 0.42, -w * 0.12)
        path.lineTo(w * 0.56, 0)
        path.lineTo(w * 0.42, w * 0.12)
        path.closeSubpath()
        self.setPath(path)
        self.setBrush(QBrush(player_colour(player)))
        self.setPen(QPen(QColor("#111111"), max(1.0, w * 0.05)))
        self.setZValue(Z_CARS)
        self.label = QGraphicsSimpleTextItem(label or str(player + 1), self)
        font = QFont("DejaVu Sans")
        font.setPixelSize(max(7, round(w * 0.36)))
        font.setBold(True)
        self.label.setFont(font)
        self.label.setBrush(QColor("#ffffff"))
        r = self.label.boundingRect()
        self.label.setPos(-r.width() / 2, -r.height() / 2)
        self.cell: Cell | None = None

    def place(self, centre: QPointF, angle_deg: float, cell: Cell) -> None:
        self.cell = cell
        self.setTransform(QTransform().translate(centre.x(), centre.y()).rotate(angle_deg))
        # keep the number upright
        self.label.setTransform(QTransform().rotate(-angle_deg))

    def centre(self) -> QPointF:
        return self.transform().map(QPointF(0, 0))


def mark_path(shape: str, s: float) -> QPainterPath:
    """A symbol of half-size `s` around (0, 0)."""
    path = QPainterPath()
    if shape == "circle":
        path.addEllipse(QPointF(0, 0), s, s)
    elif shape == "square":
        path.addRect(QRectF(-s * 0.85, -s * 0.85, 1.7 * s, 1.7 * s))
    elif shape == "cross":
        w = s * 0.38
        for a in (45.0, -45.0):
            bar = QPainterPath()
            bar.addRect(QRectF(-s * 1.2, -w, 2.4 * s, 2 * w))
            path = path.united(QTransform().rotate(a).map(bar))
    else:
        n = {"diamond": 4, "triangle": 3, "star": 10}.get(shape, 4)
        for k in range(n):
            r = s * (0.5 if shape == "star" and k % 2 else 1.15)
            a = -math.pi / 2 + 2 * math.pi * k / n
            pt = QPointF(r * math.cos(a), r * math.sin(a))
            path.moveTo(pt) if k == 0 else path.lineTo(pt)
        path.closeSubpath()
    return path


class RaceOverlay:
    """The race items on one TrackScene; `show_frame` draws one moment of a race."""

    def __init__(self, scene: TrackScene) -> None:
        self.scene = scene
        self.cars: list[CarItem] = []
        self.route = QGraphicsPathItem()
        self.route.setZValue(Z_ROUTE)
        self.cubes = QGraphicsPathItem()
        self.cubes.setZValue(Z_ROUTE + 0.1)
        self.targets = QGraphicsPathItem()
        self.targets.setZValue(Z_TARGETS)
        pen = QPen(QColor("#00e5ff"), 3.0)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        self.targets.setPen(pen)
        fill = QColor("#00e5ff")
        fill.setAlphaF(0.35)
        self.targets.setBrush(fill)
        self.target_cells: list[Cell] = []
        self._added = False
        # a car driving its route square by square (`walk`): the cells still to show
        self._walk: list[tuple[CarItem, Cell]] = []
        self._walk_timer = QTimer()
        self._walk_timer.timeout.connect(self._walk_step)
        self.owners: list[int] = []  # the seat of each car ([]: car i is seat i)
        self._pit: tuple[Any, PitPlacement | None] = (None, None)  # (drawing, its pit lane)
        self.marks = QGraphicsPathItem()  # unused path item; the symbols are its children
        self.marks.setZValue(Z_MARKS)
        self.mark_items: list[QGraphicsPathItem] = []
        self.mark_kinds: dict[str, int] = {}  # kind -> style index, in order of first sight
        self.shown_marks: list[tuple[int, int, str, str]] = []

    # ------------------------------------------------------------------ items
    def _ensure(self, players: int, owners: Sequence[int] | None = None) -> None:
        owners = list(owners) if owners is not None and len(owners) == players else list(range(players))
        d = self.scene.drawing
        if d is None:
            return
        if not self._added or self.route.scene() is not self.scene:
            self.cars = []
            for item in (self.route, self.cubes, self.targets, self.marks):
                if item.scene() is not self.scene:
                    self.scene.addItem(item)
            self._added = True
        if len(self.cars) != players or owners != self.owners or any(c.scene() is not self.scene for c in self.cars):
            for c in self.cars:
                if c.scene() is self.scene:
                    self.scene.removeItem(c)
            self.owners = owners
            self.cars = [CarItem(o, d.lane_width, car_label(owners, i)) for i, o in enumerate(owners)]
            for c in self.cars:
                self.scene.addItem(c)

    def clear(self) -> None:
        self._walk = []
        self._walk_timer.stop()
        self.show_marks([])
        for item in [*self.cars, self.route, self.cubes, self.targets, self.marks]:
            if item.scene() is self.scene:
                self.scene.removeItem(item)
        self.cars = []
        self.mark_kinds = {}
        self.target_cells = []
        self._added = False

    def _pit_place(self) -> PitPlacement | None:
        """Where the drawing puts the pit lane (engine/tracks/pitdrawing.py), None without one."""
        d = self.scene.drawing
        if self._pit[0] is not d:
            self._pit = (d, place_pit(d) if d is not None else None)
        return self._pit[1]

    def cell_centre(self, cell: Cell) -> QPointF:
        if cell[0] == PIT_LANE:  # a pit square: where the SVG and the canvas draw it
            place = self._pit_place()
            assert place is not None
            x, y = place.point(cell[1] + 0.5)
            return QPointF(x, y)
        return self.scene.cell_centre(cell[0], cell[1])

    def _angle(self, cell: Cell) -> float:
        d = self.scene.drawing
        assert d is not None
        place = self._pit_place() if cell[0] == PIT_LANE else None
        pos = place.segment_pos(cell[1] + 0.5) if place is not None else cell[1] + 0.5
        return math.degrees(d.direction(pos))

    def _valid(self, cell: Cell) -> bool:
        t = self.scene.track
        if t is not None and cell[0] == PIT_LANE:
            place = self._pit_place()
            return place is not None and 0 <= cell[1] < place.pit.segments
        return t is not None and 0 <= cell[0] < t.lanes and 0 <= cell[1] < t.segments

    # ------------------------------------------------------------------ drawing
    def show_cars(self, cars: Sequence[Sequence[int]], owners: Sequence[int] | None = None) -> None:
        """Each car at its cell: (lane, segment, ...) per car, a pit square at (PIT_LANE, pit
        segment); `owners`: the seat of each car, for its colour (default: car i is seat i).
        A walk in progress ends."""
        self._walk = []
        self._walk_timer.stop()
        self._ensure(len(cars), owners)
        d = self.scene.drawing
        if d is None:
            return
        for item, car in zip(self.cars, cars, strict=True):
            lane, seg = int(car[0]), int(car[1])
            if not self._valid((lane, seg)):
                item.setVisible(False)
                continue
            item.setVisible(True)
            item.place(self.cell_centre((lane, seg)), self._angle((lane, seg)), (lane, seg))

    def show_route(self, player: int, route: list[Cell], faded: bool = False) -> None:
        """The planned route: from the car through every placed cube, cubes as squares."""
        d = self.scene.drawing
        path = QPainterPath()
        cubes = QPainterPath()
        pts = [self.cell_centre(c) for c in route if self._valid(c)]
        if d is not None and len(pts) > 1:
            path.moveTo(pts[0])
            for p in pts[1:]:
                path.lineTo(p)
            s = d.lane_width * 0.26
            for p in pts[1:]:
                cubes.addRect(QRectF(p.x() - s / 2, p.y() - s / 2, s, s))
        colour = player_colour(max(player, 0))
        if faded:
            colour.setAlphaF(0.45)
        pen = QPen(colour, (d.lane_width if d else 40) * 0.12, Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        self.route.setPen(pen)
        self.route.setPath(path)
        self.cubes.setPen(QPen(QColor("#111111"), 1.5))
        self.cubes.setBrush(colour)
        self.cubes.setPath(cubes)

    def style_of(self, kind: str) -> tuple[str, str, str]:
        """(shape, glyph, colour) of a mark kind: the styles in turn, by first sight."""
        i = self.mark_kinds.setdefault(kind, len(self.mark_kinds))
        return MARK_STYLES[i % len(MARK_STYLES)]

    def show_marks(self, marks: Sequence[Sequence[Any]]) -> None:
        """A small symbol per (lane, segment, kind, label): one shape and colour per kind."""
        for item in self.mark_items:
            item.setParentItem(None)  # type: ignore[arg-type]  # None detaches; the stub omits it
            if item.scene() is not None:
                item.scene().removeItem(item)
        self.mark_items = []
        self.shown_marks = []
        d = self.scene.drawing
        if d is None or not marks:
            return
        if self.marks.scene() is not self.scene:
            self.scene.addItem(self.marks)
        s = d.lane_width * 0.22
        for m in marks:
            lane, seg, kind, label = int(m[0]), int(m[1]), str(m[2]), str(m[3])
            if not self._valid((lane, seg)):
                continue
            shape, _glyph, colour = self.style_of(kind)
            c = self.cell_centre((lane, seg))
            item = QGraphicsPathItem(mark_path(shape, s), self.marks)
            item.setPos(c)
            item.setBrush(QColor(colour))
            item.setPen(QPen(QColor("#ffffff" if colour == "#111111" else "#111111"), max(1.0, s * 0.18)))
            item.setToolTip(label)
            self.mark_items.append(item)
            self.shown_marks.append((lane, seg, kind, label))

    def legend(self) -> list[tuple[str, str, str]]:
        """(glyph, colour, kind) of every kind seen in this race, for a legend."""
        return [(MARK_STYLES[i % len(MARK_STYLES)][1], MARK_STYLES[i % len(MARK_STYLES)][2], k)
                for k, i in self.mark_kinds.items()]

    def show_frame(self, frame: Any, moved: bool, walk_ms: int = 0) -> None:
        """Before the move: cars where the turn began and the route; after: cars where it ended
        (with `walk_ms`, the moving car first drives its route, one square every `walk_ms`).
        The moving car is `frame.car` when the frame says (several cars a seat), else the seat's."""
        self.show_cars(frame.cars_after if moved and frame.cars_after else frame.cars_before,
                       frame.owners or None)
        self.show_route(frame.player, frame.route if frame.player >= 0 else [], faded=moved)
        self.show_targets([])
        self.show_marks(frame.marks)
        p = frame.player if frame.car < 0 else frame.car
        if (moved and walk_ms > 0 and len(frame.route) > 2 and 0 <= p < len(self.cars)
                and p < len(frame.cars_after) and tuple(frame.cars_after[p][:2]) == tuple(frame.route[-1])):
            self.walk(p, frame.route, walk_ms)

    def walk(self, player: int, route: list[Cell], ms: int) -> None:
        """Drive the car of `player` along `route` one cell every `ms` milliseconds; the car
        keeps its logical cell (`CarItem.cell`), only the drawing moves, and ends on the last cell."""
        car = self.cars[player]
        cells = [c for c in route if self._valid(c)]
        if len(cells) < 2:
            return
        final = car.cell
        self._walk = [(car, c) for c in cells[1:]]
        self._place(car, cells[0])
        car.cell = final
        self._walk_timer.start(max(1, ms))

    def _place(self, car: CarItem, cell: Cell) -> None:
        d = self.scene.drawing
        if d is not None:
            final = car.cell
            car.place(self.cell_centre(cell), self._angle(cell), cell)
            car.cell = final

    def _walk_step(self) -> None:
        if not self._walk:
            self._walk_timer.stop()
            return
        car, cell = self._walk.pop(0)
        if car.scene() is self.scene:
            self._place(car, cell)
        if not self._walk:
            self._walk_timer.stop()

    def stop_walk(self) -> None:
        """End a walk at once (the car stays where `show_cars` put it)."""
        if self._walk:
            car, cell = self._walk[-1]
            self._walk = []
            if car.scene() is self.scene:
                self._place(car, cell)
        self._walk_timer.stop()

    @property
    def walking(self) -> bool:
        return bool(self._walk)

    def show_targets(self, cells: list[Cell]) -> None:
        """Outline the cells a human player may click."""
        self.target_cells = [c for c in cells if self._valid(c)]
        path = QPainterPath()
        d = self.scene.drawing
        if d is not None:
            for lane, seg in self.target_cells:
                poly = band(d, lane, seg, seg + 1)
                path.moveTo(QPointF(*poly[0]))
                for x, y in poly[1:]:
                    path.lineTo(QPointF(x, y))
                path.closeSubpath()
        if not self._added and self.target_cells:
            self._ensure(len(self.cars))
        self.targets.setPath(path)

    def car_positions(self) -> list[QPointF]:
        return [c.centre() for c in self.cars]


def car_label(owners: Sequence[int], i: int) -> str:
    """The number on car `i`: its seat's, with a letter when the seat drives several cars."""
    o = owners[i]
    mine = [j for j, x in enumerate(owners) if x == o]
    return str(o + 1) if len(mine) == 1 else f"{o + 1}{'abcdefghij'[mine.index(i) % 10]}"
