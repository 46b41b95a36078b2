"""JSON Schema validation with jsonschema, and schema errors as diagnostics.

`SCHEMA_PACKAGE` and `schema_files` (engine/core/schemafiles.py) are re-exported here.
"""

from __future__ import annotations

import difflib
import math
import re
from functools import cache
from typing import TYPE_CHECKING, Any

from slipstream.engine.core import schemafast
from slipstream.engine.core.diagnostics import MAX_VALUE_CHARS, Diagnostic, make, shorten
from slipstream.engine.core.schemafiles import SCHEMA_PACKAGE, schema_files
from slipstream.engine.core.yamlsource import SourceMap, json_path

__all__ = ["SCHEMA_PACKAGE", "reference_validator", "registry", "schema_diagnostics", "schema_files",
           "validator"]

if TYPE_CHECKING:  # jsonschema and referencing load lazily: a clean run never needs them
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

MAX_SCHEMA_PROBLEMS = 200  # schema diagnostics listed per file


@cache
def registry() -> Registry:
    """A `referencing` registry holding every bundled schema under its `$id`."""
    from referencing import Registry, Resource

    resources_ = [
        (s["$id"], Resource.from_contents(s)) for s in schema_files().values() if "$id" in s
    ]
    return Registry().with_resources(resources_)


# The keywords that look into parts of the instance (through `validator.descend`).
_DESCENDING = ("properties", "patternProperties", "additionalProperties", "propertyNames", "items",
               "prefixItems", "contains", "oneOf", "anyOf", "allOf", "not", "if", "then", "else",
               "dependentSchemas")


class _Pruned:
    """A validator as a keyword sees it, whose `descend` skips a part the fast check passes: a
    part that is valid yields no error, so jsonschema's errors stay exactly its own (the fast
    check agrees with it on every bundled schema, tests/cli/test_packs_cli.py), found without
    walking the valid parts of a document again at every level."""

    __slots__ = ("_v",)

    def __init__(self, v: Any) -> None:
        self._v = v

    def descend(self, instance: Any, schema: Any, *args: Any, **kwargs: Any) -> Any:
        if schemafast.passes(schema, instance):
            return iter(())
        return self._v.descend(instance, schema, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._v, name)


def _pruning(check: Any) -> Any:
    def pruned(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        return check(_Pruned(validator), value, instance, schema)

    return pruned


@cache
def _validator_class(prune: bool = True) -> type[Draft202012Validator]:
    """Draft 2020-12 with a linear `uniqueItems` (jsonschema's falls back to comparing every
    pair of items when they do not sort, which is quadratic in a long list). With `prune`, the
    keywords skip the parts of the instance that the fast check passes (`_Pruned`): the same
    errors, in a fraction of the time for a long file with one mistake."""
    from jsonschema import Draft202012Validator, validators
    from jsonschema.exceptions import ValidationError

    from slipstream.engine.core.schemafast import unique_items

    def unique(validator: Any, wanted: Any, instance: Any, schema: Any) -> Any:
        if wanted and validator.is_type(instance, "array") and not unique_items(instance):
            yield ValidationError(f"{shorten(instance)} has non-unique elements")

    def bounded(keyword: str) -> Any:
        # `.nan` compares false with every bound, so jsonschema lets it through: a number
        # that has a bound must be a real number (the fast check already says so)
        base = Draft202012Validator.VALIDATORS[keyword]

        def check(validator: Any, limit: Any, instance: Any, schema: Any) -> Any:
            if validator.is_type(instance, "number") and math.isnan(instance):
                yield ValidationError(f"{instance!r} is not a number")  # one message per value
                return
            yield from base(validator, limit, instance, schema)

        return check

    # `$ref` as jsonschema's own, with each reference looked up once: jsonschema resolves the
    # JSON pointer through the `referencing` registry at every use (a quarter of the time of
    # checking an effect list). A `$ref` names the same target wherever it is met, since its
    # base URI is lexical; the schemas use no `$dynamicRef`, the one keyword that reads the
    # dynamic scope a looked-up resolver carries.
    lookups: dict[tuple[int, str], tuple[Any, Any]] = {}

    def ref(validator: Any, ref: str, instance: Any, schema: Any) -> Any:
        hit = lookups.get((id(schema), ref))
        if hit is None:  # the schema is kept with it, so its id is never reused
            hit = lookups[id(schema), ref] = (schema, validator._resolver.lookup(ref))
        resolved = hit[1]
        yield from validator.descend(instance, resolved.contents, resolver=resolved.resolver)

    keywords = {k: bounded(k) for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")}
    keywords.update({"uniqueItems": unique, "$ref": ref})
    if prune:
        base = {**Draft202012Validator.VALIDATORS, **keywords}
        keywords.update({k: _pruning(base[k]) for k in ("$ref", *_DESCENDING) if k in base})
    return validators.extend(Draft202012Validator, keywords)


@cache
def validator(name: str) -> Draft202012Validator:
    """The validator for one schema, e.g. `validator("track")`, skipping what the fast check
    passes (the same errors as `reference_validator`, sooner)."""
    schema = schema_files()[f"{name}.schema.json"]
    schemafast.compiled(name)  # every part of the schema gets its fast check
    return _validator_class()(schema, registry=registry())


@cache
def reference_validator(name: str) -> Draft202012Validator:
    """jsonschema's validator for one schema with no help from the fast check: what the fast
    check is held to (tests/cli/test_packs_cli.py) and what `validator` must agree with."""
    schema = schema_files()[f"{name}.schema.json"]
    return _validator_class(prune=False)(schema, registry=registry())


def _leaf(err: ValidationError) -> ValidationError:
    from jsonschema.exceptions import best_match

    if err.context:
        best = best_match(err.context)
        if best is not None:
            return _leaf(best)
    return err


def whole_numbers(data: Any) -> Any:
    """`data` with every whole float (`2.0`) as an int (the same object when it holds none). The
    schemas' `integer` takes 2.0, as JSON Schema does; the pack loader reads every data file and
    the scenario runners every checked scenario through this, so a count, index or roll written
    `2.0` means 2 everywhere (docs/packs.md)."""
    if isinstance(data, dict):
        pairs: Any = data.items()
    elif isinstance(data, list):
        pairs = enumerate(data)
    elif isinstance(data, float):
        return int(data) if data.is_integer() else data
    else:
        return data
    # walked without rebuilding: a copy (a plain dict or list) only of what holds a whole float
    out: Any = None
    for k, v in pairs:
        tv = type(v)
        if tv is str or tv is int or tv is bool or v is None:  # the common leaves, as they are
            continue
        new = whole_numbers(v)
        if new is not v:
            if out is None:
                out = dict(data) if isinstance(data, dict) else list(data)
            out[k] = new
    return data if out is None else out


def schema_diagnostics(name: str, data: Any, src: SourceMap) -> list[Diagnostic]:
    """Validate `data` against a named schema; map each error to its YAML position."""
    # Valid data is the common case: the compiled yes/no check answers it without jsonschema.
    if schemafast.is_valid(name, data) is True:
        return []
    out: list[Diagnostic] = []
    seen: set[tuple[str, int, int, str]] = set()
    for err in validator(name).iter_errors(data):
        if len(out) >= MAX_SCHEMA_PROBLEMS:
            # jsonschema reports every bad item of a long list: stop, and say so, rather than
            # spend seconds on twenty thousand copies of one mistake.
            out.append(make("S004", src.file, 1, 1, "$",
                            f"more than {MAX_SCHEMA_PROBLEMS} schema problems; only the first are listed"))
            break
        err = _leaf(err)
        path = tuple(err.absolute_path)
        code = "S001"
        pos = src.value(path)
        msg = _message(err)
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


def _message(err: ValidationError) -> str:
    """jsonschema's message, unless it quotes a long value: then the same words around a
    shortened value (an alias can make one value megabytes long)."""
    msg = err.message
    if len(msg) <= 2 * MAX_VALUE_CHARS + 60:
        return msg
    inst = shorten(err.instance)
    if err.validator == "type":
        return f"{inst} is not of type {shorten(err.validator_value)}"
    if err.validator in ("oneOf", "anyOf"):
        return f"{inst} is not valid under any of the given schemas"
    if err.validator in ("enum", "const"):
        return f"{inst} is not one of {shorten(err.validator_value)}"
    return f"{inst} does not satisfy {err.validator} {shorten(err.validator_value)}"


def _near(word: str, options: list[str]) -> str | None:
    m = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return m[0] if m else None
