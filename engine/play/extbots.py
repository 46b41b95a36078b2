"""External bots: programs in any language that race a seat over line-based JSON (docs/bots.md).

A seat's bot named `cmd:PROGRAM [ARGS...]` is a process this module starts when the race
needs its first decision. One JSON object per line goes each way over its stdin and stdout:

    engine -> bot   {"t": "hello", ...}   the protocol version, ruleset, seat, options, track
    bot -> engine   {"t": "ready", "name": ...}
    engine -> bot   {"t": "act", ...}     per decision: the seat's view, the decision kind,
                                          the legal options with labels, events since its last
    bot -> engine   {"choose": INDEX}
    engine -> bot   {"t": "end", ...}     the standings; the bot then exits

A bot named `http://HOST:PORT[/PATH]` gets the same messages as POSTs to `/start`, `/move`
and `/end` (`Http`), each with a `game` id, the answer in the response body.

Nothing here names a ruleset: the act message is built from the protocol's parts every ruleset
has (`Decision`, `Ruleset.view`, the race view's cars, the race log), so a ruleset needs no
code of its own for external bots.

Faults (a reply that is not JSON or not a choice, an index out of range, a reply later than
the time limit, a line longer than the line limit, a bot that exits or cannot start) never stop
the race: that decision is made by the seat's fallback, a built-in bot of the ruleset
(`fallback=NAME`, default its `random` bot) or, with `fallback=forfeit`, the first legal
option. A late, flooding or dead bot is dropped (its process ended) and the fallback makes
every later decision of the seat; a bot that sends garbage or an index out of range keeps
the seat until its `MAX_FAULTS`-th fault. Each fault is a `{"t": "bot", ...}` line of the
race log (`fault_lines`), which a replay reads past: a replay re-applies the logged choices
and needs no bot.

Settings follow the command after `;`: `cmd:bots/mine.py --fast;limit=0.5;fallback=greedy`
(`limit`: seconds per decision, `start`: seconds to `ready`, `lines`: the longest line in
bytes, `fallback`: a built-in bot or `forfeit`).
"""

from __future__ import annotations

import atexit
import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from slipstream.engine.play.decisions import Decision
    from slipstream.engine.play.protocol import Bot, Ruleset

PROTOCOL = 1
PREFIXES = ("cmd:", "http://")
# house values: what a race waits for a bot, and the longest line it reads from one
DEFAULT_LIMIT = 1.0  # seconds per decision
START_LIMIT = 10.0  # seconds from starting the process to its `ready`
DEFAULT_LINE_LIMIT = 1 << 20  # bytes
MAX_FAULTS = 3  # garbage or out-of-range replies before a bot loses its seat
FORFEIT = "forfeit"
SETTINGS = ("limit", "start", "fallback", "lines")


def is_external(name: str) -> bool:
    """Whether a seat's bot name is an external bot (`cmd:...` or `http://...`)."""
    return name.startswith(PREFIXES)


@dataclass(frozen=True, slots=True)
class ExternalSpec:
    """A parsed external bot name: the command line (`cmd:`) or the address (`http://`), and
    its settings."""

    argv: tuple[str, ...]
    url: str = ""  # http://HOST:PORT[/PATH] (then `argv` is empty)
    limit: float = DEFAULT_LIMIT
    start: float = START_LIMIT  # seconds to its `ready`
    fallback: str = ""  # "" : the ruleset's `random` bot (else its first)
    lines: int = DEFAULT_LINE_LIMIT


def parse_external(name: str) -> ExternalSpec:
    """The command or address and the settings of an external bot name; ValueError saying
    what is wrong."""
    if not is_external(name):
        raise ValueError(f"{name[:60]!r} is not an external bot (cmd:PROGRAM or http://HOST:PORT)")
    argv: tuple[str, ...] = ()
    url = ""
    if name.startswith("cmd:"):
        command, *settings = name[4:].split(";")
        try:
            argv = tuple(shlex.split(command))
        except ValueError as e:
            raise ValueError(f"cannot read the command of {name[:80]!r}: {e}") from None
        if not argv:
            raise ValueError("cmd: names no program (cmd:PROGRAM [ARGS...])")
    else:
        from urllib.parse import urlsplit

        url, *settings = name.split(";")
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as e:
            raise ValueError(f"cannot read the address {url[:80]!r}: {e}") from None
        if not parts.hostname or port is None or parts.query or parts.fragment:
            raise ValueError(f"write an HTTP bot as http://HOST:PORT[/PATH], not {url[:80]!r}")
    values: dict[str, Any] = {}
    for item in settings:
        key, eq, value = item.strip().partition("=")
        if not eq or key not in SETTINGS:
            raise ValueError(f"unknown external bot setting {item.strip()[:40]!r} "
                             f"(settings: {', '.join(k + '=' for k in SETTINGS)})")
        if key == "fallback":
            values[key] = value
            continue
        try:
            num = int(value) if key == "lines" else float(value)
        except ValueError:
            raise ValueError(f"{key}= takes a number, not {value[:20]!r}") from None
        if not (1024 <= num <= 1 << 30 if key == "lines" else 0 < num <= 3600):
            raise ValueError(f"{key}={value} is out of range")
        values[key] = num
    return ExternalSpec(argv, url, **values)


def external_problem(rs: Ruleset, name: str) -> str | None:
    """Why an external bot name cannot race a seat of `rs` (None when it can); the program is
    not started, and need not exist (a replay needs no bot)."""
    try:
        spec = parse_external(name)
    except ValueError as e:
        return str(e)
    fb = spec.fallback
    if not fb or fb == FORFEIT:
        return None
    problem = f"fallback={fb[:40]!r} is no bot of {rs.name} (bots: {', '.join(sorted(rs.bots))}, or {FORFEIT})"
    if fb not in rs.bots and fb.partition(":")[0] not in {k.partition(":")[0] for k in rs.bots}:
        return problem
    try:
        rs.make_bot(fb, 0)
    except (ValueError, TypeError, KeyError):
        return problem
    return None


def program_problem(name: str) -> str | None:
    """Why the program of a `cmd:` bot cannot be started from here (None when it can, and for
    any other name)."""
    import shutil

    if not name.startswith("cmd:"):
        return None
    argv = command_of(parse_external(name).argv)
    prog = argv[0]
    if shutil.which(prog) is None and not (os.sep in prog and os.access(prog, os.X_OK)):
        return f"cannot run {prog!r}: no such program"
    for arg in argv[1:2]:
        if arg.endswith((".py", ".js", ".mjs")) and not os.path.isfile(arg):
            return f"no bot program {arg!r}"
    return None


def command_of(argv: Sequence[str]) -> list[str]:
    """The command line that runs `argv`: a `.py` program with this Python, a `.js` one with
    `node`, anything else as it is (an executable)."""
    first = argv[0]
    if first.endswith(".py"):
        return [sys.executable, *argv]
    if first.endswith((".js", ".mjs")):
        return ["node", *argv]
    return list(argv)


# ---------------------------------------------------------------------------------------------
# What the bot is told
# ---------------------------------------------------------------------------------------------


def plain(value: Any) -> Any:
    """A dataclass tree (a track) as JSON-able values."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value if value is None or isinstance(value, str | int | float | bool) else str(value)


def track_data(track: Any) -> dict[str, Any]:
    """The track as the hello message gives it: spaces, lanes, corners, links, pit lane, grid
    (the drawing's geometry and the cell table left out: `spaces` say the same). Made once
    per track object of the process (a ladder races one track many times)."""
    held = _TRACKS.get(id(track))
    if held is not None and held[0] is track:
        return held[1]
    data = plain(track)
    for key in ("geometry", "cells", "extra"):
        data.pop(key, None)
    data["lanes"] = track.lanes
    if len(_TRACKS) >= 64:
        _TRACKS.clear()
    _TRACKS[id(track)] = (track, data)
    return data


_TRACKS: dict[int, tuple[Any, dict[str, Any]]] = {}


@dataclass(slots=True)
class RaceContext:
    """What the hello message says of the race (set up by the race runner)."""

    ruleset: Any
    track: Any
    seed: int
    names: Sequence[str]
    laps: int | None = None
    options: Mapping[str, Any] | None = None
    shared: dict[str, Shared] = field(default_factory=dict)  # bot name -> its process serving many seats


def option_values(rs: Any, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every race option of the ruleset with its value in this race (the default unless given)."""
    out = {s.name: s.default for s in rs.options if getattr(s, "scope", "race") == "race"}
    out.update(given or {})
    return plain(out)


class ProtocolFault(Exception):
    """What went wrong with a bot's reply: `code` is `garbage`, `range`, `late`, `flood`,
    `dead` or `start`; `drop` says whether the bot loses its seat at once."""

    def __init__(self, code: str, detail: str, drop: bool) -> None:
        super().__init__(detail)
        self.code, self.detail, self.drop = code, detail, drop


def _cpu_reader() -> Any:
    """Linux: the C library's `sched_getcpu` (the CPU this thread runs on now), else None."""
    if not sys.platform.startswith("linux") or not hasattr(os, "sched_setaffinity"):
        return None
    try:
        import ctypes

        getcpu = ctypes.CDLL(None, use_errno=True).sched_getcpu
        getcpu.restype, getcpu.argtypes = ctypes.c_int, []
        return getcpu if getcpu() >= 0 else None
    except (OSError, AttributeError):
        return None


_CPU_NOW: Any = None  # read once, when a bot first asks to be kept near (`Pipe.keep_near`)
_CPU_READ = False


class Pipe:
    """A running bot process and its two pipes: lines out, lines in with a deadline and a
    length limit (a longer line is never held whole).

    Kept near (`keep_near`, Linux), the process may run only on the CPU the engine runs on,
    followed when the engine moves: engine and bot take turns, never run at once, and a
    wake-up on the same CPU is a plain switch where one on another, idle, CPU costs a virtual
    machine several times the whole conversation (docs/bots.md "Speed")."""

    def __init__(self, argv: Sequence[str], line_limit: int) -> None:
        self.line_limit = line_limit
        self.buf = bytearray()
        self.near = False
        self.cpu = -1  # the CPU the process is kept on, -1 for none yet
        try:
            self.proc = subprocess.Popen(command_of(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         bufsize=0, preexec_fn=_die_with_parent if sys.platform == "linux" else None)
        except OSError as e:
            raise ProtocolFault("start", f"cannot start {argv[0][:80]!r}: {e.strerror or e}", True) from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.out, self.inp = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        os.set_blocking(self.out, False)
        os.set_blocking(self.inp, False)
        _LIVE.add(self)

    def keep_near(self) -> None:
        """From now on keep the process on the engine's CPU (where the system allows it)."""
        global _CPU_NOW, _CPU_READ
        if not _CPU_READ:
            _CPU_NOW, _CPU_READ = _cpu_reader(), True
        self.near = _CPU_NOW is not None

    def _follow(self) -> None:
        cpu = _CPU_NOW()
        if cpu != self.cpu:
            try:
                os.sched_setaffinity(self.proc.pid, {cpu})
            except (OSError, ValueError):  # not allowed, or the process has ended: left as it is
                self.near = False
                return
            self.cpu = cpu

    def send(self, line: bytes, deadline: float) -> None:
        if self.near:
            self._follow()
        view = memoryview(line)
        while view:
            try:
                n = os.write(self.out, view)
            except BlockingIOError:
                n = 0
            except (BrokenPipeError, OSError):
                raise ProtocolFault("dead", "the bot's input is closed (it has exited)", True) from None
            view = view[n:]
            if view:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [self.out], [], left)[1]:
                    raise ProtocolFault("late", "the bot does not read its input", True)

    def receive(self, deadline: float) -> bytes:
        while True:
            nl = self.buf.find(b"\n")
            if nl > self.line_limit:
                raise ProtocolFault("flood", f"a line longer than {self.line_limit} bytes", True)
            if nl >= 0:
                line = bytes(self.buf[:nl])
                del self.buf[:nl + 1]
                return line
            if len(self.buf) > self.line_limit:
                raise ProtocolFault("flood", f"a line longer than {self.line_limit} bytes", True)
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProtocolFault("late", "no reply within the time limit", True)
            try:  # kept near, the bot has mostly answered by now: no wait asked of the system
                chunk = os.read(self.inp, 1 << 16)
            except BlockingIOError:
                select.select([self.inp], [], [], left)  # then the time left is looked at again
                continue
            if not chunk:
                try:  # its output closed: it has exited or is exiting (a status the same every run)
                    code: int | None = self.proc.wait(0.2)
                except subprocess.TimeoutExpired:
                    code = None
                raise ProtocolFault("dead", "the bot exited" + (f" (status {code})" if code is not None else ""), True)
            self.buf += chunk

    def ask(self, kind: str, line: bytes, deadline: float) -> bytes:
        """Send a message and read the answer (`kind`: `start` or `move`, for HTTP's paths)."""
        self.send(line, deadline)
        return self.receive(deadline)

    def tell(self, kind: str, line: bytes, deadline: float) -> None:
        self.send(line, deadline)

    def close(self, grace: float = 0.5) -> None:
        """End the process: its input closed, a short wait, then killed."""
        _LIVE.discard(self)
        p = self.proc
        try:
            if p.stdin is not None:
                p.stdin.close()
        except OSError:
            pass
        try:
            p.wait(grace)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        if p.stdout is not None:
            p.stdout.close()


class Shared:
    """One bot process serving every seat of its command in a race (its `ready` said
    `"seats": "many"`): each of those seats' bots holds it and sends its own messages (they
    carry the seat). A fault that breaks the conversation (late, flood, dead) ends the process
    for all of them (the others' next message finds it dead); otherwise it ends when the last
    seat lets go of it."""

    def __init__(self, pipe: Pipe) -> None:
        self.pipe = pipe
        self.users = 1
        self.broken = False

    def _check(self) -> None:
        if self.broken:
            raise ProtocolFault("dead", "the bot's process (shared by several seats) has ended", True)

    def ask(self, kind: str, line: bytes, deadline: float) -> bytes:
        self._check()
        try:
            return self.pipe.ask(kind, line, deadline)
        except ProtocolFault as f:
            if f.drop:
                self.broken = True
                self.pipe.close(0.1)
            raise

    def tell(self, kind: str, line: bytes, deadline: float) -> None:
        self._check()
        self.pipe.tell(kind, line, deadline)

    def close(self, grace: float = 0.5) -> None:
        self.users -= 1
        if self.users <= 0 or self.broken:
            self.pipe.close(grace)


_LIVE: set[Pipe] = set()


def _not_json(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON")


def _make_encoder() -> Any:
    """One encoder for every line: compact, text as it is (UTF-8), and no check for cycles
    (a message is a tree built here). Where the C encoder is, it is made once and called
    directly: `JSONEncoder.encode` makes a new one, and its set of seen containers, per line,
    about a quarter of the cost of encoding a Formula Dé-style act. The text is the same either
    way (a test compares it with `json.dumps`)."""
    from json import encoder as je

    make = getattr(je, "c_make_encoder", None)  # the C accelerator (not in the module's stubs)
    if make is None:  # pragma: no cover - CPython has it
        return json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode
    enc = make(None, _not_json, je.encode_basestring, None, ":", ",", False, False, True)
    return lambda value: "".join(enc(value, 0))


_encode = _make_encoder()
_CHOICE = re.compile(rb'\{ *"choose" *: *(0|[1-9][0-9]{0,17}) *\}')  # the usual reply, read without json


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Linux: the bot gets SIGKILL when the process that started it dies, however it dies."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Http:
    """A bot behind an HTTP address: each message is a POST of one JSON object to `/start`
    (hello), `/move` (act) or `/end`, the answer the response body, on one kept-alive
    connection, each within its deadline; a body longer than the line limit is not read."""

    def __init__(self, url: str, line_limit: int) -> None:
        from http.client import HTTPConnection
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        self.base = parts.path.rstrip("/")
        self.line_limit = line_limit
        self.conn = HTTPConnection(parts.hostname or "", parts.port, timeout=START_LIMIT)

    def _post(self, kind: str, line: bytes, deadline: float, answer: bool) -> bytes:
        import http.client
        import socket

        left = deadline - time.monotonic()
        if left <= 0:
            raise ProtocolFault("late", "no time left for the request", True)
        self.conn.timeout = left
        try:
            if self.conn.sock is not None:
                self.conn.sock.settimeout(left)
            self.conn.request("POST", f"{self.base}/{kind}", body=line,
                              headers={"Content-Type": "application/json"})
            resp = self.conn.getresponse()
            body = resp.read(self.line_limit + 1)
            if len(body) > self.line_limit:
                raise ProtocolFault("flood", f"a body longer than {self.line_limit} bytes", True)
            if resp.will_close or not resp.isclosed():  # not read to its end: start afresh next time
                self.conn.close()
        except TimeoutError:
            raise ProtocolFault("late", "no reply within the time limit", True) from None
        except (ConnectionError, socket.gaierror, http.client.HTTPException, OSError) as e:
            code = "start" if kind == "start" else "dead"
            raise ProtocolFault(code, f"the bot's server: {str(e)[:120] or type(e).__name__}", True) from None
        if answer and resp.status != 200:
            raise ProtocolFault("garbage", f"HTTP status {resp.status}", False)
        return body.strip()

    def ask(self, kind: str, line: bytes, deadline: float) -> bytes:
        return self._post(kind, line, deadline, True)

    def tell(self, kind: str, line: bytes, deadline: float) -> None:
        self._post(kind, line, deadline, False)

    def close(self, grace: float = 0.5) -> None:
        self.conn.close()


def close_all() -> None:
    """End every bot process still running (at exit, and after a race that raised)."""
    for pipe in list(_LIVE):
        pipe.close(0.1)


atexit.register(close_all)


# ---------------------------------------------------------------------------------------------
# The seat's bot
# ---------------------------------------------------------------------------------------------


class ExternalBot:
    """A seat played by an external program (a `Bot`): asks it at each decision, falls back
    by the stated rule, and records every fault."""

    def __init__(self, name: str, rs: Ruleset, seat: int, seed: int, context: RaceContext | None) -> None:
        self.name, self.rs, self.seat, self.seed, self.context = name, rs, seat, seed, context
        self.spec = parse_external(name)
        fb = self.spec.fallback or ("random" if "random" in rs.bots else next(iter(rs.bots)))
        self.fallback_name = fb
        self._fallback: Bot | None = None
        self.pipe: Pipe | Http | Shared | None = None
        self.game_id = ""  # names the race to an HTTP bot (a server may play several)
        self.started = False
        self.dropped = False
        self.faults: list[dict[str, Any]] = []  # the `t: bot` lines, each with its log position
        self.garbage = 0
        self.decisions = 0
        self.seen = 0  # how much of the race log the bot has been sent
        self.bot_name = ""
        self.start_seconds = 0.0  # from starting the process to its `ready`
        secret = getattr(rs.race_view, "secret_kinds", ()) if rs.race_view is not None else ()
        self.secret = frozenset(secret)

    # -- the Bot protocol --
    def choose(self, game: Any, decision: Decision) -> str:
        self.decisions += 1
        if not self.dropped:
            try:
                if not self.started:
                    self._start(game)
                return self._ask(game, decision)
            except ProtocolFault as f:
                self._fault(game, f)
        return self._fall_back(game, decision)

    # -- the conversation --
    def _start(self, game: Any) -> None:
        self.started = True
        t0 = time.perf_counter()
        try:
            self._handshake(game)
        except ProtocolFault as f:  # a bot that does not start right does not play
            raise ProtocolFault(f.code, f.detail, True) from None
        finally:
            self.start_seconds = time.perf_counter() - t0

    def _handshake(self, game: Any) -> None:
        if self.spec.url:
            import uuid

            self.game_id = uuid.uuid4().hex
            self.pipe = Http(self.spec.url, self.spec.lines)
        else:
            shared = self.context.shared.get(self.name) if self.context is not None else None
            if shared is not None and not shared.broken:  # the process of another seat serves this one too
                shared.users += 1
                self.pipe = shared
            else:
                self.pipe = Pipe(self.spec.argv, self.spec.lines)
        deadline = time.monotonic() + self.spec.start
        reply = self._read(self.pipe.ask("start", self._line(self.hello(game)), deadline))
        if not isinstance(reply, dict) or reply.get("t") != "ready":
            raise ProtocolFault("garbage", "the first reply is not {\"t\": \"ready\"}", True)
        if isinstance(self.pipe, Pipe):
            if reply.get("cores") != "any":  # a bot that asks for every core runs where it likes
                self.pipe.keep_near()
            if reply.get("seats") == "many" and self.context is not None:
                self.pipe = self.context.shared[self.name] = Shared(self.pipe)  # the bot plays several seats
        name = reply.get("name")
        self.bot_name = name[:80] if isinstance(name, str) else ""

    def hello(self, game: Any) -> dict[str, Any]:
        c = self.context
        msg: dict[str, Any] = {"t": "hello", "protocol": PROTOCOL, "ruleset": self.rs.id,
                               "ruleset_name": self.rs.name, "seat": self.seat, "seed": self.seed,
                               "limit": self.spec.limit, "line_limit": self.spec.lines}
        if c is not None:
            msg.update(seats=len(c.names), names=list(c.names), race_seed=c.seed,
                       laps=c.laps if c.laps is not None else getattr(c.track, "laps", None),
                       options=option_values(self.rs, c.options), track=track_data(c.track))
        return msg

    def act(self, game: Any, decision: Decision) -> dict[str, Any]:
        log = game.log
        events = [e for e in log[self.seen:] if self._visible(e)]
        self.seen = len(log)
        options: list[dict[str, Any]] = [{"key": o.key, "label": o.text} for o in decision.options]
        if self.rs.bot_data is not None:  # the ruleset's structured values of the options
            for o, value in zip(options, self.rs.bot_data.option_values(game, decision), strict=False):
                o["value"] = value
        msg: dict[str, Any] = {"t": "act", "seat": self.seat, "kind": decision.kind, "text": decision.text,
                               "options": options,
                               "view": dict(self.rs.view(game, self.seat)), "round": game.rounds,
                               "events": events}
        rv = self.rs.race_view
        if rv is not None:
            cars, owners = rv.cars(game), rv.car_owners(game)
            msg["cars"] = [{"seat": s, "cell": list(c)} for s, c in zip(owners, cars, strict=False)]
        return msg

    def _visible(self, e: Mapping[str, Any]) -> bool:
        """A log entry the seat may see: not another seat's secret decision."""
        return not (e.get("t") == "decision" and e.get("kind") in self.secret and e.get("p") != self.seat)

    def _ask(self, game: Any, decision: Decision) -> str:
        assert self.pipe is not None
        deadline = time.monotonic() + self.spec.limit
        reply = self._read(self.pipe.ask("move", self._line(self.act(game, decision)), deadline))
        index = reply.get("choose") if isinstance(reply, dict) else None
        if not isinstance(index, int) or isinstance(index, bool):
            raise ProtocolFault("garbage", "the reply is not {\"choose\": INDEX}", False)
        if not 0 <= index < len(decision.options):
            raise ProtocolFault("range", f"index {index} is not one of the {len(decision.options)} options", False)
        return decision.options[index].key

    @staticmethod
    def _read(raw: bytes) -> Any:
        m = _CHOICE.fullmatch(raw)
        if m is not None:  # {"choose": INDEX}, as json.loads reads it
            return {"choose": int(m.group(1))}
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            raise ProtocolFault("garbage", f"the reply is not JSON: {raw[:60]!r}", False) from None

    def _line(self, msg: dict[str, Any]) -> bytes:
        if self.game_id:
            msg["game"] = self.game_id
        return (_encode(msg) + "\n").encode()

    # -- faults --
    def _fault(self, game: Any, f: ProtocolFault) -> None:
        self.garbage += not f.drop
        drop = f.drop or self.garbage >= MAX_FAULTS
        entry = {"t": "bot", "p": self.seat, "fault": f.code, "detail": f.detail[:200],
                 "decision": self.decisions, "fallback": self.fallback_name}
        if drop:
            entry["dropped"] = True
            self.dropped = True
            if self.pipe is not None:
                self.pipe.close(0.1)
                self.pipe = None
        self.faults.append({**entry, "_at": len(game.log)})

    def _fall_back(self, game: Any, decision: Decision) -> str:
        if self.fallback_name == FORFEIT:
            return decision.options[0].key
        if self._fallback is None:
            self._fallback = self.rs.make_bot(self.fallback_name, self.seed)
        return self._fallback.choose(game, decision)

    def finish(self, game: Any, standings: Sequence[int]) -> None:
        """Tell the bot the race is over (`end`), then end its process."""
        if self.pipe is None:
            return
        pipe, self.pipe = self.pipe, None
        names = list(self.context.names) if self.context is not None else []
        msg = {"t": "end", "seat": self.seat, "standings": list(standings),
               "place": list(standings).index(self.seat) + 1 if self.seat in standings else None,
               "names": names, "rounds": game.rounds if game is not None else 0}
        try:
            pipe.tell("end", self._line(msg), time.monotonic() + self.spec.limit)
        except ProtocolFault:
            pass
        pipe.close(self.spec.limit)


def seat_bot(rs: Ruleset, name: str, seat: int, seed: int, context: RaceContext | None = None) -> Any:
    """The bot of one seat: the ruleset's own, or an `ExternalBot` for an external name."""
    return ExternalBot(name, rs, seat, seed, context) if is_external(name) else rs.make_bot(name, seed)


def make_bots(rs: Ruleset, names: Sequence[str], seeds: Sequence[int], context: RaceContext | None = None) -> list[Any]:
    """The seats' bots of a race (`seeds`: each seat's bot seed): the ruleset's own, or an
    `ExternalBot` for a `cmd:` seat."""
    return [ExternalBot(b, rs, i, seeds[i], context) if is_external(b) else rs.make_bot(b, seeds[i])
            for i, b in enumerate(names)]


def finish_bots(bots: Sequence[Any], game: Any) -> None:
    """End the external bots of a race (after it ended, or on an exception: then without `end`)."""
    standings: list[int] = []
    if game is not None and game.pending is None:
        standings = list(game.standings())
    for b in bots:
        if isinstance(b, ExternalBot):
            if standings or game is None or game.pending is None:
                b.finish(game, standings)
            elif b.pipe is not None:
                b.pipe.close(0.1)
                b.pipe = None


def fault_lines(bots: Sequence[Any]) -> list[tuple[int, dict[str, Any]]]:
    """(race log position, `t: bot` line) of every fault of the race's external bots."""
    out = [(f["_at"], {k: v for k, v in f.items() if k != "_at"})
           for b in bots if isinstance(b, ExternalBot) for f in b.faults]
    out.sort(key=lambda x: x[0])
    return out


def with_faults(log: list[dict[str, Any]], faults: Sequence[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The race log with each fault line put where it happened (before the decision it made)."""
    if not faults:
        return log
    out: list[dict[str, Any]] = []
    k = 0
    for i, e in enumerate(log):
        while k < len(faults) and faults[k][0] <= i:
            out.append(faults[k][1])
            k += 1
        out.append(e)
    out.extend(f for _, f in faults[k:])
    return out
