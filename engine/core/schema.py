"""JSON Schema validation with jsonschema, and schema errors as diagnostics.

`SCHEMA_PACKAGE` and `schema_files` (engine/core/schemafiles.py) are re-exported here.
"""

from __future__ import annotations

import difflib
import re
from functools import cache
from typing import TYPE_CHECKING, Any

from slipstream.engine.core import schemafast
from slipstream.engine.core.diagnostics import Diagnostic, make
from slipstream.engine.core.schemafiles import SCHEMA_PACKAGE, schema_files
from slipstream.engine.core.yamlsource import SourceMap, json_path

__all__ = ["SCHEMA_PACKAGE", "registry", "schema_diagnostics", "schema_files", "validator"]

if TYPE_CHECKING:  # jsonschema and referencing load lazily: a clean run never needs them
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry



@cache
def registry() -> Registry:
    """A `referencing` registry holding every bundled schema under its `$id`."""
    from referencing import Registry, Resource

    resources_ = [
        (s["$id"], Resource.from_contents(s)) for s in schema_files().values() if "$id" in s
    ]
    return Registry().with_resources(resources_)


@cache
def validator(name: str) -> Draft202012Validator:
    """The validator for one schema, e.g. `validator("track")`."""
    from jsonschema import Draft202012Validator

    schema = schema_files()[f"{name}.schema.json"]
    return Draft202012Validator(schema, registry=registry())


def _leaf(err: ValidationError) -> ValidationError:
    from jsonschema.exceptions import best_match

    if err.context:
        best = best_match(err.context)
        if best is not None:
            return _leaf(best)
    return err


def schema_diagnostics(name: str, data: Any, src: SourceMap) -> list[Diagnostic]:
    """Validate `data` against a named schema; map each error to its YAML position."""
    # Valid data is the common case: the compiled yes/no check answers it without jsonschema.
    if schemafast.is_valid(name, data) is True:
        return []
    out: list[Diagnostic] = []
    seen: set[tuple[str, int, int, str]] = set()
    for err in validator(name).iter_errors(data):
        err = _leaf(err)
        path = tuple(err.absolute_path)
        code = "S001"
        pos = src.value(path)
        msg = err.message
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            props = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}
            pats = err.schema.get("patternProperties", {}) if isinstance(err.schema, dict) else {}
            extra = [
                k for k in err.instance
                if k not in props and not any(re.search(p, str(k)) for p in pats)
            ]
            for k in extra:
                kpath = (*path, k)
                kpos = src.key(kpath)
                near = _near(str(k), list(props))
                hint = f"did you mean {near!r}?" if near else None
                key = ("S002", kpos.line, kpos.column, str(k))
                if key not in seen:
                    seen.add(key)
                    out.append(make("S002", src.file, kpos.line, kpos.column, json_path(kpath),
                                    f"unknown property {k!r}", hint=hint))
            continue
        if err.validator == "required":
            code = "S003"
        elif err.validator == "const" and path == ("slipstream",):
            msg = f"format tag must be {err.validator_value!r}, not {err.instance!r}"
        key = (code, pos.line, pos.column, msg)
        if key in seen:
            continue
        seen.add(key)
        desc = err.schema.get("description") if isinstance(err.schema, dict) else None
        out.append(make(code, src.file, pos.line, pos.column, json_path(path), msg,
                        hint=desc if code == "S001" and desc and len(desc) < 200 else None))
    return out


def _near(word: str, options: list[str]) -> str | None:
    m = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return m[0] if m else None
