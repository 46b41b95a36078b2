"""engine/ stays headless: it never imports Qt or click (DESIGN §3), checked on the source."""

import ast
from pathlib import Path

from helpers import ROOT

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


def test_altair_is_imported_by_the_charts_module_alone():
    """pyproject.toml has mypy skip Altair's modules (their types would reach no check): that
    holds while engine/play/charts.py, which takes it as `Any`, is its only importer."""
    users = sorted(str(path.relative_to(ROOT)) for folder in ("engine", "cli", "editor")
                   for path in (ROOT / folder).rglob("*.py")
                   if any(mod.split(".")[0] == "altair" for mod in _imports(path)))
    assert users == ["engine/play/charts.py"]
    assert "def _alt() -> Any:" in (ROOT / "engine" / "play" / "charts.py").read_text()


def test_every_slipstream_import_names_something_that_exists():
    """Every `from slipstream.X import Y` names something real, bench/ included (mypy checks
    engine, cli and editor but not bench)."""
    import importlib

    bad = []
    for folder in ("engine", "cli", "editor", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                        node.module.startswith("slipstream.") and not node.module.startswith("slipstream.editor"):
                    try:
                        mod = importlib.import_module(node.module)
                    except ImportError as e:
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {e}")
                        continue
                    for alias in node.names:
                        if alias.name != "*" and not hasattr(mod, alias.name):
                            try:
                                importlib.import_module(f"{node.module}.{alias.name}")
                            except ImportError:
                                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: "
                                           f"{node.module} has no {alias.name}")
    assert bad == []


def test_import_linter_fails_when_a_part_imports_upwards(tmp_path):
    """The contracts in pyproject.toml are live: a module of `core` that imports a ruleset
    (inside a function, where a plain reading would miss it) breaks the layers contract.
    The probe goes into a copy of the package (first on the import path), never into the
    checkout, where tests running beside this one (the release's file list) would see it."""
    import os
    import shutil
    import subprocess
    import sys

    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert lint, "import-linter is a dev dependency"
    pkg = tmp_path / "path" / "slipstream"
    shutil.copytree(ROOT / "slipstream", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for part in ("engine", "cli", "editor"):
        shutil.copytree(ROOT / part, pkg / part, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (pkg / "engine" / "core" / "_layering_probe.py").write_text(
        "def f():\n    from slipstream.engine.rulesets.automobiles import game  # noqa: F401\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(pkg.parent), os.environ.get("PYTHONPATH", "")])}
    bad = subprocess.run([lint, "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0
    assert "slipstream.engine.core._layering_probe ->" in bad.stdout
    assert "slipstream.engine.rulesets.automobiles.game (l.2)" in bad.stdout
    assert not (ROOT / "engine" / "core" / "_layering_probe.py").exists()
    good = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert good.returncode == 0 and "engine parts depend one way" in good.stdout and "KEPT" in good.stdout
