"""The optional compiled accelerator: a mypyc build of a few hot engine modules, used only
while it was built from exactly the sources on disk.

A wheel (and so `pip install .`) compiles the modules of the list in
build_support/slipstream_accel.py with mypyc into the package as `slipstream/_accel/`, when the
machine has a C compiler and `SLIPSTREAM_PURE` is not set at install time; in a checkout,
`python3 dev.py build` compiles the same modules the same way into `build/accel/`. Either
folder holds a manifest with the sha256 of every source it compiled (or, for an install that
compiled nothing, why not). When `slipstream.engine` is imported, `install()` reads the
installed manifest, else the checkout's, and, only if the build is for this interpreter and
every listed source still has the digest it was built from, puts a finder in front of the
import system that loads those modules from the build. Otherwise (nothing compiled, an edited
source, another Python, or `SLIPSTREAM_PURE=1` in the environment) nothing changes and the
`.py` files are imported as always. The pure-Python modules stay the reference: the compiled
ones are the same source, and tests/core/test_accel.py plays seeded races both ways and
compares the logs byte for byte (docs/engine.md "Speed").
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

FORMAT = "accel/1"
PURE_ENV = "SLIPSTREAM_PURE"  # set (to anything but "" or "0") to import the .py files only
ENGINE = Path(__file__).resolve().parent.parent  # the engine folder (of an install or a checkout)
INSTALLED = ENGINE.parent / "_accel"  # slipstream/_accel/ of an installed wheel
BUILD = ENGINE.parent / "build" / "accel"  # build/accel/ of a checkout (python3 dev.py build)


def python_tag() -> str:
    """What a build must have been made for: the interpreter's cache tag and extension suffix."""
    return f"{sys.implementation.cache_tag} {importlib.machinery.EXTENSION_SUFFIXES[0]}"


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(frozen=True)
class Status:
    """Whether the accelerator is in use: `on`, `off` (SLIPSTREAM_PURE), `absent` (never built),
    `stale` (a source changed since the build, or another Python) or `broken` (an unreadable
    manifest); `detail` says why in words, `modules` the module names served compiled."""

    state: str
    detail: str
    modules: tuple[str, ...] = ()

    def line(self) -> str:
        """One line for reports, `compiled accelerator: on (22 modules: automobiles 9, ...;
        compiled at install)` (the count by package, and where the build comes from), or why
        not."""
        if self.state == "on":
            by: dict[str, int] = {}
            for m in self.modules:
                pkg = m.rpartition(".")[0].rpartition(".")[2]
                by[pkg] = by.get(pkg, 0) + 1
            n = len(self.modules)
            return f"compiled accelerator: on ({n} module{'s' * (n != 1)}: " \
                   f"{', '.join(f'{k} {n}' for k, n in sorted(by.items()))}" \
                   f"{'; ' * bool(self.detail)}{self.detail})"
        return f"compiled accelerator: {self.state} ({self.detail}); pure Python"


_status = Status("absent", "not installed yet")


class _Loader(importlib.machinery.ExtensionFileLoader):
    """Loads the library at `path` for a spec whose origin is the module's source file."""

    finder: _Finder

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        real = importlib.machinery.ModuleSpec(spec.name, self, origin=self.path)
        return super().create_module(real)

    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        # this module and the ones of the build it imported natively (without the finder)
        # name their library as their file: name their source, as their tracebacks do
        for name, src in self.finder.sources.items():
            m = sys.modules.get(name)
            if m is not None and getattr(m, "__file__", None) != str(src):
                m.__file__ = str(src)
                m.__spec__ = self.finder.spec(name)


class _Finder(importlib.abc.MetaPathFinder):
    """Serves the compiled modules of one build (and the shared library they load). A compiled
    module's spec origin and `__file__` are its source file (what its frames in a traceback
    name, and what tools that read a module's source read); its loader's `path` is the library
    it was loaded from."""

    def __init__(self, files: dict[str, Path], sources: dict[str, Path]) -> None:
        self.files = files
        self.sources = sources

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        return self.spec(fullname) if fullname in self.files else None

    def spec(self, name: str) -> importlib.machinery.ModuleSpec | None:
        f = self.files[name]
        loader = _Loader(name, str(f))
        loader.finder = self
        return importlib.util.spec_from_file_location(name, self.sources.get(name, f), loader=loader)


def _where() -> Path:
    """The build to use: the installed one, else the checkout's."""
    return INSTALLED if (INSTALLED / "manifest.json").is_file() else BUILD


def read(build: Path | None = None, engine: Path = ENGINE) -> tuple[Status, dict[str, Path], dict[str, Path]]:
    """The status of the build in `build` (by default the installed one, else the checkout's)
    for the sources in `engine`, the files to serve (empty unless the status is `on`) and the
    source file of each compiled module."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return Status("off", f"{PURE_ENV} is set"), {}, {}
    build = _where() if build is None else build
    # what to do about a stale build, and where an `on` build comes from
    redo, origin = {INSTALLED: ("reinstall Slipstream", "compiled at install"),
                    BUILD: ("python3 dev.py build", "build/accel/ of this checkout")}.get(build, ("rebuild", ""))
    manifest = build / "manifest.json"
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        if (ENGINE.parent / "dev.py").is_file():
            return Status("absent", "not built: python3 dev.py build"), {}, {}
        return Status("absent", "this install has no compiled modules"), {}, {}
    except (OSError, ValueError) as e:
        return Status("broken", f"unreadable {manifest.name}: {e}"), {}, {}
    try:
        if isinstance(data, dict) and data.get("skipped") and not data.get("modules"):
            return Status("absent", f"not compiled at install: {data['skipped']}"), {}, {}
        if data["format"] != FORMAT:
            return Status("stale", f"a build of format {data['format']!r}, not {FORMAT}"), {}, {}
        if data["python"] != python_tag():
            return Status("stale", f"built for {data['python']}, this is {python_tag()}"), {}, {}
        files = {str(data["group"]): build / str(data["group_file"])}
        sources: dict[str, Path] = {}
        for name, m in data["modules"].items():
            rel = Path(str(m["source"]))
            src = engine.joinpath(*rel.parts[1:])  # "engine/rulesets/..." below this engine folder
            if not src.is_file() or source_digest(src) != m["sha256"]:
                return Status("stale", f"{rel.as_posix()} changed since the build: {redo}"), {}, {}
            files[str(name)] = build / str(m["file"])
            sources[str(name)] = src
    except (KeyError, TypeError, AttributeError) as e:
        return Status("broken", f"{manifest.name} lacks {e}"), {}, {}
    missing = [f.name for f in files.values() if not f.is_file()]
    if missing:
        return Status("broken", f"missing {', '.join(missing)}"), {}, {}
    names = tuple(sorted(n for n in data["modules"]))
    return Status("on", origin, names), files, sources


def install() -> Status:
    """Serve the compiled modules when the build is current (once per process; see above)."""
    global _status
    if _status.state == "on":
        return _status
    _status, files, sources = read()
    if files:
        already = [n for n in files if n in sys.modules]
        if already:  # imported before the finder: serving the rest compiled would mix the two
            _status = Status("off", f"{already[0]} was imported before the accelerator")
        else:
            sys.meta_path.insert(0, _Finder(files, sources))
    return _status


def status() -> Status:
    """Whether the accelerator is in use in this process (`install` ran when slipstream.engine
    was imported)."""
    return _status
