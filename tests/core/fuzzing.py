"""Seeded mutation fuzzing of every base file kind through the real entry points.

Shared by tests/core/test_fuzz.py (a CI-sized run) and bench/fuzz.py (a long run with a report).
A mutant is one base file with a few random edits (lines deleted, duplicated or cut, values
swapped for odd YAML, bytes that are not UTF-8). Each mutant is written into a private copy
of the base pack and run through what a user would run on it: `slipstream validate` of the
file alone, of the file in its pack and of the pack folder, the editor's document loading
(track and pack documents, without Qt) and, for scenarios, `slipstream test`'s runner. Any
exception is a finding: user input must only ever give diagnostics.
"""

from __future__ import annotations

import random
import shutil
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "content" / "base"

# The kinds of base file and a glob for each (paths relative to the base pack).
KINDS: dict[str, str] = {
    "track": "tracks/*.yaml",
    "pack": "pack.yaml",
    "cubes": "cubes.yaml",
    "cards": "cards/*.yaml",
    "drivers": "drivers.yaml",
    "sponsors": "sponsors.yaml",
    "cardsets": "cardsets.yaml",
    "rules": "rules.yaml",
    "scenario": "tests/*.yaml",
    "season-scenario": "tests/seasons/*.yaml",
}

HUGE = "9" * 5000
VALUES = [
    "0", "-1", "1", "7", "99999", "10000000000", "1000000000", HUGE, "0x" + "f" * 5000,
    "-" + "9" * 400, "1" + "0" * 400, "1.5", "-0.0", "1e308", "1e999", ".nan", ".inf", "-.inf",
    "null", "~", "true", "no", "[]", "{}", "[1, 2, 3]", "{a: 1}", "{1: 7}", "{7: }", "[[[[[]]]]]",
    "''", '""', "x", "gear-9", "base:nothing", "owned", "'\\u0000'", '"\\x00"', "!!str 5",
    "!!python/object:os.system x", "!local x", "!!binary aGk=", "2001-12-14", "1:0:0:0",
    "*nowhere", "&a [*a]", "0o17", "0b101", "+12", "1_000", ": :", "- -", "{up_to: x}",
    "{from: nowhere}", "\"\\uD800\"", "é" * 50, "x" * 20000,
]
KEYS = ["1", "7", "0", "-3", "1.5", "null", "true", "~", "? [a]", "<<", "2001-01-01", "x" * 300]
BAD_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\x1b", b"\t", b"\r", b"\xef\xbb\xbf"]


def base_files() -> list[tuple[str, str]]:
    """(kind, path relative to the base pack) of every base file, in a stable order."""
    out = []
    for kind, pattern in KINDS.items():
        for p in sorted(BASE.glob(pattern)):
            out.append((kind, p.relative_to(BASE).as_posix()))
    return out


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _swap_value(line: str, rng: random.Random) -> str:
    key, sep, _ = line.partition(": ")
    if sep:
        return f"{key}: {rng.choice(VALUES)}"
    if line.lstrip().startswith("- "):
        return f"{_indent(line)}- {rng.choice(VALUES)}"
    toks = line.split()
    if toks:
        toks[rng.randrange(len(toks))] = rng.choice(VALUES)
    return _indent(line) + " ".join(toks)


def _swap_key(line: str, rng: random.Random) -> str:
    body = line.lstrip()
    lead = _indent(line) + ("- " if body.startswith("- ") else "")
    if body.startswith("- "):
        body = body[2:]
    _, sep, rest = body.partition(":")
    return f"{lead}{rng.choice(KEYS)}:{rest if sep else ' ' + body}"


def _alias_bomb(rng: random.Random) -> str:
    n = rng.randint(3, 9)
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, n):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines)


def mutate(raw: bytes, rng: random.Random, longest: int = 20_000) -> bytes:
    """Apply 1-3 random edits to a file's bytes; a list written in may have `longest` items."""
    lines = raw.decode("utf-8").splitlines()
    for _ in range(rng.randint(1, 3)):
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        op = rng.randrange(14)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op in (2, 3, 4):
            lines[i] = _swap_value(lines[i], rng)
        elif op == 5:
            lines[i] = _swap_key(lines[i], rng)
        elif op == 6:
            lines = lines[: rng.randint(0, len(lines))]
        elif op == 7:
            cut = rng.randint(0, len(lines[i]))
            lines[i] = lines[i][:cut]
        elif op == 8:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 9:
            lines[i] = " " * rng.choice([1, 2, 3, 8]) + lines[i]
        elif op == 10:
            lines.insert(i, _indent(lines[i]) + rng.choice(["<<: *nowhere", "&x y: 1", "? a", "--- ",
                                                            "...", "%YAML 1.1", "z: *x"]))
        elif op == 11:
            lines.append(_alias_bomb(rng))
        elif op == 12:
            key = rng.choice(KEYS)
            lines.insert(i, f"{_indent(lines[i])}{key}: {rng.choice(VALUES)}")
        else:
            # a long list: stresses quadratic checks
            n = rng.choice([100, 2000, longest])
            lines[i] = _swap_value(lines[i], rng).rsplit(":", 1)[0] + ": [" + ", ".join(
                str(rng.choice([k, 1])) for k in range(n)) + "]"
    out = ("\n".join(lines) + "\n").encode("utf-8")
    if rng.random() < 0.08:
        pos = rng.randrange(len(out) + 1)
        out = out[:pos] + rng.choice(BAD_BYTES) + out[pos:]
    return out


@dataclass
class Outcome:
    """What one mutant did: seconds taken and any traceback, by entry point."""

    kind: str
    rel: str
    data: bytes
    seconds: float = 0.0
    errors: int = 0  # error diagnostics of the file checked in its pack
    failures: list[tuple[str, str]] = field(default_factory=list)


class Workbench:
    """A private copy of the base pack into which mutants are written one at a time."""

    def __init__(self, tmp: Path, *, dear_every: int = 1) -> None:
        from slipstream.engine.rulesets.automobiles.content import base_pack

        self.tmp = tmp
        self.pack_root = tmp / "base"
        # Without the base scenarios a pack check costs a third: a scenario mutant is put into
        # tests/ of the copy on its own.
        shutil.copytree(BASE, self.pack_root, ignore=shutil.ignore_patterns("tests"))
        # the dear steps (the pack editor's analysis, a scenario on the mutated pack) run on
        # every `dear_every`-th mutant only
        self.dear_every = dear_every
        self.runs = 0
        self.scenarios = sorted((BASE / "tests").glob("*.yaml"))
        self.alone = tmp / "alone"
        self.alone.mkdir()
        self.base = base_pack()

    def steps(self, kind: str, rel: str, out: Outcome) -> Iterator[tuple[str, Callable[[], object]]]:
        """The entry points a mutant goes through; generated lazily, so a step can depend on
        what the ones before it found (`out.errors`)."""
        from slipstream.engine.editing.document import TrackDocument
        from slipstream.engine.editing.packdoc import PackDocument
        from slipstream.engine.packs.validate import validate_paths
        from slipstream.engine.rulesets.automobiles.scenarios import run_file

        in_pack = self.pack_root / rel
        alone = self.alone / Path(rel).name
        yield "validate file alone", lambda: validate_paths([alone], use_cache=False)
        # the file's own check fills the result cache, which the folder's check then reads
        yield "validate file in pack", lambda: validate_paths([in_pack], use_cache=True)
        yield "validate pack folder", lambda: validate_paths([self.pack_root], use_cache=True)
        yield "editor track document", lambda: TrackDocument.open(alone).analysis()
        dear = self.runs % self.dear_every == 0
        yield "editor pack document", lambda: _pack_doc(PackDocument, self.pack_root, dear)
        if kind in ("scenario", "season-scenario"):
            yield "slipstream test", lambda: run_file(in_pack, self.base)
        elif dear and out.errors == 0 and kind != "track":
            # odd content that validates clean must also play: a base scenario on the mutant
            scenario = self.scenarios[len(out.data) % len(self.scenarios)]
            yield "slipstream test on the mutant pack", lambda: self.play(scenario)

    def play(self, scenario: Path) -> object:
        from slipstream.engine.core.diagnostics import has_errors
        from slipstream.engine.rulesets.automobiles.content import load_pack
        from slipstream.engine.rulesets.automobiles.scenarios import run_file

        pack, diags = load_pack(self.pack_root)
        if pack is None or has_errors(diags):  # `slipstream test` stops with C100 here
            return None
        return run_file(scenario, pack)

    def run(self, kind: str, rel: str, data: bytes) -> Outcome:
        out = Outcome(kind, rel, data)
        in_pack = self.pack_root / rel
        original = in_pack.read_bytes() if in_pack.exists() else None
        alone = self.alone / Path(rel).name
        in_pack.parent.mkdir(parents=True, exist_ok=True)
        in_pack.write_bytes(data)
        alone.write_bytes(data)
        start = time.perf_counter()
        try:
            for name, step in self.steps(kind, rel, out):
                try:
                    result = step()
                    if name == "validate file in pack":
                        out.errors = sum(d.is_error for d in result[0])  # type: ignore[index]
                except Exception:  # noqa: BLE001 - every exception is a finding
                    out.failures.append((name, traceback.format_exc()))
        finally:
            out.seconds = time.perf_counter() - start
            self.runs += 1
            if original is None:
                in_pack.unlink()
            else:
                in_pack.write_bytes(original)
            alone.unlink()
        return out


def _pack_doc(cls: type, root: Path, analyse: bool) -> object:
    doc = cls.open(root)
    try:
        return doc.analysis() if analyse else doc.state
    finally:
        doc.close()


def mutants(seed: int, count: int, longest: int = 20_000) -> Iterator[tuple[str, str, bytes]]:
    """`count` mutants, spread over every base file kind in turn."""
    rng = random.Random(seed)
    files = base_files()
    by_kind: dict[str, list[str]] = {}
    for kind, rel in files:
        by_kind.setdefault(kind, []).append(rel)
    kinds = list(by_kind)
    for i in range(count):
        kind = kinds[i % len(kinds)]
        rel = rng.choice(by_kind[kind])
        yield kind, rel, mutate((BASE / rel).read_bytes(), rng, longest)
