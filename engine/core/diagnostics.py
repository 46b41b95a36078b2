"""Diagnostic records (DESIGN §7) and their output formats.

Every problem a user can cause, from a YAML syntax error to an unreachable space, becomes one
`Diagnostic`. The reporters here turn lists of them into text, JSON or GitHub annotations.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

from slipstream.engine.core.codes import CODES

ERROR = "error"
WARNING = "warning"

# Messages quote the user's values: a value is shown by its first characters and a message is
# cut, so an alias bomb or a megabyte string cannot turn into megabytes of diagnostics.
MAX_VALUE_CHARS = 60
MAX_MESSAGE_CHARS = 400

_repr = reprlib.Repr()
_repr.maxlevel = 3
_repr.maxdict = _repr.maxlist = _repr.maxtuple = _repr.maxset = 6
_repr.maxstring = _repr.maxother = MAX_VALUE_CHARS
_repr.maxlong = 40


def shorten(value: object, limit: int = MAX_VALUE_CHARS) -> str:
    """`repr(value)` for a message, cut to about `limit` characters in bounded time."""
    try:
        text = _repr.repr(value)
    except ValueError:  # an int beyond Python's digit limit for str()
        return f"<an integer of {value.bit_length() if isinstance(value, int) else '?'} bits>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def cut(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """A message cut to `limit` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters)"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in one file, with its position and JSON path."""

    code: str
    severity: str
    file: str
    line: int
    column: int
    path: str
    message: str
    hint: str | None = None
    # Names of the spaces (`lane:first_segment`) the problem is about, for the editor.
    spaces: tuple[str, ...] = field(default=())

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def to_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["spaces"] = list(self.spaces)
        if self.hint is None:
            del data["hint"]
        return data


class Counted:
    """Error and warning counts of a result that holds a `diagnostics` list."""

    __slots__ = ()
    diagnostics: list[Diagnostic]

    @property
    def errors(self) -> int:
        return sum(d.is_error for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return len(self.diagnostics) - self.errors


def make(
    code: str,
    file: str,
    line: int,
    column: int,
    path: str,
    message: str,
    *,
    hint: str | None = None,
    spaces: Sequence[str] = (),
    severity: str | None = None,
) -> Diagnostic:
    """Build a diagnostic whose severity comes from the code table unless overridden."""
    sev = severity or CODES[code].severity
    return Diagnostic(code, sev, file, line, column, cut(path), cut(message),
                      cut(hint) if hint is not None else None, tuple(spaces))


def sort_key(d: Diagnostic) -> tuple[str, int, int, str]:
    return (d.file, d.line, d.column, d.code)


def has_errors(diags: Iterable[Diagnostic]) -> bool:
    return any(d.is_error for d in diags)


def format_text(diags: Sequence[Diagnostic]) -> str:
    """`file:line:col: error CODE message`, with an indented hint line where there is one."""
    out: list[str] = []
    for d in diags:
        out.append(f"{d.file}:{d.line}:{d.column}: {d.severity} {d.code} {d.message}")
        if d.path and d.path != "$":
            out[-1] += f" [{d.path}]"
        if d.hint:
            out.append(f"    hint: {d.hint}")
    return "\n".join(out)


def format_json(diags: Sequence[Diagnostic]) -> str:
    return json.dumps([d.to_dict() for d in diags], indent=2, ensure_ascii=False)


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def format_github(diags: Sequence[Diagnostic]) -> str:
    """GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=CODE::message`."""
    out = []
    for d in diags:
        kind = "error" if d.is_error else "warning"
        msg = d.message + (f" (hint: {d.hint})" if d.hint else "")
        out.append(
            f"::{kind} file={_gh_escape(d.file, True)},line={d.line},col={d.column},"
            f"title={_gh_escape(d.code, True)}::{_gh_escape(msg)}"
        )
    return "\n".join(out)


FORMATTERS = {"text": format_text, "json": format_json, "github": format_github}
