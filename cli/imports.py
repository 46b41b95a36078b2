"""`slipstream import`: bring a circuit from another tool's file in as a track/2 file."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from slipstream.engine.core import diagnostics as dg


@click.command("import")
@click.argument("args", nargs=-1, metavar="[FORMAT] FILE")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), required=True,
              help="The track/2 file to write.")
@click.option("--ruleset", metavar="ID",
              help="The ruleset the track is for (default: the ruleset of the FORMAT's game, as "
                   "the import report and docs/import.md say).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: the import report and any diagnostics; json: both as one JSON object.")
def import_cmd(args: tuple[str, ...], output: Path, ruleset: str | None, fmt: str) -> None:
    """Import a circuit of GP Online (`gp-online`, .dat), Tabletop Simulator Formula D
    (`tts-fd`, JSON) or BGA Heat (`heat`, .json/.heat) as a track/2 file.

    FORMAT is guessed from FILE when left out. The command prints what it inferred (lanes,
    corners with their stops or speed limits, pit lane and boxes, grid, links, what was left
    out), writes OUTPUT only when the file could be read, and then validates OUTPUT.
    Exit status: 0 clean (warnings allowed), 1 errors, 2 usage error. See docs/import.md.
    """
    from slipstream.engine.core.files import ReadOnlyFile, atomic_write_text
    from slipstream.engine.core.yamlsource import decode
    from slipstream.engine.play.registry import ids
    from slipstream.engine.tracks.imports import FORMATS, guess_format, import_text
    from slipstream.engine.tracks.writer import dump_track

    if len(args) not in (1, 2):
        raise click.UsageError("give FILE, or FORMAT and FILE (formats: " + ", ".join(FORMATS) + ")")
    fmt_id, file = (None, args[0]) if len(args) == 1 else args
    if fmt_id is not None and fmt_id not in FORMATS:
        raise click.BadParameter(f"{fmt_id!r} is not a format this tool imports; use one of: {', '.join(FORMATS)}",
                                 param_hint="FORMAT")
    if ruleset is not None and ruleset not in ids():
        raise click.BadParameter(f"no ruleset {ruleset!r} is installed (installed: {', '.join(ids())})",
                                 param_hint="--ruleset")
    path = Path(file)
    if not path.exists():
        sys.exit(_finish([dg.make("F001", file, 1, 1, "$", "file not found")], [], fmt))
    try:
        raw = path.read_bytes()
    except OSError as e:
        sys.exit(_finish([dg.make("F004", file, 1, 1, "$", f"cannot read: {e.strerror or e}")], [], fmt))
    text, problems = decode(raw, file)
    if text is None:
        sys.exit(_finish(problems, [], fmt))
    if fmt_id is None:
        fmt_id = guess_format(file, text)
        if fmt_id is None:
            raise click.UsageError(f"cannot tell the format of {file}; name it: "
                                   f"slipstream import {{{','.join(FORMATS)}}} {file} -o {output}")
    result = import_text(fmt_id, text, file, ruleset)
    if result.data is None:
        sys.exit(_finish(result.diagnostics, result.report, fmt, None))
    _set_backdrop(result, path, output)
    header = f"# Imported from {path.name} ({fmt_id}) by `slipstream import`; compare it with the board.\n"
    try:
        atomic_write_text(output, dump_track(result.data, header))
    except OSError as e:
        click.echo(str(e) if isinstance(e, ReadOnlyFile) else f"cannot write {output}: {e.strerror or e}", err=True)
        sys.exit(1)
    from slipstream.engine.packs.validate import validate_paths

    checked, _ = validate_paths([output], use_cache=False)
    sys.exit(_finish(result.diagnostics + checked, result.report, fmt, output))


def _set_backdrop(result: Any, source: Path, output: Path) -> None:
    """Point the track's backdrop at the board image the source names, when that image lies
    beside the source file (the source's pixel coordinates are the track's drawing coordinates)."""
    from slipstream.engine.tracks.backdrop import set_backdrop

    name = result.image
    if not name:
        return
    if "://" in name:
        result.report.append(f"backdrop: none (the board image is a web address: {name})")
        return
    image = source.parent / name
    if not image.is_file():
        result.report.append(f"backdrop: none ({name} is not beside {source.name})")
        return
    rel = Path(os.path.relpath(image.resolve(), output.resolve().parent)).as_posix()
    result.data = set_backdrop(result.data, {"image": rel})
    result.report.append(f"backdrop: {rel} (the board image, at the file's pixel coordinates)")


def _finish(diags: list[dg.Diagnostic], report: list[str], fmt: str, output: Path | None = None) -> int:
    """Print the report and the diagnostics; the exit status (1 when any is an error)."""
    diags = sorted(diags, key=dg.sort_key)
    errors = sum(d.is_error for d in diags)
    if fmt == "json":
        click.echo(json.dumps({"output": str(output) if output else None, "report": report,
                               "diagnostics": [d.to_dict() for d in diags]}, indent=2, ensure_ascii=False))
        return 1 if errors else 0
    for line in report:
        click.echo(f"  {line}")
    text = dg.format_text(diags)
    if text:
        click.echo(text)
    warnings = len(diags) - errors
    counts = f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
    if output is not None:
        click.echo(f"{'ok' if not errors else 'FAILED'}: wrote {output}, {counts}", err=bool(errors))
    else:
        click.echo(f"FAILED: nothing written, {counts}", err=True)
    return 1 if errors else 0
