"""The pack view: browse a pack folder, edit its items in generated forms, its tables in a
table or any file as YAML, see a card as players see it and print card sheets, with live
diagnostics, scenarios, undo and minimal saves, for a pack of any ruleset.

The window holds a `PackDocument` (engine/editing/packdoc.py) and changes it only through its commands,
pushed on the document's own undo history, which the window's QUndoStack follows as in the track
editor (editor/undo.py). The Problems dock is the track editor's panel, fed with the pack's
diagnostics; clicking one selects the item and outlines the field.

What a ruleset's packs hold comes from its `authoring` capability (engine/play/protocol.py):
the item kinds of Edit > New (one tree group each, one tree item per card, die or row), the
tables (`DataTable`: selecting a group, or a table under Tables, shows its numbers as a table,
tableview.py), and the card faces and print sheets. Its pack panels (panels.py, loaded by the
registry) may add form fields and paint its cards' numbers strip. No code here names a ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QFont, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QUndoView,
    QVBoxLayout,
    QWidget,
)

from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.editing.commands import Command
from slipstream.engine.editing.packdoc import (
    DELETE,
    Change,
    ItemRef,
    PackDocument,
    Place,
    RemoveFile,
    RemoveItem,
    ReplaceFileText,
    SetValue,
    add_item,
    change_inherited_row,
    default_file,
    get_in,
    inherited_rows,
    is_data_kind,
    item_lists,
    items,
    key_path,
    next_row,
    parse_json_path,
    place_of,
    places,
    row_key_field,
    row_kinds,
)
from slipstream.engine.play.protocol import Authoring, CardFace, DataTable, ItemKind

from ..forms import ItemForm, default_for, schemas
from ..track.docks import ProblemsPanel
from ..undo import UndoStack
from .cardfaces import CardPreview, card_png, cards_pdf
from .panels import PackPanels, panels_for
from .scenariopanel import ScenarioPanel
from .tableview import TableEditor

APP = "Slipstream"
VALIDATE_MS = 250

# What a tree entry points at: ("item", rel, list key, index) | ("file", rel) | ("track", rel)
# | ("group", kind, list key) (an item kind: its table, if it has one) | ("group", name)
# | ("table", kind, path key) (a table of no item kind, e.g. a price list)
Target = tuple[Any, ...]


class YamlPanel(QWidget):
    """The YAML text of the selected item's file, as it will be saved; Apply makes it an edit."""

    def __init__(self, apply: Callable[[str, str], None]) -> None:
        super().__init__()
        self.apply_cb = apply
        self.rel: str | None = None
        self._text = ""
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.label = QLabel()
        lay.addWidget(self.label)
        self.edit = QPlainTextEdit()
        self.edit.setObjectName("pack-yaml")
        font = QFont("DejaVu Sans Mono")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.edit.setFont(font)
        self.edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        lay.addWidget(self.edit)
        row = QHBoxLayout()
        row.addStretch(1)
        self.revert_button = QPushButton("Revert")
        self.apply_button = QPushButton("Apply")
        self.apply_button.setObjectName("yaml-apply")
        row.addWidget(self.revert_button)
        row.addWidget(self.apply_button)
        lay.addLayout(row)
        self.apply_button.clicked.connect(self.apply)
        self.revert_button.clicked.connect(lambda: self._set(self._text))

    def apply(self) -> None:
        if self.rel is not None and self.edit.toPlainText() != self._text:
            self.apply_cb(self.rel, self.edit.toPlainText())

    def _set(self, text: str) -> None:
        self.edit.setPlainText(text)
        self.edit.document().setModified(False)

    def show_file(self, rel: str | None, text: str, line: int | None = None) -> None:
        """Show a file's text; unapplied typing in the same file is kept."""
        same = rel == self.rel
        self.rel = rel
        self.label.setText(rel or "")
        if same and text == self._text:
            pass
        elif not same or not self.edit.document().isModified():
            self._set(text)
        self._text = text
        if line is not None and not self.edit.document().isModified():
            block = self.edit.document().findBlockByLineNumber(max(0, line - 1))
            cur = self.edit.textCursor()
            cur.setPosition(block.position())
            self.edit.setTextCursor(cur)
            self.edit.centerCursor()


class _Tree(QTreeWidget):
    """The item tree: its one column is as wide as its longest name (scrolling sideways, never
    "…"), and at least as wide as the view, so a selection spans the row."""

    def resizeEvent(self, event: Any) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.header().setMinimumSectionSize(self.viewport().width())


class PackWindow(QMainWindow):
    """One open pack. `open_track(path)` opens a track file in the track canvas."""

    def __init__(self, doc: PackDocument, open_track: Callable[[Path], Any] | None = None) -> None:
        super().__init__()
        self.doc = doc
        self.open_track = open_track
        self.undo_stack = UndoStack(self)
        self.undo_stack.attach(doc.history)  # the pack's own history
        self.form: ItemForm | None = None
        self.table: TableEditor | None = None  # the table shown (a group's or a price list's)
        self.target: Target | None = None
        self._item_key: tuple[str, str, str] | None = None  # (rel, list key, id) of the selection
        self._pack: Any = None  # the last pack that loaded (its cube kinds name the card groups)

        self.tree = _Tree()
        self.tree.setObjectName("pack-tree")
        self.tree.setHeaderHidden(True)
        # long names scroll sideways rather than end in "…" (the column takes its widest entry)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setStretchLastSection(False)
        # bound methods (not lambdas): Qt drops them with the window, so no late calls
        self.tree.currentItemChanged.connect(self._tree_selected)
        self.tree.itemDoubleClicked.connect(self._tree_activated)

        self.form_area = QScrollArea()
        self.form_area.setObjectName("form-area")
        self.form_area.setWidgetResizable(True)
        self.yaml = YamlPanel(self.apply_yaml)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("pack-tabs")
        self.tabs.addTab(self.form_area, "Form")
        self.tabs.addTab(self.yaml, "YAML")
        self.tabs.currentChanged.connect(lambda _i: self._refresh_yaml())

        self.preview = CardPreview()
        side = self.card_side = QWidget()
        side_lay = QVBoxLayout(side)
        side_lay.setContentsMargins(2, 2, 2, 2)
        side_lay.addWidget(self.preview, 1)
        self.png_button = QPushButton("Export card PNG…")
        self.png_button.clicked.connect(self.export_card_png_dialog)
        self.sheet_button = QPushButton("Card sheet PDF…")
        self.sheet_button.clicked.connect(self.export_sheet_pdf_dialog)
        side_lay.addWidget(self.png_button)
        side_lay.addWidget(self.sheet_button)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.tree)
        split.addWidget(self.tabs)
        split.addWidget(side)
        split.setStretchFactor(1, 1)
        split.setSizes([300, 600, 280])
        self.setCentralWidget(split)

        self.problems = ProblemsPanel()
        self.problems.diagnosticActivated.connect(self.go_to_diagnostic)
        self.scenarios = ScenarioPanel(lambda: self.doc, self.show_file)
        self.history = QUndoView(self.undo_stack)
        self.history.setEmptyLabel("<opened>")
        self.docks: dict[str, QDockWidget] = {}
        for key, title, widget in (("problems", "Problems", self.problems),
                                   ("scenarios", "Scenarios", self.scenarios),
                                   ("history", "History", self.history)):
            dock = QDockWidget(title, self)
            dock.setObjectName(f"pack-dock-{key}")
            dock.setWidget(widget)
            self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
            self.docks[key] = dock
        self.tabifyDockWidget(self.docks["problems"], self.docks["scenarios"])
        self.tabifyDockWidget(self.docks["scenarios"], self.docks["history"])
        self.docks["problems"].raise_()
        self.resizeDocks([self.docks["problems"]], [200], Qt.Orientation.Vertical)

        self.status_counts = QLabel()
        self.status_counts.setObjectName("pack-status-counts")
        self.statusBar().addPermanentWidget(self.status_counts)
        self._build_menus()

        self.validate_timer = QTimer(self)
        self.validate_timer.setSingleShot(True)
        self.validate_timer.setInterval(VALIDATE_MS)
        self.validate_timer.timeout.connect(self.validate_now)
        self.undo_stack.indexChanged.connect(self._update_title)

        doc.subscribe(self._changed)
        self.validate_now()  # first: the tree names colours after the pack's cube kinds
        self._rebuild_tree()
        self._update_title()
        self.resize(1360, 860)

    # --- menus -----------------------------------------------------------------------------
    def _act(self, text: str, slot: Callable[[], Any], shortcut: Any = None, name: str = "") -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        act.triggered.connect(lambda _c=False: slot())
        act.setObjectName(name or text.lower().replace(" ", "-").replace("…", ""))
        self.addAction(act)
        return act

    def _build_menus(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu("&File")
        self.act_save = self._act("&Save pack", self.save, QKeySequence.StandardKey.Save, "pack-save")
        f.addAction(self.act_save)
        f.addSeparator()
        f.addAction(self._act("Export card PNG…", self.export_card_png_dialog, None, "export-card-png"))
        f.addAction(self._act("Card sheet PDF…", self.export_sheet_pdf_dialog, None, "export-card-sheet"))
        f.addSeparator()
        f.addAction(self._act("&Close", self.close, QKeySequence.StandardKey.Close, "pack-close"))
        e = mb.addMenu("&Edit")
        undo = self.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence("Ctrl+Z"))
        redo = self.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        e.addActions([undo, redo])
        e.addSeparator()
        for ik in self.item_kinds():
            e.addAction(self._act(f"New {ik.title}…", partial(self.add_item_dialog, ik.kind, ".".join(ik.path)),
                                  None, "-".join(("new", ik.kind, *ik.path))))
        e.addAction(self._act("Remove selected item", self.remove_selected, None, "remove-item"))
        e.addAction(self._act("Delete selected file", self.delete_selected_file, None, "delete-file"))
        v = mb.addMenu("&View")
        for dock in self.docks.values():
            v.addAction(dock.toggleViewAction())

    # --- document --------------------------------------------------------------------------
    def push(self, cmd: Command) -> None:
        """Every edit goes through here: one command on the document's undo history."""
        self.doc.history.push(cmd)

    def _changed(self, change: Change) -> None:
        if change.reason == "saved":
            self._update_title()
            return
        self._rebuild_tree()
        self._refresh_selection()
        self.validate_timer.start()
        self._update_title()

    def validate_now(self) -> list[Diagnostic]:
        """Run the pack checks now (normally done shortly after each edit)."""
        self.validate_timer.stop()
        an = self.doc.analysis()
        if an.pack is not None:
            self._pack = an.pack
        self.problems.show_diagnostics(an.diagnostics)
        if not an.diagnostics:
            self.problems.summary.setText("No problems: the pack is valid.")
        self.status_counts.setText(f"{an.errors} error{'s' * (an.errors != 1)}, "
                                   f"{an.warnings} warning{'s' * (an.warnings != 1)}")
        self._refresh_preview()
        return an.diagnostics

    def _update_title(self, _index: int = 0) -> None:
        self.setWindowTitle(f"{self.doc.id} ({self.doc.root.name}){'*' if self.doc.dirty else ''} — {APP} pack")

    # --- tree ------------------------------------------------------------------------------
    def _rebuild_tree(self) -> None:
        state = self.doc.state
        self.tree.blockSignals(True)
        self.tree.clear()

        def node(parent: QTreeWidget | QTreeWidgetItem, text: str, target: Target, tip: str = "") -> QTreeWidgetItem:
            it = QTreeWidgetItem([text])
            it.setData(0, Qt.ItemDataRole.UserRole, target)
            if tip:
                it.setToolTip(0, tip)
            if isinstance(parent, QTreeWidget):
                parent.addTopLevelItem(it)
            else:
                parent.addChild(it)
            return it

        node(self.tree, "Pack (pack.yaml)", ("file", "pack.yaml"))
        for f in state.files:
            if f.kind == "rules":
                node(self.tree, f"Rules ({f.rel})", ("file", f.rel))
        tracks = node(self.tree, "Tracks", ("group", "tracks"))
        for f in state.files:
            if f.kind == "track":
                name = f.data.get("name", f.rel) if isinstance(f.data, dict) else f.rel
                node(tracks, str(name), ("track", f.rel), f"{f.rel} — double-click to open in the track canvas")
        ruleset = self.ruleset()
        lists = item_lists(ruleset)
        data = [f for f in state.files if f.kind not in lists and f.kind != "rules" and f.data is not None
                and is_data_kind(f.kind, ruleset)]
        if data:  # a ruleset's own data files (decks, setup): a whole-file form each
            group = node(self.tree, "Data files", ("group", "data"))
            for f in data:
                node(group, f"{f.kind.replace('-', ' ').capitalize()} ({f.rel})", ("file", f.rel), f.rel)
        tables = [t for t in self.tables() if state.file(self.doc.file_for(t.kind) or "") is not None
                  and self._item_kind_of(t) is None]
        if tables:  # numbers of no item kind, e.g. a price list
            group = node(self.tree, "Tables", ("group", "tables"))
            for t in tables:
                node(group, t.title, ("table", t.kind, ".".join(t.path)), self.doc.file_for(t.kind) or "")
        refs = list(items(state))
        authoring = self.authoring()
        for ik in self.item_kinds():
            key = ".".join(ik.path) or (lists[ik.kind].key if ik.kind in lists else "")
            own = [r for r in refs if r.kind == ik.kind and r.place == key]
            group = node(self.tree, ik.group, ("group", ik.kind, key))
            grouping = authoring.item_groups(self._pack, ik.kind) if authoring is not None else None
            if grouping is not None:
                field, values = grouping
                labels = {"overrides": f"Overrides of inherited {ik.group.lower()}", **dict(values)}

                def value_of(r: ItemRef, field: str = field) -> str:
                    if r.override:
                        return "overrides"
                    return str(r.data.get(field, "")) if isinstance(r.data, dict) else ""

                # sub-groups in the ruleset's order, overrides last
                order = {v: i for i, (v, _label) in enumerate(values)}
                by_value: dict[str, QTreeWidgetItem] = {}
                for r in sorted(own, key=lambda r: (value_of(r) == "overrides", order.get(value_of(r), len(order)))):
                    v = value_of(r)
                    if v not in by_value:
                        by_value[v] = node(group, labels.get(v, v or f"(no {field})"), ("group", f"{ik.kind}:{v}"))
                    node(by_value[v], self._item_label(r), ("item", r.rel, r.key, r.index), r.rel)
            else:
                for r in own:
                    node(group, self._item_label(r), ("item", r.rel, r.key, r.index), r.rel)
            if not own:
                group.setToolTip(0, f"No {ik.title} in this pack's own files yet: Edit > New {ik.title}… adds one")
        scen = node(self.tree, "Scenarios", ("group", "tests"))
        for f in state.files:
            if f.rel.startswith("tests/"):
                node(scen, f.rel.removeprefix("tests/"), ("file", f.rel))
        for f in state.files:
            if f.data is None:
                node(self.tree, f"{f.rel} (unreadable YAML)", ("file", f.rel))
        self.tree.expandToDepth(1)
        self.tree.blockSignals(False)
        self._reselect()

    @staticmethod
    def _item_label(r: ItemRef) -> str:
        """`Name (id)`, `Name (id) ×3` for copies in a deck, or a row's first value (`gear 2`)."""
        data = r.data if isinstance(r.data, dict) else {}
        name = data.get("name")
        text = f"{name} ({r.id})" if name else r.id
        if "id" not in data and data:  # a row without an id: its first value names it
            first, value = next(iter(data.items()))
            if not isinstance(value, dict | list):
                text = f"{first.replace('_', ' ')} {value}"
        count = data.get("count")
        if isinstance(count, int) and not isinstance(count, bool) and count != 1:
            text += f" ×{count}"
        return f"override {text}" if r.override else text

    def _find_tree(self, want: Callable[[Target], bool]) -> QTreeWidgetItem | None:
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            it = stack.pop(0)
            if it is None:  # Qt gives None only for an index past the last item
                continue
            t = it.data(0, Qt.ItemDataRole.UserRole)
            if t is not None and want(tuple(t)):
                return it
            stack += [it.child(i) for i in range(it.childCount())]
        return None

    def _reselect(self) -> None:
        """After a rebuild, select the same item again (matched by id, since indices move)."""
        if self.target is None:
            return
        it: QTreeWidgetItem | None = None
        if self.target[0] == "item" and self._item_key is not None:
            rel, key, ident = self._item_key
            ref = next((r for r in items(self.doc.state) if (r.rel, r.key, r.id) == (rel, key, ident)), None)
            if ref is not None:
                self.target = ("item", ref.rel, ref.key, ref.index)
                it = self._find_tree(lambda t: t == self.target)
        else:
            it = self._find_tree(lambda t: t == self.target)
        if it is not None:
            self.tree.blockSignals(True)
            self.tree.setCurrentItem(it)
            self.tree.blockSignals(False)
        else:
            self.target = None
            self._item_key = None
            self._show_form(None)

    def _tree_selected(self, item: QTreeWidgetItem | None, _previous: object = None) -> None:
        t = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        self.select(tuple(t) if t is not None else None)

    def _tree_activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        t = item.data(0, Qt.ItemDataRole.UserRole)
        if t is not None and t[0] == "track":
            self.open_track_file(t[1])

    def open_track_file(self, rel: str) -> None:
        if self.open_track is not None:
            self.open_track(self.doc.root / rel)

    # --- selection and forms ---------------------------------------------------------------
    def current_ref(self) -> ItemRef | None:
        if self.target is None or self.target[0] != "item":
            return None
        _, rel, key, index = self.target
        return next((r for r in items(self.doc.state) if (r.rel, r.key, r.index) == (rel, key, index)), None)

    def select(self, target: Target | None) -> None:
        """Show an item or file: its form, its YAML and (for a card) its face."""
        self.target = target
        ref = self.current_ref()
        self._item_key = (ref.rel, ref.key, ref.id) if ref is not None else None
        it = self._find_tree(lambda t: t == target) if target is not None else None
        if it is not None and self.tree.currentItem() is not it:
            self.tree.blockSignals(True)
            self.tree.setCurrentItem(it)
            self.tree.blockSignals(False)
        self._show_form(target)
        self._refresh_yaml()
        self._refresh_preview()

    def show_file(self, rel: str) -> None:
        """Select a whole file (a scenario, the rules ...) and show its YAML."""
        self.select(("file", rel))
        self.tabs.setCurrentWidget(self.yaml)

    def select_item(self, kind: str, ident: str, key: str = "") -> ItemRef:
        """Select an item of the pack's own files by kind, id (`#N` for the N-th row without
        an id) and list key ("": any)."""
        ref = next(r for r in items(self.doc.state, kind) if r.id == ident and (not key or r.place == key))
        self.select(("item", ref.rel, ref.key, ref.index))
        return ref

    def select_group(self, kind: str, key: str = "") -> None:
        """Select the tree group of an item kind (its table, when it has one)."""
        key = key or next((p.key for p in places(self.ruleset()) if p.kind == kind), "")
        self.select(("group", kind, key))

    def _show_form(self, target: Target | None) -> None:
        old = self.form_area.takeWidget()
        if old is not None:
            old.deleteLater()
        self.form = None
        self.table = None
        widget: QWidget
        table = self._table_of(target)
        if table is not None:
            widget = self._table_widget(table)
        elif target is None or target[0] in ("group", "table"):
            widget = QLabel("Select an item in the tree on the left.")
        elif target[0] == "track":
            widget = QWidget()
            lay = QVBoxLayout(widget)
            lay.addWidget(QLabel(f"Track file {target[1]}: tracks are edited in the track canvas."))
            b = QPushButton("Open in the track canvas")
            b.setObjectName("open-track")
            b.clicked.connect(lambda: self.open_track_file(target[1]))
            b.setEnabled(self.open_track is not None)
            lay.addWidget(b)
            lay.addStretch(1)
        elif target[0] == "item":
            ref = self.current_ref()
            if ref is None:
                widget = QLabel("")
            else:
                kind, defname = ref.schema_def
                ik = next((k for k in self.item_kinds() if k.kind == ref.kind and ".".join(k.path) == ref.place), None)
                heading = ik.title if ik is not None and defname.startswith("/") else None
                self.form = ItemForm(kind, defname, ref.data, self.completions(), heading=heading)
                self.form.propertyEdited.connect(self._form_edited)
                widget = self.form
        else:
            fs = self.doc.state.file(target[1])
            kind = fs.kind if fs is not None else ""
            if fs is not None and fs.data is not None and (kind in ("pack", "rules") or (
                    kind not in item_lists(self.ruleset()) and is_data_kind(kind, self.ruleset()))):
                self.form = ItemForm(kind, None, fs.data)
                self.form.propertyEdited.connect(self._form_edited)
                widget = self.form
            else:
                widget = QLabel("This file is edited as YAML (see the YAML tab).")
                self.tabs.setCurrentWidget(self.yaml)
        self.form_area.setWidget(widget)

    # --- tables ------------------------------------------------------------------------------
    def tables(self) -> list[DataTable]:
        authoring = self.authoring()
        return list(authoring.tables) if authoring is not None else []

    def _item_kind_of(self, table: DataTable) -> ItemKind | None:
        """The item kind listing the rows of `table` (its group shows the table), if any."""
        lists = item_lists(self.ruleset())
        for ik in self.item_kinds():
            path = ik.path or ((lists[ik.kind].key,) if ik.kind in lists else ())
            if ik.kind == table.kind and path == table.path:
                return ik
        return None

    def _table_of(self, target: Target | None) -> DataTable | None:
        """The table a tree group or table entry shows (None: none)."""
        if target is None or target[0] not in ("group", "table") or len(target) < 3:
            return None
        return next((t for t in self.tables() if t.kind == target[1] and ".".join(t.path) == target[2]), None)

    def _table_widget(self, table: DataTable) -> QWidget:
        rel = self.doc.file_for(table.kind)
        fs = self.doc.state.file(rel) if rel is not None else None
        inherited, key_field = self._inherited_rows(table, fs.data if fs is not None else None)
        if inherited and (fs is None or fs.data is not None):
            # the inherited rows first, then the pack's own (in its file, or a new one)
            self.table = TableEditor(
                table, fs.rel if fs is not None else default_file(table.kind), fs.data if fs is not None else None,
                self.push, inherited=inherited, key_field=key_field,
                change=partial(self._change_inherited, table.kind, key_field),
                add=partial(self._add_row, table))
            self.table.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
            return self.table
        if fs is None or fs.data is None:
            ik = self._item_kind_of(table)
            merged = table.kind in row_kinds(self.doc.state.ruleset)
            more = (f" Edit > New {ik.title}… starts one ("
                    + ("holding only this pack's changes" if merged else "a copy of the inherited file") + ")."
                    if ik is not None else "")
            label = QLabel(f"This pack has no {table.kind} file of its own: it plays with the inherited one.{more}")
            label.setWordWrap(True)
            return label
        self.table = TableEditor(table, fs.rel, fs.data, self.push)
        self.table.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        return self.table

    def _inherited_rows(self, table: DataTable, own: Any) -> tuple[list[dict[str, Any]], str]:
        """The rows of a table the pack inherits (merged through the packs it extends) and the
        field naming a row, for a table whose rows an extending pack changes one by one; ([], "")
        for the others."""
        if table.key or table.kind not in row_kinds(self.ruleset()):
            return [], ""
        probe: list[Any] = []
        for data in (own, (self.doc.inherited_file(table.kind) or ("", None))[1]):
            try:
                found = get_in(data, table.path) if data is not None else []
            except (KeyError, IndexError, TypeError):
                found = []
            probe += found if isinstance(found, list) else []
        key_field = row_key_field(probe, table.columns)
        if not key_field:
            return [], ""
        return inherited_rows(self.doc, table.kind, table.path, key_field), key_field

    def _change_inherited(self, kind: str, key_field: str, key: Any, field: str, value: Any, inherited: Any) -> None:
        self.push(change_inherited_row(self.doc, kind, key_field, key, field, value, inherited))

    def _add_row(self, table: DataTable, row: dict[str, Any]) -> None:
        """A row added to a table the pack has no own file for: in a new file (add_item)."""
        ik = self._item_kind_of(table)
        key = ".".join(ik.path) if ik is not None else ""
        self.push(add_item(self.doc, table.kind, row, key))

    def ruleset(self) -> str:
        """The ruleset the pack names in pack.yaml (the default ruleset when it names none)."""
        return self.doc.state.ruleset

    def pack_panels(self) -> PackPanels:
        """The pack-editor panels of the pack's ruleset (loaded by the registry), or the defaults."""
        from slipstream.engine.play.registry import RulesetError, get

        try:
            return panels_for(get(self.ruleset()))
        except RulesetError:
            return panels_for(None)

    def authoring(self) -> Authoring | None:
        """The `authoring` capability of the pack's ruleset (None: it has none)."""
        from slipstream.engine.play.registry import RulesetError, get

        try:
            return get(self.ruleset()).authoring
        except RulesetError:
            return None

    def item_kinds(self) -> list[ItemKind]:
        """The item kinds of the pack's ruleset: those its authoring names (in its order), then
        any other item list of its content model."""
        authoring = self.authoring()
        named = list(authoring.item_kinds) if authoring is not None else []
        known = {ik.kind for ik in named}
        return named + [ItemKind(k, k.replace("-", " "), k.replace("-", " ").capitalize())
                        for k in item_lists(self.ruleset()) if k not in known]

    def completions(self) -> dict[str, list[str]]:
        """Ids of the loaded pack offered while typing (e.g. cube kinds, action cards)."""
        authoring = self.authoring()
        if authoring is None:
            return {}
        an = self.doc.last_analysis()  # the last check may be a moment old: add own items now
        own: dict[str, list[Any]] = {}
        for r in items(self.doc.state):
            if not r.override and isinstance(r.data, dict):
                own.setdefault(r.kind, []).append(r.data)
        return authoring.completions(an.pack if an is not None else None, own)

    def _form_edited(self, key: str, value: Any) -> None:
        if self.target is None:
            return
        if self.target[0] == "item":
            _, rel, list_key, index = self.target
            path: tuple[str | int, ...] = (*key_path(list_key), index, key)
        else:
            rel, path = self.target[1], (key,)
        label = f"Set {key.replace('_', ' ')}" if value is not None else f"Remove {key.replace('_', ' ')}"
        self.push(SetValue(rel, path, DELETE if value is None else value, label))

    def _refresh_selection(self) -> None:
        """After an edit (or undo): keep the form or table in step with the document."""
        if self.table is not None:
            fs = self.doc.state.file(self.table.rel)
            if fs is not None and fs.data is not None:
                self.table.set_data(fs.data)
            else:
                self._show_form(self.target)
        elif self.form is not None and self.target is not None:
            if self.target[0] == "item":
                ref = self.current_ref()
                if ref is not None:
                    self.form.set_value(ref.data)
            else:
                fs = self.doc.state.file(self.target[1])
                if fs is not None and fs.data is not None:
                    self.form.set_value(fs.data)
        elif self.target is not None and self.target[0] == "item" and self.form is None:
            self._show_form(self.target)
        self._refresh_yaml()
        self._refresh_preview()

    def _selected_rel(self) -> str | None:
        if self.target is None:
            return None
        if self.target[0] in ("group", "table"):
            return self.table.rel if self.table is not None else None
        return str(self.target[1])

    def _refresh_yaml(self, line: int | None = None) -> None:
        rel = self._selected_rel()
        if rel is None or self.doc.state.file(rel) is None:
            self.yaml.show_file(None, "")
            return
        if line is None and self.target is not None and self.target[0] == "item":
            line = self._item_line(rel, self.target[2], self.target[3])
        self.yaml.show_file(rel, self.doc.text(rel), line)

    def _item_line(self, rel: str, key: str, index: int) -> int | None:
        from slipstream.engine.core.yamlsource import load_text

        loaded = load_text(self.doc.text(rel), rel)
        pos = loaded.source.values.get((*key_path(key), index))
        return pos.line if pos is not None else None

    def apply_yaml(self, rel: str, text: str) -> None:
        self.push(ReplaceFileText(rel, text))
        self.yaml.edit.document().setModified(False)
        self._refresh_yaml()

    # --- card face -------------------------------------------------------------------------
    def current_face(self) -> CardFace | None:
        ref = self.current_ref()
        authoring = self.authoring()
        if ref is None or authoring is None or ref.kind not in authoring.card_kinds or not isinstance(ref.data, dict):
            return None
        if ref.override:
            an = self.doc.last_analysis()
            pack = an.pack if an is not None else None
            return authoring.card_face(pack, str(ref.data.get("id", "")).rpartition(":")[2], ref.kind) if pack else None
        return authoring.card_face(self._pack, ref.data, ref.kind)

    def _refresh_preview(self) -> None:
        face = self.current_face()
        authoring = self.authoring()
        self.card_side.setVisible(authoring is not None and bool(authoring.card_kinds))
        self.preview.show_face(face, self.pack_panels().strip)
        self.png_button.setEnabled(face is not None)

    def export_card_png(self, path: Path, width: int = 630) -> Path:
        face = self.current_face()
        if face is None:
            raise ValueError("no card is selected")
        return card_png(face, path, width, self.pack_panels().strip)

    def export_card_png_dialog(self) -> None:
        face = self.current_face()
        if face is None:
            QMessageBox.information(self, APP, "Select a card first.")
            return
        name, _ = QFileDialog.getSaveFileName(self, "Export card", str(self.doc.root / f"{face.ident}.png"),
                                              "PNG (*.png)")
        if name:
            self.export_card_png(Path(name))

    def _sheet(self, set_id: str) -> tuple[str, list[CardFace]]:
        an = self.doc.analysis()
        authoring = self.authoring()
        if an.pack is None or authoring is None:
            raise ValueError("the pack cannot be loaded")
        return authoring.card_faces(an.pack, set_id)

    def sheet_faces(self, set_id: str) -> list[CardFace]:
        """The faces of a print sheet, one per card to cut out (for a card set: the fixed
        cards, then the set's; for a deck: one per copy)."""
        return self._sheet(set_id)[1]

    def export_sheet_pdf(self, set_id: str, path: Path) -> int:
        """Write a print sheet (a card set, a deck ...); returns the number of pages."""
        name, faces = self._sheet(set_id)
        return cards_pdf(faces, path, f"{name} — {self.doc.id}", self.pack_panels().strip)

    def export_sheet_pdf_dialog(self) -> None:
        an = self.doc.analysis()
        authoring = self.authoring()
        sheets = authoring.sheets(an.pack) if an.pack is not None and authoring is not None else []
        if authoring is None or not sheets:
            QMessageBox.information(self, APP, "The pack has no card sheets to print (or cannot be loaded).")
            return
        ids = [sid for sid, _name in sheets]
        ref = self.current_ref()
        current = ids.index(ref.id) if ref is not None and ref.kind == authoring.sheet_kind and ref.id in ids \
            else ids.index(ref.kind) if ref is not None and ref.kind in ids else 0
        set_id, ok = QInputDialog.getItem(self, "Card sheet", "Sheet", ids, current, False)
        if not ok:
            return
        name, _ = QFileDialog.getSaveFileName(self, "Card sheet PDF", str(self.doc.root / f"{set_id}-cards.pdf"),
                                              "PDF (*.pdf)")
        if name:
            try:
                pages = self.export_sheet_pdf(set_id, Path(name))
            except (KeyError, ValueError) as exc:
                QMessageBox.warning(self, APP, f"Cannot make the sheet: {exc}")
                return
            self.statusBar().showMessage(f"Wrote {Path(name).name}: {pages} page(s)", 5000)

    # --- adding and removing items -----------------------------------------------------------
    def _place(self, kind: str, key: str = "") -> Place:
        place = place_of(self.ruleset(), kind, key)
        if place is None:
            raise KeyError(f"no item kind {kind!r} {key}".strip())
        return place

    def has_ids(self, kind: str, key: str = "") -> bool:
        """Whether items of this kind have an `id` (a card does; a gear die or a wear row not)."""
        s = schemas()
        schema, _base = s.item(kind, self._place(kind, key).item_def)
        return "id" in schema.get("properties", {})

    def new_item(self, kind: str, ident: str = "", key: str = "", **fields: Any) -> ItemRef:
        """Add an item of `kind` (list `key`, "": the first) and select it: with id `ident`,
        schema defaults, then `fields`; an item without ids (a row) is a copy of the last row
        with its first number one higher (the next gear or race length), then `fields`."""
        place = self._place(kind, key)
        s = schemas()
        schema, base = s.item(kind, place.item_def)
        if self.has_ids(kind, place.key):
            item = default_for(s, schema, base)
            item["id"] = ident
            if "name" in item:
                item["name"] = ident.replace("-", " ").title()
        else:
            fs = self.doc.state.file(self.doc.file_for(kind) or "")
            rows: Any = []
            if fs is not None and fs.data is not None:
                try:
                    rows = get_in(fs.data, place.path)
                except (KeyError, IndexError, TypeError):
                    rows = []
            elif place.whole:
                inherited = self.doc.inherited_file(kind)
                rows = get_in(inherited[1], place.path) if inherited is not None else []
            first = next(iter(schema.get("properties", {})), "")
            item = next_row(rows if isinstance(rows, list) else [], first) or default_for(s, schema, base)
        item.update(fields)
        self.push(add_item(self.doc, kind, item, place.key))
        if "id" in item:
            return self.select_item(kind, str(item["id"]), place.key)
        last = [r for r in items(self.doc.state, kind) if r.place == place.key][-1]
        self.select(("item", last.rel, last.key, last.index))
        return last

    def add_item_dialog(self, kind: str, key: str = "") -> None:
        title = next((ik.title for ik in self.item_kinds() if ik.kind == kind and ".".join(ik.path) == key), kind)
        if not self.has_ids(kind, key):
            self.new_item(kind, key=key)
            return
        ident, ok = QInputDialog.getText(self, f"New {title}", "Id (lower-case, dashes):")
        if ok and ident.strip():
            self.new_item(kind, ident.strip(), key)

    def remove_selected(self) -> None:
        ref = self.current_ref()
        if ref is not None:
            self.push(RemoveItem(ref.rel, ref.list_path, ref.index))

    def delete_selected_file(self) -> bool:
        """Delete the selected file from the pack: undoable; the file goes at the next save."""
        rel = self._selected_rel()
        if rel is None or rel == "pack.yaml" or self.doc.state.file(rel) is None:
            self.statusBar().showMessage("Select a file to delete (the manifest stays)", 5000)
            return False
        self.push(RemoveFile(rel))
        self.select(None)
        self.statusBar().showMessage(f"Deleted {rel}: it leaves the disk when the pack is saved", 5000)
        return True

    def reload_from_disk(self, path: Path) -> bool | None:
        """A file of this pack was saved by the track canvas: show it as it is on disk. A file
        with unsaved edits here is left alone, with a note in the status bar."""
        done = self.doc.reload_file(path)
        if done is False:
            self.statusBar().showMessage(
                f"{Path(path).name} was saved in the track canvas, but has unsaved edits here: "
                "kept this pack's version", 10000)
        elif done and self.doc.reloaded is not None:
            rel = self.doc.reloaded[0]
            self.doc.reloaded = None
            self.statusBar().showMessage(f"Reloaded {rel} (saved in the track canvas)", 5000)
        return done

    # --- diagnostics -------------------------------------------------------------------------
    def go_to_diagnostic(self, diag: Diagnostic | None) -> None:
        """Select the item and outline the field a diagnostic points at."""
        if diag is None:
            return
        rel = self.doc.file_of(diag.file)
        if rel is None:
            return
        path = parse_json_path(diag.path)
        fs = self.doc.state.file(rel)
        lists = [key_path(k) for k in ["overrides", *(p.key for p in places(self.ruleset()) if fs and p.kind == fs.kind)]]
        at = next((lp for lp in lists if tuple(path[:len(lp)]) == lp and len(path) > len(lp)
                   and isinstance(path[len(lp)], int)), None)
        if fs is not None and at is not None and (at != ("overrides",) or fs.kind in item_lists(self.ruleset())):
            self.select(("item", rel, ".".join(str(k) for k in at), path[len(at)]))
            rest = path[len(at) + 1:]
        elif fs is not None and fs.kind.startswith("track"):
            self.select(("track", rel))
            rest = ()
        else:
            self.select(("file", rel))
            rest = path
        if self.form is not None and rest:
            self.tabs.setCurrentIndex(0)
            if isinstance(rest[0], str) and self.form.root.ticks.get(rest[0]) is not None:
                self.form.root.set_present(rest[0], True)
            self.form.mark(tuple(rest))
        elif self.form is None:
            self.tabs.setCurrentWidget(self.yaml)
        self._refresh_yaml(diag.line)

    # --- files -------------------------------------------------------------------------------
    def save(self) -> bool:
        try:
            written = self.doc.save()
        except OSError as exc:
            QMessageBox.critical(self, APP, f"Could not save the pack:\n{exc}\nYour changes are still open.")
            return False
        an = self.doc.analysis()
        self.statusBar().showMessage(
            f"Saved {len(written)} file(s)" + (f" ({an.errors} error(s) remain)" if an.errors else ""), 5000)
        self._update_title()
        return True

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if self.doc.dirty:
            answer = QMessageBox.question(
                self, APP, f"The pack {self.doc.id} has unsaved changes. Save them?",
                QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
            if answer == QMessageBox.StandardButton.Cancel or (
                    answer == QMessageBox.StandardButton.Save and not self.save()):
                event.ignore()
                return
        self.doc.unsubscribe(self._changed)
        self.undo_stack.detach()
        self.doc.close()
        event.accept()


def open_pack_window(path: str | Path, open_track: Callable[[Path], Any] | None = None) -> PackWindow:
    """Open the pack folder at `path` in a new pack window (raises OSError if it is no pack)."""
    return PackWindow(PackDocument.open(path), open_track)


def install(window: QMainWindow, menu: Any) -> QAction:
    """Add File > Open Pack… to the track editor's window, and File > New > For <ruleset> >
    Pack… (a new pack of that ruleset, as `slipstream new pack --ruleset` makes it): the pack
    opens in its own window, and its tracks open in the track canvas (`window.open_path`)."""
    windows: list[PackWindow] = []

    def open_pack(path: Path) -> PackWindow | None:
        try:
            win = open_pack_window(path, open_track=lambda p: window.open_path(Path(p)))  # type: ignore[attr-defined]
        except OSError as exc:
            QMessageBox.warning(window, APP, f"Cannot open the pack:\n{exc}")
            return None
        windows.append(win)
        win.destroyed.connect(lambda _o=None, w=win: windows.remove(w) if w in windows else None)
        win.show()
        return win

    def track_saved(path: Path) -> None:
        for win in list(windows):
            win.reload_from_disk(path)

    saved = getattr(window, "fileSaved", None)
    if saved is not None:
        saved.connect(track_saved)

    def dialog() -> None:
        name = QFileDialog.getExistingDirectory(window, "Open pack folder (the folder holding pack.yaml)")
        if name:
            open_pack(Path(name))

    def new_pack(parent: Path, name: str, ruleset: str) -> PackWindow | None:
        """`slipstream new pack NAME --ruleset ID --dir PARENT`, then open it."""
        from slipstream.engine.editing.scaffold import ScaffoldError
        from slipstream.engine.editing.scaffold import new_pack as scaffold

        try:
            made = scaffold(parent, name, ruleset=ruleset)
        except (ScaffoldError, OSError) as exc:
            QMessageBox.warning(window, APP, f"Cannot make the pack: {exc}")
            return None
        win = open_pack(made.root)
        if win is not None:
            win.statusBar().showMessage(f"New pack {made.root.name}: {len(made.files)} file(s) written", 8000)
        return win

    def new_pack_dialog(ruleset: str, label: str) -> None:
        parent = QFileDialog.getExistingDirectory(window, f"Folder to hold the new {label} pack")
        if not parent:
            return
        name, ok = QInputDialog.getText(window, f"New {label} pack", "Pack name:")
        if ok and name.strip():
            new_pack(Path(parent), name.strip(), ruleset)

    # File > New > For <ruleset> > Pack…, for every ruleset the window offers starting tracks of
    for rid, sub in getattr(window, "new_menus", {}).items():
        label = sub.title().removeprefix("For ")
        new = QAction("Pack…", window)
        new.setObjectName(f"new-pack-{rid}")
        new.triggered.connect(lambda _c=False, r=rid, lab=label: new_pack_dialog(r, lab))
        window.addAction(new)
        sub.addSeparator()
        sub.addAction(new)

    act = QAction("Open &Pack…", window)
    act.setObjectName("open-pack")
    act.setShortcut(QKeySequence("Ctrl+Shift+O"))
    act.triggered.connect(lambda _c=False: dialog())
    window.addAction(act)
    menu.addAction(act)
    window.open_pack = open_pack  # type: ignore[attr-defined]
    window.new_pack = new_pack  # type: ignore[attr-defined]
    window.pack_windows = windows  # type: ignore[attr-defined]
    return act
