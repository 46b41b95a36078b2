"""Autosave recovery files: the editor's unsaved work, kept through a crash.

A recovery file is the document's YAML text after one header line naming the file it belongs
to. The editor writes it (atomically) while there are unsaved changes, deletes it on save or
on a clean close, and offers to restore any that are left at the next start.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from slipstream.engine.core.files import atomic_write_text

MARK = "# slipstream-recovery: "


@dataclass(frozen=True, slots=True)
class Recovery:
    file: Path  # the recovery file
    original: Path | None  # the document's own file, None when it was never saved
    text: str
    mtime: float


def recovery_name(original: Path | None, session: str) -> str:
    key = str(original.resolve()) if original else f"untitled-{session}"
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16] + ".yaml"


def write(folder: Path, original: Path | None, session: str, text: str) -> Path:
    path = folder / recovery_name(original, session)
    atomic_write_text(path, f"{MARK}{original or ''}\n{text}")
    return path


def read(path: Path) -> Recovery | None:
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    head, _, text = raw.partition("\n")
    if not head.startswith(MARK):
        return None
    name = head[len(MARK):].strip()
    return Recovery(path, Path(name) if name else None, text, path.stat().st_mtime)


def pending(folder: Path, skip: set[Path] = frozenset()) -> list[Recovery]:  # type: ignore[assignment]
    """Recovery files left in `folder`, newest first."""
    if not folder.is_dir():
        return []
    found = []
    for p in folder.glob("*.yaml"):
        if p in skip:
            continue
        rec = read(p)
        if rec is not None:
            found.append(rec)
    return sorted(found, key=lambda r: -r.mtime)


def remove(path: Path | None) -> None:
    if path is not None:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
