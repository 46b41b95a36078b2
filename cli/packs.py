"""Pack commands: `slipstream cards` (what every card does, through the ruleset's `authoring`
capability) and `slipstream new` (scaffolding)."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from slipstream.engine.core import diagnostics as dg
from slipstream.engine.core import plugins
from slipstream.engine.editing.scaffold import ScaffoldError, new_pack, new_track
from slipstream.engine.packs.data import thaw
from slipstream.engine.packs.loader import bundled_packs, load_pack

if TYPE_CHECKING:
    from slipstream.engine.play.protocol import CardRow

FORMATS = ["text", "json"]


def _open_pack(ref: str) -> tuple[Any, Any]:
    """(authoring capability, pack) of a pack by folder path, or by the id of a bundled pack
    (`base`); a usage error for a ruleset without cards."""
    from slipstream.engine.play.registry import RulesetError, get

    path = Path(ref)
    if not path.is_dir() and ref in bundled_packs():
        path = bundled_packs()[ref]
    pack, diags = load_pack(path)
    if pack is not None:
        try:
            rs = get(pack.ruleset)
        except RulesetError as e:
            raise click.UsageError(str(e)) from None
        if rs.authoring is None or not rs.authoring.card_kinds:
            raise click.UsageError(f"{path} is a pack of the {pack.ruleset!r} ruleset, which has no cards "
                                   "(`slipstream cards` lists the cards of rulesets with cards)")
    errors = [d for d in diags if d.is_error]
    if errors or pack is None:
        click.echo(dg.format_text(sorted(diags, key=dg.sort_key)), err=True)
        click.echo(f"FAILED: {ref} has {len(errors) or 1} error(s); fix them first "
                   f"(`slipstream validate {ref}`)", err=True)
        sys.exit(1)
    return rs.authoring, pack


def _rows(authoring: Any, pack: Any, set_name: str | None) -> list[CardRow]:
    try:
        return list(authoring.card_rows(pack, set_name))
    except KeyError:
        names = ", ".join(sorted(sid for sid, _name in authoring.sheets(pack))) or "none"
        raise click.UsageError(f"no card set or deck {set_name!r} in {pack.id}; choose one of: {names}") from None


def _sheet_name(authoring: Any, pack: Any, set_name: str) -> str:
    """The name of the card set or deck `set_name` (an id, or already a name)."""
    want = set_name.strip().lower()
    sheets = authoring.sheets(pack)
    return next((name for sid, name in sheets if want in (sid.lower(), name.lower())),
                next((name for sid, name in sheets if sid.lower().startswith(want)), set_name))


def _json_row(c: CardRow) -> dict[str, Any]:
    row = {"id": c.id, "name": c.name, "colour": c.kind, "cost": c.cost, "value": c.value,
           "supply": c.supply, "buyable": c.buyable, "fixed": c.fixed, "text": c.text,
           "effect": thaw(c.effect)}
    if c.cells:  # a ruleset's own columns (a deck, a card number ...) and its words
        row.update({"kind": c.kind, **{h: v for h, v in c.cells}, "does": c.does})
    return row


@click.command()
@click.argument("pack", required=False, default="base")
@click.option("--set", "set_name", metavar="NAME",
              help="Only the cards of one print sheet (id or name), as the pack's ruleset groups "
                   "them: e.g. the game of one card set, or one deck.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: a table for people; json: the same rows for tools.")
def cards(pack: str, set_name: str | None, fmt: str) -> None:
    """Print every card of PACK (a pack folder or `base`) with its numbers and text, in the
    columns the pack's ruleset gives its cards (e.g. colour, cost, value and supply; or deck,
    number, copies and price, and what the card does in words).

    Costs and values of the base pack are house values (see its description).
    """
    authoring, p = _open_pack(pack)
    rows = _rows(authoring, p, set_name)
    if fmt == "json":
        click.echo(json.dumps([_json_row(c) for c in rows], indent=2, ensure_ascii=False))
        return
    title = f"{p.name} ({p.id} {p.version})"
    if set_name:
        title += f" - {_sheet_name(authoring, p, set_name)}"
    click.echo(title)
    width = max(60, min(shutil.get_terminal_size((100, 20)).columns, 140))
    cells = bool(rows) and bool(rows[0].cells)
    if cells:  # the ruleset's own columns: text columns left, numbers right
        headers = ("card", *(h for h, _v in rows[0].cells))
        table = [(c.name + ("" if c.own else f" [{c.id.rpartition(':')[0]}]"),
                  *("-" if v is None else str(v) for _h, v in c.cells)) for c in rows]
        right = {i for i in range(1, len(headers)) if all(r[i] == "-" or r[i].isdigit() for r in table)}
    else:
        headers = ("colour", "card", "cost", "value", "supply")
        table = [(c.kind_label, c.name + ("" if c.own else f" [{c.id.rpartition(':')[0]}]"),
                  str(c.cost) if c.buyable else "-", str(c.value), str(c.supply)) for c in rows]
        right = {2, 3, 4}
    widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(headers)]
    lead = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + "  "
    text_width = max(20, width - len(lead))
    click.echo(lead + ("does (and the card's text)" if cells else "text"))
    click.echo("-" * min(width, len(lead) + text_width))
    for c, r in zip(rows, table, strict=True):
        out = [v.rjust(w) if i in right else v.ljust(w) for i, (v, w) in enumerate(zip(r, widths, strict=True))]
        lines = textwrap.wrap(c.does, text_width) if cells else []
        if cells and c.text:
            lines += textwrap.wrap(f"“{c.text}”", text_width)
        elif not cells:
            lines = textwrap.wrap(c.text, text_width)
        lines = lines or [""]
        click.echo("  ".join(out) + "  " + lines[0])
        for more in lines[1:]:
            click.echo(" " * len(lead) + more)
    if "house value" in p.description.lower() or any(c.house for c in rows):
        click.echo("\nCosts and values are house values (see the pack description), not printed ones."
                   if not cells else "\nThe numbers are house values (see the pack description), not printed ones.")


@click.group()
def new() -> None:
    """Scaffold a new pack or track that validates clean."""


@new.command("pack")
@click.argument("name")
@click.option("--dir", "parent", type=click.Path(path_type=Path, file_okay=False), default=Path("."),
              show_default=True, help="Folder to create the pack folder in.")
@click.option("--ruleset", default="", metavar="ID",
              help="Ruleset of the pack (`slipstream rulesets` lists them; default: that of the packs "
                   f"it extends, else {plugins.DEFAULT}).")
@click.option("--extends", "extends", default=None, metavar="PACK,...",
              help="Comma-separated ids of the packs to build on ('' for none; default: the bundled "
                   "pack of the ruleset).")
def new_pack_cmd(name: str, parent: Path, ruleset: str, extends: str | None) -> None:
    """Create folder ID/ with pack.yaml, the files the ruleset's packs start with (e.g. cards,
    card sets and rules), a sample scenario in tests/ where the ruleset has
    scenarios, tracks/ and a copy of the schemas for editor completion (ID is NAME as a slug)."""
    ext = None if extends is None else tuple(x.strip() for x in extends.split(",") if x.strip())
    try:
        made = new_pack(parent, name, extends=ext, ruleset=ruleset)
    except ScaffoldError as exc:
        raise click.UsageError(str(exc)) from None
    own = [str(f.relative_to(made.root)) for f in made.files if f.parent.name != "schemas"]
    click.echo(f"created pack {made.root}/ ({', '.join(own)}, schemas/)")
    click.echo(f"next: slipstream new track NAME --dir {made.root} && slipstream validate {made.root}")


@new.command("track")
@click.argument("name")
@click.option("--dir", "folder", type=click.Path(path_type=Path, file_okay=False), default=Path("."),
              show_default=True, help="Folder for the file; in a pack folder it goes to tracks/.")
@click.option("--ruleset", default="", metavar="ID",
              help="Ruleset to race on it: the track gets what that ruleset needs (corners with stops, "
                   "speed limits, a pit lane, a grid). Default: that of the pack in --dir, else a "
                   "colour track.")
@click.option("--template", default="", metavar="NAME",
              help="Shape to start from: oval, road-course (and figure-eight for a colour track); "
                   "default: the first of the ruleset.")
def new_track_cmd(name: str, folder: Path, ruleset: str, template: str) -> None:
    """Create a track ID.yaml (ID is NAME as a slug) that validates clean."""
    try:
        path = new_track(folder, name, template=template, ruleset=ruleset)
    except ScaffoldError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"created track {path}")
    click.echo(f"next: slipstream validate {path} && slipstream editor {path}")
