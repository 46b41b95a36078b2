"""Validate files and folders: dispatch each YAML file on its `slipstream:` format tag.

Other modules register further file kinds (packs, cards, scenarios) with `register_kind`.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .diagnostics import Diagnostic, make, sort_key
from .packfiles import MANIFEST, YAML_SUFFIXES

if TYPE_CHECKING:
    from .resultcache import PackValidation
    from .track import Track
    from .yamlsource import Loaded, SourceMap

# The heavy modules (PyYAML, the schema, track and pack checks) are imported where they are
# used: a cached pack validation (engine/resultcache.py) needs none of them.

# kind name -> (supported versions, checker(data, source) -> diagnostics)
Checker = Callable[[Any, "SourceMap"], list[Diagnostic]]
_KINDS: dict[str, tuple[tuple[int, ...], Checker]] = {}


def register_kind(kind: str, versions: tuple[int, ...], checker: Checker) -> None:
    """Make `slipstream: KIND/VERSION` files known to the validator."""
    _KINDS[kind] = (versions, checker)


def _register_all() -> None:
    """The pack file kinds register themselves when engine/packvalidate.py is imported."""
    from . import packvalidate  # noqa: F401


def known_tags() -> list[str]:
    _register_all()
    return sorted(f"{k}/{v}" for k, (vs, _) in _KINDS.items() for v in vs)


@dataclass(slots=True)
class TrackResult:
    track: Track | None
    loaded: Loaded
    diagnostics: list[Diagnostic]


def check_track_data(data: Any, src: SourceMap) -> tuple[Track | None, list[Diagnostic]]:
    """Schema, layout and geometry checks of one track document."""
    # The checks allocate many small objects that all stay alive; pausing the cyclic garbage
    # collector keeps big tracks linear instead of rescanning them again and again.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _check_track_data(data, src)
    finally:
        if enabled:
            gc.enable()


def _check_track_data(data: Any, src: SourceMap) -> tuple[Track | None, list[Diagnostic]]:
    from .schema import schema_diagnostics
    from .track import parse_track
    from .trackcheck import check_track

    diags = schema_diagnostics("track", data, src)
    if diags:
        # The model needs schema-valid data; layout token errors are still worth reporting.
        if isinstance(data, dict) and isinstance(data.get("layout"), list) and all(
            isinstance(x, str) for x in data["layout"]
        ):
            _, more = parse_track({"layout": data["layout"]}, src)
            diags += [d for d in more if d.code == "T101"]
        return None, diags
    track, more = parse_track(data, src)
    diags += more
    if track is not None:
        diags += check_track(track, data, src)
    return track, diags


def _track_checker(data: Any, src: SourceMap) -> list[Diagnostic]:
    return check_track_data(data, src)[1]


register_kind("track", (1,), _track_checker)


def load_track(path: str | Path) -> TrackResult:
    """Load and check a track file; the track is None when it has errors that stop the model."""
    from .yamlsource import load_file

    loaded = load_file(path)
    if loaded.data is None:
        return TrackResult(None, loaded, loaded.diagnostics)
    tag_diags = _tag_problem(loaded, expect="track")
    if tag_diags:
        return TrackResult(None, loaded, tag_diags)
    track, diags = check_track_data(loaded.data, loaded.source)
    return TrackResult(track, loaded, sorted(diags, key=sort_key))


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
    if kind not in _KINDS or not ver.isdigit() or int(ver) not in _KINDS[kind][0]:
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
    from .yamlsource import load_file

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
    kind = str(data["slipstream"]).partition("/")[0]
    return sorted(_KINDS[kind][1](data, loaded.source), key=sort_key)


def _mentions_tag(path: Path) -> bool:
    """Whether the file's bytes contain `slipstream` at all (unreadable: yes, so it is reported)."""
    from .yamlsource import MAX_BYTES

    try:
        with path.open("rb") as fh:
            return b"slipstream" in fh.read(MAX_BYTES + 1)
    except OSError:
        return True


def _walk(folder: Path) -> Iterable[Path]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            if name.endswith(YAML_SUFFIXES) and not name.startswith("."):
                yield Path(root) / name


def _validate_pack(folder: Path) -> PackValidation:
    from .packvalidate import validate_pack

    return validate_pack(folder)


def pack_folder_result(folder: Path, use_cache: bool | None = None) -> PackValidation:
    """A whole pack folder (every file and the cross-checks), through the result cache
    (`use_cache` None: as `validate_paths` was asked, else yes)."""
    from .resultcache import validate_pack_cached

    return validate_pack_cached(folder, _validate_pack, use_cache)


def validate_paths(paths: Iterable[str | Path], use_cache: bool = True,
                   skip_untagged: bool = False) -> tuple[list[Diagnostic], int]:
    """Validate files and folders (recursively). Returns diagnostics and the number of files.

    A folder holding `pack.yaml` is validated as a whole pack; unchanged packs come from the
    result cache (engine/resultcache.py) unless `use_cache` is False. With `skip_untagged`,
    files given by name are treated as files found in a folder: without a tag, skipped (F002).
    """
    from .resultcache import using

    with using(use_cache):
        diags, count = _validate_paths(paths, skip_untagged)
    # a pack's manifest reports the whole pack: given with other files of it, say each once
    return list(dict.fromkeys(diags)), count


def _validate_paths(paths: Iterable[str | Path], skip_untagged: bool = False) -> tuple[list[Diagnostic], int]:
    diags: list[Diagnostic] = []
    count = 0
    for p in paths:
        path = Path(p)
        if path.is_dir():
            packs: list[Path] = []
            for m in sorted(path.rglob(MANIFEST)):
                if any(part.startswith(".") for part in m.relative_to(path).parts):
                    continue
                res = pack_folder_result(m.parent)
                diags += res.diagnostics
                count += res.files
                packs.append(m.parent)
            for f in _walk(path):
                if any(h == f.parent or h in f.parents for h in packs):
                    continue
                count += 1
                diags += validate_file(f, explicit=False)
        elif path.exists():
            count += 1
            diags += validate_file(path, explicit=not skip_untagged)
        else:
            diags.append(make("F001", str(path), 1, 1, "$", "no such file or folder"))
    return diags, count


# Rule scenarios (engine/scenarios.py, engine/seasonscenarios.py): a lone scenario file is
# checked against its schema only (its references need the pack), so the kinds are registered
# here without importing the game engine, which would cost a tenth of a second at start-up.
def _schema_only(kind: str) -> Checker:
    def check(data: Any, src: SourceMap) -> list[Diagnostic]:
        from .schema import schema_diagnostics

        return schema_diagnostics(kind, data, src)

    return check


register_kind("scenario", (1,), _schema_only("scenario"))
register_kind("season-scenario", (1,), _schema_only("season-scenario"))
