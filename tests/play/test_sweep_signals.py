"""Issue 31 item 1: a sweep stopped by a signal leaves nothing in the temporary folder and
changes no file outside it; the folder of a sweep killed outright (SIGKILL) is removed by the
next sweep. Each sweep here is a real `slipstream sweep` process."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import CONTENT

from slipstream.engine.play.sweeps import make_work_folder, remove_stale_work_folders

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def snapshot(top: Path) -> dict[str, str]:
    return {p.relative_to(top).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(top.rglob("*")) if p.is_file()}


def ours(tmp: Path) -> list[str]:
    """The sweep's folders in tmp (multiprocessing's pymp-* folders are not the sweep's)."""
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith("slipstream-"))


def start(home: Path, tmp: Path, races: int, jobs: int = 1) -> subprocess.Popen[bytes]:
    env = dict(os.environ, TMPDIR=str(tmp), SLIPSTREAM_PURE="1")
    cmd = [sys.executable, "-m", "slipstream.cli.main", "sweep", "p", "--races", str(races),
           "--bots", "greedy,greedy", "--db", "s.sqlite", "--vary", "card:manager.cost=1,2",
           "--jobs", str(jobs), "--chunk", "1", "--format", "json"]
    # as a shell starts a job in the foreground: Ctrl-C's signal not ignored, even when this run
    # of the tests was started in the background (which ignores SIGINT, and children inherit it)
    return subprocess.Popen(cmd, cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_foreground)


def _foreground() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def racing(tmp: Path, proc: subprocess.Popen[bytes]) -> Path:
    """Wait until the sweep has written its variant copies and a worker copy (it is racing)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        for d in tmp.glob("slipstream-sweep-*"):
            if any(d.glob("worker-*/*/pack.yaml")):
                time.sleep(0.5)
                return d
        time.sleep(0.1)
    raise AssertionError("the sweep never started racing")


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    shutil.copytree(CONTENT / "base", home / "p")
    (home / "sentinel.yaml").write_text("x: 1\n", encoding="utf-8")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    return home, tmp


@pytest.mark.parametrize(("sig", "jobs", "code"), [
    (signal.SIGINT, 1, 130),   # Ctrl-C
    (signal.SIGTERM, 2, 128 + signal.SIGTERM),
])
def test_a_stopped_sweep_removes_its_copies_and_changes_nothing_else(world: tuple[Path, Path], sig: int,
                                                                      jobs: int, code: int):
    home, tmp = world
    before = snapshot(home)
    proc = start(home, tmp, races=400, jobs=jobs)
    racing(tmp, proc)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err.decode()[-2000:]
    assert "Traceback" not in err.decode()
    assert ours(tmp) == []
    after = snapshot(home)
    assert after.pop("s.sqlite")  # the store the user asked for, with the races done so far
    after.pop("s.sqlite-journal", None)
    assert after == before


def test_the_folder_of_a_killed_sweep_is_removed_by_the_next_one(world: tuple[Path, Path]):
    home, tmp = world
    proc = start(home, tmp, races=400)
    left = racing(tmp, proc)
    proc.kill()
    proc.wait(timeout=30)
    assert left.is_dir()  # SIGKILL cannot be caught: the copies stay behind
    (home / "s.sqlite").unlink()
    other = tmp / "slipstream-sweep-other"  # not a sweep's work folder: left alone
    other.mkdir()
    proc = start(home, tmp, races=1)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()[-2000:]
    assert not left.exists()
    assert ours(tmp) == ["slipstream-sweep-other"]


def test_only_folders_of_sweeps_that_are_gone_are_removed(tmp_path: Path):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    mine = make_work_folder(str(tmp_path))  # this process: running
    dead = tmp_path / f"slipstream-sweep-p{gone.pid}-dead"
    dead.mkdir()
    (dead / ".owner").write_text(json.dumps({"host": socket.gethostname(), "pid": gone.pid}))
    elsewhere = tmp_path / f"slipstream-sweep-p{gone.pid}-elsewhere"  # another machine's sweep
    elsewhere.mkdir()
    (elsewhere / ".owner").write_text(json.dumps({"host": "not-" + socket.gethostname(), "pid": gone.pid}))
    unowned = tmp_path / f"slipstream-sweep-p{gone.pid}-unowned"  # no .owner file: not known as a sweep's
    unowned.mkdir()
    parent = tmp_path / f"slipstream-sweep-p{os.getppid()}-parent"  # a running process
    parent.mkdir()
    (parent / ".owner").write_text(json.dumps({"host": socket.gethostname(), "pid": os.getppid()}))
    assert remove_stale_work_folders(str(tmp_path)) == [dead]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in (mine, elsewhere, unowned, parent))
