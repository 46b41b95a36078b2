"""Start the editor: `slipstream editor [FILE]`."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from .mainwindow import APP, MainWindow


def run(path: str | Path | None = None, argv: list[str] | None = None) -> int:
    """Open the editor window (on FILE if given) and run until it closes."""
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName(APP)
    app.setOrganizationName(APP)
    window = MainWindow()
    window.show()
    # with a FILE, only its own unsaved work is offered: never another document instead of it
    restored = window.offer_recovery(Path(path) if path is not None else None)
    if path is not None and not restored:
        if Path(path).exists():
            window.open_path(Path(path), ask=False)
        else:
            window.doc.path = Path(path)  # a new file: created on the first save
            window._update_title()
    return app.exec()
