#!/usr/bin/env python3
"""The mutation fuzzer of tests/core/fuzzing.py at length: tracebacks, the slowest input, memory.

Runs N seeded mutants of every base file kind (tracks, pack.yaml, cubes, cards, drivers,
sponsors, card sets, rules, race and season scenarios) through validate, the editor's
documents and `slipstream test`, every step on every mutant. Prints a progress line, then
the number of mutants that raised (0 expected; their inputs are saved), the slowest mutant
with its time (saved too) against the median of the same run, and the peak resident memory.
Exit status 1 when any mutant raised.

    .venv/bin/python bench/fuzz.py [--mutants 20000] [--seed 1] [--jobs 1] [--out DIR]

The mutants are the same for any --jobs (they are made in the main process from the seed).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "core"))

from fuzzing import Outcome, Workbench, mutants  # noqa: E402

_BENCH: Workbench | None = None


def _start_worker(work: str) -> None:
    global _BENCH
    _BENCH = Workbench(Path(tempfile.mkdtemp(prefix="worker-", dir=work)))


def _run(mutant: tuple[str, str, bytes]) -> Outcome:
    assert _BENCH is not None
    return _BENCH.run(*mutant)


def _save(out: Path, name: str, o: Outcome) -> Path:
    p = out / f"{name}-{o.kind}-{Path(o.rel).name}"
    p.write_bytes(o.data)
    return p


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", type=int, default=20_000, help="how many mutants (default 20,000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the mutations")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--out", type=Path, help="folder for saved inputs (default: a new temp folder)")
    args = ap.parse_args()
    if args.mutants < 1 or args.jobs < 1:
        ap.error("--mutants and --jobs must be at least 1")
    out = args.out or Path(tempfile.mkdtemp(prefix="slipstream-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    # the validate result cache gets a folder of its own, removed with the work folder
    os.environ["SLIPSTREAM_CACHE_DIR"] = str(out / "cache")
    with tempfile.TemporaryDirectory(prefix="slipstream-fuzz-work-") as work:
        times: list[float] = []
        crashed: list[Outcome] = []
        slowest: Outcome | None = None
        start = time.perf_counter()
        if args.jobs == 1:
            _start_worker(work)
            results = map(_run, mutants(args.seed, args.mutants))
        else:
            pool = multiprocessing.get_context("spawn").Pool(args.jobs, _start_worker, (work,))
            results = pool.imap(_run, mutants(args.seed, args.mutants), chunksize=8)
        for i, o in enumerate(results, start=1):
            times.append(o.seconds)
            if o.failures:
                crashed.append(o)
                if len(crashed) <= 20:
                    _save(out, f"crash{len(crashed)}", o)
            if slowest is None or o.seconds > slowest.seconds:
                slowest = o
            if i % 100 == 0 or i == args.mutants:
                rate = (time.perf_counter() - start) / i
                print(f"\r{i:,}/{args.mutants:,} mutants, {len(crashed)} with tracebacks, "
                      f"{rate * 1000:.0f} ms each, slowest {slowest.seconds:.2f} s",
                      end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        if args.jobs > 1:
            pool.close()
            pool.join()
    assert slowest is not None
    total = time.perf_counter() - start
    # KiB on Linux; with --jobs the largest worker
    rss = [resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    peak_mb = max(rss) / 1024
    median = statistics.median(times)
    print(f"mutants: {len(times):,} (seed {args.seed}) in {total:.0f} s")
    print(f"tracebacks: {len(crashed)} mutants")
    for o in crashed[:20]:
        for step, tb in o.failures:
            print(f"  {o.kind} {o.rel} [{step}]: {tb.strip().splitlines()[-1]}")
    print(f"slowest: {slowest.seconds:.3f} s, {slowest.kind} {slowest.rel} ({len(slowest.data):,} bytes), "
          f"{slowest.seconds / median:.0f}x the median of {median * 1000:.1f} ms; "
          f"saved as {_save(out, 'slowest', slowest)}")
    print(f"peak memory (max RSS of one process): {peak_mb:.0f} MB")
    print(f"inputs saved under {out}")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
