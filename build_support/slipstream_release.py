"""Building the sdist and the wheel as a release would, from the files of a checkout.

`build_release` copies the files a release is made of (`release_files`: the top-level files,
build_support/ and the folders pyproject.toml maps into the package, as far as git has them or
would add them) to a temporary folder and runs `python -m build` there: the sdist first, then the wheel from the
unpacked sdist, each in its own isolated environment, so nothing of the checkout's build/ or
egg-info leaks in and the wheel holds only what the sdist carried. The wheel compiles the
accelerator when the machine can (slipstream_accel.py). The result goes to one folder with
`key.json`: a digest of every copied file, the Python and the pure switch, so a later caller
reuses a build of exactly the same files instead of compiling again (dev.py builds one into
build/dist/; tests/install/ uses it when it is current, else builds its own).

Standard library only (dev.py imports it with whatever Python runs dev.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import slipstream_accel

KEY = "key.json"
# folders of a checkout that are never part of a release (caches, builds, environments)
SKIP_DIRS = {".git", ".venv", "build", "dist", "out", "__pycache__", ".pytest_cache",
             ".mypy_cache", ".ruff_cache", ".hypothesis", ".import_linter_cache"}


def source_files(root: Path) -> list[str]:
    """Every file of the checkout at `root` that git has or would add (tracked, and new files
    that are not ignored); without git, every file outside caches and build folders."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=root, capture_output=True, check=True).stdout.decode()
        return sorted(f for f in set(out.split("\0")) if f and (root / f).is_file())
    except (OSError, subprocess.CalledProcessError):
        found = []
        for here, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info"))
            found += [(Path(here) / f).relative_to(root).as_posix() for f in files
                      if not f.endswith((".pyc", ".so", ".pyd"))]
        return sorted(found)


def package_dirs(root: Path) -> dict[str, str]:
    """Package name -> folder, as pyproject.toml maps them ([tool.setuptools.package-dir])."""
    import tomllib  # Python 3.11+ (dev.py says so itself on an older one)

    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(config["tool"]["setuptools"]["package-dir"])


def release_files(root: Path) -> list[str]:
    """The files a release is built from: the top-level files, build_support/ and the mapped
    package folders (tests, docs and benches are not, so editing them needs no new build)."""
    tops = {*package_dirs(root).values(), "build_support"}
    return [f for f in source_files(root) if "/" not in f or f.split("/", 1)[0] in tops]


def tree_key(root: Path, files: list[str], python: str | Path, env: dict[str, str]) -> dict[str, object]:
    """What a release build depends on: every file's bytes, the Python, the pure switch."""
    h = hashlib.sha256()
    for rel in files:
        h.update(rel.encode() + b"\0" + hashlib.sha256((root / rel).read_bytes()).digest())
    return {"tree": h.hexdigest(), "python": slipstream_accel.python_tag(python),
            "pure": env.get(slipstream_accel.PURE_ENV, "") not in ("", "0")}


def current(out: Path, key: dict[str, object]) -> tuple[Path, Path] | None:
    """The sdist and wheel in `out` if they were built from the tree of `key`, else None."""
    try:
        if json.loads((out / KEY).read_text(encoding="utf-8")) != key:
            return None
    except (OSError, ValueError):
        return None
    wheels, sdists = sorted(out.glob("slipstream-*.whl")), sorted(out.glob("slipstream-*.tar.gz"))
    return (sdists[0], wheels[0]) if len(wheels) == 1 and len(sdists) == 1 else None


def build_release(root: Path, out: Path, python: str | Path, log: Callable[[str], None] = print,
                  env: dict[str, str] | None = None,
                  reuse: Path | None = None) -> tuple[Path, Path]:
    """Build the sdist and the wheel of the checkout at `root` with `python` (which has the
    `build` package) and the environment `env` into `out` (replaced), unless `out`, or else
    `reuse`, already holds those of the same files. Returns (sdist, wheel); raises RuntimeError
    with the build's output when it fails."""
    env = dict(os.environ) if env is None else env
    files = release_files(root)
    key = tree_key(root, files, python, env)
    for folder in (out, reuse):
        done = current(folder, key) if folder is not None else None
        if done:
            return done
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-release-"))
    try:
        src = tmp / "src"
        for rel in files:
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / rel, src / rel)
        log(f"building the sdist and the wheel of {len(files)} files (python -m build) ...")
        built = subprocess.run([str(python), "-m", "build", "--outdir", str(tmp / "out"), str(src)],
                               cwd=tmp, capture_output=True, text=True, env=env)
        text = built.stdout + built.stderr
        if built.returncode != 0:
            raise RuntimeError(f"python -m build failed:\n{text[-6000:]}")
        for line in text.splitlines():
            if line.startswith(("compiled accelerator:", "NOTICE:")):
                log(line)
        shutil.rmtree(out, ignore_errors=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(tmp / "out"), out)
        (out / "build.log").write_text(text, encoding="utf-8")
        (out / KEY).write_text(json.dumps(key, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done = current(out, key)
    assert done is not None
    return done
