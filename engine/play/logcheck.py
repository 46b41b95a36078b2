"""Reading race and season logs for replay: physical line numbers, bounded JSON, header checks.

Everything a broken or hostile log can do ends in a `LogError` naming the line (1-based,
counting every physical line, blank ones too) and a one-line message; replay turns it into
a report. The limits: a line is at most MAX_LINE characters and nests at most MAX_DEPTH
brackets; a seed is an integer of at most 64 bits; NaN and infinities are not JSON here.
Every ruleset's replay checks its header with the functions here (`check_options`,
`check_seats`, `check_bots`, `find_pack`, `verify_header`) and re-runs the seats' bots
beside the replay (`SeatBots`), so an edited header never replays as identical.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from itertools import repeat
from pathlib import Path
from typing import Any

MAX_LINE = 1_000_000
MAX_DEPTH = 64
MAX_SEED = 2**63 - 1
MAX_LAPS = 1000


class LogError(Exception):
    """A log that cannot be replayed; `kind` is `malformed`, `header` or `setup`."""

    def __init__(self, line: int, message: str, kind: str = "malformed", text: str = "") -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.kind = kind
        self.text = text


# Built once: `json.dumps` / `json.loads` with options build a new encoder or decoder per call.
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _c_encoder() -> Any:
    """The C encoder `_ENCODER.encode` builds on every call, built once (None without it).

    No circular-reference markers: a log line is plain data (a cycle would be a RecursionError).
    """
    from json import encoder as je

    make: Any = vars(je).get("c_make_encoder")  # not in the typing stubs
    if make is None:
        return None
    try:
        return make(None, _ENCODER.default, je.encode_basestring, None, ":", ",", True, False, True)
    except TypeError:  # another signature: the plain encoder gives the same bytes
        return None


_C_ENCODE = _c_encoder()


def dumps(obj: dict[str, Any]) -> str:
    """One log line: sorted keys, no spaces, so equal races give equal bytes."""
    if _C_ENCODE is not None:
        return "".join(_C_ENCODE(obj, 0))
    return _ENCODER.encode(obj)


def dumps_all(objs: list[dict[str, Any]]) -> list[str]:
    """`dumps` of every object (the same lines, without a Python call per line)."""
    if _C_ENCODE is not None:
        return list(map("".join, map(_C_ENCODE, objs, repeat(0))))
    return [_ENCODER.encode(o) for o in objs]


def numbered(lines: list[str]) -> list[tuple[int, str]]:
    """The non-blank lines with their physical line numbers (blank lines count, but say nothing)."""
    return [(i, s) for i, s in enumerate(lines, start=1) if s and not s.isspace()]


def decode(data: bytes) -> list[str]:
    """The physical lines of a log file's bytes; bad UTF-8 is a LogError on its line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise LogError(line, f"line {line} is not UTF-8 (byte {data[e.start]:#04x})") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    return lines


def one_line(text: str, limit: int = 300) -> str:
    """A message folded onto one line and cut to `limit` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number here")


def _depth(text: str) -> int:
    """The deepest bracket nesting outside strings (a cheap pre-check before json.loads)."""
    depth = top = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > top:
                top = depth
                if top > MAX_DEPTH:
                    return top
        elif ch in "]}":
            depth -= 1
    return top


def parse(line: int, text: str) -> dict[str, Any]:
    """One log line as a JSON object, or a LogError naming the line."""
    if len(text) > MAX_LINE:
        raise LogError(line, f"line {line} is longer than {MAX_LINE} characters", text=text[:300])
    # a line with few opening brackets cannot nest deeply (the scan is for the others)
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise LogError(line, f"line {line} nests deeper than {MAX_DEPTH} levels", text=text[:300])
    try:
        if text.startswith("\ufeff"):  # what json.loads says of a byte-order mark
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        obj = _DECODER.decode(text)
    except json.JSONDecodeError as e:
        raise LogError(line, f"line {line} is not JSON ({e.msg} at column {e.colno})", text=text[:300]) from None
    except (ValueError, RecursionError) as e:  # e.g. an integer beyond Python's digit limit
        raise LogError(line, f"line {line} is not usable JSON ({str(e)[:120]})", text=text[:300]) from None
    if not isinstance(obj, dict):
        raise LogError(line, f"line {line} is not a JSON object but {_json_type(obj)}", text=text[:300])
    return obj


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int | float):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    return "an object"


_TYPES: dict[str, tuple[type, ...]] = {"str": (str,), "int": (int,), "dict": (dict,), "list": (list,)}


def need(obj: dict[str, Any], key: str, kind: str, line: int, what: str = "header",
         optional: bool = False) -> Any:
    """obj[key] checked to be of `kind` (str, int, dict, list; int excludes booleans)."""
    if key not in obj:
        if optional:
            return None
        raise LogError(line, f"the {what} has no {key!r}")
    v = obj[key]
    if optional and v is None:
        return None
    if not isinstance(v, _TYPES[kind]) or (kind == "int" and isinstance(v, bool)):
        raise LogError(line, f"the {what}'s {key!r} must be {_article(kind)}, not {_json_type(v)}")
    return v


def _article(kind: str) -> str:
    return {"str": "a string", "int": "an integer", "dict": "an object", "list": "a list"}[kind]


def check_seed(head: dict[str, Any], line: int) -> int:
    seed: int = need(head, "seed", "int", line)
    if abs(seed) > MAX_SEED:
        raise LogError(line, "the seed must fit in 64 bits")
    return seed


def check_laps(head: dict[str, Any], line: int, optional: bool = False) -> int | None:
    laps: int | None = need(head, "laps", "int", line, optional=optional)
    if laps is not None and not 1 <= laps <= MAX_LAPS:
        raise LogError(line, f"laps must be 1 to {MAX_LAPS}, not {laps}")
    return laps


def check_options(head: dict[str, Any], line: int, specs: Sequence[Any]) -> tuple[tuple[str, Any], ...]:
    """The header's rule options against the ruleset's option spec (engine/play/options.py):
    known names, values of the right type that this engine plays."""
    opts: dict[str, Any] = need(head, "options", "dict", line)
    table = {s.name: s for s in specs}
    for k, v in opts.items():
        spec = table.get(k)
        if spec is None:
            raise LogError(line, f"unknown rule option {k[:60]!r} in the header")
        want = {"bool": bool, "int": int, "choice": str}.get(spec.type)
        if want is not None and type(v) is not want:
            raise LogError(line, f"rule option {k} must be {want.__name__}, not {_json_type(v)}")
        if spec.type == "int" and spec.problem(v) is not None:
            raise LogError(line, f"rule option {k} must be {spec.minimum} to {spec.maximum}")
    bad = [f"{k}={v!r}"[:80] for k, v in opts.items() if table[k].problem(v) is not None]
    if bad:
        raise LogError(line, f"rule option value(s) not implemented: {', '.join(bad)[:200]}")
    return tuple(sorted(opts.items()))


def check_seats(head: dict[str, Any], line: int, low: int, high: int,
                drivers: bool = True) -> list[dict[str, Any]]:
    seats: list[Any] = need(head, "seats", "list", line)
    if not low <= len(seats) <= high:
        raise LogError(line, f"a race needs {low} to {high} seats, the header has {len(seats)}")
    for i, s in enumerate(seats, start=1):
        what = f"seat {i}"
        if not isinstance(s, dict):
            raise LogError(line, f"{what} is {_json_type(s)}, not an object")
        need(s, "name", "str", line, what)
        need(s, "bot", "str", line, what, optional=True)
        if drivers:
            need(s, "driver", "str", line, what, optional=True)
    return seats


HUMAN = "human"  # the bot of a seat a person played (its decisions are not re-run)


def check_bots(rs: Any, seats: Sequence[dict[str, Any]], line: int) -> tuple[str, ...]:
    """The bot of every seat (`human` for none), each one the ruleset `rs` knows and can make."""
    out = []
    for i, s in enumerate(seats, start=1):
        name = s.get("bot") or HUMAN
        if name != HUMAN:
            problem = bot_problem(rs, name)
            if problem:
                raise LogError(line, f"seat {i}: {problem}", "header")
        out.append(name)
    return tuple(out)


def bot_problem(rs: Any, name: str) -> str | None:
    """Why `name` (`NAME` or `NAME:SETTING`, or an external bot `cmd:...`) is not a bot of
    `rs`; None when it is."""
    from slipstream.engine.play.extbots import external_problem, is_external

    if is_external(name):
        return external_problem(rs, name)
    base = name.partition(":")[0]
    # a bot listed as NAME or as NAME:SETTING (speed-hazard's lookahead:4) is known by NAME, as
    # `--bots` takes it; make_bot then judges the setting
    if name not in rs.bots and base not in {k.partition(":")[0] for k in rs.bots}:
        return f"{rs.name} has no bot {name[:60]!r} (bots: {', '.join(sorted(rs.bots))})"
    try:
        rs.make_bot(name, 0)
    except (ValueError, TypeError, KeyError) as e:
        return one_line(str(e), 200)
    return None


class SeatBots:
    """The seats' bots, seeded as the race seeded them, re-run beside a replay: each logged
    decision of a bot seat must be the one its bot makes in that position (a person's seat,
    `human`, may take any legal option). `make(name, seed)` builds a bot."""

    def __init__(self, make: Callable[[str, int], Any], bots: Sequence[str], seed: int) -> None:
        from slipstream.engine.play.extbots import is_external
        from slipstream.engine.play.races import bot_seed

        self.names = list(bots)
        # a person's seat and an external bot's (engine/play/extbots.py) are not re-run: the
        # log's choices are the record of what they chose
        self.bots = [None if b == HUMAN or is_external(b) else make(b, bot_seed(seed, i))
                     for i, b in enumerate(bots)]

    def choice(self, game: Any) -> str | None:
        """What the bot of the deciding seat chooses now (None for a person's seat)."""
        d = game.pending
        bot = self.bots[d.player] if d is not None and 0 <= d.player < len(self.bots) else None
        return None if bot is None else str(bot.choose(game, d))

    def problem(self, seat: int, want: str | None, choice: str, line: int) -> str | None:
        """Why the logged `choice` of `seat` at `line` is not `want`, what its bot chose before
        it was applied (None when it is, or when the seat is a person's)."""
        if want is None or want == choice:
            return None
        return (f"the decision at line {line} is not what seat {seat + 1}'s bot {self.names[seat][:40]!r} "
                f"chooses ({want[:60]!r}, the log has {choice[:60]!r}): the header's bots did not play this race")


def find_pack(head: dict[str, Any], line: int, origin: Path | None = None) -> str:
    """The folder to load a log's pack from (as engine/play/registry.py's `load_pack` takes it).

    A log written to a file records its pack's folder relative to the log (`write_log`), so it
    replays from any working folder; older logs recorded it from the folder they were written
    in. The candidates, in turn: `pack_path` from the log's folder (`origin`), as given (from
    the working folder), then, for a log moved since, each ending of `pack_path` (`pack`,
    `content/pack`, ...) under each folder above the log. The first whose content digest is
    the logged one wins; else the first that loads (the header check then names the
    difference); a LogError (`setup`) when none loads.
    """
    from slipstream.engine.play.registry import load_pack

    logged: str = head["pack_path"]
    seen: set[str] = set()
    loads: str | None = None
    problem = ""
    for c in _pack_candidates(logged, origin):
        key = os.path.normpath(os.path.abspath(c)) if c else ""
        if key in seen:
            continue
        seen.add(key)
        if problem and not os.path.isfile(os.path.join(c, "pack.yaml")):
            continue  # a guess that is no pack folder: not worth its error message
        try:
            pack = load_pack(c)
        except (ValueError, RuntimeError, OSError) as e:
            problem = problem or one_line(str(e))
            continue
        if pack.digest == head.get("digest"):
            return c
        loads = loads if loads is not None else c
    if loads is not None:
        return loads
    raise LogError(line, f"cannot load the pack: {problem}", "setup")


_MAX_UP = 32  # folders above a log searched for a moved log's pack


def _pack_candidates(logged: str, origin: Path | None) -> Iterator[str]:
    if not logged:
        yield logged  # the bundled base pack
        return
    # absolute paths from the log's folder: the packs loaded are cached by the path as given
    here = Path(os.path.abspath(origin)) if origin is not None else None
    if here is not None and not Path(logged).is_absolute():
        yield os.path.normpath(here / logged)
    yield logged
    if here is None:
        return
    parts = [p for p in Path(logged).parts[1 if Path(logged).is_absolute() else 0:] if p not in ("..", ".")]
    ups = [here, *here.parents][:_MAX_UP]
    for up in ups:
        for i in range(len(parts)):
            yield os.path.join(up, *parts[i:])


def relative_pack_path(pack_path: str, folder: Path, file: bool = False) -> str:
    """`pack_path` (a folder, from the working folder; a file when `file`) as a path from
    `folder`, where a log is written; unchanged when it is "" (the bundled base pack) or not a
    folder (e.g. an id)."""
    if not pack_path or not (Path(pack_path).is_file() if file else Path(pack_path).is_dir()):
        return pack_path
    try:
        rel = os.path.relpath(os.path.abspath(pack_path), os.path.abspath(folder))
    except ValueError:  # another drive (Windows): an absolute path
        return Path(os.path.abspath(pack_path)).as_posix()
    return Path(rel).as_posix()


def _track_file(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) and Path(ref).is_file()


def relative_track_files(tracks: list[Any], folder: Path) -> list[Any]:
    """A season header's `tracks` with every track file (a .yaml path, from the working folder)
    made a path from `folder`, where the log is written, as `relative_pack_path` does for the
    pack; track ids stay as they are."""
    return [relative_pack_path(t, folder, file=True) if isinstance(t, str) and _track_file(t) else t
            for t in tracks]


def track_from_log(ref: str, pack: Any, origin: Path | None) -> str:
    """Where to read a logged season track from: a track id of `pack` as it is, a track file
    from the log's folder `origin` when it is there (how `write_log` records it), else as
    written (from the working folder, how logs recorded it before)."""
    if ref in pack.tracks or origin is None or os.path.isabs(ref):
        return ref
    there = Path(origin) / ref
    return str(there) if there.is_file() else ref


def track_digest(track: Any) -> str:
    """A digest of what the rules read from a track (not its id, name or drawing geometry)."""
    data = {"segments": track.segments, "laps": track.laps,
            "spaces": [[s.lane, s.first, s.length, s.colour] for s in track.spaces],
            "grid": [[g.lane, g.segment, g.money] for g in track.grid]}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


_NAMES = {"pack": "pack name", "digest": "pack digest", "track_digest": "track content",
          "track_digests": "track content", "options": "rule options", "season_options": "season options",
          "card_set": "card set", "laps": "laps", "seats": "seats", "track": "track", "tracks": "tracks"}


def _short(v: Any) -> str:
    if v is None:
        return "none"
    text = v if isinstance(v, str) else json.dumps(v, sort_keys=True)
    if isinstance(v, str) and len(v) == 64:
        return text[:12] + "…"  # a digest
    return text if len(text) <= 60 else text[:57] + "…"


def header_differences(logged: dict[str, Any], rebuilt: dict[str, Any]) -> list[str]:
    """What differs between a log's header and the one this pack and engine write now."""
    out = []
    for key in list(rebuilt) + [k for k in logged if k not in rebuilt]:
        a, b = logged.get(key), rebuilt.get(key)
        if key in logged and key in rebuilt and a == b and type(a) is type(b):
            continue
        name = _NAMES.get(key, f"key {key[:40]!r}")
        if key not in logged:
            out.append(f"{name} (not in the log; now {_short(b)})")
        elif key not in rebuilt:
            out.append(f"{name} (in the log, unknown now)")
        else:
            out.append(f"{name} (log {_short(a)}, now {_short(b)})")
    return out


def verify_header(line: int, text: str, logged: dict[str, Any], rebuilt: dict[str, Any]) -> None:
    """Raise a `header` LogError unless the log's header is the one written now, byte for byte."""
    diffs = header_differences(logged, rebuilt)
    if diffs:
        raise LogError(line, "header differs: " + "; ".join(diffs), "header", text[:300])
    if dumps(rebuilt) != text:
        raise LogError(line, "header differs: same values, but not written as this engine writes it "
                       "(key order or spacing)", "header", text[:300])
