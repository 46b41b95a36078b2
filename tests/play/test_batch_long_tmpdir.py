"""Worker processes start under a long $TMPDIR too: the forkserver's AF_UNIX socket lives in
the temporary folder and its path may not pass ~104 bytes ('AF_UNIX path too long'), so the
batch runner starts its workers with spawn there (found by a sweep under pytest-xdist)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from slipstream.engine.play.batch import Pool, context


def square(n: int) -> int:
    return n * n


def test_a_long_temporary_folder_still_runs_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    long = tmp_path / ("t" * max(1, 90 - len(str(tmp_path))))
    long.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(long))
    with Pool(2) as pool:
        assert list(pool.each(square, [1, 2, 3])) == [1, 4, 9]
    assert context().get_start_method() == "spawn"
