"""Import circuits from other tools' files as track/2 documents (docs/import.md).

`import_text(fmt, text, file, ruleset)` reads one file of a known format (`FORMATS`) into a
`SourceGraph` (one module per format) and lays it out (`build.build_track`). Every problem of
the source is a diagnostic with the file's line or JSON path (codes I001-I009); nothing raises.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

from slipstream.engine.tracks.imports import gponline, heat, ttsfd
from slipstream.engine.tracks.imports.build import Imported, build_track
from slipstream.engine.tracks.imports.source import Problems, SourceGraph


@dataclass(frozen=True, slots=True)
class Format:
    id: str
    title: str
    ruleset: str  # the ruleset its circuits race in, unless the user names another
    read: Callable[[str, str, Problems], SourceGraph]


FORMATS: dict[str, Format] = {f.id: f for f in (
    Format("gp-online", "GP Online / formulad .dat", "formula-de", gponline.read),
    Format("tts-fd", "Tabletop Simulator Formula D track JSON", "formula-de", ttsfd.read),
    Format("heat", "BGA Heat custom circuit JSON", "speed-hazard", heat.read),
)}


def guess_format(file: str, text: str) -> str | None:
    """The format of a file from its name and its first bytes, or None."""
    suffix = PurePath(file).suffix.lower()
    if suffix == ".dat":
        return "gp-online"
    if suffix == ".heat":
        return "heat"
    head = text.lstrip()[:200000]
    if head.startswith("{"):
        if '"cells"' in head:
            return "heat"
        if '"spaces"' in head:
            return "tts-fd"
        return None
    first = head.splitlines()[0].split() if head else []
    if len(first) >= 2 and first[1].lstrip("-").isdigit():
        return "gp-online"
    return None


def import_text(fmt: str, text: str, file: str, ruleset: str | None = None) -> Imported:
    """Read `text` (the content of `file`) in format `fmt` and build its track/2 document."""
    f = FORMATS[fmt]
    problems = Problems(file)
    graph = f.read(text, file, problems)
    result = build_track(graph, ruleset or f.ruleset, problems)
    result.report.insert(0, f"format: {f.id} ({f.title}); ruleset: {ruleset or f.ruleset}")
    return result


__all__ = ["FORMATS", "Format", "Imported", "guess_format", "import_text"]
