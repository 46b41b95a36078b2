"""The editor's main window: canvas, docks, menus, files, autosave and exports."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TypedDict

from PySide6.QtCore import QSettings, QStandardPaths, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QUndoView,
    QWidget,
)

from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.core.files import atomic_write_text
from slipstream.engine.editing import commands as cmds
from slipstream.engine.editing.commands import Command
from slipstream.engine.editing.document import Change, TrackDocument, state_from_text
from slipstream.engine.editing.scaffold import track_data
from slipstream.engine.tracks.backdrop import backdrop_of
from slipstream.engine.tracks.edits import centerline
from slipstream.engine.tracks.render import track_svg
from slipstream.engine.tracks.templates import TEMPLATE_NAMES, TEMPLATES, template
from slipstream.engine.tracks.track import COLOUR_NAMES, GEAR_COLOURS, NO_SPACE

from .docklayout import hide_stray_tab_bars
from .pack.packview import install as install_pack_menu
from .race.racedock import install as install_race_docks
from .track import printing, recovery
from .track.backdrop import TOOL as BACKDROP_TOOL
from .track.backdrop import BackdropLayer, BackdropPanel, BackdropTool, folder_of
from .track.canvas import Selection, TrackScene, TrackView
from .track.docks import GridPanel, ProblemsPanel, SourcePanel, TrackPanel
from .track.v2panel import Track2Panel
from .track.v2tools import TOOLS as TRACK2_TOOLS
from .track.v2tools import Track2Layers, Track2Tools
from .undo import UndoStack

APP = "Slipstream"
MAX_RECENT = 8
AUTOSAVE_MS = 30_000
FILTER = "Slipstream tracks (*.yaml *.yml);;All files (*)"



def ruleset_templates() -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(id, name, templates) of every installed ruleset: its own starting tracks, else the
    shared shapes (what `slipstream new track --ruleset ID` writes for it)."""
    from slipstream.engine.editing.scaffold import ScaffoldError, track_templates
    from slipstream.engine.play.registry import RulesetError, get, ids

    out = []
    for rid in ids():
        try:
            out.append((rid, get(rid).name, track_templates(rid)))
        except (RulesetError, ScaffoldError, ImportError):
            continue
    return out


class MainWindow(QMainWindow):
    """One open track. `settings` and `recovery_dir` can be given (tests use temporary ones)."""

    fileSaved = Signal(object)  # the Path a track was just written to (open pack windows reload it)
    documentReplaced = Signal()  # another track is open (opened, new, recovered): the race dock picks its pack

    def __init__(self, settings: QSettings | None = None, recovery_dir: Path | None = None,
                 autosave_ms: int = AUTOSAVE_MS) -> None:
        super().__init__()
        self.settings = settings or QSettings(APP, "editor")
        if recovery_dir is None:
            base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation)
            recovery_dir = Path(base or Path.home() / ".slipstream") / "recovery"
        self.recovery_dir = recovery_dir
        self.session = f"{os.getpid()}-{id(self):x}"
        self.recovery_file: Path | None = None
        self._autosaved_state: object = None
        self.doc = TrackDocument.new()
        # the ruleset a new track was started for (File > New > For ...), "" for any other
        # document: the Test race dock picks a pack of it while the track names none itself
        self.made_for = ""
        self.undo_stack = UndoStack(self)  # shows the open document's own history
        self.selection: Selection | None = None
        self.brush = 3

        self.scene = TrackScene()
        self.view = TrackView(self.scene)
        self.view.setObjectName("canvas")
        self.view.on_key = self._canvas_key
        self.setCentralWidget(self.view)
        self._empty_hint = QLabel("", self.view)
        self._empty_hint.setStyleSheet("color: white; font-size: 15px; padding: 12px;")
        self._empty_hint.move(10, 10)

        self.track_panel = TrackPanel(self.push, self._selected_segment)
        self.grid_panel = GridPanel(self.push, self.add_grid_slot)
        self.problems = ProblemsPanel()
        self.source = SourcePanel(self.push)
        self.history = QUndoView(self.undo_stack)
        self.history.setEmptyLabel("<opened>")
        self.docks: dict[str, QDockWidget] = {}
        for key, title, widget, area in (
            ("track", "Track", self.track_panel, Qt.DockWidgetArea.RightDockWidgetArea),
            ("grid", "Grid", self.grid_panel, Qt.DockWidgetArea.RightDockWidgetArea),
            ("problems", "Problems", self.problems, Qt.DockWidgetArea.BottomDockWidgetArea),
            ("history", "History", self.history, Qt.DockWidgetArea.RightDockWidgetArea),
            ("source", "YAML", self.source, Qt.DockWidgetArea.BottomDockWidgetArea),
        ):
            dock = QDockWidget(title, self)
            dock.setObjectName(f"dock-{key}")
            dock.setWidget(widget)
            self.addDockWidget(area, dock)
            self.docks[key] = dock
        self.tabifyDockWidget(self.docks["problems"], self.docks["source"])
        self.docks["problems"].raise_()
        self.tabifyDockWidget(self.docks["grid"], self.docks["history"])
        self.docks["grid"].raise_()
        self.resizeDocks([self.docks["problems"]], [170], Qt.Orientation.Vertical)
        self.resizeDocks([self.docks["track"]], [330], Qt.Orientation.Horizontal)
        self._install_track2()
        self._install_backdrop()

        self.status_counts = QLabel()
        self.status_counts.setObjectName("status-counts")
        self.status_where = QLabel()
        self.statusBar().addPermanentWidget(self.status_where)
        self.statusBar().addPermanentWidget(self.status_counts)

        self._build_actions()
        self.view.cellClicked.connect(self._cell_clicked)
        self.view.cellDragged.connect(self._cell_dragged)
        self.view.cellReleased.connect(self.seal)  # one paint stroke, one step
        self.view.backgroundClicked.connect(lambda: self.select(None))
        self.view.pointDragged.connect(lambda i, x, y: self.push(cmds.MovePoint(i, (x, y))))
        self.view.pointReleased.connect(self.seal)
        self.view.pointInserted.connect(lambda i, x, y: self.push(cmds.AddPoint(i, (x, y))))
        self.view.pointDeleted.connect(lambda i: self.push(cmds.DeletePoint(i)))
        self.problems.diagnosticActivated.connect(self.go_to_diagnostic)
        self.grid_panel.slotSelected.connect(lambda lane, seg: self.select(Selection(lane, seg, seg), centre=True))
        self.undo_stack.cleanChanged.connect(self._update_title)
        self.undo_stack.indexChanged.connect(self._update_title)

        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(autosave_ms)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()

        self._attach(self.doc)
        install_race_docks(self)  # Race menu, Test race and Batch report docks
        hide_stray_tab_bars(self)
        self.resize(1280, 820)

    # --- actions and menus ---------------------------------------------------------------
    def _act(self, text: str, slot, shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,  # noqa: ANN001
             name: str = "") -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        act.triggered.connect(lambda _checked=False: slot())
        act.setObjectName(name or text.lower().replace(" ", "-").replace("…", "").replace("&", ""))
        self.addAction(act)
        return act

    def _build_actions(self) -> None:
        mb = self.menuBar()
        file_menu = mb.addMenu("&File")
        new_menu = file_menu.addMenu("&New")
        self.act_new = self._act("Empty track", self.new_empty, QKeySequence.StandardKey.New, "new-empty")
        new_menu.addAction(self.act_new)
        for name in TEMPLATES:
            new_menu.addAction(self._act(f"{TEMPLATE_NAMES[name]} template",
                                         lambda n=name: self.new_from_template(n), None, f"new-{name}"))
        self.new_menus: dict[str, QMenu] = {}  # ruleset id -> File > New > For <ruleset> (a new pack too)
        for rid, label, names in ruleset_templates():  # each ruleset's starting tracks
            sub = new_menu.addMenu(f"For {label}")
            self.new_menus[rid] = sub
            for tid, tname in names:
                sub.addAction(self._act(f"{tname} template", lambda t=tid, r=rid: self.new_from_template(t, r),
                                        None, f"new-{rid}-{tid}"))
        self.act_open = self._act("&Open…", self.open_dialog, QKeySequence.StandardKey.Open, "open")
        file_menu.addAction(self.act_open)
        install_pack_menu(self, file_menu)  # File > Open Pack…, New > For … > Pack… (editor/pack/packview.py)
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.act_save = self._act("&Save", self.save, QKeySequence.StandardKey.Save, "save")
        self.act_save_as = self._act("Save &as…", self.save_as, QKeySequence("Ctrl+Shift+S"), "save-as")
        file_menu.addActions([self.act_save, self.act_save_as])
        file_menu.addSeparator()
        export = file_menu.addMenu("&Export")
        self.act_png = self._act("Picture (PNG)…", self.export_png_dialog, None, "export-png")
        self.act_svg = self._act("Drawing (SVG)…", self.export_svg_dialog, None, "export-svg")
        self.act_pdf = self._act("Printable PDF…", self.export_pdf_dialog, QKeySequence.StandardKey.Print, "export-pdf")
        export.addActions([self.act_png, self.act_svg, self.act_pdf])
        file_menu.addSeparator()
        file_menu.addAction(self._act("&Quit", self.close, QKeySequence.StandardKey.Quit, "quit"))
        self._refresh_recent()

        edit = mb.addMenu("&Edit")
        self.act_undo = self.undo_stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcut(QKeySequence("Ctrl+Z"))
        self.act_undo.setObjectName("undo")
        self.act_redo = self.undo_stack.createRedoAction(self, "&Redo")
        self.act_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.act_redo.setObjectName("redo")
        edit.addActions([self.act_undo, self.act_redo])
        edit.addSeparator()
        for colour in GEAR_COLOURS:
            edit.addAction(self._act(f"Paint {COLOUR_NAMES[colour]} ({colour})",
                                     lambda c=colour: self.paint_selection(c), str(colour), f"paint-{colour}"))
        edit.addSeparator()
        edit.addAction(self._act("Split space here", self.split_here, "K", "split"))
        edit.addAction(self._act("Merge with next space", self.merge_here, "M", "merge"))
        edit.addAction(self._act("Remove lane over selection", lambda: self.lane_present(False), "N", "remove-lane"))
        edit.addAction(self._act("Restore lane over selection", lambda: self.lane_present(True), "R", "restore-lane"))
        edit.addAction(self._act("Insert segment here", lambda: self.resize_here(1), "Ctrl+I", "insert-segment"))
        edit.addAction(self._act("Delete segment here", lambda: self.resize_here(-1), "Ctrl+Shift+I", "delete-segment"))
        edit.addAction(self._act("Finish line here", self.finish_here, "L", "finish-here"))
        edit.addAction(self._act("Add grid slot here", self.add_grid_slot, "G", "add-grid-slot"))

        view = mb.addMenu("&View")
        view.addAction(self._act("Fit track", self.view.fit, "F", "fit"))
        view.addAction(self._act("Zoom in", lambda: self.view.zoom(1.25), QKeySequence.StandardKey.ZoomIn, "zoom-in"))
        view.addAction(self._act("Zoom out", lambda: self.view.zoom(0.8), QKeySequence.StandardKey.ZoomOut, "zoom-out"))
        view.addSeparator()
        for dock in self.docks.values():
            view.addAction(dock.toggleViewAction())

        tools = mb.addMenu("&Tools")
        bar = self.addToolBar("Tools")
        bar.setObjectName("toolbar-tools")
        group = QActionGroup(self)
        self.tool_actions: dict[str, QAction] = {}
        for key, text, tip in (
            ("select", "Select", "Click a cell; Shift+click extends along the lane; keys 3-6 paint"),
            ("paint", "Paint", "Click or drag to paint spaces with the brush colour (keys 3-6 set it)"),
            ("grid", "Grid", "Click a cell to add a grid slot there"),
            ("centreline", "Centreline", "Drag points; double-click the line to add one; right-click a point to delete it"),
            *TRACK2_TOOLS,
            BACKDROP_TOOL,
        ):
            act = QAction(text, self)
            act.setCheckable(True)
            act.setToolTip(tip)
            act.setObjectName(f"tool-{key}")
            act.triggered.connect(lambda _c=False, k=key: self.set_tool(k))
            group.addAction(act)
            tools.addAction(act)
            bar.addAction(act)
            self.tool_actions[key] = act
        self.tool_actions["select"].setChecked(True)
        bar.addSeparator()
        self.brush_box = QComboBox()
        self.brush_box.setObjectName("brush")
        for colour in GEAR_COLOURS:
            self.brush_box.addItem(f"{colour} {COLOUR_NAMES[colour]}", colour)
        self.brush_box.currentIndexChanged.connect(lambda i: setattr(self, "brush", GEAR_COLOURS[i]))
        bar.addWidget(QLabel(" Brush "))
        bar.addWidget(self.brush_box)
        bar.addSeparator()
        bar.addAction(self.act_undo)
        bar.addAction(self.act_redo)

    def _install_track2(self) -> None:
        """The track/2 tools (editor/track/v2tools.py), their canvas layers and the Corners & pit dock."""
        self.track2_panel = Track2Panel(
            self.push, lambda: None if self.selection is None else self.selection.cell, self.seal)
        self.track2_layers = Track2Layers(self.scene)
        self.track2_tools = Track2Tools(
            self.view, self.track2_layers, self.push, lambda: self.doc.track,
            self.track2_panel.pit_length.value, self.track2_panel.pick_corner, self.seal,
            lambda text: self.statusBar().showMessage(text, 10_000))
        dock = QDockWidget("Corners and pit", self)
        dock.setObjectName("dock-track2")
        scroll = QScrollArea()  # a scroll area: the dock's tall form does not squeeze its neighbours
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.track2_panel)
        dock.setWidget(scroll)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.tabifyDockWidget(self.docks["grid"], dock)
        self.docks["grid"].raise_()
        self.docks["track2"] = dock

    def _install_backdrop(self) -> None:
        """The backdrop image under the canvas, its dock and its drag tool (editor/track/backdrop.py)."""
        def status(text: str) -> None:
            self.statusBar().showMessage(text, 10_000)

        self.backdrop_layer = BackdropLayer(self.scene)
        self.backdrop_panel = BackdropPanel(self.push, self.seal, status)
        self.backdrop_tool = BackdropTool(self.view, self.push, self.seal, lambda: self.doc, status)
        dock = QDockWidget("Backdrop", self)
        dock.setObjectName("dock-backdrop")
        scroll = QScrollArea()  # as the Corners and pit dock: its form does not squeeze its neighbours
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.backdrop_panel)
        dock.setWidget(scroll)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.tabifyDockWidget(self.docks["grid"], dock)
        self.docks["grid"].raise_()
        self.docks["backdrop"] = dock

    def set_tool(self, key: str) -> None:
        self.view.tool = key
        self.tool_actions[key].setChecked(True)
        self.scene.set_show_handles(key == "centreline")
        self.track2_tools.reset()

    # --- the document ------------------------------------------------------------------------
    def _attach(self, doc: TrackDocument) -> None:
        if self.doc is not doc:
            self.doc.unsubscribe(self._changed)
        self.doc = doc
        doc.subscribe(self._changed)
        self.undo_stack.attach(doc.history)
        self.selection = None
        self._refresh(rebuild=True)
        self.view.fit()
        self.documentReplaced.emit()

    def push(self, cmd: Command) -> None:
        """Every edit goes through here: one command on the document's undo history."""
        self.doc.history.push(cmd)

    def seal(self) -> None:
        """End a gesture (a drag): the next edit starts a new undo step."""
        self.doc.history.seal()

    def _changed(self, change: Change) -> None:
        self._refresh()

    def _refresh(self, rebuild: bool = False) -> None:
        doc = self.doc
        an = doc.analysis()
        track = an.track
        if track is None and doc.data is not None and an.errors == 0:
            self._empty_hint.setText("Empty track: set Lanes and Segments in the Track dock, "
                                     "or start from a template (File > New).")
        elif track is None:
            self._empty_hint.setText("The track cannot be drawn: see the Problems dock.")
        else:
            self._empty_hint.setText("")
        self._empty_hint.adjustSize()
        points: list[tuple[float, float]] = []
        if doc.data is not None and track is not None:
            # without geometry these are the stadium's points; the first edit makes them the file's
            points = [(float(p[0]), float(p[1])) for p in centerline(doc.data)]
        if self.scene.show_track(track, points) and self.view.auto_fit:
            self.view.fit()
        if track is not None and self.selection is not None:
            s = self.selection
            if not (0 <= s.lane < track.lanes and s.first < track.segments and s.last < track.segments):
                self.selection = None
        self.scene.show_selection(self.selection)
        self.scene.show_problems(an.diagnostics)
        self.problems.show_diagnostics(an.diagnostics)
        self.track_panel.show_document(doc)
        self.track2_layers.show(track)
        self.track2_panel.show_document(doc)
        self.backdrop_layer.show(backdrop_of(doc.data), folder_of(doc))
        self.backdrop_panel.show_document(doc)
        self.grid_panel.show_document(doc)
        if self.docks["source"].isVisible() or rebuild:
            self.source.show_text(an.text, force=rebuild)
        self.status_counts.setText(f"{an.errors} error{'s' * (an.errors != 1)}, "
                                   f"{an.warnings} warning{'s' * (an.warnings != 1)}")
        self._update_where()
        self._update_title()

    def _update_title(self, *_args: object) -> None:
        self.setWindowTitle(f"{self.doc.display_name}[*] — {APP}")
        self.setWindowModified(self.doc.dirty)

    def _update_where(self) -> None:
        track, s = self.doc.track, self.selection
        if track is None or s is None:
            self.status_where.setText("")
            return
        sp = track.space_at(s.lane, s.first)
        what = f"space {sp.name}, {COLOUR_NAMES[sp.colour]} ×{sp.length}" if sp else "no space (lane missing)"
        span = f"cells {s.lane}:{s.first}-{s.last}" if s.last != s.first else f"cell {s.lane}:{s.first}"
        self.status_where.setText(f"{span} · {what}")

    # --- selection and canvas input ---------------------------------------------------------
    def select(self, sel: Selection | None, centre: bool = False) -> None:
        self.selection = sel
        self.scene.show_selection(sel)
        self.track2_panel.show_selection()
        self._update_where()
        if centre and sel is not None:
            self.view.centre_on_cell(sel.lane, sel.first)

    def _selected_segment(self) -> int | None:
        return None if self.selection is None else self.selection.first

    def _cell_clicked(self, lane: int, seg: int, modifiers: Qt.KeyboardModifier) -> None:
        tool = self.view.tool
        if tool == "paint":
            self.select(Selection(lane, seg, seg))
            self.seal()  # a new stroke never joins the one before
            self.push(cmds.PaintStroke(lane, seg, self.brush))
        elif tool == "grid":
            self.select(Selection(lane, seg, seg))
            index = self._grid_index(lane, seg)
            if index is None:
                self.push(cmds.AddGridSlot(lane, seg))
                index = self._grid_index(lane, seg)
            if index is not None:
                self.grid_panel.select_row(index)
        else:
            shift = bool(modifiers & Qt.KeyboardModifier.ShiftModifier)
            if shift and self.selection is not None and self.selection.lane == lane:
                self.select(Selection(lane, self.selection.first, seg))
            else:
                self.select(Selection(lane, seg, seg))

    def _cell_dragged(self, lane: int, seg: int) -> None:
        if self.view.tool == "paint":
            self.select(Selection(lane, seg, seg))
            self.push(cmds.PaintStroke(lane, seg, self.brush))
        elif self.view.tool == "select" and self.selection is not None and lane == self.selection.lane:
            self.select(Selection(lane, self.selection.first, seg))

    def _grid_index(self, lane: int, seg: int) -> int | None:
        data = self.doc.data or {}
        for i, slot in enumerate(data.get("grid", []) or []):
            if isinstance(slot, dict) and slot.get("lane") == lane and slot.get("segment") == seg:
                return i
        return None

    def _canvas_key(self, event: QKeyEvent) -> bool:
        """Arrow keys move the selection (Shift extends it); Delete removes a centreline point."""
        track, s = self.doc.track, self.selection
        key = event.key()
        if track is None:
            return False
        moves: dict[int, tuple[int, int]] = {Qt.Key.Key_Right: (0, 1), Qt.Key.Key_Left: (0, -1),
                                             Qt.Key.Key_Up: (1, 0), Qt.Key.Key_Down: (-1, 0)}
        if key in moves:
            dl, ds = moves[key]
            if s is None:
                self.select(Selection(0, 0, 0), centre=True)
                return True
            n = track.segments
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier and dl == 0:
                self.select(Selection(s.lane, s.first, (s.last + ds) % n))
            else:
                lane = min(max(s.lane + dl, 0), track.lanes - 1)
                seg = (s.first + ds) % n
                self.select(Selection(lane, seg, seg))
            return True
        return False

    # --- edits on the selection --------------------------------------------------------------
    def _sel_segments(self) -> list[int]:
        track, s = self.doc.track, self.selection
        if track is None or s is None:
            return []
        n = track.segments
        if s.last >= s.first:
            return list(range(s.first, s.last + 1))
        return list(range(s.first, n)) + list(range(0, s.last + 1))

    def paint_selection(self, colour: int) -> None:
        """Keys 3-6: paint the selected spaces (with the Paint tool: only choose the brush)."""
        self.brush = colour
        self.brush_box.blockSignals(True)
        self.brush_box.setCurrentIndex(GEAR_COLOURS.index(colour))
        self.brush_box.blockSignals(False)
        if self.view.tool == "paint":
            return
        track, s = self.doc.track, self.selection
        if track is None or s is None:
            return
        firsts: list[int] = []
        for seg in self._sel_segments():
            idx = track.cells[s.lane][seg]
            # only spaces that change: a macro of no-ops would still leave an empty step
            if idx != NO_SPACE and track.spaces[idx].colour != colour and track.spaces[idx].first not in firsts:
                firsts.append(track.spaces[idx].first)
        if len(firsts) == 1:
            self.push(cmds.Paint(s.lane, firsts[0], colour))
        elif firsts:
            with self.doc.history.macro(f"Paint {len(firsts)} spaces {COLOUR_NAMES[colour]}"):
                for first in firsts:
                    self.push(cmds.Paint(s.lane, first, colour))

    def split_here(self) -> None:
        if self.selection is not None and self.doc.track is not None:
            self.push(cmds.SplitSpace(self.selection.lane, self.selection.first))

    def merge_here(self) -> None:
        if self.selection is not None and self.doc.track is not None:
            self.push(cmds.MergeSpaces(self.selection.lane, self.selection.first))

    def lane_present(self, present: bool) -> None:
        s = self.selection
        if s is not None and self.doc.track is not None:
            last = s.last if s.last >= s.first else s.last + self.doc.track.segments
            self.push(cmds.SetLanePresent(s.lane, s.first, last, present, self.brush))

    def resize_here(self, delta: int) -> None:
        if self.selection is not None and self.doc.track is not None:
            self.push(cmds.ResizeAt(self.selection.first, delta))

    def finish_here(self) -> None:
        if self.selection is not None and self.doc.track is not None:
            k = self.selection.first
            self.push(cmds.MoveFinish(k))
            self.select(Selection(self.selection.lane, 0, 0))

    def add_grid_slot(self) -> None:
        s = self.selection
        if s is not None and self.doc.track is not None:
            self.push(cmds.AddGridSlot(s.lane, s.first))
            index = self._grid_index(s.lane, s.first)
            if index is not None:
                self.grid_panel.select_row(index)

    def go_to_diagnostic(self, diag: Diagnostic | None) -> None:
        """Select and centre the space a diagnostic is about (or its grid slot)."""
        track = self.doc.track
        if diag is None or track is None:
            return
        for name in diag.spaces:
            sp = track.space_named(name)
            if sp is not None:
                self.select(Selection(sp.lane, sp.first, sp.last), centre=True)
                return
        if diag.path.startswith("$.grid["):
            try:
                i = int(diag.path[len("$.grid["):].split("]")[0])
            except ValueError:
                return
            if 0 <= i < len(track.grid):
                slot = track.grid[i]
                if 0 <= slot.lane < track.lanes and 0 <= slot.segment < track.segments:
                    self.select(Selection(slot.lane, slot.segment, slot.segment), centre=True)
                self.grid_panel.select_row(i)

    # --- files ------------------------------------------------------------------------------
    def maybe_save(self) -> bool:
        """Ask about unsaved changes; False means the user cancelled."""
        if not self.doc.dirty:
            return True
        answer = QMessageBox.question(
            self, APP, f"{self.doc.display_name} has unsaved changes. Save them?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def _replace_document(self, doc: TrackDocument, made_for: str = "") -> None:
        self.made_for = made_for
        recovery.remove(self.recovery_file)
        self.recovery_file = None
        self._autosaved_state = None
        self._attach(doc)

    def new_empty(self) -> None:
        if self.maybe_save():
            self._replace_document(TrackDocument.new())

    def new_from_template(self, name: str, ruleset: str = "") -> None:
        """A new track from a template: a shared colour-track shape, or with `ruleset` one of
        that ruleset's starting tracks (its `templates` capability: corners, pit lane ...)."""
        if self.maybe_save():
            doc = TrackDocument.new(track_data(ruleset, name) if ruleset else template(name))
            doc.saved = None  # a template is new work: unsaved until saved
            self._replace_document(doc, ruleset)

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = str(self.doc.path.parent) if self.doc.path else ""
        name, _ = QFileDialog.getOpenFileName(self, "Open track", start, FILTER)
        if name:
            self.open_path(Path(name), ask=False)

    def open_path(self, path: Path, ask: bool = True) -> bool:
        """Open a file; an invalid file opens too, with its diagnostics listed."""
        if ask and not self.maybe_save():
            return False
        try:
            doc = TrackDocument.open(path)
        except OSError as exc:
            QMessageBox.warning(self, APP, f"Cannot open {path}:\n{exc}")
            return False
        self._replace_document(doc)
        self._add_recent(path)
        an = doc.analysis()
        self.statusBar().showMessage(
            f"Opened {path.name}" + (f" with {an.errors} error(s): see Problems" if an.errors else ""), 5000)
        return True

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self) -> bool:
        start = str(self.doc.path or Path.cwd() / f"{(self.doc.data or {}).get('id', 'track')}.yaml")
        name, _ = QFileDialog.getSaveFileName(self, "Save track as", start, FILTER)
        if not name:
            return False
        path = Path(name)
        if path.suffix.lower() not in (".yaml", ".yml"):
            path = path.with_suffix(".yaml")
        return self._save_to(path)

    def _save_to(self, path: Path) -> bool:
        try:
            self.doc.save(path)
        except OSError as exc:
            QMessageBox.critical(self, APP, f"Could not save {path}:\n{exc}\nYour changes are still open.")
            return False
        recovery.remove(self.recovery_file)
        self.recovery_file = None
        self._add_recent(path)
        self.fileSaved.emit(path)
        self._update_title()
        an = self.doc.analysis()
        self.statusBar().showMessage(
            f"Saved {path.name}" + (f" ({an.errors} error(s) remain)" if an.errors else ""), 5000)
        return True

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def _add_recent(self, path: Path) -> None:
        p = str(path.resolve())
        items = [p] + [x for x in self.recent_files() if x != p]
        self.settings.setValue("recent", items[:MAX_RECENT])
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for f in files:
            act = self.recent_menu.addAction(f)
            act.triggered.connect(lambda _c=False, f=f: self.open_path(Path(f)))
        self.recent_menu.setEnabled(bool(files))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if self.maybe_save():
            recovery.remove(self.recovery_file)
            self.recovery_file = None
            self.autosave_timer.stop()
            event.accept()
        else:
            event.ignore()

    # --- autosave and recovery ----------------------------------------------------------------
    def autosave(self) -> Path | None:
        """Write the recovery file when there are unsaved changes not yet written there."""
        if not self.doc.dirty:
            if self.recovery_file is not None:
                recovery.remove(self.recovery_file)
                self.recovery_file = None
            return None
        if (self._autosaved_state is self.doc.state and self.recovery_file is not None
                and self.recovery_file.exists()):
            return self.recovery_file
        try:
            self.recovery_dir.mkdir(parents=True, exist_ok=True)
            self.recovery_file = recovery.write(self.recovery_dir, self.doc.path, self.session, self.doc.text())
        except OSError as exc:
            self.statusBar().showMessage(f"Autosave failed: {exc}", 5000)
            return None
        self._autosaved_state = self.doc.state
        return self.recovery_file

    def offer_recovery(self, for_file: Path | None = None) -> bool:
        """At start: offer to restore unsaved work left by an editor that did not close.

        With `for_file` (the FILE the editor was started on) only that file's work is offered;
        other documents' recovery files stay for a later start.
        """
        mine = {self.recovery_file} if self.recovery_file else set()
        found = recovery.pending(self.recovery_dir, mine, for_file)
        if not found:
            return False
        rec = found[0]
        label = rec.original.name if rec.original else "an untitled track"
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(rec.mtime))
        answer = QMessageBox.question(
            self, APP, f"Slipstream found unsaved changes to {label} from {when}.\nRestore them?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            recovery.remove(rec.file)
            return False
        doc = TrackDocument(state_from_text(rec.text), rec.original, None)
        if rec.original is not None and rec.original.exists():
            try:
                doc.saved = TrackDocument.open(rec.original).state
            except OSError:
                doc.saved = None
        self._replace_document(doc)
        recovery.remove(rec.file)
        self.autosave()  # keep the restored work safe at once under this session
        self.statusBar().showMessage(f"Restored unsaved changes to {label}", 5000)
        return True

    # --- exports ------------------------------------------------------------------------------
    def _export_name(self, title: str, suffix: str, filt: str) -> Path | None:
        base = self.doc.path.with_suffix(suffix) if self.doc.path else Path.cwd() / f"track{suffix}"
        name, _ = QFileDialog.getSaveFileName(self, title, str(base), filt)
        return Path(name) if name else None

    def _need_track(self) -> bool:
        if self.doc.track is None:
            QMessageBox.information(self, APP, "The track has errors that stop it from being drawn.")
            return False
        return True

    def export_svg(self, path: Path) -> None:
        assert self.doc.track is not None
        atomic_write_text(path, track_svg(self.doc.track))

    def export_png(self, path: Path, width: int = 2000) -> None:
        from .track.export import svg_to_png

        assert self.doc.track is not None
        svg_to_png(track_svg(self.doc.track), path, width)

    def export_svg_dialog(self) -> None:
        if self._need_track() and (p := self._export_name("Export SVG", ".svg", "SVG (*.svg)")):
            self.export_svg(p)

    def export_png_dialog(self) -> None:
        if self._need_track() and (p := self._export_name("Export PNG", ".png", "PNG (*.png)")):
            self.export_png(p)

    def export_pdf_dialog(self) -> None:
        if not self._need_track():
            return
        dialog = PrintDialog(self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        p = self._export_name("Export printable PDF", ".pdf", "PDF (*.pdf)")
        if p:
            assert self.doc.track is not None
            plan = printing.export_pdf(self.doc.track, p, **dialog.options())
            self.statusBar().showMessage(f"Wrote {p.name}: {plan.pages} page(s) of {plan.paper}", 5000)


class PrintOptions(TypedDict):
    """The PrintDialog's choices: the keyword arguments of printing.export_pdf."""

    paper: str
    mm_per_lane: float
    overlap: float
    landscape: bool | None


class PrintDialog(QDialog):
    """Scale, paper and overlap of the printable PDF."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Printable PDF")
        form = QFormLayout(self)
        self.scale = QDoubleSpinBox()
        self.scale.setRange(5, 200)
        self.scale.setValue(30)
        self.scale.setSuffix(" mm per lane")
        self.paper = QComboBox()
        self.paper.addItems(list(printing.PAPERS))
        self.orientation = QComboBox()
        self.orientation.addItems(["fewest pages", "portrait", "landscape"])
        self.overlap = QDoubleSpinBox()
        self.overlap.setRange(0, 50)
        self.overlap.setValue(12)
        self.overlap.setSuffix(" mm")
        form.addRow("Scale", self.scale)
        form.addRow("Paper", self.paper)
        form.addRow("Orientation", self.orientation)
        form.addRow("Overlap", self.overlap)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def options(self) -> PrintOptions:
        orient = self.orientation.currentIndex()
        return {
            "paper": self.paper.currentText(),
            "mm_per_lane": self.scale.value(),
            "overlap": self.overlap.value(),
            "landscape": None if orient == 0 else orient == 2,
        }
