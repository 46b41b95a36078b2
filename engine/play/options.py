"""Rule options as one spec per ruleset: parsing, checking and the rules-file schema.

A ruleset declares each of its options once (`OptionSpec`: name, type, allowed values,
default, help). That one spec drives the `options` part of its rules-file schema
(`options_schema`), `--option KEY=VALUE` parsing in every command (`parse_items`), the check
of options set by packs and scenarios (`check_value`) and the editor's Test race form.
A bad value is an `OptionError` with a message that names the option and what it accepts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

TYPES = ("bool", "int", "choice", "points")
_TRUE = ("true", "yes", "on")
_FALSE = ("false", "no", "off")
_SHORT = 40  # longest raw value quoted in a message


class OptionError(ValueError):
    """A rule option name or value that the ruleset does not accept."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rule option of a ruleset.

    `choices` are the values a rules file may name; `supported` (default: all choices) are
    those this engine implements, so a documented reading that is not implemented yet is a
    clear error rather than a silent fallback. `scope` says which command reads it (`race`
    options apply to every race, `season` ones only to seasons). `in_rules_file` is False for
    engine settings that only commands take (e.g. a round cap).
    """

    name: str
    type: str  # bool | int | choice | points
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    supported: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    scope: str = "race"
    in_rules_file: bool = True
    schema: Mapping[str, Any] | None = field(default=None, compare=False)  # extra schema words

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"option {self.name}: unknown type {self.type!r}")

    @property
    def implemented(self) -> tuple[Any, ...]:
        return self.choices if self.supported is None else self.supported

    def accepts(self) -> str:
        """What the option takes, for messages and help."""
        if self.type == "bool":
            return "true or false"
        if self.type == "int":
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            return f"a whole number {lo}..{hi}".rstrip(".") if lo or hi else "a whole number"
        if self.type == "points":
            return "players_minus_place or points by place, e.g. 10,6,4,3"
        return ", ".join(str(c) for c in self.implemented)

    def parse(self, raw: str) -> Any:
        """The value of `KEY=raw` on a command line; OptionError when it is not accepted."""
        low = raw.strip().lower()
        value: Any
        if self.type == "bool":
            if low in _TRUE:
                value = True
            elif low in _FALSE:
                value = False
            else:
                raise self._bad(raw)
        elif self.type == "int":
            try:
                value = int(low, 10)
            except ValueError:
                raise self._bad(raw) from None
        elif self.type == "points":
            if low == "players_minus_place":
                value = "players_minus_place"
            else:
                try:
                    value = [int(x, 10) for x in low.split(",")]
                except ValueError:
                    raise self._bad(raw) from None
        else:
            value = raw.strip()
        problem = self.problem(value)
        if problem:
            raise OptionError(problem)
        return value

    def problem(self, value: Any) -> str | None:
        """Why `value` (from YAML or a command line) is not accepted; None when it is."""
        shown = _short(value)
        if self.type == "bool":
            ok = isinstance(value, bool)
        elif self.type == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
            if ok and self.minimum is not None and value < self.minimum:
                ok = False
            if ok and self.maximum is not None and value > self.maximum:
                ok = False
        elif self.type == "points":
            ok = value == "players_minus_place" or (
                isinstance(value, list | tuple) and len(value) > 0
                and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value))
        else:
            if value in self.choices and value not in self.implemented:
                return (f"{self.name}={shown} is a reading this engine does not implement yet "
                        f"(implemented: {self.accepts()})")
            ok = value in self.implemented
        return None if ok else f"{self.name}={shown}: {self.name} takes {self.accepts()}"

    def _bad(self, raw: str) -> OptionError:
        return OptionError(f"{self.name}={_short(raw)}: {self.name} takes {self.accepts()}")

    def json_schema(self) -> dict[str, Any]:
        """This option's JSON Schema, with its help as the description."""
        out: dict[str, Any] = {"description": self.help}
        if self.type == "bool":
            out["type"] = "boolean"
        elif self.type == "int":
            out["type"] = "integer"
            if self.minimum is not None:
                out["minimum"] = self.minimum
            if self.maximum is not None:
                out["maximum"] = self.maximum
        elif self.type == "choice":
            out["enum"] = list(self.choices)
        elif self.type == "points" and self.schema is None:
            # if/then/else rather than oneOf, so a bad entry of a list is reported at that entry
            out["if"] = {"type": "array"}
            out["then"] = {"description": "Points by place, winner first; places beyond the list score 0.",
                           "minItems": 1, "maxItems": 100,
                           "items": {"description": "Points for one place.", "type": "integer",
                                     "minimum": 0, "maximum": 1_000_000}}
            out["else"] = {"description": "N - place + 1 for N cars.", "const": "players_minus_place"}
        out.update(dict(self.schema or {}))
        return out


def _short(value: Any) -> str:
    """A value for a message: strings quoted, anything long cut (huge numbers never printed)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return "a number of about %d digits" % int(value.bit_length() * 0.30103)
    text = value if isinstance(value, str) else repr(value)
    if len(text) > _SHORT:
        text = text[:_SHORT] + "..."
    return repr(text) if isinstance(value, str) else text


def by_name(specs: Iterable[OptionSpec]) -> dict[str, OptionSpec]:
    return {s.name: s for s in specs}


def parse_items(specs: Sequence[OptionSpec], items: Iterable[str], *,
                scopes: tuple[str, ...] = ("race",)) -> dict[str, Any]:
    """`KEY=VALUE` items as option values; OptionError for a malformed item, an unknown name,
    an option of another scope or a value the option does not take."""
    table = by_name(specs)
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(f"{_short(item)}: write KEY=VALUE, e.g. {_example(specs)}")
        spec = table.get(key)
        if spec is None:
            known = ", ".join(s.name for s in specs if s.scope in scopes)
            raise OptionError(f"unknown rule option {_short(key)}; known: {known}")
        if spec.scope not in scopes:
            raise OptionError(f"{key} is a {spec.scope} option; this command takes "
                              + " and ".join(scopes) + " options")
        out[key] = spec.parse(raw)
    return out


def check_values(specs: Sequence[OptionSpec], values: Mapping[str, Any]) -> list[str]:
    """A message for every unknown name or unaccepted value in `values`."""
    table = by_name(specs)
    out = []
    for k, v in values.items():
        spec = table.get(k)
        if spec is None:
            out.append(f"unknown rule option {_short(k)}")
        else:
            problem = spec.problem(v)
            if problem:
                out.append(problem)
    return out


def options_schema(specs: Sequence[OptionSpec], description: str) -> dict[str, Any]:
    """The `options` object of a rules-file schema, generated from the spec."""
    return {
        "description": description,
        "type": "object",
        "additionalProperties": False,
        "properties": {s.name: s.json_schema() for s in specs if s.in_rules_file},
    }


def house_rules_schema(kind: str, ruleset_name: str, specs: Sequence[OptionSpec]) -> dict[str, Any]:
    """The whole JSON Schema of a ruleset's house-rules file (`KIND/1`, e.g. `formula-de-rules/1`),
    generated from its option spec: the format tag and an `options` object of every option a
    rules file may set. A choice takes only the readings this engine implements."""
    options = options_schema(specs, "House rules: the value of each rule option for every race of "
                             "this pack (and the packs that extend it); `--option` on a command "
                             "line overrides one.")
    for s in specs:
        prop = options["properties"].get(s.name)
        if prop is not None and s.type == "choice" and s.schema is None:
            prop["enum"] = list(s.implemented)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://slipstream.invalid/schemas/{kind}.schema.json",
        "title": f"{ruleset_name}: house rules (format {kind}/1)",
        "description": f"The house rules of a {ruleset_name} pack, generated from the ruleset's option "
                       "spec (`slipstream rulesets` lists every option). A pack that extends another "
                       "gives only the options it changes.",
        "type": "object",
        "required": ["slipstream"],
        "additionalProperties": False,
        "patternProperties": {"^x-": {"description": "Extension data kept by tools but ignored by the rules."}},
        "properties": {
            "slipstream": {"description": f"Format tag: always `{kind}/1` for this version.",
                           "const": f"{kind}/1"},
            "options": options,
        },
    }


def _example(specs: Sequence[OptionSpec]) -> str:
    for s in specs:
        if s.type == "bool":
            return f"{s.name}=true"
    return f"{specs[0].name}=..." if specs else "name=value"
