"""The one batch runner: races, seasons and heat-map chunks in worker processes.

`Pool` keeps its worker processes between batches (a re-run in the editor starts at once),
reports progress as work finishes, can be cancelled, and returns results in the order the
work was given, so the same seeds give the same results in 1 or N processes. Workers start
with `forkserver` where it exists (they fork from a clean single-threaded server, never from
a GUI process with threads running, which can deadlock), else with `spawn`. `race`, `season`,
the editor's Test race dock and the benches all run through it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from slipstream.engine.core.collector import collector_paused

Progress = Callable[[int], None]
Cancelled = Callable[[], bool]


def context(method: str | None = None) -> Any:
    """The multiprocessing context batches use (`method` forces one, e.g. for tests)."""
    if method is not None:
        return mp.get_context(method)
    if "forkserver" in mp.get_all_start_methods() and sys.platform != "darwin" and _socket_fits():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload([__name__])
        return ctx
    return mp.get_context("spawn")


# The forkserver listens on a Unix socket in multiprocessing's temporary folder (under $TMPDIR);
# such a path holds at most 107 bytes on Linux. With a deeper $TMPDIR, batches spawn instead.
SOCKET_PATH_MAX = 107
_SOCKET_NAME = len("/listener-") + 8


def _socket_fits() -> bool:
    from multiprocessing import util

    return len(os.fsencode(util.get_temp_dir())) + _SOCKET_NAME <= SOCKET_PATH_MAX


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on every system
        return max(1, os.cpu_count() or 1)


def _call(job: tuple[Callable[[Any], Any], Any]) -> Any:
    fn, arg = job
    return fn(arg)


@dataclass(slots=True)
class Outcome:
    """What a batch gave: results in the order of the work, and whether it was cancelled."""

    results: list[Any] = field(default_factory=list)
    cancelled: bool = False


class Pool:
    """Worker processes kept between batches (`close` ends them)."""

    def __init__(self, jobs: int | None = None, start_method: str | None = None) -> None:
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.start_method = start_method
        self._pool: Any = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def warm(self, fn: Callable[[Any], Any], arg: Any) -> None:
        """Run `fn(arg)` once in every worker (e.g. load a pack into its cache)."""
        if self.jobs > 1:
            self._get().map(_call, [(fn, arg)] * self.jobs, chunksize=1)

    def _get(self) -> Any:
        if self._pool is None:
            self._pool = context(self.start_method).Pool(self.jobs)
        return self._pool

    def each(self, fn: Callable[[Any], Any], work: Sequence[Any],
             cancelled: Cancelled | None = None) -> Iterator[Any]:
        """`fn(w)` for every piece of work, in order, as they finish. When `cancelled()` turns
        true the workers are stopped (the pool starts afresh next time) and the iterator ends.
        The first piece that raises ends the batch: its exception comes out here, and the
        workers are stopped too, so that no process runs on through the rest of the work."""
        if self.jobs <= 1 or len(work) <= 1:
            for w in work:
                if cancelled is not None and cancelled():
                    return
                yield fn(w)
            return
        it = self._get().imap(_call, [(fn, w) for w in work])
        left = len(work)
        try:
            while left:
                if cancelled is not None and cancelled():
                    self.close()
                    return
                try:
                    out = it.next(timeout=0.1)
                except mp.TimeoutError:
                    continue
                left -= 1
                yield out
        except BaseException:  # a failed piece, or the caller stopped iterating (GeneratorExit)
            self.close()
            raise

    def map(self, fn: Callable[[Any], Any], items: Sequence[Any], *, chunk: int | None = None,
            progress: Progress | None = None, cancelled: Cancelled | None = None) -> Outcome:
        """`fn(item)` for every item in chunks; `progress(n)` as chunks finish."""
        if chunk is None:
            # small enough for even work and smooth progress, large enough to pay for pickling
            chunk = max(1, min(10, len(items) // (self.jobs * 8) or 1))
        chunks = [list(items[i:i + chunk]) for i in range(0, len(items), chunk)]
        out = Outcome()
        for part in self.each(_ChunkOf(fn), chunks, cancelled):
            out.results.extend(part)
            if progress:
                progress(len(part))
        out.cancelled = len(out.results) < len(items)
        return out


@dataclass(frozen=True, slots=True)
class _ChunkOf:
    """`fn` over a list (picklable when `fn` is a module-level function), each call with the
    cyclic garbage collector paused (`one_job`)."""

    fn: Callable[[Any], Any]

    def __call__(self, items: list[Any]) -> list[Any]:
        return [one_job(self.fn, x) for x in items]


def one_job(fn: Callable[[Any], Any], arg: Any) -> Any:
    """`fn(arg)` for one race or season of a batch, with the cyclic collector paused.

    A race or a season allocates a great many short-lived objects and leaves only a few
    hundred in cycles; with the collector on, those allocations set off collections that find
    almost nothing yet walk every object alive in the process (about a tenth of a season's
    time in a big process). Paused per job, not per batch, so that the cycles one job leaves
    are collected after it."""
    with collector_paused():
        return fn(arg)


def run_many(specs: Sequence[Any], jobs: int = 1, progress: Progress | None = None,
             cancelled: Cancelled | None = None, run: Callable[[Any], Any] | None = None,
             start_method: str | None = None) -> list[Any]:
    """Run races (default: `engine/play/races.run_race` on RaceSpecs) in `jobs` processes;
    results in spec order."""
    if run is None:
        from slipstream.engine.play.races import run_race

        run = run_race
    with Pool(jobs, start_method) as pool:
        return pool.map(run, specs, progress=progress, cancelled=cancelled).results


class SchedulerMissing(RuntimeError):
    """`--scheduler` was given but the `dask` extra is not installed."""


def dask_each(fn: Callable[[Any], Any], work: Sequence[Any], scheduler: str, workers: int = 2,
              ) -> Iterator[Any]:
    """`fn(w)` for every piece of work on a Dask cluster, in the order they finish.

    `scheduler` is `tcp://HOST:PORT` of a running scheduler, or `local` for a LocalCluster of
    `workers` single-threaded worker processes started here. Work and results travel by
    pickle; `fn` must be importable on the workers (the same slipstream installed there).
    """
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise SchedulerMissing("running on a Dask cluster needs the dask extra: "
                               "pip install 'slipstream[dask]'") from None
    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        futures = client.map(fn, list(work), pure=False)
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _indexed(job: tuple[int, Callable[[Any], Any], Any]) -> tuple[int, Any]:
    i, fn, arg = job
    return i, fn(arg)


def dask_map(fn: Callable[[Any], Any], work: Sequence[Any], scheduler: str, workers: int = 2) -> list[Any]:
    """`fn(w)` for every piece of work on a Dask cluster (`dask_each`), results in the order of
    the work, as `run_many` gives them: the same work gives the same list on any cluster."""
    out: list[Any] = [None] * len(work)
    for i, res in dask_each(_indexed, [(i, fn, w) for i, w in enumerate(work)], scheduler, workers):
        out[i] = res
    return out
