"""What the benches that compare revisions share: a revision checked out beside this one, and a
script run in a fresh process against either checkout (or an installed Slipstream).

`bench/fingerprint.py`, `bench/bots.py` and `bench/race.py` import it (bench/ is on the path of
a script run from it). Each side runs in its own process so that it imports only its own
engine: a checkout through a `shim` folder on PYTHONPATH whose `slipstream` package maps onto
the checkout's folders (no install needed, uncommitted work counts), an installed Slipstream
through its own Python from an empty folder.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent  # the checkout this bench belongs to
# Settings of the caller's shell that would make an installed side import another engine or mode.
LEAKS = ("PYTHONPATH", "SLIPSTREAM_RULESETS", "SLIPSTREAM_PURE", "VIRTUAL_ENV")


class CheckoutError(RuntimeError):
    """A revision that git cannot check out (the message is git's)."""


def shim(root: Path, into: Path) -> Path:
    """A folder whose `slipstream` package maps onto the checkout at `root` (no install)."""
    pkg = into / "slipstream"
    pkg.mkdir(parents=True)
    for part in ("engine", "schemas", "content"):
        (pkg / part).symlink_to(root / part, target_is_directory=True)
    return into


@contextmanager
def temp_dir(prefix: str) -> Iterator[Path]:
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def revision(rev: str, tmp: Path) -> Iterator[Path]:
    """The checkout of git revision `rev` of this repository in a temporary `git worktree`
    under `tmp`, removed on the way out; CheckoutError when git cannot check it out."""
    wt = tmp / "baseline"
    done = subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "-q", str(wt), rev],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise CheckoutError(done.stderr.strip())
    try:
        yield wt
    finally:
        subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(wt)], check=False,
                       capture_output=True)


def compile_checkout(root: Path, tmp: Path, python: str = sys.executable) -> str:
    """Give the checkout at `root` (a baseline's temporary worktree, never the user's own) the
    compiled accelerator its own build makes: its wheel built as `pip install` builds it (pip
    wheel, isolated, so the revision's own build requirements and flags), and the wheel's
    `slipstream/_accel/` unpacked into `root/build/accel/`, where that revision's loader looks
    in a checkout (as `python3 dev.py build` does). Returns what its manifest says; a revision
    without an accelerator, or a machine without a compiler, stays pure (the return says so)."""
    out = Path(tempfile.mkdtemp(dir=tmp, prefix="wheel-"))
    done = subprocess.run([python, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(root)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise CheckoutError(f"pip wheel of {root.name} failed:\n{(done.stdout + done.stderr)[-2000:]}")
    wheels = sorted(out.glob("*.whl"))
    if not wheels:
        raise CheckoutError(f"pip wheel of {root.name} made no wheel")
    with zipfile.ZipFile(wheels[0]) as z:
        inside = [n for n in z.namelist() if n.startswith("slipstream/_accel/")]
        if "slipstream/_accel/manifest.json" not in inside:
            return "no compiled accelerator in this revision's wheel"
        manifest = json.loads(z.read("slipstream/_accel/manifest.json"))
        if not manifest.get("modules"):
            return f"not compiled: {manifest.get('skipped', 'no modules')}"
        accel = root / "build" / "accel"
        for name in inside:
            target = accel / name[len("slipstream/_accel/"):]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(z.read(name))
    return f"{len(manifest['modules'])} modules compiled"


def run_json(script: Path, argv: Sequence[str], tmp: Path, name: str, *, root: Path | None = None,
             python: str = sys.executable, env: Mapping[str, str] | None = None) -> Any:
    """Run `script argv` in a fresh process and return what it prints as JSON: against the
    checkout at `root` (through a shim under `tmp`), or, without `root`, against whatever
    `python` imports (an installed Slipstream) from an empty folder. `env` adds settings (e.g.
    SLIPSTREAM_PURE); SystemExit naming `name` when the process fails."""
    # an install sees none of the caller's settings; a checkout keeps them (SLIPSTREAM_PURE=1
    # in the caller's shell makes both checkouts pure)
    base = {k: v for k, v in os.environ.items() if root is not None or k not in LEAKS}
    base["SLIPSTREAM_CACHE_DIR"] = tempfile.mkdtemp(dir=tmp)
    if root is not None:
        cwd = shim(root, Path(tempfile.mkdtemp(dir=tmp, prefix=f"shim-{name}-")))
        base["PYTHONPATH"] = str(cwd)
    else:
        cwd = Path(tempfile.mkdtemp(dir=tmp, prefix="empty-"))
    done = subprocess.run([python, str(script), *argv], capture_output=True, text=True,
                          env={**base, **(env or {})}, cwd=cwd)
    if done.returncode != 0:
        raise SystemExit(f"{script.name} ({name}) failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def median(values: Sequence[float]) -> float:
    return sorted(values)[len(values) // 2]
