"""Bounded resources (issue 31, item 4): what a user asks for never takes the machine.

`--jobs` is capped at the CPUs this process may use (with a note) unless the work goes to a
named Dask scheduler; a FIFO, a device or another file that is not a regular file is refused
at once wherever a file is read (opening a FIFO would wait for a writer forever); a track of
two million spaces is refused at once by the documented limit (T117) instead of taking ten
seconds and a gigabyte.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.core.limits import MAX_CELLS, MAX_SEGMENTS
from slipstream.engine.packs.validate import validate_paths

ROOT = Path(__file__).resolve().parents[2]
SLIPSTREAM = [sys.executable, "-m", "slipstream.cli.main"]


# ------------------------------------------------------------------------------------ --jobs
@pytest.mark.parametrize("args", [
    ["race", "--races", "2", "--laps", "1", "--bots", "random,random"],
    ["race", str(ROOT / "content" / "formula-de"), "--races", "2", "--laps", "1", "--bots", "random,random"],
    ["ladder", "--races", "1", "--bots", "random,greedy", "--laps", "1"],
])
def test_jobs_beyond_the_cpus_are_capped_with_a_note(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    monkeypatch.setattr("slipstream.engine.play.batch.usable_cpus", lambda: 2)
    seen: list[int] = []
    import slipstream.engine.play.batch as batch

    real = batch.Pool.__init__

    def spy(self, jobs=None, start_method=None):  # the processes a batch really starts
        seen.append(jobs)
        real(self, jobs, start_method)

    monkeypatch.setattr(batch.Pool, "__init__", spy)
    r = CliRunner().invoke(main, [*args, "--jobs", "100000", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert "note: --jobs 100000 is more than the 2 CPU(s) here; running 2" in r.stderr
    assert seen and max(seen) <= 2


def test_a_named_remote_scheduler_keeps_jobs_as_given() -> None:
    from slipstream.cli.race import cap_jobs

    assert cap_jobs(10_000, "tcp://10.0.0.1:8786") == 10_000
    assert cap_jobs(1) == 1


def test_jobs_within_the_cpus_say_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("slipstream.engine.play.batch.usable_cpus", lambda: 2)
    r = CliRunner().invoke(main, ["race", "--races", "2", "--laps", "1", "--bots", "random,random",
                                  "--jobs", "2", "--format", "json"])
    assert r.exit_code == 0 and "note:" not in r.stderr


# --------------------------------------------------------------------- files that never end
fifo_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SLIPSTREAM_CACHE_DIR": str(cwd / "cache")}
    # before the fix each of these waited for a writer until the timeout
    return subprocess.run([*SLIPSTREAM, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


@fifo_only
def test_validating_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "track.yaml")
    r = _run("validate", "track.yaml", cwd=tmp_path)
    assert r.returncode == 1
    assert "track.yaml:1:1: error F004 cannot read: not a regular file but a FIFO (named pipe)" in r.stdout


@fifo_only
@pytest.mark.parametrize("command", [["validate", "pack"], ["validate", "--no-cache", "pack"],
                                     ["race", "pack", "--laps", "1"], ["test", "pack"]])
def test_a_fifo_inside_a_pack_is_refused_at_once(tmp_path: Path, command: list[str]) -> None:
    import shutil

    shutil.copytree(ROOT / "content" / "formula-de", tmp_path / "pack", ignore=shutil.ignore_patterns("tests"))
    os.mkfifo(tmp_path / "pack" / "extra.yaml")
    r = _run(*command, cwd=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    out = r.stdout + r.stderr
    assert "extra.yaml:1" in out and "F004 cannot read: not a regular file but a FIFO" in out


@fifo_only
def test_replaying_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "race.jsonl")
    r = _run("replay", "race.jsonl", cwd=tmp_path)
    assert (r.returncode, r.stderr.strip()) == (2, "race.jsonl: not a regular file")
    from slipstream.engine.core.files import NotRegularFile
    from slipstream.engine.play.racelog import replay_file

    with pytest.raises(NotRegularFile):  # the library says so at once too (an OSError)
        replay_file(tmp_path / "race.jsonl")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_not_read_as_a_file() -> None:
    diags, _ = validate_paths([Path("/dev/zero")], use_cache=False)
    assert [(d.code, d.message) for d in diags] == [("F004", "cannot read: not a regular file but a character device")]


@fifo_only
def test_the_pack_editor_opens_a_pack_with_a_fifo_in_it(tmp_path: Path) -> None:
    import shutil

    from slipstream.engine.editing.packdoc import PackDocument

    shutil.copytree(ROOT / "content" / "speed-hazard", tmp_path / "pack", ignore=shutil.ignore_patterns("tests"))
    os.mkfifo(tmp_path / "pack" / "extra.yaml")
    doc = PackDocument.open(tmp_path / "pack")
    try:
        assert "extra.yaml" not in {f.rel for f in doc.state.files}
        assert doc.reload_file(tmp_path / "pack" / "extra.yaml") is None
    finally:
        doc.close()


# ------------------------------------------------------------------------- very large tracks
def _track(tmp_path: Path, lanes: int, tokens: list[str]) -> Path:
    layout = "\n".join('  - "' + " ".join(tokens) + '"' for _ in range(lanes))
    p = tmp_path / "big.yaml"
    p.write_text(f"slipstream: track/1\nid: big\nname: Big\nlaps: 1\nlanes: {lanes}\nlayout:\n{layout}\n"
                 "grid:\n  - {lane: 0, segment: 0, money: 10}\n", encoding="utf-8")
    return p


def test_a_two_million_space_track_is_refused_at_once(tmp_path: Path) -> None:
    path = _track(tmp_path, 2, ["3"] * 1_000_000)
    tracemalloc.start()
    t0 = time.process_time()
    try:
        diags, _ = validate_paths([path], use_cache=False)
        seconds = time.process_time() - t0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [(d.code, d.path) for d in diags] == [("T117", "$.layout[0]"), ("T117", "$.layout[1]")]
    assert f"more than {MAX_SEGMENTS:,} segments" in diags[0].message
    # before the limit: about 11 s of CPU and 970 MB; the 4 MB file itself is read and parsed
    assert seconds < 4.0, seconds
    assert peak < 300 * 2**20, peak


def test_long_spaces_count_their_segments(tmp_path: Path) -> None:
    diags, _ = validate_paths([_track(tmp_path, 1, ["3x9999999"] * 3)], use_cache=False)
    assert [d.code for d in diags] == ["T117"]


def test_the_cells_of_all_lanes_are_limited_too(tmp_path: Path) -> None:
    per_lane = MAX_CELLS // 4 + 1  # within a lane's limit, over the track's with 4 lanes
    diags, _ = validate_paths([_track(tmp_path, 4, [f"3x{per_lane}"])], use_cache=False)
    assert [(d.code, d.path) for d in diags] == [("T117", "$.layout")]
    assert f"{4 * per_lane:,} cells; a track has at most {MAX_CELLS:,}" in diags[0].message


def test_a_track_at_the_limits_is_checked(tmp_path: Path) -> None:
    diags, _ = validate_paths([_track(tmp_path, 2, [f"3x{MAX_SEGMENTS // 10}"] * 10)], use_cache=False)
    assert "T117" not in {d.code for d in diags}
    assert not [d for d in diags if d.is_error]
