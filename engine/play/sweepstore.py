"""The result store of a sweep: one SQLite file with the sweep, its variants and every race.

A sweep is identified by its key (pack digest and settings). Races are stored as they finish,
one row per (variant, seed), so an interrupted sweep resumes with the races still missing and
a finished one reports again without racing. The file is plain SQLite: `sqlite3 FILE` opens it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS sweep (
    key TEXT PRIMARY KEY, pack TEXT NOT NULL, pack_digest TEXT NOT NULL, ruleset TEXT NOT NULL,
    settings TEXT NOT NULL, created TEXT DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE IF NOT EXISTS variant (
    sweep TEXT NOT NULL, idx INTEGER NOT NULL, label TEXT NOT NULL, assignment TEXT NOT NULL,
    digest TEXT NOT NULL, PRIMARY KEY (sweep, idx));
CREATE TABLE IF NOT EXISTS race (
    sweep TEXT NOT NULL, variant INTEGER NOT NULL, seed INTEGER NOT NULL, result TEXT NOT NULL,
    PRIMARY KEY (sweep, variant, seed));
"""


class StoreError(ValueError):
    """The store file cannot be used (another sweep, not SQLite, unreadable)."""


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(str(path))
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{path}: not a sweep store ({e})") from None

    def close(self) -> None:
        self.db.close()

    def sweeps(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT key FROM sweep ORDER BY created")]

    def open_sweep(self, key: str, pack: str, digest: str, ruleset: str, settings: Mapping[str, Any],
                   variants: Iterable[tuple[int, str, Mapping[str, Any], str]], fresh: bool = False) -> None:
        """Create the sweep's rows, or check that the stored sweep is this one."""
        others = [k for k in self.sweeps() if k != key]
        if others and not fresh:
            raise StoreError(f"{self.path} holds another sweep (other pack content or settings); "
                             "use another --db, or --fresh to replace it")
        with self.db:
            if fresh:
                for table in ("race", "variant", "sweep"):
                    self.db.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed table names
            self.db.execute("INSERT OR IGNORE INTO sweep (key, pack, pack_digest, ruleset, settings) "
                            "VALUES (?, ?, ?, ?, ?)",
                            (key, pack, digest, ruleset, json.dumps(settings, sort_keys=True, default=str)))
            for idx, label, assignment, vdigest in variants:
                self.db.execute("INSERT OR IGNORE INTO variant VALUES (?, ?, ?, ?, ?)",
                                (key, idx, label, json.dumps(assignment, sort_keys=True), vdigest))

    def done(self, key: str) -> set[tuple[int, int]]:
        return {(v, s) for v, s in self.db.execute("SELECT variant, seed FROM race WHERE sweep = ?", (key,))}

    def add(self, key: str, records: Iterable[Mapping[str, Any]]) -> None:
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO race VALUES (?, ?, ?, ?)",
                [(key, int(r["variant"]), int(r["seed"]), json.dumps(r, sort_keys=True)) for r in records])

    def records(self, key: str) -> dict[int, list[dict[str, Any]]]:
        """Every stored race by variant, in seed order."""
        out: dict[int, list[dict[str, Any]]] = {}
        for v, text in self.db.execute("SELECT variant, result FROM race WHERE sweep = ? ORDER BY variant, seed",
                                       (key,)):
            out.setdefault(int(v), []).append(json.loads(text))
        return out

    def variants(self, key: str) -> list[tuple[int, str, dict[str, Any], str]]:
        return [(int(i), lab, json.loads(a), d) for i, lab, a, d in self.db.execute(
            "SELECT idx, label, assignment, digest FROM variant WHERE sweep = ? ORDER BY idx", (key,))]
