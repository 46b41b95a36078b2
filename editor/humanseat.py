"""A human seat: play one car against bots by clicking cubes, buttons and track cells.

The seat drives the same decision API the bots use (`Game.pending` / `apply` through the
turn-frame recorder): the pending decision's legal options become buttons (cubes to play as
coloured chips), and the cells of a `move`/`drive` decision are outlined on the canvas, where
a click on one of them applies that option. Bots' turns run in between, which takes
milliseconds, so they run on the GUI thread.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from slipstream.engine.play.decisions import Decision
from slipstream.engine.rulesets.automobiles.raceframes import Cell, FrameRecorder, new_game
from slipstream.engine.rulesets.automobiles.runner import RaceSpec
from slipstream.engine.tracks.track import Track

from .canvas import TrackView
from .raceview import RaceOverlay

CUBE_COLOURS = {"gear-3": "#ffffff", "gear-4": "#c8c8c8", "gear-5": "#7a7a7a", "gear-6": "#111111",
                "wear": "#8b5a2b"}
MOVE_KINDS = ("move", "drive")


def target_cells(decision: Decision | None) -> list[Cell]:
    """The cells named by the `to L:S` options of a placement or drive decision."""
    if decision is None or decision.kind not in MOVE_KINDS:
        return []
    out = []
    for o in decision.options:
        if o.key.startswith("to "):
            lane, _, seg = o.key[3:].partition(":")
            out.append((int(lane), int(seg)))
    return out


class HumanSeat(QObject):
    """One race with a human at `seat`; bots play the other seats."""

    changed = Signal()

    def __init__(self, view: TrackView, overlay: RaceOverlay) -> None:
        super().__init__()
        self.view = view
        self.overlay = overlay
        self.recorder: FrameRecorder | None = None
        self.bots: dict = {}
        self.seat = -1
        view.viewport().installEventFilter(self)

    @property
    def active(self) -> bool:
        return self.recorder is not None

    def start(self, spec: RaceSpec, track: Track, seat: int) -> None:
        game, bots = new_game(spec, track, humans=frozenset({seat}))
        self.recorder = FrameRecorder(game)
        self.bots = bots
        self.seat = seat
        self._bots_play()

    def stop(self) -> None:
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
            self.text.setText("The race is over." if rec.game.over else "The bots are playing…")
            return
        where = " Click an outlined cell on the track." if d.kind in MOVE_KINDS else ""
        self.text.setText(f"<b>Your decision</b> ({d.kind}): {d.text}.{where}")
        col = 0
        row = 0
        for o in d.options:
            if d.kind in MOVE_KINDS and o.key.startswith("to "):
                continue  # these are clicked on the canvas
            b = QPushButton(o.text)
            b.setObjectName(f"option:{o.key}")
            b.setToolTip(o.key)
            if o.key.startswith("play "):
                kid = o.key[5:]
                # action cubes are named by their colour (yellow, red, ...)
                bg = CUBE_COLOURS.get(kid) or (kid if QColor(kid).isValid() else "#f2d16b")
                fg = "#ffffff" if QColor(bg).lightnessF() < 0.5 else "#000000"
                b.setStyleSheet(f"QPushButton{{background:{bg};color:{fg};border:2px solid #333;"
                                f"border-radius:4px;padding:3px 8px}}")
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
