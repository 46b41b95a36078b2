"""A batch stops at its first failure: the exception comes out of the pool, and the worker
processes stop too, so that none runs on through the rest of the work (engine/play/batch.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from slipstream.engine.play.batch import Pool


def _work(item: tuple[str, int]) -> int:
    """Piece 0 fails at once; every other piece takes a while and leaves a mark in `folder`."""
    folder, i = item
    if i == 0:
        raise KeyError(0)
    time.sleep(0.15)
    (Path(folder) / f"{i}.done").write_text("", encoding="utf-8")
    return i


def test_the_first_failed_piece_ends_the_batch_and_its_workers(tmp_path):
    pool = Pool(2)
    try:
        with pytest.raises(KeyError):
            pool.map(_work, [(str(tmp_path), i) for i in range(40)], chunk=1)
        assert pool._pool is None  # the workers were ended with the failure
        ran = len(list(tmp_path.glob("*.done")))
        time.sleep(1.0)  # long enough for several more pieces, had the workers run on
        assert len(list(tmp_path.glob("*.done"))) == ran < 10
        # the pool starts afresh for the next batch
        assert pool.map(_work, [(str(tmp_path), i) for i in (1, 2, 3)], chunk=1).results == [1, 2, 3]
    finally:
        pool.close()


def test_a_batch_without_failures_keeps_its_workers(tmp_path):
    with Pool(2) as pool:
        assert pool.map(_work, [(str(tmp_path), i) for i in (1, 2, 3, 4)], chunk=1).results == [1, 2, 3, 4]
        assert pool._pool is not None  # kept for the next batch


def test_a_deep_temporary_folder_still_runs_a_batch_in_processes(tmp_path):
    """The forkserver's socket would not fit in a deep $TMPDIR (a Unix socket path holds 107
    bytes): the batch spawns its workers instead of failing with "AF_UNIX path too long"."""
    import os
    import subprocess
    import sys

    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    code = ("from slipstream.engine.play.batch import Pool, context\n"
            "with Pool(2) as pool:\n"
            "    print(context().get_start_method(), pool.map(abs, [-1, -2, -3], chunk=1).results)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TMPDIR": str(deep)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(None, 1) == ["spawn", "[1, 2, 3]\n"]
