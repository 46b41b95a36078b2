"""Run the open pack's rule scenarios (its tests/ folder) from the editor: pass/fail per
scenario, and for a failure the expected and actual values the runner reports.

The scenarios run on the pack as it is in the editor (unsaved edits included), with the same
runner as `slipstream test`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from slipstream.engine.editing.packdoc import PackDocument
from slipstream.engine.play.registry import RulesetError, get


@dataclass(frozen=True, slots=True)
class Outcome:
    """One scenario's result: passed, or the lines saying what was expected and what came."""

    id: str
    file: str  # pack-relative path
    ok: bool
    details: tuple[str, ...]


def run_scenarios(doc: PackDocument) -> tuple[list[Outcome], str]:
    """Run every scenario of the document's current state; (outcomes, a message if none ran)."""
    an = doc.analysis()
    if an.pack is None or an.errors:
        return [], f"The pack has {an.errors} error(s): fix them (see Problems) to run its scenarios."
    try:  # the pack's own ruleset runs its scenario files (engine/play/registry.py)
        rs = get(an.pack.ruleset)
    except RulesetError as e:
        return [], f"The pack's scenarios cannot run: {e}."
    if rs.scenarios is None:
        return [], f"The {rs.id} ruleset runs no scenario files."
    run_file = rs.scenarios.run_file
    root = doc.scratch_root()
    out: list[Outcome] = []
    for path in doc.scenario_files():
        rel = path.relative_to(root).as_posix()
        result, diags = run_file(an.pack, path)
        errors = [d for d in diags if d.is_error]
        if result is None or errors:
            lines = tuple(f"{d.line}:{d.column} {d.code} {d.message}" for d in errors or diags)
            out.append(Outcome(Path(rel).stem, rel, False, lines or ("the scenario cannot run",)))
        else:
            out.append(Outcome(result.id, rel, result.ok, tuple(result.problems)))
    return out, "" if out else "The pack has no scenarios in tests/."


class ScenarioPanel(QWidget):
    """A Run button, a pass/fail list and the details of the selected scenario."""

    def __init__(self, doc_getter, open_file=None) -> None:  # noqa: ANN001 - callables
        """`doc_getter()` gives the PackDocument; `open_file(rel)` shows a scenario file."""
        super().__init__()
        self.doc_getter = doc_getter
        self.open_file = open_file
        self.outcomes: list[Outcome] = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        row = QHBoxLayout()
        self.run_button = QPushButton("Run scenarios")
        self.run_button.setObjectName("run-scenarios")
        self.run_button.clicked.connect(self.run)
        self.summary = QLabel("Not run yet.")
        self.summary.setObjectName("scenario-summary")
        row.addWidget(self.run_button)
        row.addWidget(self.summary, 1)
        lay.addLayout(row)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.tree = QTreeWidget()
        self.tree.setObjectName("scenarios")
        self.tree.setHeaderLabels(["", "scenario", "file"])
        self.tree.setRootIsDecorated(False)
        self.tree.setColumnWidth(0, 48)
        self.tree.setColumnWidth(1, 220)
        self.details = QPlainTextEdit()
        self.details.setObjectName("scenario-details")
        self.details.setReadOnly(True)
        split.addWidget(self.tree)
        split.addWidget(self.details)
        split.setSizes([420, 380])
        lay.addWidget(split)
        self.tree.currentItemChanged.connect(self._show)
        self.tree.itemDoubleClicked.connect(self._open)

    def _open(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        o = item.data(0, Qt.ItemDataRole.UserRole)
        if isinstance(o, Outcome) and self.open_file is not None:
            self.open_file(o.file)

    def run(self) -> list[Outcome]:
        doc = self.doc_getter()
        outcomes, message = run_scenarios(doc) if doc is not None else ([], "No pack is open.")
        self.outcomes = outcomes
        self.tree.clear()
        bold = QFont()
        bold.setBold(True)
        first_fail = None
        for o in outcomes:
            item = QTreeWidgetItem(["pass" if o.ok else "FAIL", o.id, o.file])
            item.setForeground(0, QColor("#26a269") if o.ok else QColor("#c01c28"))
            item.setFont(0, bold)
            item.setData(0, Qt.ItemDataRole.UserRole, o)
            self.tree.addTopLevelItem(item)
            if not o.ok and first_fail is None:
                first_fail = item
        failed = sum(not o.ok for o in outcomes)
        self.summary.setText(message or f"{len(outcomes) - failed} passed, {failed} failed")
        if first_fail is not None:
            self.tree.setCurrentItem(first_fail)
        else:
            self.details.setPlainText("")
        return outcomes

    def _show(self, item: QTreeWidgetItem | None, _previous: object = None) -> None:
        o = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        if not isinstance(o, Outcome):
            self.details.setPlainText("")
            return
        head = f"{o.id} ({o.file}): {'passed' if o.ok else 'FAILED'}"
        self.details.setPlainText("\n".join([head, *o.details]))
