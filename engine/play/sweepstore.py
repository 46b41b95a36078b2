"""The result store of a sweep: one SQLite file with the sweep, its variants and every race.

A sweep is identified by its key (pack digest and settings). Races are stored as they finish,
one row per (variant, seed), so an interrupted sweep resumes with the races still missing and
a finished one reports again without racing. The file is plain SQLite: `sqlite3 FILE` opens it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable, Mapping
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
        self.left_out = 0  # rows read that are not part of the sweep asked for
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

    def records(self, key: str, expected: Collection[tuple[int, int]] | None = None) -> dict[int, list[dict[str, Any]]]:
        """Every stored race by variant, in seed order; with `expected` (variant, seed) pairs, only
        those (a stray row is left out of the report: `self.left_out` counts them). A row that
        is not a race record is a StoreError naming it and how to recover."""
        out: dict[int, list[dict[str, Any]]] = {}
        for v, seed, text in self.db.execute(
                "SELECT variant, seed, result FROM race WHERE sweep = ? ORDER BY variant, seed", (key,)):
            if expected is not None and (v, seed) not in expected:
                self.left_out += 1
                continue
            problem = record_problem(v, seed, text)
            if problem:
                raise StoreError(
                    f"{self.path}: the race row of variant {v}, seed {seed} is not a race record ({problem}); "
                    f"delete it to race it again: sqlite3 {self.path} \"DELETE FROM race WHERE variant = {v} "
                    f"AND seed = {seed}\" (or run with --fresh to start the sweep over)")
            out.setdefault(int(v), []).append(json.loads(text))
        return out

    def variants(self, key: str, expected: Collection[int] | None = None) -> list[tuple[int, str, dict[str, Any], str]]:
        """The sweep's variant rows (with `expected` indexes, only those); a malformed row is a
        StoreError naming it and how to recover."""
        out = []
        for i, lab, a, d in self.db.execute(
                "SELECT idx, label, assignment, digest FROM variant WHERE sweep = ? ORDER BY idx", (key,)):
            if expected is not None and i not in expected:
                self.left_out += 1
                continue
            try:
                assignment = json.loads(a) if isinstance(a, str) else None
            except ValueError:
                assignment = None
            if not isinstance(i, int) or not isinstance(lab, str) or not isinstance(d, str) \
                    or not isinstance(assignment, dict):
                raise StoreError(
                    f"{self.path}: the variant row {i!r} is malformed (its assignment is not a JSON object of "
                    f"values, or its label or digest is not text); delete it and run the same command again "
                    f"to write it anew: sqlite3 {self.path} \"DELETE FROM variant WHERE idx = {i!r}\" "
                    "(or run with --fresh to start the sweep over)")
            out.append((i, lab, assignment, d))
        return out


def record_problem(variant: Any, seed: Any, text: Any) -> str:
    """What makes a stored race row unusable for the report ("" when it is a race record)."""
    try:
        rec = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return "not JSON"
    if not isinstance(rec, dict):
        return "not a JSON object"
    if rec.get("variant") != variant or rec.get("seed") != seed:
        return "its variant or seed differs from the row's"
    names = rec.get("names")
    if not isinstance(names, list) or not names:
        return "no names"
    n = len(names)
    for k in ("grid", "standings"):
        v = rec.get(k)
        if not isinstance(v, list) or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < n
                                              for p in v):
            return f"{k} is not a list of seats"
    if not rec["standings"]:
        return "empty standings"
    for k, t in (("bots", list), ("rounds", int), ("capped", bool), ("decisions", int), ("stats", dict),
                 ("users", dict)):
        if not isinstance(rec.get(k), t):
            return f"{k} is not a {t.__name__}"
    for item, per in rec["users"].items():
        if not isinstance(per, dict) or not all(isinstance(f, list) and len(f) <= n for f in per.values()):
            return f"users of {item!r} are not lists of flags by seat"
    return ""
