"""Seeded mutation fuzzing of every file kind of every ruleset, and of race logs, through the
real entry points.

Shared by tests/core/test_fuzz.py (a CI-sized run) and bench/fuzz.py (a long run with a report).
A mutant is one bundled file with a few random edits: lines deleted, duplicated or cut; values
swapped for odd YAML, another type, a float for a whole number, huge, negative or non-finite
numbers, unknown references; lists emptied (empty decks); absurd geometry; bytes that are not
UTF-8. The files are those of the three bundled packs (Automobiles `base`, `formula-de`,
`speed-hazard`: every data kind, their tracks and rule scenarios) and the loose track/2 files of
content/tracks-v2. Each mutant is written into a private copy of its pack and run through what a
user would run on it: `slipstream validate` of the file alone, of the file in its pack and of
the pack folder, the editor's documents (track and pack, without Qt), `slipstream test` (a
scenario mutant runs; a data mutant that validates clean runs one of the pack's scenarios), and,
when the pack validates clean, a short race of the pack's ruleset. A log mutant is a race or
season log of one of the rulesets with its header or body edited, run through `replay`: it must
end in a one-line report naming a line of the file. Any exception is a finding: user input must
only ever give diagnostics.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
BASE = CONTENT / "base"  # kept for older callers

# The packs mutants are made of (folder names under content/); None: loose files, no pack.
PACKS = {"base": "base", "fd": "formula-de", "sh": "speed-hazard", "v2": None}
# Every kind of file: (pack key, glob relative to the pack folder, or to content/tracks-v2).
KINDS: dict[str, tuple[str, str]] = {
    "track": ("base", "tracks/*.yaml"),
    "pack": ("base", "pack.yaml"),
    "cubes": ("base", "cubes.yaml"),
    "cards": ("base", "cards/*.yaml"),
    "drivers": ("base", "drivers.yaml"),
    "sponsors": ("base", "sponsors.yaml"),
    "cardsets": ("base", "cardsets.yaml"),
    "rules": ("base", "rules.yaml"),
    "scenario": ("base", "tests/*.yaml"),
    "season-scenario": ("base", "tests/seasons/*.yaml"),
    "fd-pack": ("fd", "pack.yaml"),
    "fd-gears": ("fd", "gears.yaml"),
    "fd-wear": ("fd", "wear.yaml"),
    "fd-track": ("fd", "tracks/*.yaml"),
    "fd-scenario": ("fd", "tests/*.yaml"),
    "sh-pack": ("sh", "pack.yaml"),
    "sh-actions": ("sh", "actions.yaml"),
    "sh-car": ("sh", "car.yaml"),
    "sh-equipment": ("sh", "equipment.yaml"),
    "sh-hazards": ("sh", "hazards.yaml"),
    "sh-nitrous": ("sh", "nitrous.yaml"),
    "sh-track": ("sh", "tracks/*.yaml"),
    "sh-scenario": ("sh", "tests/*.yaml"),
    "track2": ("v2", "*.yaml"),
}
SCENARIO_KINDS = {"scenario", "season-scenario", "fd-scenario", "sh-scenario"}
TRACK_KINDS = {"track", "fd-track", "sh-track", "track2"}

HUGE = "9" * 5000
VALUES = [
    "0", "-1", "1", "7", "99999", "10000000000", "1000000000", HUGE, "0x" + "f" * 5000,
    "-" + "9" * 400, "1" + "0" * 400, "1.5", "-0.0", "1e308", "1e999", ".nan", ".inf", "-.inf",
    "null", "~", "true", "no", "[]", "{}", "[1, 2, 3]", "{a: 1}", "{1: 7}", "{7: }", "[[[[[]]]]]",
    "''", '""', "x", "gear-9", "base:nothing", "owned", "'\\u0000'", '"\\x00"', "!!str 5",
    "!!python/object:os.system x", "!local x", "!!binary aGk=", "2001-12-14", "1:0:0:0",
    "*nowhere", "&a [*a]", "0o17", "0b101", "+12", "1_000", ": :", "- -", "{up_to: x}",
    "{from: nowhere}", "\"\\uD800\"", "é" * 50, "x" * 20000,
    # whole numbers as floats, huge, negative and non-finite numbers, absurd sizes
    "2.0", "3.0", "-5", "-2147483649", "2147483648", "9223372036854775808", "1e300", "-1e300",
    "1e-300", "0.0", "-0", "[.nan, .inf]", "[1e308, -1e308]", "[0, 0]",
]
KEYS = ["1", "7", "0", "-3", "1.5", "null", "true", "~", "? [a]", "<<", "2001-01-01", "x" * 300]
# numbers an absurd drawing or table may hold
ABSURD = ["0", "-1", "1e308", "-1e308", "1e-308", ".nan", ".inf", "-.inf", "999999999999", "2.5", "-0.0",
          "1" + "0" * 30]
BAD_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\x1b", b"\t", b"\r", b"\xef\xbb\xbf"]
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
_IDENT = re.compile(r"^(\s*(?:- )?[\w-]+: )([a-z][\w-]*(?::[\w-]+)?)\s*$")


def pack_folder(key: str) -> Path:
    name = PACKS[key]
    return CONTENT / name if name is not None else CONTENT / "tracks-v2"


def bundled_files() -> list[tuple[str, str]]:
    """(kind, path relative to its pack folder) of every bundled file fuzzed, in a stable order."""
    out = []
    for kind, (key, pattern) in KINDS.items():
        for p in sorted(pack_folder(key).glob(pattern)):
            out.append((kind, p.relative_to(pack_folder(key)).as_posix()))
    return out


def base_files() -> list[tuple[str, str]]:
    """The Automobiles base pack's part of `bundled_files`."""
    return [(k, r) for k, r in bundled_files() if KINDS[k][0] == "base"]


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


def _number(line: str, rng: random.Random, to: Callable[[str], str]) -> str:
    """One number of the line (a value, a coordinate, a list item) replaced by `to(it)`."""
    found = list(_NUMBER.finditer(line))
    if not found:
        return line
    m = rng.choice(found)
    return line[: m.start()] + to(m.group()) + line[m.end():]


def _float_for_int(text: str) -> str:
    """`2` as `2.0` (the same whole number) or `2.5` (not one), by the number's length."""
    return text if "." in text else text + (".0" if len(text) % 2 else ".5")


def _unknown_reference(line: str, rng: random.Random) -> str:
    """An identifier value (`driver: kaia-lin`, `- gear-3`) replaced by one nothing defines."""
    m = _IDENT.match(line)
    if m:
        return m.group(1) + rng.choice(["nowhere", "no-such-id", "base:nothing", m.group(2) + "-x", "gear-9"])
    body = line.lstrip()
    if body.startswith("- ") and re.fullmatch(r"[a-z][\w:-]*", body[2:].strip()):
        return f"{_indent(line)}- {rng.choice(['nowhere', 'no-such-card', body[2:].strip() + '-x'])}"
    return line


def _empty_list(lines: list[str], i: int) -> list[str]:
    """The block list under the key at or above line i emptied (`key: []`): an empty deck,
    table or layout."""
    for k in range(i, -1, -1):
        body = lines[k].rstrip()
        if body.endswith(":") and not body.lstrip().startswith("#"):
            ind = len(_indent(lines[k]))
            j = k + 1
            while j < len(lines) and (not lines[j].strip() or len(_indent(lines[j])) > ind
                                      or (len(_indent(lines[j])) == ind and lines[j].lstrip().startswith("- "))):
                j += 1
            return lines[:k] + [body + " []"] + lines[j:]
    return lines


def mutate(raw: bytes, rng: random.Random, longest: int = 20_000) -> bytes:
    """Apply 1-3 random edits to a file's bytes; a list written in may have `longest` items."""
    lines = raw.decode("utf-8").splitlines()
    for _ in range(rng.randint(1, 3)):
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        op = rng.randrange(19)
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
        elif op == 13:
            # a long list: stresses quadratic checks
            n = rng.choice([100, 2000, longest])
            lines[i] = _swap_value(lines[i], rng).rsplit(":", 1)[0] + ": [" + ", ".join(
                str(rng.choice([k, 1])) for k in range(n)) + "]"
        elif op == 14:  # a whole number written as a float
            lines[i] = _number(lines[i], rng, _float_for_int)
        elif op == 15:  # huge, negative, non-finite: absurd numbers, in geometry too
            lines[i] = _number(lines[i], rng, lambda _t: rng.choice(ABSURD))
        elif op == 16:
            lines[i] = _unknown_reference(lines[i], rng)
        elif op == 17:
            lines = _empty_list(lines, i)
        else:  # a number elsewhere in the file: the one edit many files need to turn odd
            k = rng.choice([j for j, s in enumerate(lines) if _NUMBER.search(s)] or [i])
            lines[k] = _number(lines[k], rng, lambda t: rng.choice(ABSURD + [t + ".0", "-" + t]))
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
    cpu: float = 0.0  # seconds of CPU (a loaded machine stretches `seconds`, not this)
    errors: int = 0  # error diagnostics of the file checked in its pack (-1: not checked)
    failures: list[tuple[str, str]] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)  # the entry points it went through
    # it went through the dear steps (its whole pack checked, and more); None: as `dear_every` says
    dear: bool | None = None


class Workbench:
    """Private copies of the bundled packs into which mutants are written one at a time.

    `dear_every`: the dear steps (the pack folder's check, the pack editor's analysis, a
    scenario and a short race on a data mutant that validates clean) run on every
    `dear_every`-th mutant only.
    """

    def __init__(self, tmp: Path, *, dear_every: int = 1) -> None:
        self.tmp = tmp
        self.roots: dict[str, Path] = {}
        for key in PACKS:
            root = tmp / key
            # without the scenarios a pack check costs a third: a scenario mutant is put into
            # tests/ of the copy on its own
            shutil.copytree(pack_folder(key), root, ignore=shutil.ignore_patterns("tests"))
            self.roots[key] = root
        self.pack_root = self.roots["base"]  # older callers
        self.dear_every = dear_every
        self.runs = 0
        self.scenarios = {key: sorted(p for p in (pack_folder(key) / "tests").glob("*.yaml"))
                          for key in PACKS if PACKS[key] is not None}
        self.alone = tmp / "alone"
        self.alone.mkdir()
        self._packs: dict[str, Any] = {}  # the unmutated packs, loaded once

    def pack(self, key: str) -> Any:
        """The unmutated pack of `key` (loaded once from its copy)."""
        if key not in self._packs:
            from slipstream.engine.packs.loader import load_pack

            self._packs[key] = load_pack(self.roots[key])[0]
        return self._packs[key]

    def steps(self, kind: str, rel: str, out: Outcome) -> Iterator[tuple[str, Callable[[], object]]]:
        """The entry points a mutant goes through; generated lazily, so a step can depend on
        what the ones before it found (`out.errors`)."""
        from slipstream.engine.editing.document import TrackDocument
        from slipstream.engine.editing.packdoc import PackDocument
        from slipstream.engine.packs.validate import validate_paths

        key = KINDS[kind][0]
        root = self.roots[key]
        in_pack = root / rel
        alone = self.alone / Path(rel).name
        yield "validate file alone", lambda: validate_paths([alone], use_cache=False)
        if PACKS[key] is None:  # a loose track/2 file: what the editor makes of it
            yield "editor track document", lambda: TrackDocument.open(alone).analysis()
            return
        dear = self.runs % self.dear_every == 0 if out.dear is None else out.dear
        out.dear = dear
        # the file's own check fills the result cache, which the folder's check then reads
        yield "validate file in pack", lambda: validate_paths([in_pack], use_cache=True)
        if dear:
            yield "validate pack folder", lambda: validate_paths([root], use_cache=True)
        # the track editor opens any file (and says what is wrong with it)
        yield "editor track document", lambda: TrackDocument.open(alone).analysis()
        yield "editor pack document", lambda: _pack_doc(PackDocument, root, dear)
        if kind in SCENARIO_KINDS:
            yield "slipstream test", lambda: self.test_folder(key)
        elif dear and out.errors == 0:
            # odd content that validates clean must also play: a scenario and a short race
            yield "slipstream test on the mutant pack", lambda: self.play_scenario(key, len(out.data))
            yield "slipstream race on the mutant pack", lambda: self.race(key, len(out.data))

    def test_folder(self, key: str) -> object:
        """`slipstream test` on the pack copy: its ruleset's `scenarios` capability runs the
        scenario files of its tests/ folder (the mutant, or the one `play_scenario` put there),
        the pack loaded fresh."""
        from slipstream.engine.play.registry import get

        scenarios = get(self.pack(key).ruleset).scenarios
        return None if scenarios is None else scenarios.run_folder(str(self.roots[key]))

    def _mutant_pack(self, key: str) -> Any:
        from slipstream.engine.core.diagnostics import has_errors
        from slipstream.engine.packs.loader import load_pack

        pack, diags = load_pack(self.roots[key])  # fresh: the registry's cache keeps a path's first pack
        return None if pack is None or has_errors(diags) else pack  # `test` and `race` stop here

    def play_scenario(self, key: str, pick: int) -> object:
        """One of the pack's bundled scenarios run on the mutant pack (when it loads clean)."""
        if self._mutant_pack(key) is None:
            return None
        scenarios = self.scenarios[key]
        copy = self.roots[key] / "tests" / "fuzz-scenario.yaml"
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(scenarios[pick % len(scenarios)].read_bytes())
        try:
            return self.test_folder(key)
        finally:
            copy.unlink()

    def race(self, key: str, pick: int) -> object:
        """A short race (one lap, two bots) of the pack's ruleset on its first track."""
        from slipstream.engine.play.races import bot_seed, play_out, seats_of
        from slipstream.engine.play.registry import get

        pack = self._mutant_pack(key)
        if pack is None or not pack.tracks:
            return None
        rs = get(pack.ruleset)
        track = pack.tracks[sorted(pack.tracks)[pick % len(pack.tracks)]]
        names = sorted(b for b in rs.bots if b in ("random", "greedy")) or sorted(rs.bots)[:1]
        lo, hi = rs.players
        bots = [names[i % len(names)] for i in range(max(lo, min(2, hi)))]
        seed = pick % 1000
        game = rs.new_game(pack, track, seats_of(bots), seed, {}, 1, {}, False)
        return play_out(game, [rs.make_bot(b, bot_seed(seed, i)) for i, b in enumerate(bots)], 100_000)

    def run(self, kind: str, rel: str, data: bytes, *, dear: bool | None = None) -> Outcome:
        out = Outcome(kind, rel, data, errors=-1, dear=dear)
        key = KINDS[kind][0]
        in_pack = self.roots[key] / rel
        original = in_pack.read_bytes() if in_pack.exists() else None
        alone = self.alone / Path(rel).name
        in_pack.parent.mkdir(parents=True, exist_ok=True)
        in_pack.write_bytes(data)
        alone.write_bytes(data)
        start, cpu = time.perf_counter(), time.process_time()
        try:
            for name, step in self.steps(kind, rel, out):
                out.steps.append(name)
                try:
                    result = step()
                    if name == "validate file in pack":
                        out.errors = sum(d.is_error for d in result[0])  # type: ignore[index]
                except Exception:  # noqa: BLE001 - every exception is a finding
                    out.failures.append((name, traceback.format_exc()))
        finally:
            out.seconds, out.cpu = time.perf_counter() - start, time.process_time() - cpu
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


def mutants(seed: int, count: int, longest: int = 20_000,
            kinds: Iterator[str] | list[str] | None = None) -> Iterator[tuple[str, str, bytes]]:
    """`count` mutants, spread over every file kind (or those of `kinds`) in turn."""
    rng = random.Random(seed)
    by_kind: dict[str, list[str]] = {}
    for kind, rel in bundled_files():
        by_kind.setdefault(kind, []).append(rel)
    order = [k for k in by_kind if kinds is None or k in set(kinds)]
    for i in range(count):
        kind = order[i % len(order)]
        rel = rng.choice(by_kind[kind])
        yield kind, rel, mutate((pack_folder(KINDS[kind][0]) / rel).read_bytes(), rng, longest)


# ------------------------------------------------------------------------------- race logs

LOG_VALUES = ["null", "[]", "{}", "[1,2,3]", '"x"', "-1", "0", "1e308", "true", "9" * 400, '"' + "é" * 50 + '"',
              "2.0", "1.5", '"greedy"', '"random"', '"lookahead:3"', '"human"', '"nobody"', '{"a":1}',
              "-9223372036854775809", '"../../nowhere"', '""']
# what a header's fields are edited into, by field (beside any of LOG_VALUES)
HEADER_EDITS: dict[str, list[Any]] = {
    "options": [{"wear_model": "basic"}, {"cars_per_player": 2}, {"cars_per_player": "2"}, {"u_turn": 1},
                {"weaving": True}, {"nitrous_until": "curve"}, {"teleport": True}, {"cars_per_player": 99}],
    "seats": [[], [{"name": "P1"}], [{"name": "P1", "bot": "greedy"}, {"name": "P2", "bot": "greedy"}],
              [{"name": 7, "bot": "random"}]],
    "laps": [None, 0, 2, 1.0, 1001, "1"],
    "setup": [{}, {"card_set": "comeback"}, []],
    "pack_path": ["", "content/base", "/nonexistent", "../x"],
}


def race_logs() -> dict[str, list[str]]:
    """One short race log of each ruleset (a seeded 1-lap race of a greedy and a random bot),
    and a Formula Dé season log, as their lines."""
    from slipstream.engine.play.racelog import log_lines
    from slipstream.engine.play.races import RaceSpec, run_race

    out = {}
    for rid, pack in (("automobiles", ""), ("formula-de", str(CONTENT / "formula-de")),
                      ("speed-hazard", str(CONTENT / "speed-hazard"))):
        r = run_race(RaceSpec(pack, "first-oval" if not pack else _first_track(pack), 3, ("greedy", "random"),
                              laps=1))
        out[rid] = log_lines(r.header, r.log, r.result)
    season = ROOT / "tests" / "rulesets" / "formula_de" / "golden-formula-de-season" / "two-races-one-lap.jsonl"
    if season.is_file():
        out["formula-de-season"] = season.read_text(encoding="utf-8").splitlines()
    return out


def _first_track(pack: str) -> str:
    from slipstream.engine.play.registry import load_pack

    return str(sorted(load_pack(pack).tracks)[0])


def mutate_log(lines: list[str], rng: random.Random) -> tuple[str, bytes]:
    """One edit of a log (its header or its body), as (what was done, the file's bytes)."""
    from slipstream.engine.play.logcheck import dumps

    lines = list(lines)
    i = rng.randrange(len(lines))
    op = rng.choice(["delete", "duplicate", "swap", "byte", "insert-bytes", "truncate", "value", "drop-key",
                     "blank", "join", "header-value", "header-field", "header-field", "header-drop", "choice"])
    if op == "delete":
        del lines[i]
    elif op == "duplicate":
        lines.insert(i, lines[i])
    elif op == "swap":
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "blank":
        lines.insert(i, "")
    elif op == "join" and i + 1 < len(lines):
        lines[i : i + 2] = [lines[i] + lines[i + 1]]
    elif op in ("value", "drop-key", "header-value", "header-drop"):
        k = 0 if op.startswith("header") else i
        obj = json.loads(lines[k])
        key = rng.choice(sorted(obj))
        if op in ("drop-key", "header-drop"):
            del obj[key]
            lines[k] = dumps(obj)
        else:
            lines[k] = dumps({**obj, key: "\x00v"}).replace('"\\u0000v"', rng.choice(LOG_VALUES), 1)
    elif op == "header-field":
        obj = json.loads(lines[0])
        key = rng.choice(sorted(HEADER_EDITS))
        if key == "seats" and obj.get("seats") and rng.random() < 0.6:
            seats = [dict(s) for s in obj["seats"]]
            s = rng.randrange(len(seats))
            seats[s]["bot"] = json.loads(rng.choice(LOG_VALUES[12:18]))
            obj["seats"] = seats
        else:
            obj[key] = rng.choice(HEADER_EDITS[key])
        lines[0] = dumps(obj)
    elif op == "choice":
        picks = [j for j, s in enumerate(lines) if '"t":"decision"' in s]
        if picks:
            j = rng.choice(picks)
            obj = json.loads(lines[j])
            obj["choice"] = rng.choice(["fly", "", "gear 9", "to 0:0", "pit", "card accelerate", "nitrous",
                                        "buy red", 5, None])
            lines[j] = dumps(obj)
    out = ("\n".join(lines) + "\n").encode("utf-8")
    if op == "byte":
        pos = rng.randrange(len(out))
        out = out[:pos] + bytes([rng.randrange(256)]) + out[pos + 1:]
    elif op == "insert-bytes":
        pos = rng.randrange(len(out))
        out = out[:pos] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + out[pos:]
    elif op == "truncate":
        out = out[: rng.randrange(len(out))]
    return op, out


def log_mutants(seed: int, count: int, logs: dict[str, list[str]]) -> Iterator[tuple[str, str, bytes]]:
    """`count` log mutants, (log name, what was done, bytes), over the logs in turn."""
    rng = random.Random(seed)
    names = sorted(logs)
    for i in range(count):
        name = names[i % len(names)]
        op, data = mutate_log(logs[name], rng)
        yield name, op, data


def run_log(folder: Path, name: str, op: str, data: bytes, original: list[str] | None = None) -> Outcome:
    """Replay one log mutant from `folder`: a report naming a line of the file, in one line.
    With the `original` log's lines, an edited header (other than where it says the pack
    is) or decision must not replay as identical."""
    from slipstream.engine.play.racelog import replay_file

    out = Outcome(f"log:{name}", op, data)
    path = folder / f"{name}.jsonl"
    path.write_bytes(data)
    start, cpu = time.perf_counter(), time.process_time()
    try:
        rep = replay_file(path)
        physical = data.count(b"\n") + 2
        if not rep.identical and not 1 <= rep.line <= physical:
            out.failures.append(("replay", f"the report names line {rep.line} of a {physical - 1}-line file"))
        if not rep.message or "\n" in rep.message:
            out.failures.append(("replay", f"the report is not one line: {rep.message!r}"))
        if rep.identical and original is not None and _edited(op, data, original):
            out.failures.append(("replay", f"an edited log ({op}) replays as identical"))
    except Exception:  # noqa: BLE001 - every exception is a finding
        out.failures.append(("replay", traceback.format_exc()))
    finally:
        out.seconds, out.cpu = time.perf_counter() - start, time.process_time() - cpu
        path.unlink()
    return out


def _edited(op: str, data: bytes, original: list[str]) -> bool:
    """Whether a header or decision edit changed what the log says (not only where the pack is)."""
    if not (op.startswith("header") or op == "choice"):
        return False
    lines = data.decode("utf-8", errors="replace").split("\n")
    if op == "choice":
        return lines[: len(original)] != original
    try:
        head, old = json.loads(lines[0]), json.loads(original[0])
    except ValueError:
        return True
    if not isinstance(head, dict):
        return True
    # a seat marked as a person's (`human`, or no bot) may take any legal option (its bot is
    # not re-run, docs/engine.md), and another bot of the ruleset may choose just as the
    # logged one did (lookahead:3 plays a short race exactly as greedy): the replay re-ran it
    seats, was = head.get("seats"), old.get("seats")
    if isinstance(seats, list) and isinstance(was, list) and len(seats) == len(was):
        head = {**head, "seats": [{**s, "bot": w.get("bot")} if isinstance(s, dict) and isinstance(w, dict)
                                  and (s.get("bot") in (None, "human") or _known_bot(old, s.get("bot")))
                                  and {**s, "bot": None} == {**w, "bot": None} else s for s, w in zip(seats, was, strict=True)]}
    # where the pack is (the digest decides), and a valid rule option that changed nothing in
    # this race (the race is the same under either reading), are not what the race was
    loose = ("pack_path", "options")
    return {k: v for k, v in head.items() if k not in loose} != {k: v for k, v in old.items() if k not in loose}


def _known_bot(head: dict[str, Any], name: Any) -> bool:
    from slipstream.engine.play.logcheck import bot_problem
    from slipstream.engine.play.registry import get

    try:
        return isinstance(name, str) and bot_problem(get(str(head.get("ruleset", "automobiles"))), name) is None
    except LookupError:
        return False
