#!/usr/bin/env python3
"""The mutation fuzzer of tests/core/fuzzing.py at length: tracebacks, the slowest input, memory.

Runs N seeded mutants of every file kind of the three bundled packs (Automobiles: tracks,
pack.yaml, cubes, cards, drivers, sponsors, card sets, rules, race and season scenarios;
Formula Dé: pack.yaml, gears, wear, its track/2 track, fd-scenarios; speed-hazard: pack.yaml,
actions, car, equipment, hazards, nitrous, its track/2 track, sh-scenarios) and of the loose
track/2 files through validate, the editor's documents, `slipstream test` and a short race
(when the mutant pack validates clean), every step on every mutant; then L mutants of a race
log of each ruleset and of a Formula Dé season log (header and body) through replay. Prints a
progress line, then the number of mutants that raised (0 expected; their inputs are saved),
the slowest mutant with its time (saved too) against the median of the same run, and the
peak resident memory. Exit status 1 when any mutant raised.

    .venv/bin/python bench/fuzz.py [--mutants 20000] [--logs 2000] [--seed 1] [--jobs 1] [--out DIR]
                                   [--kinds KIND,KIND,...] [--skip N]

The mutants are the same for any --jobs (they are made in the main process from the seed);
`--skip N` starts at file mutant N + 1 of that sequence (to resume a run that was stopped).
Ctrl-C (SIGINT) or SIGTERM ends the phase running (file or log mutants) early; the summary
then covers the mutants done and says the run was stopped.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import resource
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "core"))

from fuzzing import KINDS, Outcome, Workbench, log_mutants, mutants, race_logs, run_log  # noqa: E402

_BENCH: Workbench | None = None
_LOGS: dict[str, list[str]] = {}
_WORK = ""


def _start_worker(work: str) -> None:
    global _BENCH, _WORK
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process stops the run
    _WORK = tempfile.mkdtemp(prefix="worker-", dir=work)
    _BENCH = Workbench(Path(_WORK))


def _run(mutant: tuple[str, str, bytes]) -> Outcome:
    assert _BENCH is not None
    return _BENCH.run(*mutant)


def _run_log(mutant: tuple[str, str, bytes]) -> Outcome:
    global _LOGS
    if not _LOGS:
        _LOGS = race_logs()
    name, op, data = mutant
    return run_log(Path(_WORK), name, op, data, _LOGS[name])


def _save(out: Path, name: str, o: Outcome) -> Path:
    p = out / f"{name}-{o.kind.replace(':', '-')}-{Path(o.rel).name}"
    p.write_bytes(o.data)
    return p


class Stopped(Exception):
    """SIGTERM: stop as Ctrl-C does."""


def _stop(signum: int, frame: object) -> None:
    raise Stopped


def _drive(label: str, results: object, total: int, crashed: list[Outcome], out: Path,
           times: list[float], slowest: list[Outcome]) -> bool:
    """Take the outcomes as they come; False when stopped by Ctrl-C or SIGTERM."""
    try:
        _take(label, results, total, crashed, out, times, slowest)
    except (KeyboardInterrupt, Stopped):
        print(f"\n{label}: stopped after {len(times):,} of {total:,}", file=sys.stderr)
        return False
    return True


def _take(label: str, results: object, total: int, crashed: list[Outcome], out: Path,
          times: list[float], slowest: list[Outcome]) -> None:
    start = time.perf_counter()
    for i, o in enumerate(results, start=1):  # type: ignore[call-overload]
        times.append(o.seconds)
        if o.failures:
            crashed.append(o)
            if len(crashed) <= 40:
                _save(out, f"crash{len(crashed)}", o)
        if not slowest or o.seconds > slowest[0].seconds:
            slowest[:] = [o]
        if i % 100 == 0 or i == total:
            rate = (time.perf_counter() - start) / i
            print(f"\r{label}: {i:,}/{total:,}, {len(crashed)} with tracebacks so far, "
                  f"{rate * 1000:.0f} ms each, slowest {slowest[0].seconds:.2f} s",
                  end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", type=int, default=20_000, help="how many file mutants (default 20,000)")
    ap.add_argument("--logs", type=int, default=None, help="how many log mutants (default: a tenth of --mutants)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the mutations")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--kinds", default="", help="only these file kinds, comma-separated (default: all)")
    ap.add_argument("--out", type=Path, help="folder for saved inputs (default: a new temp folder)")
    ap.add_argument("--skip", type=int, default=0, help="start after this many file mutants (to resume a run)")
    args = ap.parse_args()
    logs = args.mutants // 10 if args.logs is None else args.logs
    kinds = [k for k in args.kinds.split(",") if k] or None
    if args.mutants < 0 or logs < 0 or args.jobs < 1 or (args.mutants == 0 and logs == 0):
        ap.error("--mutants and --logs must be at least 0 (one of them more), --jobs at least 1")
    if not 0 <= args.skip <= args.mutants:
        ap.error("--skip must be 0 to --mutants")
    if kinds and set(kinds) - set(KINDS):
        ap.error(f"unknown kinds {sorted(set(kinds) - set(KINDS))}; kinds: {', '.join(KINDS)}")
    out = args.out or Path(tempfile.mkdtemp(prefix="slipstream-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    # the validate result cache gets a folder of its own, removed with the work folder
    os.environ["SLIPSTREAM_CACHE_DIR"] = str(out / "cache")
    crashed: list[Outcome] = []
    times: list[float] = []
    slowest: list[Outcome] = []
    log_times: list[float] = []
    log_slowest: list[Outcome] = []
    start = time.perf_counter()
    finished = True
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # also when started in the background
    with tempfile.TemporaryDirectory(prefix="slipstream-fuzz-work-") as work:
        # one pool per phase, ended (not drained) when the phase is stopped
        phases = []
        if args.mutants > args.skip:
            phases.append(("file mutants", _run, itertools.islice(mutants(args.seed, args.mutants, kinds=kinds),
                                                                  args.skip, None),
                           args.mutants - args.skip, times, slowest))
        if logs:
            phases.append(("log mutants", _run_log, None, logs, log_times, log_slowest))
        for label, fn, items, count, ts, worst in phases:
            if items is None:
                items = log_mutants(args.seed, logs, race_logs())
            pool = None
            if args.jobs == 1:
                _start_worker(work)
                signal.signal(signal.SIGINT, signal.default_int_handler)  # this process is the worker
                results = map(fn, items)
            else:
                pool = multiprocessing.get_context("spawn").Pool(args.jobs, _start_worker, (work,))
                results = pool.imap(fn, items, chunksize=8)
            try:
                finished = _drive(label, results, count, crashed, out, ts, worst) and finished
            finally:
                if pool is not None:
                    pool.terminate()
                    pool.join()
    total = time.perf_counter() - start
    # KiB on Linux; with --jobs the largest worker
    rss = [resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    peak_mb = max(rss) / 1024
    skipped = f", after the first {args.skip:,} skipped" if args.skip else ""
    print(f"file mutants: {len(times):,}{skipped}, log mutants: {len(log_times):,} (seed {args.seed}) "
          f"in {total:.0f} s" + ("" if finished else " (stopped early: the counts are what was done)"))
    print(f"tracebacks: {len(crashed)} mutants")
    for o in crashed[:40]:
        for step, tb in o.failures:
            print(f"  {o.kind} {o.rel} [{step}]: {tb.strip().splitlines()[-1]}")
    for label, ts, worst in (("file", times, slowest), ("log", log_times, log_slowest)):
        if ts:
            median = statistics.median(ts)
            w = worst[0]
            print(f"slowest {label} mutant: {w.seconds:.3f} s ({w.cpu:.3f} s CPU), {w.kind} {w.rel} "
                  f"({len(w.data):,} bytes), {w.seconds / median:.0f}x the median of {median * 1000:.1f} ms; "
                  f"saved as {_save(out, 'slowest', w)}")
    print(f"peak memory (max RSS of one process): {peak_mb:.0f} MB")
    print(f"inputs saved under {out}")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
