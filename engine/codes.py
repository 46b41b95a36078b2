"""The table of diagnostic codes. Codes are stable: never reuse or renumber one.

docs/diagnostics.md is generated from this table (`slipstream codes --markdown`), and a test
keeps the two in step.

Families: F files, Y YAML, S schema, T tracks, P packs, E effects, C scenarios.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    severity: str
    title: str
    cause: str
    fix: str


_TABLE: list[Code] = [
    # Files
    Code("F001", "error", "file not found", "A path given on the command line does not exist.", "Check the spelling of the path."),
    Code("F002", "warning", "not a Slipstream file", "A YAML file inside a validated folder has no `slipstream:` format tag and was skipped.", "Add `slipstream: track/1` (or the tag of its kind) as the first key, or move the file out of the folder."),
    Code("F003", "error", "unknown format tag", "The `slipstream:` tag names a kind or version this tool does not know.", "Use one of the tags listed in docs/formats.md, e.g. `track/1`."),
    Code("F004", "error", "cannot read file", "The file could not be opened (permissions, a folder, a broken link).", "Make the file readable."),
    # YAML
    Code("Y001", "error", "YAML syntax error", "The file is not well-formed YAML.", "Fix the syntax at the position shown (indentation, a missing colon, an unclosed quote)."),
    Code("Y002", "error", "duplicate key", "A mapping names the same key twice; YAML would silently keep only one.", "Remove or rename one of the two keys."),
    Code("Y003", "error", "tag not allowed", "A YAML tag such as `!!python/object` asks for object construction; only plain data is accepted.", "Remove the tag; write plain strings, numbers, lists and mappings."),
    Code("Y004", "error", "too many nodes", "Aliases expand to more nodes than the limit (an alias bomb, or a runaway file).", "Use fewer aliases or split the file."),
    Code("Y005", "error", "file too large", "The file is larger than the size limit.", "Split the content over several files."),
    Code("Y006", "error", "nesting too deep", "Lists or mappings are nested deeper than the limit.", "Flatten the structure."),
    Code("Y007", "error", "not UTF-8 text", "The file holds bytes that are not UTF-8 text (a binary file, or another encoding).", "Save the file as UTF-8 text."),
    Code("Y008", "error", "empty file", "The file holds no YAML document.", "Write the content, starting with the `slipstream:` format tag."),
    Code("Y009", "error", "several documents", "The file holds more than one YAML document (`---`).", "Keep one document per file."),
    Code("Y010", "error", "unsupported key", "A mapping key is not a plain scalar (a list or mapping used as a key).", "Use strings as keys."),
    # Schema
    Code("S001", "error", "schema violation", "A value does not match the JSON Schema of its file kind.", "Follow the message; `slipstream schema -o DIR` writes the schemas for editor autocompletion."),
    Code("S002", "error", "unknown property", "A mapping has a key that its schema does not define (often a typo).", "Check the key's spelling against the schema."),
    Code("S003", "error", "missing property", "A required key is absent.", "Add the key."),
    # Tracks
    Code("T101", "error", "bad layout token", "A layout token is not `G`, `GxK` (G in 3-6, K ≥ 1), `-` or `-xK`.", "Write tokens such as `3`, `4x2`, `-`, `-x3`, separated by spaces."),
    Code("T102", "error", "lane length mismatch", "A lane's tokens cover a different number of segments than the other lanes.", "Make every lane string cover the same number of segments."),
    Code("T103", "error", "lane count mismatch", "`lanes` differs from the number of layout strings.", "Set `lanes` to the number of strings under `layout`."),
    Code("T104", "error", "empty lane", "A lane has no spaces at all (only `-`).", "Give the lane spaces or remove it."),
    Code("T105", "error", "grid slot on missing cell", "A grid slot names a lane or segment outside the track, or a segment where its lane does not exist.", "Move the slot onto an existing cell."),
    Code("T106", "error", "duplicate grid slot", "Two grid slots stand on the same cell.", "Give each slot its own cell."),
    Code("T107", "error", "grid not pole first", "Grid slots are not listed from the front (pole) backwards; a slot stands ahead of the one listed before it.", "List the slots pole first: furthest along the lap first, inner lane first on a tie."),
    Code("T108", "warning", "fewer than 5 grid slots", "The track has fewer than 5 grid slots, so a 5-player race cannot start.", "Add grid slots up to 5."),
    Code("T109", "warning", "grid money not rising", "A slot further back offers less money than a slot ahead of it; the rules give back slots more.", "Give each slot at least the money of the slot ahead of it."),
    Code("T110", "error", "unreachable spaces", "No car starting on the grid can ever reach these spaces.", "Connect them: put a space directly or diagonally behind them in reach of the racing line."),
    Code("T111", "error", "finish unreachable", "From these spaces a car can never reach the finish line again (they lead only into dead ends).", "Open a way forward from them towards the finish line."),
    Code("T112", "error", "dead end", "No space lies directly or diagonally ahead of this space: a car here can never move again.", "Continue the lane, or let the lane end where a neighbouring lane exists one segment ahead."),
    Code("T113", "error", "no lap cycle", "No route leads from the grid round the track and across the finish line again.", "Connect the lanes so that a full lap is possible."),
    Code("T114", "warning", "gear colour absent", "A gear colour never appears on the track, so its cubes can never move the car.", "Paint some spaces in that colour, or accept that the gear is useless here."),
    Code("T115", "warning", "colour out of reach", "Over a stretch of the lap a gear colour cannot be reached within a few steps, so its cubes are dead there.", "Paint a space of that colour within reach of the stretch."),
    Code("T116", "warning", "grid behind the start", "A grid slot lies far from the finish line; cars would drive most of an extra lap.", "Put the grid just behind the finish line (the last segments of the lap)."),
]

CODES: dict[str, Code] = {c.code: c for c in _TABLE}
assert len(CODES) == len(_TABLE), "duplicate diagnostic code"


def register(code: Code) -> None:
    """Add a code from another module (packs, effects, scenarios); codes stay unique."""
    if code.code in CODES and CODES[code.code] != code:
        raise ValueError(f"diagnostic code {code.code} registered twice")
    CODES[code.code] = code


def codes_markdown() -> str:
    """The reference page docs/diagnostics.md, generated from the table."""
    lines = [
        "# Diagnostic codes",
        "",
        "Generated by `slipstream codes --markdown > docs/diagnostics.md`; do not edit by hand.",
        "Codes are stable. Families: F files, Y YAML, S schema, T tracks, P packs, E effects,",
        "C scenarios.",
        "",
        "| code | severity | what | cause | fix |",
        "|---|---|---|---|---|",
    ]
    for c in sorted(CODES.values(), key=lambda c: c.code):
        cause = c.cause.replace("|", "\\|")
        fix = c.fix.replace("|", "\\|")
        lines.append(f"| {c.code} | {c.severity} | {c.title} | {cause} | {fix} |")
    return "\n".join(lines) + "\n"
