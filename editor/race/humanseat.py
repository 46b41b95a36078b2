"""A human seat: play one car against bots by clicking cubes, buttons and track cells.

The seat drives the same decision API the bots use (`Game.pending` / `apply` through the
recorder of the ruleset's panels, editor/race/racepanels.py): the pending decision's legal options
become buttons (styled by the panels, e.g. cubes to play as coloured chips), and options keyed
`to LANE:SEGMENT` are outlined cells on the canvas, where a click applies that option. Any
ruleset can be played this way. Bots' turns run in between, which takes
milliseconds, so they run on the GUI thread.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from slipstream.engine.play.decisions import Decision
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.watch import finish
from slipstream.engine.tracks.track import Track

from ..track.canvas import TrackView
from .racepanels import GENERIC, RacePanels
from .raceview import Cell, RaceOverlay


def cell_of(key: str) -> Cell | None:
    """The cell an option key `to LANE:SEGMENT` names (None for other keys)."""
    if not key.startswith("to "):
        return None
    lane, sep, seg = key[3:].partition(":")
    if not sep or not lane.isdigit() or not seg.isdigit():
        return None
    return int(lane), int(seg)


def target_cells(decision: Decision | None) -> list[Cell]:
    """The cells named by the `to L:S` options of a decision (a placement or a drive)."""
    if decision is None:
        return []
    return [c for c in (cell_of(o.key) for o in decision.options) if c is not None]


class HumanSeat(QObject):
    """One race with a human at `seat`; bots play the other seats."""

    changed = Signal()

    def __init__(self, view: TrackView, overlay: RaceOverlay) -> None:
        super().__init__()
        self.view = view
        self.overlay = overlay
        self.recorder: Any = None
        self.bots: dict = {}
        self.seat = -1
        self.panels: RacePanels = GENERIC
        self.rs: Any = None
        view.viewport().installEventFilter(self)

    @property
    def active(self) -> bool:
        return self.recorder is not None

    def start(self, panels: RacePanels, rs: Any, pack: Any, spec: RaceSpec, track: Track, seat: int) -> None:
        """A race of `spec` on `track` with the human at `seat` and bots elsewhere."""
        self.panels, self.rs = panels, rs
        self.recorder, self.bots = panels.start(rs, pack, spec, track, frozenset({seat}))
        self.seat = seat
        self._bots_play()

    def stop(self) -> None:
        if self.recorder is not None:  # external bots' processes end with the race
            finish(self.bots, self.recorder.game)
        self.recorder = None
        self.overlay.show_targets([])
        self.changed.emit()

    @property
    def decision(self) -> Decision | None:
        """The pending decision when it is the human's, else None."""
        if self.recorder is None:
            return None
        d = self.recorder.game.pending
        return d if d is not None and d.player == self.seat else None

    def choose(self, key: str) -> str | None:
        """Apply one of the human's options; returns the rejection message, if any."""
        if self.recorder is None or self.decision is None:
            return "it is not your decision"
        r = self.recorder.apply(key)
        if r is not None:
            return r.message
        self._bots_play()
        return None

    def _bots_play(self) -> None:
        assert self.recorder is not None
        self.recorder.play_bots(self.bots)
        if self.recorder.game.pending is None:
            finish(self.bots, self.recorder.game)
        self.overlay.show_targets(target_cells(self.decision))
        self.changed.emit()

    # clicks on the canvas: a highlighted cell applies its option; other clicks are swallowed
    # while a move is pending, so the track is not edited in the middle of a race
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if self.recorder is None or event.type() != QEvent.Type.MouseButtonPress:
            return False
        cells = target_cells(self.decision)
        if not cells:
            return False
        assert isinstance(event, QMouseEvent)
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        pos = self.view.mapToScene(event.position().toPoint())
        cell = self.view.track_scene.cell_at(pos)
        if cell is not None and cell in cells:
            self.choose(f"to {cell[0]}:{cell[1]}")
        return True


class HumanPanel(QWidget):
    """The human's pending decision: its text and one button per option."""

    def __init__(self, seat: HumanSeat) -> None:
        super().__init__()
        self.seat = seat
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setObjectName("human-decision")
        self.buttons: dict[str, QPushButton] = {}
        self.grid = QGridLayout()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.text)
        lay.addLayout(self.grid)
        seat.changed.connect(self.refresh)

    def refresh(self) -> None:
        for b in self.buttons.values():
            self.grid.removeWidget(b)
            b.deleteLater()
        self.buttons.clear()
        rec = self.seat.recorder
        d = self.seat.decision
        if rec is None:
            self.text.setText("")
            return
        if d is None:
            self.text.setText("The race is over." if self.seat.panels.over(rec) else "The bots are playing…")
            return
        where = " Click an outlined cell on the track." if target_cells(d) else ""
        self.text.setText(f"<b>Your decision</b> ({d.kind}): {d.text}.{where}")
        col = 0
        row = 0
        for o in d.options:
            if cell_of(o.key) is not None:
                continue  # these are clicked on the canvas
            b = QPushButton(o.text)
            b.setObjectName(f"option:{o.key}")
            b.setToolTip(o.key)
            style = self.seat.panels.option_style(o.key, rec)
            if style:
                # a chip (e.g. a cube to play): two to a row
                b.setStyleSheet(style)
                self.grid.addWidget(b, row, col)
                col += 1
                if col == 2:
                    col, row = 0, row + 1
            else:
                # other choices get a whole row: their texts can be long
                if col:
                    col, row = 0, row + 1
                self.grid.addWidget(b, row, 0, 1, 2)
                row += 1
            b.clicked.connect(lambda _c=False, k=o.key: self.seat.choose(k))
            self.buttons[o.key] = b
