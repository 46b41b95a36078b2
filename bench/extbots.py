#!/usr/bin/env python3
"""What an external bot costs per decision: the same bot logic over stdin/stdout and in-process.

    .venv/bin/python bench/extbots.py [--races N] [--ruleset formula-de|speed-hazard|automobiles] [--lang python|js]

Each race seats the built-in random bot (cheap: little noise) against the example greedy-ish bot of the ruleset
(examples/bots/python, or the JavaScript one with --lang js, whose in-process twin is still
the Python logic: the same choices). Run in-process, the bot's `choose(state, act)` gets the
very `act` message the engine builds for the external one (the seat's view, options, events),
so the difference is the protocol alone: JSON both ways, the pipes, the other process's turn.
The races run on the same seeds, alternately in-process and external in the same run, and
must play the same race. The overhead per decision is (external - in-process time, the
process's start-up and shutdown left out) / the external seat's decisions, as wall-clock time
and as CPU time of the engine and the bot process together; the start-up is given apart.
Start-up and shutdown are timed in the race itself: the engine's CPU and the wall clock in
starting the bot (to its `ready`) and in ending it, and the bot process's CPU read from
/proc/PID/schedstat when it is ready and before its `end` (Linux; elsewhere the bot's start
and end are measured apart, on a bot started and ended at once, and subtracted). A race of
Formula Dé makes about 140 decisions of the seat, a start-up about 200 times the cost of one:
start-up noise measured apart moved its figure by ten microseconds or more.
On a busy machine the wall clock is mostly waiting for the scheduler to run the other
process: the bench prints the load and a bare pipe round trip.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slipstream.engine.play.extbots import ExternalBot, Pipe, RaceContext
from slipstream.engine.play.races import bot_seed, play_out, resolve_track, seats_of
from slipstream.engine.play.registry import for_pack

ROOT = Path(__file__).resolve().parent.parent
PACKS = {"formula-de": str(ROOT / "content" / "formula-de"), "speed-hazard": str(ROOT / "content" / "speed-hazard"),
         "automobiles": ""}
BOTS = {"formula-de": "fd_bot", "speed-hazard": "sh_bot", "automobiles": "automobiles_bot"}


@dataclass
class Run:
    wall: float  # seconds, the process start-up left out
    cpu: float  # the engine's CPU seconds
    bot: float  # the bot process's CPU seconds
    start: float  # seconds from starting the bot to its ready
    decisions: int
    log: list[Any]
    logic: float = 0.0  # CPU seconds of the bot's logic (in-process runs)
    exact: bool = True  # `bot` is the bot's CPU from its ready to its end (else its whole life)

    def add(self, other: Run) -> None:
        self.wall += other.wall
        self.cpu += other.cpu
        self.bot += other.bot
        self.start += other.start
        self.decisions += other.decisions
        self.logic += other.logic
        self.exact = self.exact and other.exact


class InProcess(ExternalBot):
    """The example bot's logic called directly with the act message the engine builds."""

    def __init__(self, logic: Any, *args: Any) -> None:
        super().__init__(*args)
        self.logic = logic
        self.logic_seconds = 0.0  # CPU seconds in the bot's logic
        self.state: dict[str, Any] = {}

    def finish(self, game: Any, standings: Any) -> None:
        pass

    def choose(self, game: Any, decision: Any) -> str:
        self.decisions += 1
        if not self.state:
            hello = self.hello(game)
            self.state = {"hello": hello, "rng": random.Random(hello["seed"])}
        msg = self.act(game, decision)
        t0 = time.process_time()
        index = self.logic(self.state, msg)
        self.logic_seconds += time.process_time() - t0
        return decision.options[index].key


def bot_runtime(pipe: Any) -> float | None:
    """CPU seconds the bot process has run so far (Linux: /proc/PID/schedstat), else None."""
    if not isinstance(pipe, Pipe):
        return None
    try:
        with open(f"/proc/{pipe.proc.pid}/schedstat") as f:
            return int(f.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


class Measured(ExternalBot):
    """The external bot with its start-up and shutdown timed in the race: the engine's CPU and
    the wall clock in each, and the bot process's CPU when it is ready and before its end."""

    start_cpu = end_cpu = end_wall = 0.0
    bot_ready: float | None = None
    bot_end: float | None = None

    def _start(self, game: Any) -> None:
        c0 = time.process_time()
        try:
            super()._start(game)
        finally:
            self.start_cpu = time.process_time() - c0
            self.bot_ready = bot_runtime(self.pipe)

    def finish(self, game: Any, standings: Any) -> None:
        self.bot_end = bot_runtime(self.pipe)
        c0, t0 = time.process_time(), time.perf_counter()
        super().finish(game, standings)
        self.end_cpu, self.end_wall = time.process_time() - c0, time.perf_counter() - t0


def child_cpu() -> float:
    """CPU seconds of this process's ended (and reaped) child processes so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def one_race(rs: Any, pack: Any, track: Any, seed: int, make: Any) -> Run:
    names = ["random", "cmd:bot"]
    ctx = RaceContext(rs, track, seed, [s.name for s in seats_of(names)])
    game = rs.new_game(pack, track, seats_of(names), seed, {}, None, {}, True)
    ext = make(rs, bot_seed(seed, 1), ctx)
    bots = [rs.make_bot("random", bot_seed(seed, 0)), ext]
    c0, t0, k0 = time.process_time(), time.perf_counter(), child_cpu()
    try:
        play_out(game, bots)
    finally:
        ext.finish(game, game.standings() if game.pending is None else [])
    wall, cpu, bot = time.perf_counter() - t0, time.process_time() - c0, child_cpu() - k0
    assert not ext.faults, ext.faults
    wall -= ext.start_seconds
    exact = True
    if isinstance(ext, Measured):  # the start-up and shutdown left out
        wall -= ext.end_wall
        cpu -= ext.start_cpu + ext.end_cpu
        exact = ext.bot_ready is not None and ext.bot_end is not None
        if exact:
            bot = ext.bot_end - ext.bot_ready
    return Run(wall, cpu, bot, ext.start_seconds, ext.decisions, list(game.log),
               getattr(ext, "logic_seconds", 0.0), exact)


def start_only(rs: Any, pack: Any, track: Any, cmd: str, seed: int) -> tuple[float, float]:
    """Engine and bot CPU seconds of starting the bot and ending it at once (no decision):
    the bot's start-up where /proc does not say it (`Run.exact` false)."""
    names = ["random", "cmd:bot"]
    game = rs.new_game(pack, track, seats_of(names), seed, {}, None, {}, True)
    bot = ExternalBot(cmd, rs, 1, bot_seed(seed, 1), RaceContext(rs, track, seed, [s.name for s in seats_of(names)]))
    c0, k0 = time.process_time(), child_cpu()
    bot._start(game)
    bot.finish(game, [])
    return time.process_time() - c0, child_cpu() - k0


def pipe_baseline(n: int = 2000) -> float:
    """Microseconds of a bare round trip of a line through a Python echo process, now."""
    import subprocess

    echo = "import sys\nfor l in sys.stdin.buffer:\n    sys.stdout.buffer.write(l); sys.stdout.flush()"
    p = subprocess.Popen([sys.executable, "-c", echo], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert p.stdin is not None and p.stdout is not None
    line = b'{"choose": 1}\n'
    for _ in range(100):
        p.stdin.write(line)
        p.stdout.readline()
    t0 = time.perf_counter()
    for _ in range(n):
        p.stdin.write(line)
        p.stdout.readline()
    took = (time.perf_counter() - t0) / n
    p.stdin.close()
    p.wait()
    return took * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--races", type=int, default=10)
    ap.add_argument("--ruleset", choices=sorted(PACKS), default="formula-de")
    ap.add_argument("--lang", choices=["python", "js"], default="python")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "examples" / "bots" / "python"))
    logic = importlib.import_module(BOTS[args.ruleset]).choose
    ext = "py" if args.lang == "python" else "js"
    cmd = f"cmd:{ROOT / 'examples' / 'bots' / args.lang / (BOTS[args.ruleset] + '.' + ext)}"
    rs, pack = for_pack(PACKS[args.ruleset])
    track = resolve_track(pack, sorted(pack.tracks)[0])
    inp = Run(0, 0, 0, 0, 0, [])
    out = Run(0, 0, 0, 0, 0, [])
    idle_bot = 0.0
    for seed in range(args.races):
        a = one_race(rs, pack, track, seed, lambda r, s, c: InProcess(logic, "cmd:bot", r, 1, s, c))
        b = one_race(rs, pack, track, seed, lambda r, s, c: Measured(cmd, r, 1, s, c))
        if a.log != b.log:
            print(f"seed {seed}: the external bot played another race than its in-process twin")
            return 1
        inp.add(a)
        out.add(b)
        if not b.exact:
            idle_bot += start_only(rs, pack, track, cmd, seed)[1]
    if not out.exact and idle_bot == 0.0:  # some races were exact: measure the rest alike
        print("the bot's CPU could be read for some races only; run again")
        return 1
    n = out.decisions
    wall = (out.wall - inp.wall) / n
    # CPU: the engine's extra work and the bot process's (its start-up and shutdown left out)
    engine_cpu = (out.cpu - (inp.cpu - inp.logic)) / n
    bot_cpu = (out.bot - idle_bot - inp.logic) / n  # its reading and writing, less the logic
    cpu = engine_cpu + bot_cpu
    print(f"{args.ruleset}, {args.lang} bot, {args.races} races, {n} decisions of the bot's seat (the same races both ways)")
    print(f"  in-process   {inp.wall:8.3f} s wall")
    print(f"  stdin/stdout {out.wall:8.3f} s wall, start-up and shutdown left out ({out.start:.3f} s of start-up for "
          f"{args.races} processes, {1000 * out.start / args.races:.1f} ms each)")
    print(f"  overhead per decision: {wall * 1e6:.1f} µs wall clock, {cpu * 1e6:.1f} µs CPU (engine and bot) "
          "(goal: under 100 µs)")
    print(f"    CPU: the engine's part {engine_cpu * 1e6:.1f} µs, the bot process's {bot_cpu * 1e6:.1f} µs "
          f"(its logic, {inp.logic / n * 1e6:.1f} µs a decision, left out; the bot's CPU "
          f"{'from its ready to its end' if out.exact else 'less a start and end measured apart'})")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"  this machine now: load {load:.1f} on {os.cpu_count()} CPUs, a bare pipe round trip "
          f"{pipe_baseline():.1f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
