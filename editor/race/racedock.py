"""The Test race dock: race bots (or yourself) on the open track, watch turn by turn, or run a
batch on all cores and read the balance report.

`install(window)` adds the dock, the Batch report dock and a Race menu to the main window.
The dock reads the open track from the window's document and never changes it; the races run
in worker threads (editor/race/raceworker.py), the human seat on the GUI thread
(editor/race/humanseat.py); cars and routes are drawn by editor/race/raceview.py. The pack picked
decides the ruleset (engine/play/registry.py): its options, race settings, bots and number of
players fill the form, and what is shown of a race comes from the ruleset's panels
(editor/race/racepanels.py), so any installed ruleset races here without code that names it.
Opening a track picks a pack for it (editor/race/trackpack.py): the pack that holds the file,
else a bundled pack of a ruleset the track names (for a new track started by File > New > For
RULESET, that ruleset); the dock says which and why.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QStandardPaths, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSlider,
    QSpinBox,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from slipstream.editor.spinvalue import set_spin
from slipstream.engine.play.base import view_of
from slipstream.engine.play.batch import Pool
from slipstream.engine.play.extbots import is_external, program_problem
from slipstream.engine.play.logcheck import bot_problem
from slipstream.engine.play.registry import RulesetError, for_pack, load_pack
from slipstream.engine.play.watch import HUMAN
from slipstream.engine.tracks.track import Track

from .batchreport import BatchReport
from .humanseat import HumanPanel, HumanSeat
from .racegauges import GaugePanel
from .racepanels import GENERIC, RacePanels, panels_for
from .raceview import RaceOverlay, player_colour
from .raceworker import (
    BatchReportData,
    BatchWorker,
    RaceSettings,
    ResultCache,
    WatchWorker,
    cache_key,
    failure_text,
)
from .trackpack import home_pack, is_bundled, pick

SPEEDS = (("slow", 1200), ("normal", 600), ("fast", 250), ("fastest", 80))


def seat_bot_name(box: QComboBox) -> str:
    """The bot a seat box names: a listed one, or the text typed into it (an external bot)."""
    text = box.currentText().strip()
    i = box.findText(text)
    return str(box.itemData(i)) if i >= 0 else text


def _default_cache_dir() -> Path | None:
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.CacheLocation)
    return Path(base) / "races" if base else None


class RacePanel(QWidget):
    """Settings, Run / Cancel, playback controls, the current player's panel, the turn's events."""

    def __init__(self, window: QMainWindow, report: BatchReport, cache: ResultCache | None = None) -> None:
        super().__init__()
        self.main_window = window  # (not `window`: that is QWidget.window())
        self.report = report
        self.cache = cache if cache is not None else ResultCache(_default_cache_dir())
        self.overlay = RaceOverlay(window.scene)  # type: ignore[attr-defined]
        self.human = HumanSeat(window.view, self.overlay)  # type: ignore[attr-defined]
        self.human.changed.connect(self._human_changed)
        self.recorder: Any = None  # the panels' recorder of the race on show
        self.frames: list[Any] = []
        self.step = 0
        self.worker: WatchWorker | BatchWorker | None = None
        self.pool: Pool | None = None  # worker processes kept between batches
        self.rs: Any = None  # the ruleset of the pack picked
        self.pack_path = ""
        self.pack: Any = None
        self.panels: RacePanels = GENERIC
        self.report_dock: QDockWidget | None = None
        self.last_mode = ""
        self._key = ""
        self.last_track: Track | None = None
        self._followed: tuple[str, tuple[str, ...]] | None = None  # (file, rulesets) the pack was picked for
        self._build()
        self.play_timer = QTimer(self)
        self.play_timer.timeout.connect(self._tick)
        self.rerun_timer = QTimer(self)
        self.rerun_timer.setSingleShot(True)
        self.rerun_timer.setInterval(700)
        self.rerun_timer.timeout.connect(self._rerun)
        window.undo_stack.indexChanged.connect(lambda _i: self._track_edited())  # type: ignore[attr-defined]
        window.documentReplaced.connect(lambda: self.follow_track(opened=True))  # type: ignore[attr-defined]
        window.fileSaved.connect(lambda _path: self.follow_track())  # type: ignore[attr-defined]
        self._load_pack("")
        self.follow_track()
        self._show_step()

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        form = QFormLayout()
        self.pack_box = QComboBox()
        self.pack_box.setObjectName("race-pack")
        self.pack_box.addItem("Bundled base pack", "")
        self.pack_box.addItem("Pack folder…", None)
        self.pack_box.activated.connect(self._pack_chosen)
        form.addRow("Pack", self.pack_box)
        self.ruleset_label = QLabel()
        self.ruleset_label.setObjectName("race-ruleset")
        form.addRow("Ruleset", self.ruleset_label)
        self.pack_note = QLabel()  # which pack the open track got, and why
        self.pack_note.setObjectName("race-pack-note")
        self.pack_note.setWordWrap(True)
        form.addRow(self.pack_note)
        # one list per race setting of the ruleset that offers choices (e.g. a card set)
        self.setup_form = QFormLayout()
        form.addRow(self.setup_form)
        self.setup_boxes: dict[str, QComboBox] = {}
        self.players = QSpinBox()
        self.players.setObjectName("race-players")
        self.players.setRange(2, 5)
        self.players.setValue(4)
        self.players.valueChanged.connect(self._players_changed)
        form.addRow("Players", self.players)
        self.seats_grid = QGridLayout()
        self.seat_boxes: list[QComboBox] = []
        self.seat_labels: list[QLabel] = []
        form.addRow("Seats", self.seats_grid)
        self.seed = QSpinBox()
        self.seed.setObjectName("race-seed")
        self.seed.setRange(0, 2_000_000_000)
        self.seed.setValue(1)
        form.addRow("Seed", self.seed)
        self.laps = QSpinBox()
        self.laps.setObjectName("race-laps")
        self.laps.setRange(0, 20)
        self.laps.setSpecialValueText("track's")
        form.addRow("Laps", self.laps)
        self.options_button = QToolButton()
        self.options_button.setText("Rule options ▸")
        self.options_button.setCheckable(True)
        self.options_box = QWidget()
        self.options_form = QFormLayout(self.options_box)
        self.options_box.setVisible(False)
        self.options_button.toggled.connect(self._toggle_options)
        form.addRow(self.options_button)
        form.addRow(self.options_box)
        self.option_widgets: dict[str, QWidget] = {}
        self.pack_options: dict[str, Any] = {}
        batch_row = QHBoxLayout()
        self.races = QSpinBox()
        self.races.setObjectName("race-count")
        self.races.setRange(10, 10_000)
        self.races.setSingleStep(100)
        self.races.setValue(100)
        self.jobs = QSpinBox()
        self.jobs.setObjectName("race-jobs")
        self.jobs.setRange(1, max(1, os.cpu_count() or 1))
        self.jobs.setValue(max(1, os.cpu_count() or 1))
        batch_row.addWidget(self.races)
        batch_row.addWidget(QLabel("races on"))
        batch_row.addWidget(self.jobs)
        batch_row.addWidget(QLabel("cores"))
        form.addRow("Batch", batch_row)
        self.auto = QCheckBox("Re-run when the track changes")
        self.auto.setObjectName("race-auto")
        form.addRow(self.auto)

        run_row = QHBoxLayout()
        self.run_button = QPushButton("Race")
        self.run_button.setObjectName("race-run")
        self.run_button.setToolTip("One race on the open track, to watch (or to play: set a seat to human)")
        self.batch_button = QPushButton("Run batch")
        self.batch_button.setObjectName("race-batch")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("race-cancel")
        self.cancel_button.setEnabled(False)
        self.run_button.clicked.connect(self.run_race)
        self.batch_button.clicked.connect(self.run_batch)
        self.cancel_button.clicked.connect(self.cancel)
        for b in (self.run_button, self.batch_button, self.cancel_button):
            run_row.addWidget(b)
        self.progress = QProgressBar()
        self.progress.setObjectName("race-progress")
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status = QLabel("")
        self.status.setObjectName("race-status")
        self.status.setWordWrap(True)

        play_row = QHBoxLayout()
        self.first_button = QToolButton()
        self.first_button.setText("|◀")
        self.back_button = QToolButton()
        self.back_button.setText("◀")
        self.back_button.setObjectName("race-back")
        self.play_button = QToolButton()
        self.play_button.setText("▶")
        self.play_button.setObjectName("race-play")
        self.play_button.setCheckable(True)
        self.step_button = QToolButton()
        self.step_button.setText("▶|")
        self.step_button.setObjectName("race-step")
        self.first_button.setToolTip("Back to the grid")
        self.back_button.setToolTip("One step back")
        self.play_button.setToolTip("Play / pause")
        self.step_button.setToolTip("One step: the planned route, then the car's move")
        self.first_button.clicked.connect(lambda: self.set_step(0))
        self.back_button.clicked.connect(lambda: self.set_step(self.step - 1))
        self.step_button.clicked.connect(lambda: self.set_step(self.step + 1))
        self.play_button.toggled.connect(self._play_toggled)
        self.speed = QComboBox()
        for name, ms in SPEEDS:
            self.speed.addItem(name, ms)
        self.speed.setCurrentIndex(1)
        self.speed.currentIndexChanged.connect(lambda _i: self.play_timer.setInterval(self.speed.currentData()))
        for w in (self.first_button, self.back_button, self.play_button, self.step_button):
            play_row.addWidget(w)
        play_row.addWidget(self.speed)
        play_row.addStretch(1)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("race-slider")
        self.slider.valueChanged.connect(self.set_step)
        self.turn_label = QLabel()
        self.turn_label.setObjectName("race-turn")

        self.player_panel = QLabel()
        self.player_panel.setObjectName("race-player")
        self.player_panel.setWordWrap(True)
        self.player_panel.setTextFormat(Qt.TextFormat.RichText)
        self.player_panel.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.player_panel.setMinimumHeight(130)
        self.gauges = GaugePanel()
        self.marks_legend = QLabel()
        self.marks_legend.setObjectName("race-marks")
        self.marks_legend.setTextFormat(Qt.TextFormat.RichText)
        self.marks_legend.setWordWrap(True)
        self.human_panel = HumanPanel(self.human)
        self.human_panel.setObjectName("race-human")
        self.events = QPlainTextEdit()
        self.events.setObjectName("race-events")
        self.events.setReadOnly(True)
        self.events.setMinimumHeight(120)

        settings = QWidget()
        settings.setLayout(form)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(settings)
        watch = QWidget()
        wl = QVBoxLayout(watch)
        wl.addLayout(play_row)
        wl.addWidget(self.slider)
        wl.addWidget(self.turn_label)
        wl.addWidget(self.player_panel)
        wl.addWidget(self.gauges)
        wl.addWidget(self.marks_legend)
        wl.addWidget(self.human_panel)
        wl.addWidget(QLabel("This turn:"))
        wl.addWidget(self.events, 1)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("race-tabs")
        self.tabs.addTab(scroll, "Setup")
        self.tabs.addTab(watch, "Watch")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addLayout(run_row)
        outer.addWidget(self.progress)
        outer.addWidget(self.status)
        outer.addWidget(self.tabs, 1)
        self.setMinimumWidth(330)
        self._players_changed(self.players.value())

    def _toggle_options(self, on: bool) -> None:
        self.options_box.setVisible(on)
        self.options_button.setText("Rule options ▾" if on else "Rule options ▸")

    def _players_changed(self, n: int) -> None:
        for i, box in enumerate(self.seat_boxes):
            box.setEnabled(i < n)

    # ------------------------------------------------------------------ pack, sets, options
    def _pack_chosen(self, index: int) -> None:
        if self.pack_box.itemData(index) is None:
            folder = QFileDialog.getExistingDirectory(self, "Choose a pack folder")
            if not folder:
                self.pack_box.setCurrentIndex(max(0, self.pack_box.findData(self.pack_path)))
                return
            self.pack_box.setCurrentIndex(self._pack_item(Path(folder)))
        self.pack_note.setText("")  # picked by hand, not for the track
        self._load_pack(self.pack_box.currentData() or "")

    def _pack_item(self, folder: Path) -> int:
        """The index of a pack folder in the Pack list, added when missing (the bundled pack
        the engine uses by default is the entry with the empty path)."""
        try:
            default = Path(load_pack("").root).resolve()
        except (ValueError, RuntimeError, OSError):
            default = None
        if folder.resolve() == default:
            return self.pack_box.findData("")
        for i in range(self.pack_box.count()):
            data = self.pack_box.itemData(i)
            if data and Path(data).resolve() == folder.resolve():
                return i
        self.pack_box.insertItem(1, f"Bundled {folder.name} pack" if is_bundled(folder) else folder.name,
                                 str(folder))
        return 1

    def follow_track(self, opened: bool = False) -> None:
        """Pick a pack for the open track when it is opened (`opened`), saved elsewhere or
        names other rulesets (editor/race/trackpack.py); a pack picked by hand stays until then."""
        doc = self.main_window.doc  # type: ignore[attr-defined]
        data = doc.data if isinstance(doc.data, dict) else {}
        named = data.get("rulesets")
        rulesets = tuple(str(r) for r in named) if isinstance(named, list) else ()
        made_for = getattr(self.main_window, "made_for", "")  # a new track of File > New > For ...
        if not rulesets and doc.path is None and made_for:
            rulesets = (made_for,)
        key = (str(doc.path), rulesets)
        if key == self._followed and not opened:
            return
        self._followed = key
        current = self.rs.id if self.rs is not None else ""
        choice = pick(doc.path, rulesets, current)
        note = choice.why
        if choice.folder is not None and not self._use_folder(choice.folder):
            note = f"The pack {choice.folder.name} cannot be used (see the status line)."
            if choice.folder == home_pack(doc.path):  # then a bundled pack of the track's rulesets
                other = pick(doc.path, rulesets, current, use_home=False)
                if other.folder is None or self._use_folder(other.folder):
                    note += " " + other.why
        self.pack_note.setText(note.strip())

    def _use_folder(self, folder: Path) -> bool:
        """Race with the pack in `folder`; False (the pack in use stays) when it cannot be used."""
        index = self._pack_item(folder)
        path = self.pack_box.itemData(index) or ""
        self.pack_box.setCurrentIndex(index)
        if path == self.pack_path and self.rs is not None:
            return True
        return self._load_pack(path)

    def _load_pack(self, path: str) -> bool:
        """The pack picked decides the ruleset: its settings, players, bots and options."""
        try:
            rs, pack = for_pack(path)
        except (RulesetError, ValueError, RuntimeError, OSError) as e:
            self.status.setText(f"The pack cannot be used: {e}")
            # back to the pack in use, so that the settings and the ruleset stay in step
            self.pack_box.setCurrentIndex(max(0, self.pack_box.findData(self.pack_path)))
            return False
        self.rs, self.pack, self.panels = rs, pack, panels_for(rs)
        self.pack_path = path
        self.ruleset_label.setText(rs.name)
        while self.setup_form.rowCount():
            self.setup_form.removeRow(0)
        self.setup_boxes = {}
        setup = rs.setup
        settings = [(k, setup.choices(pack, k.name)) for k in setup.keys] if setup is not None else []
        for key, choices in settings:
            if not choices:
                continue
            box = QComboBox()
            box.setObjectName("race-set" if key.name == "card_set" else f"race-setup-{key.name}")
            for value, label in choices:
                box.addItem(label, value)
            self.setup_boxes[key.name] = box
            self.setup_form.addRow(key.name.replace("_", " ").capitalize(), box)
        self._build_seats()
        self.pack_options = self.panels.pack_options(rs, path)
        self._build_options()
        return True

    def _build_seats(self) -> None:
        """A bot list per seat, as many as the ruleset's largest field; its default field set."""
        rs = self.rs
        for w in [*self.seat_boxes, *self.seat_labels]:
            self.seats_grid.removeWidget(w)
            w.hide()  # at once: deleteLater waits for the event loop
            w.deleteLater()
        self.seat_boxes, self.seat_labels = [], []
        lo, hi = rs.players
        default = list(rs.default_bots) or sorted(rs.bots)
        for i in range(hi):
            box = QComboBox()
            box.setObjectName(f"race-seat-{i + 1}")
            box.setEditable(True)  # or a bot of one's own: cmd:PROGRAM, http://HOST:PORT
            box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            box.setToolTip("A bot of the ruleset, you (human), or your own bot: cmd:PROGRAM [ARGS] "
                           "or http://HOST:PORT, with ;limit=SECONDS;fallback=BOT (docs/bots.md)")
            for name in [*sorted(rs.bots), HUMAN]:
                box.addItem(name, name)
            box.setCurrentText(default[i % len(default)] if default else HUMAN)
            lab = QLabel(f"P{i + 1}")
            lab.setStyleSheet(f"color: {player_colour(i).name()}; font-weight: bold")
            self.seats_grid.addWidget(lab, i // 2, (i % 2) * 2)
            self.seats_grid.addWidget(box, i // 2, (i % 2) * 2 + 1)
            self.seat_boxes.append(box)
            self.seat_labels.append(lab)
        self.players.blockSignals(True)
        self.players.setRange(lo, hi)
        self.players.setValue(max(lo, min(hi, len(rs.default_bots) or len(rs.bots))))
        self.players.blockSignals(False)
        self._players_changed(self.players.value())

    def _build_options(self) -> None:
        """One widget per race option of the ruleset's option spec, set to the pack's value."""
        while self.options_form.rowCount():
            self.options_form.removeRow(0)
        self.option_widgets.clear()
        for spec in self._option_specs():
            value = self.pack_options.get(spec.name, spec.default)
            w: QWidget
            if spec.type == "bool":
                w = QCheckBox()
                w.setChecked(bool(value))
            elif spec.type == "int":
                w = QSpinBox()
                w.setRange(spec.minimum if spec.minimum is not None else -1_000_000,
                           min(spec.maximum if spec.maximum is not None else 1_000_000, 1_000_000))
                set_spin(w, value, spec.default)
            else:
                w = QComboBox()
                for v in spec.implemented or (value,):
                    w.addItem(str(v), v)
                w.setCurrentText(str(value))
            w.setToolTip(spec.help)
            w.setObjectName(f"race-option-{spec.name}")
            self.option_widgets[spec.name] = w
            self.options_form.addRow(spec.name.replace("_", " "), w)

    def _option_specs(self) -> list[Any]:
        """The race options of the open pack's ruleset (engine/play/options.py)."""
        if self.rs is None:
            return []
        return [s for s in self.rs.options if s.scope == "race" and s.type in ("bool", "int", "choice")]

    def options(self) -> tuple[tuple[str, Any], ...]:
        """The rule options that differ from the pack's rules file."""
        out = {}
        for name, w in self.option_widgets.items():
            if isinstance(w, QCheckBox):
                v: Any = w.isChecked()
            elif isinstance(w, QSpinBox):
                v = w.value()
            else:
                v = w.currentData()  # type: ignore[attr-defined]
            if v != self.pack_options.get(name):
                out[name] = v
        return tuple(sorted(out.items()))

    def settings(self) -> RaceSettings:
        n = self.players.value()
        setup = tuple(sorted((k, b.currentData()) for k, b in self.setup_boxes.items() if b.currentData()))
        return RaceSettings(pack=self.pack_path,
                            bots=tuple(seat_bot_name(self.seat_boxes[i]) for i in range(n)),
                            seed=self.seed.value(), laps=self.laps.value() or None,
                            options=self.options(), races=self.races.value(), setup=setup)

    # ------------------------------------------------------------------ the open track
    def _track(self) -> tuple[Track | None, str]:
        an = self.main_window.doc.analysis()  # type: ignore[attr-defined]
        if an.track is None or an.errors:
            self.status.setText("The track has errors (see the Problems dock); fix them to race on it.")
            return None, ""
        if not an.track.grid:
            self.status.setText("The track has no grid slots: add some (Grid dock) to race on it.")
            return None, ""
        return an.track, an.text

    def _track_edited(self) -> None:
        self.follow_track()  # a track saved elsewhere or given other rulesets may need another pack
        if self.auto.isChecked() and self.last_mode and not self.human.active:
            self.rerun_timer.start()

    def _rerun(self) -> None:
        if self.worker is not None:
            self.rerun_timer.start()  # still busy: try again shortly
            return
        if self.last_mode == "watch":
            self.run_race()
        elif self.last_mode == "batch":
            self.run_batch()

    # ------------------------------------------------------------------ running
    def _busy(self, on: bool, text: str = "") -> None:
        self.run_button.setEnabled(not on)
        self.batch_button.setEnabled(not on)
        self.cancel_button.setEnabled(on)
        if text:
            self.status.setText(text)

    def _refuse_bots(self, bots: tuple[str, ...]) -> bool:
        """Say in the status line why a seat's bot cannot race (a name typed into a seat box);
        True when one cannot."""
        for i, b in enumerate(bots):
            problem = None if b == HUMAN else bot_problem(self.rs, b) or program_problem(b)
            if problem:
                self.status.setText(f"P{i + 1}: {problem}")
                return True
        return False

    def _bots_for_humans(self, bots: tuple[str, ...], keep: int = -1) -> tuple[str, ...]:
        """Bots for the human seats but `keep` (one person drives; a batch has none)."""
        stand_in = (list(self.rs.default_bots) or sorted(self.rs.bots))[0]
        return tuple(stand_in if b == HUMAN and i != keep else b for i, b in enumerate(bots))

    def run_race(self) -> None:
        """One race: played by bots in a worker thread, or with a human seat on this thread."""
        if self.worker is not None:
            return
        track, text = self._track()
        if track is None:
            return
        s = self.settings()
        if self._refuse_bots(s.bots):
            return
        self.play_button.setChecked(False)
        self.last_track = track
        if HUMAN in s.bots:
            seat = s.bots.index(HUMAN)
            spec = s.with_bots(self._bots_for_humans(s.bots, keep=seat)).spec(track)
            self.last_mode = ""
            self.tabs.setCurrentIndex(1)
            self.overlay.mark_kinds = {}  # the symbols of this race's marks, in order of first sight
            try:
                self.human.start(self.panels, self.rs, self.pack, spec, track, seat)
            except Exception as e:  # noqa: BLE001 - shown to the user, the editor keeps running
                self.human.stop()
                self.status.setText(f"The race could not run: {failure_text(e, self.rs, track, text)}")
                return
            self.status.setText(f"You drive P{seat + 1}: choose with the buttons, click outlined cells to move.")
            return
        self.human.stop()
        self.last_mode = "watch"
        key = cache_key("watch", text, s)
        hit = None if any(is_external(b) for b in s.bots) else self.cache.get(key)  # a program may change
        if hit is not None and not isinstance(hit, BatchReportData):
            self._show_recorder(hit, "from the cache")
            return
        self._key = key
        self.worker = WatchWorker(self.panels, self.rs, self.pack, s.spec(track), track, text)
        self.worker.done.connect(self._watch_done)
        self.worker.failed.connect(self._failed)
        self.progress.setRange(0, 0)  # busy
        self._busy(True, f"Racing seed {s.seed} on {track.id}…")
        self.worker.start()

    def _watch_done(self) -> None:
        rec = self.worker.result if isinstance(self.worker, WatchWorker) else None
        self._finish_worker()
        if rec is None:
            return
        self.cache.put(self._key, rec)
        self._show_recorder(rec, "")

    def _show_recorder(self, rec: Any, note: str) -> None:
        self.recorder = rec
        self.frames = rec.frames
        # one symbol per kind of mark, in the order the race first shows them
        self.overlay.mark_kinds = {}
        for fr in self.frames:
            for m in fr.marks:
                self.overlay.style_of(str(m[2]))
        order = ", ".join(rec.names[i] for i in rec.game.standings())
        rounds = self.panels.rounds(rec)
        self.status.setText(f"{len(self.frames) - 1} turns"
                            + (f", {rounds} rounds" if rounds else "") + f"; finish: {order}"
                            + (f" ({note})" if note else ""))
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(0, 2 * (len(self.frames) - 1)))
        self.slider.blockSignals(False)
        self.tabs.setCurrentIndex(1)
        self.set_step(0)

    def run_batch(self) -> None:
        if self.worker is not None:
            return
        track, text = self._track()
        if track is None:
            return
        self.human.stop()
        s = self.settings()
        if self._refuse_bots(s.bots):
            return
        if HUMAN in s.bots:
            s = s.with_bots(self._bots_for_humans(s.bots))
        self.last_mode = "batch"
        self.last_track = track
        key = cache_key("batch", text, s)
        hit = None if any(is_external(b) for b in s.bots) else self.cache.get(key)  # a program may change
        if isinstance(hit, BatchReportData):
            self._show_batch(hit, track, "from the cache")
            return
        self._key = key
        if self.pool is None or self.pool.jobs != self.jobs.value():
            if self.pool is not None:
                self.pool.close()
            self.pool = Pool(self.jobs.value())
        self.worker = BatchWorker(s, track, self.rs, self.panels, self.pool, text)
        self.worker.progressed.connect(self._batch_progress)
        self.worker.done.connect(self._batch_done)
        self.worker.failed.connect(self._failed)
        self.progress.setRange(0, s.races)
        self.progress.setValue(0)
        self._busy(True, f"{s.races} races on {track.id} ({self.jobs.value()} processes)…")
        self.worker.start()

    def _batch_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)

    def _batch_done(self) -> None:
        data = self.worker.result if isinstance(self.worker, BatchWorker) else None
        track = self.worker.track if self.worker is not None else None
        self._finish_worker()
        if data is None or track is None:
            return
        if not data.cancelled:
            self.cache.put(self._key, data)
        self._show_batch(data, track, "cancelled: partial report" if data.cancelled else "")

    def _show_batch(self, data: BatchReportData, track: Track, note: str) -> None:
        self.report.show_report(data, track)
        self.batch_data = data
        dock = self.report_dock
        if dock is not None:
            dock.show()
            dock.raise_()
            if not dock.isFloating() and dock.height() < 400:
                # too little room below the canvas: the report opens as its own window
                dock.setFloating(True)
                dock.resize(1300, 780)
        self.status.setText(f"{data.summary.get('races', 0)} races in {data.seconds:.1f} s"
                            + (f" ({note})" if note else "") + ": see the Batch report.")

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.status.setText("Cancelling…")

    def _failed(self, message: str) -> None:
        self._finish_worker()
        self.status.setText(message)

    def _finish_worker(self) -> None:
        w = self.worker
        self.worker = None
        if w is not None:
            w.wait()  # the thread has emitted its last signal; Python frees it with `w`
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        self._busy(False)

    def shutdown(self) -> None:
        """Stop a running worker (the window closes)."""
        if self.worker is not None:
            self.worker.cancel()
            self.worker.wait()
            self.worker = None
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    # ------------------------------------------------------------------ playback
    def _play_toggled(self, on: bool) -> None:
        self.play_button.setText("⏸" if on else "▶")
        if on:
            if self.step >= self.slider.maximum():
                self.set_step(0)
            self.play_timer.start(self.speed.currentData())
        else:
            self.play_timer.stop()

    def _tick(self) -> None:
        if self.step >= self.slider.maximum():
            self.play_button.setChecked(False)
            return
        self.set_step(self.step + 1)

    @staticmethod
    def frame_at(step: int) -> tuple[int, bool]:
        """Step 0 is the grid; then each turn has two steps: its planned route, then the move."""
        if step <= 0:
            return 0, True
        return (step + 1) // 2, step % 2 == 0

    def step_to_turn(self, turn: int, moved: bool = True) -> None:
        self.set_step(2 * turn if moved else 2 * turn - 1)

    def set_step(self, step: int) -> None:
        if not self.frames:
            self.step = 0
            self._show_step()
            return
        step = max(0, min(step, 2 * (len(self.frames) - 1)))
        self.step = step
        if self.slider.value() != step:
            self.slider.blockSignals(True)
            self.slider.setValue(step)
            self.slider.blockSignals(False)
        self._show_step()

    def _show_step(self) -> None:
        if not self.frames:
            self.turn_label.setText("No race yet: press Race.")
            self.player_panel.setText("")
            return
        i, moved = self.frame_at(self.step)
        fr = self.frames[i]
        # while playing, a car drives its route square by square within the step's time
        walk = 0
        if self.play_timer.isActive() and len(fr.route) > 2:
            walk = max(1, int(0.8 * self.speed.currentData() / (len(fr.route) - 1)))
        self.overlay.show_frame(fr, moved, walk)
        self._show_extras(fr.gauges, fr.marks)
        if i == 0:
            self.turn_label.setText(f"The grid (turn 0 of {len(self.frames) - 1})")
            self.player_panel.setText(self._standings_html(fr))
        else:
            what = "the car moved" if moved else "planned route"
            rnd = f", round {fr.round}" if fr.round else ""
            self.turn_label.setText(f"Turn {i} of {len(self.frames) - 1}{rnd}: P{fr.player + 1} ({what})")
            before = self.frames[i - 1].positions
            self.player_panel.setText(self._player_html(fr, moved, before))
        self.events.setPlainText("\n".join(fr.events))

    def _standings_html(self, fr: Any) -> str:
        order = sorted(range(len(fr.positions)), key=lambda p: fr.positions[p])
        return "Grid order: " + ", ".join(
            f"<span style='color:{player_colour(p).name()}'><b>P{p + 1}</b></span>" for p in order)

    def _show_extras(self, gauges: Any, marks: Any) -> None:
        """The seats' dials (`RaceView.gauges`) and the legend of the marks on the track."""
        self.gauges.show_gauges(gauges or [], [player_colour(p).name() for p in range(len(gauges or []))])
        legend = self.overlay.legend()
        if not legend:
            self.marks_legend.setText("")
            return
        counts = {k: sum(1 for m in marks or [] if m[2] == k) for _g, _c, k in legend}
        self.marks_legend.setText("On the track: " + " &nbsp; ".join(
            f"<span style='color:{c}; background:#555a60'>&nbsp;{g}&nbsp;</span> {k} ({counts[k]})"
            for g, c, k in legend))

    def _player_html(self, fr: Any, moved: bool, before: list[int]) -> str:
        if self.human.active and fr.secret and fr.player != self.human.seat:
            # a choice made in secret is not shown to the person at the table
            from dataclasses import replace

            fr = replace(fr, choice="(chosen in secret)")
        return self.panels.frame_html(self.recorder, fr, moved, before, player_colour(fr.player).name())

    # ------------------------------------------------------------------ human seat
    def _human_changed(self) -> None:
        rec = self.human.recorder
        if rec is None:
            return
        self.recorder = rec
        self.frames = rec.finished_frames
        g = rec.game
        seat = self.human.seat
        panels = self.human.panels
        view = view_of(self.human.rs)
        self.overlay.show_cars(view.cars(g), view.car_owners(g))
        cur = rec.current
        self.overlay.show_route(seat, cur.route if cur is not None and cur.player == seat else [])
        self.overlay.show_targets(self.human.overlay.target_cells)
        self.overlay.show_marks(rec.marks())
        self._show_extras(rec.gauges(), rec.marks())
        rounds = panels.rounds(rec)
        self.turn_label.setText((f"Round {rounds}; " if rounds else "") + f"{len(self.frames) - 1} turns played"
                                + (" — the race is over" if panels.over(rec) else ""))
        self.player_panel.setText(panels.seat_html(self.human.rs, rec, seat, player_colour(seat).name()))
        last = rec.frames[-1]
        self.events.setPlainText("\n".join(last.events))
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(0, 2 * (len(self.frames) - 1)))
        self.slider.setValue(self.slider.maximum())
        self.slider.blockSignals(False)
        self.step = self.slider.maximum()


def install(window: QMainWindow) -> RacePanel:
    """Add the Test race and Batch report docks and a Race menu to the editor window."""
    report = BatchReport()
    report_dock = QDockWidget("Batch report", window)
    report_dock.setObjectName("dock-batch-report")
    scroll = QScrollArea()  # the report's own size must not push the window's layout
    scroll.setWidgetResizable(True)
    scroll.setWidget(report)
    report_dock.setWidget(scroll)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, report_dock)
    panel = RacePanel(window, report)
    panel.report_dock = report_dock
    report.map_pane.canvas_scene = window.scene  # type: ignore[attr-defined]
    dock = QDockWidget("Test race", window)
    dock.setObjectName("dock-race")
    # scrollable, so that the tall panel does not force its height on the Track tab beside it
    panel_scroll = QScrollArea()
    panel_scroll.setWidgetResizable(True)
    panel_scroll.setFrameShape(QFrame.Shape.NoFrame)
    panel_scroll.setWidget(panel)
    dock.setWidget(panel_scroll)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    # tabs behind the Track and Problems docks: the editing layout stays as it was
    docks = getattr(window, "docks", {})
    for front, behind in ((docks.get("track"), dock), (docks.get("problems"), report_dock)):
        if front is not None:
            window.tabifyDockWidget(front, behind)
            front.raise_()
    grid_dock, track_dock = docks.get("grid"), docks.get("track")
    if grid_dock is not None and track_dock is not None:
        # the race panel is tall, the Track form short: share the right column by the tab in front
        def share_height(front: QDockWidget, height: int) -> Any:
            def on_visible(visible: bool) -> None:
                if visible and not grid_dock.isFloating() and not front.isFloating():
                    window.resizeDocks([front, grid_dock], [height, max(1, window.height() - height)],
                                       Qt.Orientation.Vertical)
            return on_visible

        dock.visibilityChanged.connect(share_height(dock, 560))
        track_dock.visibilityChanged.connect(share_height(track_dock, 300))

    def show_and(f: Any) -> None:
        dock.show()
        dock.raise_()
        f()

    menu = window.menuBar().addMenu("&Race")
    for text, slot, name in (("Race on this track", panel.run_race, "race-run-action"),
                             ("Run a batch of races", panel.run_batch, "race-batch-action")):
        act = QAction(text, window)
        act.setObjectName(name)
        act.triggered.connect(lambda _c=False, f=slot: show_and(f))
        menu.addAction(act)
    menu.addSeparator()
    menu.addAction(dock.toggleViewAction())
    menu.addAction(report_dock.toggleViewAction())
    window.race_panel = panel  # type: ignore[attr-defined]
    window.docks["race"] = dock  # type: ignore[attr-defined]
    window.docks["batch-report"] = report_dock  # type: ignore[attr-defined]
    app = QApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(panel.shutdown)
    return panel
