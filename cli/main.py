"""The `slipstream` command line: a thin face over the engine."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import click

from slipstream.engine.core import accel
from slipstream.engine.core import diagnostics as dg

FORMATS = ["text", "json", "github"]

# Commands defined in other modules, imported only when they run (or when --help lists them),
# so that `slipstream validate` does not pay for the race and season code at start-up.
LAZY_COMMANDS = {
    "race": "slipstream.cli.race:race",
    "replay": "slipstream.cli.race:replay",
    "test": "slipstream.cli.race:test_cmd",
    "season": "slipstream.cli.season:season",
    "cards": "slipstream.cli.packs:cards",
    "new": "slipstream.cli.packs:new",
    "rulesets": "slipstream.cli.race:rulesets",
    "sweep": "slipstream.cli.sweep:sweep",
    "ladder": "slipstream.cli.ladder:ladder",
    "import": "slipstream.cli.imports:import_cmd",
    "compare": "slipstream.cli.compare:compare",
}


class LazyGroup(click.Group):
    """A click group whose LAZY_COMMANDS are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS and cmd_name not in self.commands:
            module, _, attr = LAZY_COMMANDS[cmd_name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attr), cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a save refused because its file is read-only is a message, exit 1."""
        from slipstream.engine.core.files import ReadOnlyFile

        try:
            return super().invoke(ctx)
        except ReadOnlyFile as e:
            click.echo(str(e), err=True)
            ctx.exit(1)


def _emit(diags: list[dg.Diagnostic], fmt: str, files: int | None = None) -> int:
    diags = sorted(diags, key=dg.sort_key)
    text = dg.FORMATTERS[fmt](diags)
    if text:
        click.echo(text)
    errors = sum(d.is_error for d in diags)
    warnings = len(diags) - errors
    if fmt == "text":
        what = f"{files} file{'s' if files != 1 else ''}" if files is not None else "input"
        status = "ok" if not errors else "FAILED"
        click.echo(f"{status}: {what} checked, {errors} error{'s' * (errors != 1)}, "
                   f"{warnings} warning{'s' * (warnings != 1)}", err=bool(errors))
    return 1 if errors else 0


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="slipstream",
                      message=f"%(prog)s, version %(version)s\n{accel.status().line()}")
def main() -> None:
    """Slipstream: tracks, content packs and test races for racing board games.

    Validate tracks and packs, draw tracks, and (with the gui extra) edit them.
    Every problem is reported as FILE:LINE:COL: SEVERITY CODE message; the codes are
    listed by `slipstream codes` and in docs/diagnostics.md.
    """


def _bundled_or_path(path: Path) -> Path:
    """A path as given, or the folder of the bundled pack it names (`base`) when no such path exists."""
    if path.exists() or len(path.parts) != 1:
        return path
    from slipstream.engine.packs.loader import bundled_packs

    return bundled_packs().get(str(path), path)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text for people, json for tools, github for workflow annotations.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1).")
@click.option("--no-cache", is_flag=True,
              help="Check every pack file again instead of reusing the result of an unchanged pack.")
@click.option("--skip-untagged", is_flag=True,
              help="Skip YAML files given by name that have no `slipstream:` tag (warning F002, even "
                   "with --strict), as files found in folders are; for hooks that pass every changed "
                   "YAML file, such as pre-commit's.")
def validate(paths: tuple[Path, ...], fmt: str, strict: bool, no_cache: bool, skip_untagged: bool) -> None:
    """Check track files, pack folders and whole folders (recursively).

    A folder holding pack.yaml is checked as a whole pack; the id of a bundled pack (`base`)
    names that pack. The result of a pack whose files (and the packs it extends) have not
    changed since the last run is reused from the cache folder ($SLIPSTREAM_CACHE_DIR, else
    $XDG_CACHE_HOME/slipstream, else ~/.cache/slipstream); --no-cache checks it afresh.

    Exit status: 0 clean (warnings allowed), 1 errors found, 2 usage error.
    """
    from slipstream.engine.packs.validate import validate_paths

    paths = tuple(_bundled_or_path(p) for p in paths)
    with ExitStack() as stack:
        diags, count = validate_paths(paths, use_cache=not no_cache, skip_untagged=skip_untagged,
                                      progress=_validate_progress(stack) if _shows_progress(fmt) else None)
    if strict:
        diags = [dg.Diagnostic(d.code, "error", d.file, d.line, d.column, d.path, d.message, d.hint, d.spaces)
                 if not (skip_untagged and d.code == "F002") else d for d in diags]
    sys.exit(_emit(diags, fmt, count))


PROGRESS_FROM = 20  # files: fewer are checked before a bar would be worth drawing


def _shows_progress(fmt: str) -> bool:
    """A progress bar only for people: text output with stderr on a terminal."""
    return fmt == "text" and sys.stderr.isatty()


def _validate_progress(stack: ExitStack) -> Callable[[int, int], None]:
    """A `progress(done, total)` that draws a bar on stderr once there are many files; the
    bar is closed with `stack`, before the report is printed."""
    bar: list[Any] = []

    def progress(done: int, total: int) -> None:
        if not bar:
            if total < PROGRESS_FROM:
                return
            bar.append(stack.enter_context(click.progressbar(length=total, label="validating",
                                                             file=sys.stderr, show_pos=True)))
        bar[0].update(done - bar[0].pos)

    return progress


@main.command()
@click.argument("track", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True,
              help="Output file: .svg (always), .png or .pdf (the printable PDF; both need the gui extra).")
@click.option("--highlight", multiple=True, metavar="SPACE",
              help="Mark a space by name (lane:segment); repeatable.")
@click.option("--width", type=int, default=1600, show_default=True, help="Width of a PNG in pixels.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Format of any diagnostics.")
@click.option("--backdrop", "with_backdrop", is_flag=True,
              help="Draw the track's backdrop image under it (SVG only; the SVG refers to the image file).")
def render(track: Path, output: Path, highlight: tuple[str, ...], width: int, fmt: str,
           with_backdrop: bool = False) -> None:
    """Draw a track as SVG, PNG or PDF: spaces in gear colours, finish line and grid.

    The suffix of OUTPUT picks the format; PNG and PDF (the editor's printable PDF, tiled over
    A4 pages at 30 mm a lane) need the gui extra, and without it are a usage error (exit 2).
    """
    from slipstream.engine.core.files import ReadOnlyFile, atomic_write_text
    from slipstream.engine.tracks.load import load_track
    from slipstream.engine.tracks.render import track_svg

    res = load_track(track)
    if res.track is None:
        sys.exit(_emit(res.diagnostics, fmt) or 1)
    suffix = output.suffix.lower()
    if suffix not in (".svg", ".png", ".pdf"):
        raise click.UsageError(f"{output.name}: write .svg, .png or .pdf (the suffix picks the format)")
    if with_backdrop and suffix != ".svg":
        raise click.UsageError("--backdrop draws into SVG only (write .svg)")
    underlay = _backdrop_svg(res.loaded.data, track, output) if with_backdrop else ""
    try:
        if suffix == ".svg":
            atomic_write_text(output, track_svg(res.track, highlight=highlight, underlay=underlay))
        else:
            _write_picture(track, output, suffix, width, highlight)
    except OSError as e:
        click.echo(str(e) if isinstance(e, ReadOnlyFile) else f"cannot write {output}: {e.strerror or e}", err=True)
        sys.exit(1)
    errors = [d for d in res.diagnostics if d.is_error]
    click.echo(f"wrote {output} ({res.track.name}: {len(res.track.spaces)} spaces"
               f"{', ' + str(len(errors)) + ' errors' if errors else ''})")


def _backdrop_svg(data: Any, track: Path, output: Path) -> str:
    """The SVG <image> of the track's backdrop, referring to the image from OUTPUT's folder;
    a missing backdrop or image is a note on stderr and draws nothing."""
    import os

    from slipstream.engine.tracks.backdrop import backdrop_of, image_size, svg_image

    b = backdrop_of(data)
    if b is None:
        click.echo("note: the track has no backdrop", err=True)
        return ""
    image = b.path(track)
    size = image_size(image)
    if size is None:
        click.echo(f"note: backdrop image {image} is missing or not a PNG, JPEG or GIF; drawn without it", err=True)
        return ""
    href = Path(os.path.relpath(image.resolve(), output.resolve().parent)).as_posix()
    return svg_image(b, href, size)


def _gui_missing() -> bool:
    from importlib.util import find_spec

    try:
        return find_spec("PySide6") is None
    except (ImportError, ValueError):
        return True


def _write_picture(track: Path, output: Path, suffix: str, width: int, highlight: tuple[str, ...]) -> None:
    """A PNG, or the printable PDF of the editor (tiled at 30 mm a lane), drawn by the editor's
    export in a process of its own (the command line never imports the editor)."""
    import subprocess
    import tempfile

    if _gui_missing():
        raise click.UsageError(f"{suffix[1:].upper()} output needs the gui extra: pip install 'slipstream[gui]' "
                               "(or write .svg)")
    from slipstream.engine.core.files import atomic_write_bytes, save_target

    save_target(output).parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        pic = Path(tmp) / f"picture{suffix}"
        cmd = [sys.executable, "-m", "slipstream.editor.track.export", str(track), str(pic), "--width", str(width)]
        for h in highlight:
            cmd += ["--highlight", h]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0 or not pic.is_file():
            raise OSError(done.stderr.strip() or f"the picture could not be drawn (exit {done.returncode})")
        atomic_write_bytes(output, pic.read_bytes())  # the file's mode and links, as for every save


@main.command()
@click.option("-o", "--output", type=click.Path(path_type=Path, file_okay=False), required=True,
              help="Folder to write the JSON Schemas into.")
def schema(output: Path) -> None:
    """Write the JSON Schemas for editor autocompletion: those of tracks and pack manifests,
    and those every installed ruleset brings for its own files.

    Point your editor's YAML language server at them, or add a first line such as
    `# yaml-language-server: $schema=schemas/track.schema.json` to a file. The house-rules
    schema of each installed ruleset (RULESET-rules.schema.json) is made from its
    option spec.
    """
    import json

    from slipstream.engine.core.files import atomic_write_text
    from slipstream.engine.core.schema import schema_files

    output.mkdir(parents=True, exist_ok=True)
    for name, data in sorted(schema_files().items()):
        atomic_write_text(output / name, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        click.echo(f"wrote {output / name}")


@main.command()
@click.option("--markdown", is_flag=True, help="Print the reference page docs/diagnostics.md.")
def codes(markdown: bool) -> None:
    """List every diagnostic code with its cause and fix."""
    from slipstream.engine.core.codes import CODES
    from slipstream.engine.core.reference import codes_markdown

    if markdown:
        click.echo(codes_markdown(), nl=False)
        return
    for c in sorted(CODES.values(), key=lambda c: c.code):
        click.echo(f"{c.code} {c.severity:<7} {c.title}: {c.cause} Fix: {c.fix}")


@main.command()
@click.argument("file", required=False, type=click.Path(path_type=Path, dir_okay=False))
def editor(file: Path | None) -> None:
    """Open the track editor (needs the gui extra), on FILE if given.

    An invalid file opens too, with its problems listed; a missing FILE is created on save.
    """
    import subprocess

    if _gui_missing():
        raise click.UsageError("the editor needs the gui extra: pip install 'slipstream[gui]'")
    # the editor runs as a process of its own: the command line never imports the editor
    sys.exit(subprocess.run([sys.executable, "-m", "slipstream.editor", *([str(file)] if file else [])]).returncode)


if __name__ == "__main__":  # pragma: no cover
    main()
