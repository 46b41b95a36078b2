"""Validate files and folders: dispatch each YAML file on its `slipstream:` format tag.

The table of file kinds lives in engine/core/filekinds.py. This module fills in what the
pack machinery knows (tracks, pack manifests and the data kinds of every ruleset's content
model) and loads every ruleset, which registers its own kinds (rule scenarios). A folder
holding `pack.yaml` is validated as a whole pack (every file, tracks included, plus the
cross-checks); a single pack data file given on its own is checked inside its pack when one
encloses it, otherwise against its schema only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slipstream.engine.core import filekinds, plugins
from slipstream.engine.core.diagnostics import Diagnostic, make, sort_key
from slipstream.engine.packs.files import MANIFEST, TESTS_DIR, YAML_SUFFIXES, walk_pack

if TYPE_CHECKING:
    from slipstream.engine.core.yamlsource import Loaded, SourceMap
    from slipstream.engine.packs.resultcache import PackValidation

# The heavy modules (PyYAML, the schema, track and pack checks) are imported where they are
# used: a cached pack validation (engine/packs/resultcache.py) needs none of them.

Checker = filekinds.Checker
_registered = [False]


def _register_all() -> None:
    """Tracks, manifests and every ruleset's pack data kinds; each ruleset's own kinds."""
    if _registered[0]:
        return
    _registered[0] = True
    from slipstream.engine.packs.loader import content_model
    from slipstream.engine.packs.trackrules import ruleset_track_checks
    from slipstream.engine.tracks.load import TRACK_VERSIONS, add_track_checks, track_checker

    add_track_checks(ruleset_track_checks)
    filekinds.register_kind("track", TRACK_VERSIONS, track_checker)
    filekinds.register_kind("pack", (1,), _manifest_checker)
    for rid in plugins.ruleset_ids():
        model = content_model(rid)
        for kind in model.data_kinds if model is not None else ():
            filekinds.register_kind(kind, (1,), _file_checker(kind))


def register_all() -> None:
    """Fill in the file kinds and the ruleset track checks (idempotent)."""
    _register_all()


def known_tags() -> list[str]:
    """Every `KIND/VERSION` the validator knows."""
    _register_all()
    return filekinds.registered_tags()


def _tag_problem(loaded: Loaded, expect: str | None = None) -> list[Diagnostic]:
    _register_all()
    data = loaded.data
    f = loaded.file
    if not isinstance(data, dict) or "slipstream" not in data:
        return [make("F003", f, 1, 1, "$", "missing `slipstream:` format tag",
                     hint=f"start the file with `slipstream: {expect or 'KIND'}/1`")]
    tag = data["slipstream"]
    kind, _, ver = str(tag).partition("/")
    pos = loaded.source.value(("slipstream",))
    if filekinds.lookup(kind, int(ver) if ver.isdigit() else None) is None:
        return [make("F003", f, pos.line, pos.column, "$.slipstream",
                     f"unknown format tag {tag!r}", hint="known tags: " + ", ".join(known_tags()))]
    if expect and kind != expect:
        return [make("F003", f, pos.line, pos.column, "$.slipstream",
                     f"expected a {expect} file, found {tag!r}")]
    return []


def validate_file(path: str | Path, *, explicit: bool = True) -> list[Diagnostic]:
    """All diagnostics of one file, dispatched on its format tag.

    A file that is not `explicit` (found in a folder, or given to `validate --skip-untagged`)
    and has no `slipstream:` tag is skipped with F002; one whose bytes never say `slipstream`
    is skipped unparsed, so another tool's YAML (a workflow, mkdocs.yml with its own tags)
    never fails the run.
    """
    from slipstream.engine.core.yamlsource import load_file

    if not explicit and not _mentions_tag(Path(path)):
        return [make("F002", str(path), 1, 1, "$", "skipped: no `slipstream:` format tag")]
    loaded = load_file(path)
    if loaded.data is None:
        return loaded.diagnostics
    data = loaded.data
    if not isinstance(data, dict) or "slipstream" not in data:
        if explicit:
            return _tag_problem(loaded)
        return [make("F002", loaded.file, 1, 1, "$", "skipped: no `slipstream:` format tag")]
    problems = _tag_problem(loaded)
    if problems:
        return problems
    root = _enclosing_pack(Path(path))
    if root is not None and Path(path).resolve().is_relative_to((root / TESTS_DIR).resolve()):
        from slipstream.engine.packs.loader import _check_scenario_file

        return _check_scenario_file(Path(path), loaded.file)  # as its pack checks it: a rule scenario
    kind, ver = filekinds.split_tag(data)
    check = filekinds.lookup(kind, ver)
    assert check is not None  # _tag_problem found it
    return sorted(check(data, loaded.source), key=sort_key)


def _mentions_tag(path: Path) -> bool:
    """Whether the file's bytes contain `slipstream` at all (unreadable: yes, so it is reported)."""
    from slipstream.engine.core.files import read_regular
    from slipstream.engine.core.yamlsource import MAX_BYTES

    try:
        return b"slipstream" in read_regular(path, MAX_BYTES + 1)
    except OSError:
        return True


def _walk(folder: Path) -> Iterable[Path]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            if name.endswith(YAML_SUFFIXES) and not name.startswith("."):
                yield Path(root) / name


def validate_pack_folder(folder: Path) -> list[Diagnostic]:
    """Every diagnostic of the pack in `folder`."""
    from slipstream.engine.packs.loader import PackLoader

    return PackLoader().load(folder)[1]


def _validate_pack(folder: Path) -> PackValidation:
    """Every diagnostic of the pack in `folder`, with the files and folders the result depends on."""
    from slipstream.engine.packs.loader import PackLoader
    from slipstream.engine.packs.resultcache import PackValidation

    loader = PackLoader()
    diags = loader.load(folder)[1]
    return PackValidation(diags, sum(1 for _ in walk_pack(folder)),  # the manifest is one of them
                          sorted(str(k) for k in loader.cache), sorted(str(s) for s in loader.scanned))


def _enclosing_pack(file: Path) -> Path | None:
    for parent in file.parents:  # as given, so diagnostics keep the user's relative paths
        if (parent / MANIFEST).is_file():
            return parent
    return None


def _file_checker(kind: str) -> Any:
    def check(data: Any, src: SourceMap) -> list[Diagnostic]:
        file = Path(src.file)
        root = _enclosing_pack(file) if file.exists() else None
        if root is None:
            from slipstream.engine.core.schema import schema_diagnostics

            return schema_diagnostics(kind, data, src)
        diags = pack_folder_result(root).diagnostics  # one pack load for many files of it
        target = file.resolve()
        return [d for d in diags if Path(d.file).resolve() == target]

    return check


def _manifest_checker(data: Any, src: SourceMap) -> list[Diagnostic]:
    file = Path(src.file)
    if file.name == MANIFEST and file.exists():
        return pack_folder_result(file.parent).diagnostics
    from slipstream.engine.core.schema import schema_diagnostics

    return schema_diagnostics("pack", data, src)




def pack_folder_result(folder: Path, use_cache: bool | None = None) -> PackValidation:
    """A whole pack folder (every file and the cross-checks), through the result cache
    (`use_cache` None: as `validate_paths` was asked, else yes)."""
    from slipstream.engine.packs.resultcache import validate_pack_cached

    return validate_pack_cached(folder, _validate_pack, use_cache)


def validate_paths(paths: Iterable[str | Path], use_cache: bool = True,
                   skip_untagged: bool = False,
                   progress: Callable[[int, int], None] | None = None) -> tuple[list[Diagnostic], int]:
    """Validate files and folders (recursively). Returns diagnostics and the number of files.

    A folder holding `pack.yaml` is validated as a whole pack; unchanged packs come from the
    result cache (engine/packs/resultcache.py) unless `use_cache` is False. With `skip_untagged`,
    files given by name are treated as files found in a folder: without a tag, skipped (F002).
    `progress(done, total)` is told the files checked so far, once before the first and after
    each file or pack (a pack counts as its files).
    """
    from slipstream.engine.packs.resultcache import using

    with using(use_cache):
        diags, count = _validate_paths(paths, skip_untagged, progress)
    # a pack's manifest reports the whole pack: given with other files of it, say each once
    return list(dict.fromkeys(diags)), count


def _work(paths: Iterable[str | Path], skip_untagged: bool, count: bool) -> list[tuple[str, Path, int]]:
    """What to check, in order: (`pack` | `file` | `named` | `missing`, path, files it holds;
    a pack's files are counted only when `count`, for a progress bar)."""
    work: list[tuple[str, Path, int]] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            packs: list[Path] = []
            for m in sorted(path.rglob(MANIFEST)):
                if any(part.startswith(".") for part in m.relative_to(path).parts):
                    continue
                work.append(("pack", m.parent, sum(1 for _ in walk_pack(m.parent)) if count else 1))
                packs.append(m.parent)
            for f in _walk(path):
                if any(h == f.parent or h in f.parents for h in packs):
                    continue
                work.append(("file", f, 1))
        elif path.exists():
            work.append(("file" if skip_untagged else "named", path, 1))
        else:
            work.append(("missing", path, 0))
    return work


def _validate_paths(paths: Iterable[str | Path], skip_untagged: bool = False,
                    progress: Callable[[int, int], None] | None = None) -> tuple[list[Diagnostic], int]:
    diags: list[Diagnostic] = []
    count = 0
    work = _work(paths, skip_untagged, progress is not None)
    total, done = sum(n for _, _, n in work), 0
    if progress is not None:
        progress(0, total)
    for what, path, n in work:
        if what == "pack":
            res = pack_folder_result(path)
            diags += res.diagnostics
            count += res.files
        elif what == "missing":
            diags.append(make("F001", str(path), 1, 1, "$", "no such file or folder"))
        else:
            count += 1
            diags += validate_file(path, explicit=what == "named")
        done += n
        if progress is not None and n:
            progress(done, total)
    return diags, count
