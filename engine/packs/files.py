"""Which files make up a pack folder (no parsing, so cheap to import and to run)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

MANIFEST = "pack.yaml"
TESTS_DIR = "tests"
YAML_SUFFIXES = (".yaml", ".yml")


def walk_pack(root: Path) -> Iterator[str]:
    """Relative paths (posix) of the YAML files of a pack, sorted; nested packs are skipped."""
    for dirpath, dirs, files in os.walk(root):
        here = Path(dirpath)
        dirs[:] = sorted(
            d for d in dirs
            if not d.startswith(".") and d != "__pycache__" and not (here / d / MANIFEST).exists()
        )
        for name in sorted(files):
            if name.endswith(YAML_SUFFIXES) and not name.startswith("."):
                yield (here / name).relative_to(root).as_posix()
