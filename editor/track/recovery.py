"""Autosave recovery files: the editor's unsaved work, kept through a crash.

A recovery file is the document's YAML text after one header line naming the file it belongs
to. The editor writes it (atomically) while there are unsaved changes, deletes it on save or
on a clean close, and offers to restore any that are left at the next start.

Each editor session has its own recovery file even for the same document (the name ends in
the session, which starts with the process id), so two editors on one file never overwrite or
delete each other's; a file whose process is still running belongs to a live editor of
another process and is not offered.
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
    """`<digest of the document's path>-<session>.yaml`; the session starts with the process id."""
    key = str(original.resolve()) if original else "untitled"
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16] + f"-{session}.yaml"


def owner_pid(path: Path) -> int | None:
    """The process id in a recovery file's name (None for names without one)."""
    parts = path.stem.split("-")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True  # it exists, run by another user
    except (ProcessLookupError, OverflowError, ValueError):
        return False
    return True


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


def pending(folder: Path, skip: set[Path] = frozenset(),  # type: ignore[assignment]
            for_file: Path | None = None) -> list[Recovery]:
    """Recovery files left in `folder`, newest first: not those of live editors in other
    processes, and with `for_file` only those of that document."""
    if not folder.is_dir():
        return []
    found = []
    me = os.getpid()
    want = for_file.resolve() if for_file is not None else None
    for p in folder.glob("*.yaml"):
        if p in skip:
            continue
        pid = owner_pid(p)
        if pid is not None and pid != me and _running(pid):
            continue
        rec = read(p)
        if rec is None:
            continue
        if want is not None and (rec.original is None or rec.original.resolve() != want):
            continue
        found.append(rec)
    return sorted(found, key=lambda r: -r.mtime)


def remove(path: Path | None) -> None:
    if path is not None:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
