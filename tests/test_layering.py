"""engine/ stays headless: it never imports Qt or click (DESIGN §3), checked on the source."""

import ast

from conftest import ROOT

FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "qtpy", "click", "slipstream.cli", "slipstream.editor")


def _imports(path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def test_engine_imports_no_qt_and_no_click():
    bad = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for mod in _imports(path):
            if mod.split(".")[0] in FORBIDDEN or mod.startswith(FORBIDDEN):
                bad.append(f"{path.relative_to(ROOT)}: {mod}")
    assert bad == []


def test_cli_does_not_import_the_editor_at_module_level():
    for path in sorted((ROOT / "cli").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(("slipstream.editor", "PySide6")), path
