"""`slipstream validate` draws a progress bar on stderr for many files, only for people:
text output with stderr on a terminal (a pseudo-terminal here), never in json/github output."""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import CONTENT

from slipstream.engine.packs.validate import validate_paths

TRACK = CONTENT / "base" / "tracks" / "first-oval.yaml"


def _folder(tmp_path: Path, n: int) -> Path:
    for i in range(n):
        shutil.copy(TRACK, tmp_path / f"t{i:02}.yaml")
    return tmp_path


def _validate_on_a_terminal(*args: str) -> tuple[int, str, str]:
    """Run `slipstream validate ARGS` with stderr on a pseudo-terminal: exit code, stdout, stderr."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "slipstream.cli.main", "validate", *args],
                            stdout=subprocess.PIPE, stderr=slave, env={**os.environ, "COLUMNS": "100"})
    os.close(slave)
    err = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        err += chunk
    out = proc.stdout.read().decode() if proc.stdout else ""
    code = proc.wait(60)
    os.close(master)
    return code, out, err.decode(errors="replace")


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLIPSTREAM_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def test_many_files_on_a_terminal_show_a_progress_bar_on_stderr(tmp_path: Path) -> None:
    code, out, err = _validate_on_a_terminal(str(_folder(tmp_path, 25)))
    assert code == 0, (out, err)
    assert "validating" in err and "25/25" in err
    assert "validating" not in out and "25 files" in out


@pytest.mark.parametrize("fmt", ["json", "github"])
def test_no_progress_bar_for_tools(tmp_path: Path, fmt: str) -> None:
    code, out, err = _validate_on_a_terminal(str(_folder(tmp_path, 25)), "--format", fmt)
    assert code == 0, (out, err)
    assert "validating" not in err and "/25" not in err


def test_no_progress_bar_for_a_few_files_or_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    (tmp_path / "few").mkdir()
    (tmp_path / "many").mkdir()
    code, out, err = _validate_on_a_terminal(str(_folder(tmp_path / "few", 3)))
    assert code == 0 and "3 files" in out and "validating" not in err
    many = _folder(tmp_path / "many", 25)
    piped = subprocess.run([sys.executable, "-m", "slipstream.cli.main", "validate", str(many)],
                           capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0 and "25 files" in piped.stdout
    assert piped.stderr == ""


def test_progress_counts_files_and_a_pack_as_its_files(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    pack = CONTENT / "base"
    _folder(tmp_path, 3)
    _, count = validate_paths([tmp_path, pack, tmp_path / "nowhere.yaml"], progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, count) and seen[-1] == (count, count)
    done = [d for d, _ in seen]
    assert done == sorted(done) and len(seen) == 1 + 3 + 1  # start, three files, the pack
    assert seen[-1][0] - seen[-2][0] > 1  # the pack advances by all of its files at once
