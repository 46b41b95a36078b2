"""Broken race and season logs: every one ends in a one-line report naming its line, never a traceback.

The broken logs are written from a good golden log, each with the class of report it must
give (malformed / header / setup / diverges), the physical line it must name and a piece of
its message; the CLI must exit 1 for all of them. A seeded mutation run then throws a few
hundred random mutants (seeded) of a race log at replay.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.rulesets.automobiles.racelog import dumps, replay_file, replay_lines

GOLDEN = Path(__file__).parent / "golden"
GOOD = GOLDEN / "oval-weaving.jsonl"
REPO = Path(__file__).resolve().parents[3]


def good_lines() -> list[str]:
    return GOOD.read_text(encoding="utf-8").splitlines()


def lines_bytes(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def with_header(change: Callable[[dict], None]) -> bytes:
    lines = good_lines()
    head = json.loads(lines[0])
    change(head)
    lines[0] = dumps(head)
    return lines_bytes(lines)


def raw_header(text: str) -> bytes:
    return lines_bytes([text] + good_lines()[1:])


def with_line(index: int, text: str) -> bytes:
    lines = good_lines()
    lines[index] = text
    return lines_bytes(lines)


def first_decision(choice: object = None, drop: bool = False, turn_pit: bool = False, human: bool = False) -> bytes:
    """The good log with its first decision (first `standard` turn: `turn_pit`) changed; `human`
    marks that decision's seat as a person's in the header (its bot is then not re-run)."""
    lines = good_lines()
    for i, line in enumerate(lines):
        obj = json.loads(line)
        if obj.get("t") != "decision":
            continue
        if turn_pit and not (obj["kind"] == "turn" and obj["choice"] == "standard"):
            continue
        if drop:
            del obj["choice"]
        elif turn_pit:
            obj["choice"] = "pit"
        else:
            obj["choice"] = choice
        lines[i] = dumps(obj)
        if human:
            head = json.loads(lines[0])
            head["seats"][obj["p"]]["bot"] = "human"
            lines[0] = dumps(head)
        return lines_bytes(lines)
    raise AssertionError("no decision in the golden log")


def first_decision_line(turn_pit: bool = False) -> int:
    for i, line in enumerate(good_lines(), start=1):
        obj = json.loads(line)
        if obj.get("t") == "decision" and (not turn_pit or (obj["kind"] == "turn" and obj["choice"] == "standard")):
            return i
    raise AssertionError


def setitem(key: str, value: object) -> Callable[[dict], None]:
    return lambda h: h.__setitem__(key, value)


def delitem(key: str) -> Callable[[dict], None]:
    return lambda h: h.__delitem__(key)


def seat(i: int, key: str, value: object) -> Callable[[dict], None]:
    return lambda h: h["seats"][i].__setitem__(key, value)


def option(key: str, value: object) -> Callable[[dict], None]:
    return lambda h: h["options"].__setitem__(key, value)


N = len(good_lines())
DEEP = "[" * 100_000 + "]" * 100_000
HEAD = good_lines()[0]
BIG = "9" * 5000

# (id, log bytes, report kind, line named (None: any line after the header), a piece of the message)
CASES: list[tuple[str, Callable[[], bytes], str, int | None, str]] = [
    ("empty-file", lambda: b"", "malformed", 1, "empty"),
    ("only-blank-lines", lambda: b"\n\n  \n", "malformed", 1, "empty"),
    ("null-header", lambda: raw_header("null"), "malformed", 1, "not a JSON object but null"),
    ("list-header", lambda: raw_header("[1,2,3]"), "malformed", 1, "not a JSON object but a list"),
    ("string-header", lambda: raw_header('"race"'), "malformed", 1, "a string"),
    ("null-line", lambda: with_line(5, "null"), "malformed", 6, "not a JSON object but null"),
    ("list-line", lambda: with_line(9, "[1,2,3]"), "malformed", 10, "a list"),
    ("truncated-last-line", lambda: lines_bytes(good_lines()[:-1] + [good_lines()[-1][:20]]),
     "malformed", N, "is not JSON"),
    ("truncated-header", lambda: raw_header(HEAD[: len(HEAD) // 2]), "malformed", 1, "is not JSON"),
    ("cut-at-a-line", lambda: lines_bytes(good_lines()[: N // 2]), "diverges", N // 2 + 1,
     "the log ends before the race does"),
    ("bad-utf8-header", lambda: b"\xff\xfe" + lines_bytes(good_lines()), "malformed", 1, "not UTF-8"),
    ("bad-utf8-line", lambda: lines_bytes(good_lines()[:4]) + b"\xc3\x28\n" + lines_bytes(good_lines()[5:]),
     "malformed", 5, "not UTF-8"),
    ("deep-json-header", lambda: raw_header(DEEP), "malformed", 1, "nests deeper"),
    ("deep-json-line", lambda: with_line(3, DEEP), "malformed", 4, "nests deeper"),
    ("deep-json-in-choice", lambda: with_line(3, '{"t":"decision","choice":' + "[" * 70 + "]" * 70 + "}"),
     "malformed", 4, "nests deeper"),
    ("huge-line", lambda: with_line(3, '{"t":"event","x":"' + "a" * 1_000_100 + '"}'), "malformed", 4, "longer"),
    ("seed-5000-digits", lambda: raw_header(HEAD.replace('"seed":12', '"seed":' + BIG)), "malformed", 1,
     "not usable JSON"),
    ("seed-beyond-64-bits", lambda: with_header(setitem("seed", 2**70)), "malformed", 1, "64 bits"),
    ("seed-infinity", lambda: raw_header(HEAD.replace('"seed":12', '"seed":Infinity')), "malformed", 1,
     "Infinity is not a number"),
    ("seed-nan", lambda: raw_header(HEAD.replace('"seed":12', '"seed":NaN')), "malformed", 1, "NaN"),
    ("seed-float", lambda: with_header(setitem("seed", 12.5)), "malformed", 1, "'seed' must be an integer"),
    ("seed-string", lambda: with_header(setitem("seed", "12")), "malformed", 1, "not a string"),
    ("seed-boolean", lambda: with_header(setitem("seed", True)), "malformed", 1, "not a boolean"),
    ("no-seed", lambda: with_header(delitem("seed")), "malformed", 1, "has no 'seed'"),
    ("no-seats", lambda: with_header(delitem("seats")), "malformed", 1, "has no 'seats'"),
    ("no-track", lambda: with_header(delitem("track")), "malformed", 1, "has no 'track'"),
    ("no-pack-path", lambda: with_header(delitem("pack_path")), "malformed", 1, "has no 'pack_path'"),
    ("seats-empty", lambda: with_header(setitem("seats", [])), "malformed", 1, "2 to 5 seats, the header has 0"),
    ("seats-six", lambda: with_header(lambda h: h.__setitem__("seats", h["seats"] * 3)), "malformed", 1,
     "the header has 6"),
    ("seats-not-a-list", lambda: with_header(setitem("seats", {"P1": 1})), "malformed", 1, "must be a list"),
    ("seat-null", lambda: with_header(lambda h: h["seats"].__setitem__(0, None)), "malformed", 1, "seat 1 is null"),
    ("seat-without-name", lambda: with_header(lambda h: h["seats"][1].pop("name")), "malformed", 1,
     "seat 2 has no 'name'"),
    ("seat-driver-number", lambda: with_header(seat(0, "driver", 7)), "malformed", 1, "'driver' must be a string"),
    ("unknown-driver", lambda: with_header(seat(0, "driver", "nobody-at-all")), "header", 1,
     "no driver 'nobody-at-all'"),
    ("unknown-card-set", lambda: with_header(setitem("card_set", "no-such-set")), "header", 1,
     "no card set 'no-such-set'"),
    ("unknown-track", lambda: with_header(setitem("track", "moon-base")), "header", 1, "no track 'moon-base'"),
    ("missing-pack", lambda: with_header(setitem("pack_path", "/nonexistent/pack-folder")), "setup", 1,
     "cannot load the pack"),
    ("stale-pack-digest", lambda: with_header(setitem("digest", "0" * 64)), "header", 1,
     "header differs: pack digest (log 000000000000…"),
    ("other-pack-name", lambda: with_header(setitem("pack", "someone-else")), "header", 1,
     "header differs: pack name (log someone-else, now base)"),
    ("changed-track-content", lambda: with_header(setitem("track_digest", "f" * 64)), "header", 1,
     "header differs: track content (log ffffffffffff…"),
    ("no-track-digest", lambda: with_header(delitem("track_digest")), "header", 1,
     "track content (not in the log"),
    ("unknown-option", lambda: with_header(option("teleport", True)), "malformed", 1,
     "unknown rule option 'teleport'"),
    ("option-wrong-type", lambda: with_header(option("weaving", "yes")), "malformed", 1,
     "weaving must be bool, not a string"),
    ("option-not-implemented", lambda: with_header(option("occupancy", "nowhere")), "malformed", 1,
     "not implemented: occupancy='nowhere'"),
    ("options-not-an-object", lambda: with_header(setitem("options", [])), "malformed", 1,
     "'options' must be an object"),
    ("max-rounds-huge", lambda: with_header(option("max_rounds", 10**9)), "malformed", 1, "max_rounds must be"),
    ("option-changed", lambda: with_header(option("weaving", False)), "diverges", None, "first divergence"),
    ("laps-zero", lambda: with_header(setitem("laps", 0)), "malformed", 1, "laps must be 1 to"),
    ("laps-changed", lambda: with_header(setitem("laps", 2)), "diverges", None, "first divergence"),
    ("not-a-race-header", lambda: with_header(setitem("t", "lap")), "malformed", 1, "not a racelog/1 header"),
    ("other-format", lambda: with_header(setitem("format", "racelog/9")), "malformed", 1, "not a racelog/1"),
    ("extra-header-key", lambda: with_header(setitem("colour", "red")), "header", 1,
     "header differs: key 'colour' (in the log, unknown now)"),
    ("header-spacing", lambda: raw_header(json.dumps(json.loads(HEAD), sort_keys=True)), "header", 1,
     "not written as this engine writes it"),
    ("decision-without-choice", lambda: first_decision(drop=True), "malformed", first_decision_line(),
     "needs a string 'choice'"),
    ("decision-choice-number", lambda: first_decision(choice=5), "malformed", first_decision_line(),
     "needs a string 'choice'"),
    ("decision-illegal-choice", lambda: first_decision(choice="fly"), "diverges", first_decision_line(),
     "was rejected"),
    ("decision-changed", lambda: first_decision(turn_pit=True, human=True), "diverges",
     first_decision_line(True) + 1, "first divergence"),
    ("bot-decision-changed", lambda: first_decision(turn_pit=True), "diverges", first_decision_line(True),
     "is not what seat 1's bot 'greedy' chooses"),
    ("seat-bot-edited", lambda: with_header(seat(1, "bot", "greedy")), "diverges", None,
     "is not what seat 2's bot 'greedy' chooses"),
    ("seat-bot-unknown", lambda: with_header(seat(1, "bot", "sloth")), "header", 1,
     "seat 2: Automobiles has no bot 'sloth'"),
    ("seat-bot-setting-it-does-not-take", lambda: with_header(seat(0, "bot", "greedy:7")), "header", 1,
     "seat 1:"),
    ("duplicated-last-line", lambda: lines_bytes(good_lines() + good_lines()[-1:]), "diverges", N + 1,
     "differ in length"),
    ("blank-lines-count", lambda: b"\n\n\n" + first_decision(turn_pit=True, human=True), "diverges",
     first_decision_line(True) + 4, "first divergence"),
    ("event-edited", lambda: with_line(N - 2, good_lines()[N - 2].replace('"round":', '"round":9')),
     "diverges", N - 1, "first divergence"),
]


@pytest.mark.parametrize(("data", "kind", "line", "piece"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_broken_log_gives_one_line_naming_its_line(tmp_path: Path, data: Callable[[], bytes], kind: str,
                                                     line: int | None, piece: str) -> None:
    log = tmp_path / "race.jsonl"
    log.write_bytes(data())
    rep = replay_file(log)
    if line is None:
        assert rep.kind == kind and rep.line > 1, rep.message
        line = rep.line
    assert (rep.kind, rep.line) == (kind, line), rep.message
    assert piece in rep.message
    r = CliRunner().invoke(main, ["replay", str(log)])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 1
    first = r.output.splitlines()[0]
    assert first.startswith(f"{log}:{line}: ") and piece in first
    if kind != "diverges":
        assert len(r.output.splitlines()) == 1  # one line, no traceback, no dump


def test_there_are_at_least_forty_broken_logs() -> None:
    assert len(CASES) >= 40 and len({c[0] for c in CASES}) == len(CASES)


def test_blank_lines_alone_change_nothing(tmp_path: Path) -> None:
    lines = good_lines()
    log = tmp_path / "race.jsonl"
    log.write_text("\n" + "\n\n".join(lines) + "\n\n", encoding="utf-8")
    assert replay_file(log).kind == "identical"


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: p / "missing.jsonl", "no such file"),
    (lambda p: p, ""),  # a folder
])
def test_a_path_that_is_not_a_readable_file_is_a_usage_error(tmp_path: Path, make: Callable[[Path], Path],
                                                             message: str) -> None:
    r = CliRunner().invoke(main, ["replay", str(make(tmp_path))])
    assert r.exit_code == 2 and message in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.fixture(scope="module")
def season_log(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    from slipstream.engine.rulesets.automobiles.seasonrun import SeasonSpec, run_season

    spec = SeasonSpec(pack="", tracks=("first-oval", "first-oval", "first-oval"), seed=5,
                      bots=("greedy", "random"), laps=1)
    return run_season(spec).lines


def _season_with(lines: list[str], change: Callable[[dict], None]) -> list[str]:
    head = json.loads(lines[0])
    change(head)
    return [dumps(head)] + lines[1:]


@pytest.mark.parametrize(("change", "kind", "piece"), [
    (lambda h: None, "identical", "identical"),
    (setitem("seats", []), "malformed", "2 to 5 seats"),
    (setitem("seats", [None, None]), "malformed", "seat 1 is null"),
    (setitem("tracks", []), "malformed", "'tracks' must be a list"),
    (setitem("tracks", ["first-oval", 3]), "malformed", "'tracks' must be a list"),
    (setitem("seed", 2**80), "malformed", "64 bits"),
    (setitem("digest", "1" * 64), "header", "header differs: pack digest"),
    (lambda h: h["track_digests"].__setitem__(0, "2" * 64), "header", "header differs: track content"),
    (setitem("card_set", "no-such-set"), "setup", "cannot set the season up"),
    (setitem("tracks", ["nowhere-ring", "first-oval", "first-oval"]), "setup", "cannot set the season up"),
    (setitem("season_options", {"season_points": [1, "x"]}), "setup", "cannot set the season up"),
    (setitem("season_options", {"season_grid": "sideways"}), "setup", "season_grid"),
    (option("weaving", 1), "malformed", "weaving must be bool"),
])
def test_a_broken_season_header_is_reported(season_log: list[str], change: Callable[[dict], None], kind: str,
                                            piece: str) -> None:
    rep = replay_lines(_season_with(season_log, change))
    assert rep.kind == kind and piece in rep.message, rep.message
    assert rep.line == (0 if kind == "identical" else 1)


def test_a_season_log_line_that_is_not_an_object_is_named(season_log: list[str]) -> None:
    lines = list(season_log)
    lines[4] = "[1,2,3]"
    rep = replay_lines(lines)
    assert (rep.kind, rep.line) == ("malformed", 5) and "a list" in rep.message


# ------------------------------------------------------------------ seeded mutation run
VALUES = ["null", "[]", "{}", "[1,2,3]", '"x"', "-1", "0", "1e308", "true", "9" * 400, '"' + "é" * 50 + '"']


def mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    lines = data.decode("utf-8").split("\n")[:-1]
    i = rng.randrange(len(lines))
    op = rng.choice(["delete", "duplicate", "swap", "byte", "insert-bytes", "truncate", "value", "drop-key",
                     "blank", "header-value", "join"])
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
    elif op in ("value", "drop-key", "header-value"):
        k = 0 if op == "header-value" else i
        obj = json.loads(lines[k])
        key = rng.choice(sorted(obj))
        if op == "drop-key":
            del obj[key]
            lines[k] = dumps(obj)
        else:
            lines[k] = dumps({**obj, key: "\x00v"}).replace('"\\u0000v"', rng.choice(VALUES), 1)
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


def test_four_hundred_mutants_of_a_race_log_never_raise(tmp_path: Path) -> None:
    rng = random.Random(16)
    data = GOOD.read_bytes()
    log = tmp_path / "mutant.jsonl"
    kinds: dict[str, int] = {}
    for _ in range(400):
        op, mutant = mutate(data, rng)
        log.write_bytes(mutant)
        rep = replay_file(log)  # must not raise
        physical = mutant.count(b"\n") + 2
        assert rep.identical or 1 <= rep.line <= physical, (op, rep)
        assert rep.message and "\n" not in rep.message, (op, rep)
        if rep.identical:
            assert op in ("blank", "swap", "duplicate", "byte", "value", "join") or mutant == data, op
        kinds[rep.kind] = kinds.get(rep.kind, 0) + 1
    # the mutants reach every class of report, so the run is not all stopped at the header
    assert {"malformed", "diverges", "header"} <= set(kinds), kinds


def test_the_documented_commands_regenerate_the_golden_logs_byte_for_byte(tmp_path: Path) -> None:
    text = (REPO / "docs" / "engine.md").read_text(encoding="utf-8")
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [ln for ln in block.splitlines() if ln.startswith("slipstream race")]
    targets = re.findall(r"mv \$d/race-\d+\.jsonl (tests/rulesets/automobiles/golden/[\w-]+\.jsonl)", block)
    assert sorted(targets) == sorted(f"tests/rulesets/automobiles/golden/{p.name}" for p in GOLDEN.glob("*.jsonl"))
    assert len(commands) == len(targets)
    (tmp_path / "tests" / "rulesets" / "automobiles" / "golden").mkdir(parents=True)
    bash = shutil.which("bash")
    assert bash is not None
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(tmp_path)}
    r = subprocess.run([bash, "-e", "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    for t in targets:
        assert (tmp_path / t).read_bytes() == (REPO / t).read_bytes(), t
