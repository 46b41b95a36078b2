"""What many tests share: the repository's folders, the command line run in-process, and
driving the editor (a click, a click on a track cell, waiting for the race dock's worker).

Qt and the command line are imported inside the functions, so a headless install (no gui
extra) can import this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
TESTS = ROOT / "tests"
TRACKS = CONTENT / "base" / "tracks"
BUNDLED = sorted(TRACKS.glob("*.yaml"))


def invoke(*args: str) -> Any:
    """`slipstream ARGS` in-process (click's `Result`); an exception the command lets escape
    fails the test with its traceback."""
    from click.testing import CliRunner

    from slipstream.cli.main import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run(*args: str, catch: bool = True) -> tuple[int, str]:
    """`slipstream ARGS` in-process: its exit code and output (an escaped exception is exit 1,
    or with `catch=False` fails the test with its traceback)."""
    from click.testing import CliRunner

    from slipstream.cli.main import main

    res = CliRunner().invoke(main, list(args), catch_exceptions=catch)
    return res.exit_code, res.output


def effect_diags(tmp_path: Path, effect: str) -> list[tuple[str, int, int, str, str | None]]:
    """The diagnostics (code, line, column, message, hint) of a pack on `base` whose one card
    has `effect` (YAML, an Automobiles effect list)."""
    import textwrap

    from slipstream.engine.packs.loader import load_pack

    root = tmp_path / "main"
    root.mkdir()
    (root / "pack.yaml").write_text("slipstream: pack/1\nid: main\nname: M\nversion: 0.1.0\nextends: [base]\n")
    (root / "cards.yaml").write_text(
        "slipstream: cards/1\ncards:\n  - id: tow-truck\n    name: Tow Truck\n    colour: purple\n"
        "    cost: 3\n    value: 1\n    text: A test card.\n    effect:\n"
        + textwrap.indent(textwrap.dedent(effect).strip("\n"), "      ") + "\n")
    _, diags = load_pack(root)
    return [(d.code, d.line, d.column, d.message, d.hint) for d in diags]


def subschemas(schema: Any, keys: tuple[str, ...], path: str = "$") -> list[tuple[str, Any]]:
    """Every subschema named under one of `keys` (`properties`, `$defs`, ...) anywhere in a JSON
    Schema, with its path: for the tests that every property of a schema is described."""
    out: list[tuple[str, Any]] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key in keys:
                out.extend((f"{path}.{key}.{name}", sub) for name, sub in node.get(key, {}).items())
            for k, v in node.items():
                walk(v, f"{path}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}[{i}]")

    walk(schema, path)
    return out


def click(qtbot: Any, widget: Any) -> None:
    """Left-click a widget (a button, a tick box ...)."""
    from PySide6.QtCore import Qt

    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def click_cell(qtbot: Any, window: Any, lane: int, segment: int, modifier: Any = None) -> None:
    """Left-click the centre of a cell on the editor's track canvas."""
    from PySide6.QtCore import Qt

    view = window.view
    pos = view.mapFromScene(window.scene.cell_centre(lane, segment))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier if modifier is None else modifier, pos)


def wait_idle(qtbot: Any, panel: Any, timeout: int = 60_000) -> None:
    """Wait until the Test race dock's panel has no worker running."""
    qtbot.waitUntil(lambda: panel.worker is None, timeout=timeout)
