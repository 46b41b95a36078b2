"""Hooks packs into `slipstream validate`: pack folders and the pack file kinds.

A folder holding `pack.yaml` is validated as a whole pack (every file, tracks included, plus
the cross-checks). A single pack data file given on its own is checked inside its pack when
one encloses it, otherwise against its schema only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.core.resultcache import PackValidation
from slipstream.engine.core.schema import schema_diagnostics
from slipstream.engine.core.yamlsource import SourceMap
from slipstream.engine.packs.files import walk_pack
from slipstream.engine.packs.loader import DATA_KINDS, MANIFEST, PackLoader
from slipstream.engine.packs.validate import pack_folder_result, register_kind


def validate_pack_folder(folder: Path) -> list[Diagnostic]:
    """Every diagnostic of the pack in `folder`."""
    return PackLoader().load(folder)[1]


def validate_pack(folder: Path) -> PackValidation:
    """Every diagnostic of the pack in `folder`, with the files and folders the result depends on."""
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
            return schema_diagnostics(kind, data, src)
        diags = pack_folder_result(root).diagnostics  # one pack load for many files of it
        target = file.resolve()
        return [d for d in diags if Path(d.file).resolve() == target]

    return check


def _manifest_checker(data: Any, src: SourceMap) -> list[Diagnostic]:
    file = Path(src.file)
    if file.name == MANIFEST and file.exists():
        return pack_folder_result(file.parent).diagnostics
    return schema_diagnostics("pack", data, src)


register_kind("pack", (1,), _manifest_checker)
for _kind in DATA_KINDS:
    register_kind(_kind, (1,), _file_checker(_kind))
