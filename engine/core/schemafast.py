"""A fast yes/no check of data against the bundled JSON Schemas.

`jsonschema` gives precise error messages but costs about a millisecond per effect step (the
effect vocabulary is a deep `oneOf`), which alone would blow the budget of validating a whole
pack in well under half a second. Valid files are the common case, so each schema is compiled
once into plain Python closures that only answer "valid or not"; only when the answer is "not"
does the caller run `jsonschema` for the messages. Keywords outside the supported subset make
`compiled` return None, and the caller then always uses `jsonschema`: never a wrong "valid".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from functools import cache
from typing import Any

from slipstream.engine.core.schemafiles import schema_files

Check = Callable[[Any], bool]

# Keywords that only annotate and never change the outcome.
_ANNOTATIONS = {"$schema", "$id", "$defs", "$comment", "title", "description", "default",
                "examples", "deprecated", "readOnly", "writeOnly"}


class Unsupported(Exception):
    """A keyword this compiler does not implement."""


def _is_int(x: Any) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer())


_TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list | tuple),
    "string": lambda x: isinstance(x, str),
    "integer": _is_int,
    "number": lambda x: isinstance(x, int | float) and not isinstance(x, bool),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: booleans are not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _canonical(x: Any) -> Hashable:
    """A hashable form under which two values are equal exactly when `_equal` says so."""
    if isinstance(x, bool):
        return ("b", x)
    if isinstance(x, int | float):
        return ("n", x)  # 1 == 1.0, as in JSON
    if isinstance(x, dict):
        return ("o", frozenset((k, _canonical(v)) for k, v in x.items()))
    if isinstance(x, list | tuple):
        return ("a", tuple(_canonical(v) for v in x))
    return ("s", x) if isinstance(x, str) else ("x", x)


def unique_items(x: list[Any] | tuple[Any, ...]) -> bool:
    """`uniqueItems` in linear time (a pairwise comparison is quadratic in the list length)."""
    seen = set()
    for v in x:
        key = _canonical(v)
        if key in seen:
            return False
        seen.add(key)
    return True


def _any_of(fns: list[Check]) -> Check:
    return lambda x: any(f(x) for f in fns)


def _all_of(fns: list[Check]) -> Check:
    # the commonest lengths as plain closures: a generator per call costs more than the checks
    if len(fns) == 1:
        return fns[0]
    if len(fns) == 2:
        a, b = fns
        return lambda x: a(x) and b(x)
    if len(fns) == 3:
        a, b, c = fns
        return lambda x: a(x) and b(x) and c(x)
    every = tuple(fns)

    def all_of(x: Any) -> bool:
        for f in every:
            if not f(x):
                return False
        return True

    return all_of


# What a branch of oneOf/anyOf needs at its top level: (object only?, required keys).
Shape = tuple[bool, frozenset[str]]


def _candidates(fns: list[Check], shapes: list[Shape]) -> Callable[[Any], list[Check]]:
    """Pre-filter branches by their top-level `type: object` and `required`: a branch that
    needs an object, or keys the instance lacks, is false without running it."""
    if not any(obj or req for obj, req in shapes):
        return lambda x: fns
    pairs = list(zip(fns, shapes, strict=True))
    non_object = [f for f, (obj, _) in pairs if not obj]
    # each branch under one of its required keys (the branches of an effect's oneOf each need
    # their own key): only the branches filed under a key of the instance are looked at
    always = [i for i, (_, req) in enumerate(shapes) if not req]
    by_key: dict[str, list[int]] = {}
    for i, (_, req) in enumerate(shapes):
        if req:
            by_key.setdefault(min(req), []).append(i)
    reqs = [req for _, req in shapes]

    def pick(x: Any) -> list[Check]:
        if not isinstance(x, dict):
            return non_object if len(non_object) < len(fns) else fns
        found = list(always)
        for k in x:
            hits = by_key.get(k)
            if hits:
                found += hits
        if len(found) > 1:
            found.sort()  # the branches' own order
        keys = x.keys()
        return [fns[i] for i in found if reqs[i].issubset(keys)]

    return pick


def _exactly_one(fns: list[Check], shapes: list[Shape]) -> Check:
    pick = _candidates(fns, shapes)
    return lambda x: sum(1 for f in pick(x) if f(x)) == 1


def _any_of_shaped(fns: list[Check], shapes: list[Shape]) -> Check:
    pick = _candidates(fns, shapes)
    return lambda x: any(f(x) for f in pick(x))


def _negate(fn: Check) -> Check:
    return lambda x: not fn(x)


def _when(of: type | tuple[type, ...], fn: Check, but: type | None = None) -> Check:
    """Type-specific keywords apply only to instances of that type (`of`, less `but`)."""
    if but is None:
        return lambda x: not isinstance(x, of) or fn(x)
    return lambda x: not isinstance(x, of) or isinstance(x, but) or fn(x)


def _if_then_else(cond: Check, then: Check, other: Check) -> Check:
    return lambda x: then(x) if cond(x) else other(x)


def _in_enum(options: list[Any]) -> Check:
    if options and all(type(v) is str for v in options):  # the usual enum: a string is one of them
        names = frozenset(options)
        return lambda x: isinstance(x, str) and x in names
    return lambda x: any(_equal(x, v) for v in options)


class _Compiler:
    def __init__(self) -> None:
        self.by_id = {s["$id"]: s for s in schema_files().values() if "$id" in s}
        self.done: dict[tuple[str, str], Check] = {}
        # every schema object compiled so far -> (the object, kept so its id is never reused; its check)
        self.nodes: dict[int, tuple[Any, Check]] = {}

    def ref(self, base: str, ref: str) -> Check:
        uri, _, pointer = ref.partition("#")
        if uri:
            if not uri.startswith("https://"):
                uri = base.rsplit("/", 1)[0] + "/" + uri
        else:
            uri = base
        key = (uri, pointer)
        if key not in self.done:
            slot: list[Check] = []
            self.done[key] = lambda x: slot[0](x)  # resolves recursion
            try:
                doc = self.by_id.get(uri)
                if doc is None:
                    raise Unsupported(f"unknown schema {uri}")
                node: Any = doc
                for part in [p for p in pointer.split("/") if p]:
                    node = node[part.replace("~1", "/").replace("~0", "~")]
                slot.append(self.compile(node, uri))
                self.done[key] = slot[0]  # later references call it directly
            except (Unsupported, KeyError, TypeError) as exc:
                del self.done[key]
                raise Unsupported(str(exc)) from None
        return self.done[key]

    def shape(self, s: Any, base: str, depth: int = 0) -> Shape:
        """(needs an object, required keys) of a schema, following a bare `$ref`."""
        if not isinstance(s, dict) or depth > 8:
            return (False, frozenset())
        obj = s.get("type") == "object"
        req = frozenset(s.get("required", ())) if obj or "type" not in s else frozenset()
        if "$ref" in s and not obj and not req:
            node, nbase = self.resolve(base, s["$ref"])
            return self.shape(node, nbase, depth + 1)
        return (obj, req if obj else frozenset())

    def resolve(self, base: str, ref: str) -> tuple[Any, str]:
        uri, _, pointer = ref.partition("#")
        if uri:
            if not uri.startswith("https://"):
                uri = base.rsplit("/", 1)[0] + "/" + uri
        else:
            uri = base
        node: Any = self.by_id.get(uri, {})
        for part in [p for p in pointer.split("/") if p]:
            node = node.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(node, dict) else {}
        return node, uri

    def compile(self, s: Any, base: str) -> Check:
        fn = self._compile(s, base)
        if isinstance(s, dict):
            self.nodes[id(s)] = (s, fn)
        return fn

    def _compile(self, s: Any, base: str) -> Check:
        if s is True:
            return lambda x: True
        if s is False:
            return lambda x: False
        if not isinstance(s, dict):
            raise Unsupported(repr(s))
        checks: list[Check] = []
        keys = set(s) - _ANNOTATIONS
        if "$ref" in keys:
            checks.append(self.ref(base, s["$ref"]))
        if "type" in keys:
            types = s["type"] if isinstance(s["type"], list) else [s["type"]]
            checks.append(_TYPES[types[0]] if len(types) == 1 else _any_of([_TYPES[t] for t in types]))
        if "enum" in keys:
            checks.append(_in_enum(list(s["enum"])))
        if "const" in keys:
            checks.append(_in_enum([s["const"]]))
        obj = self._object(s, keys, base)
        if obj:
            checks.append(_when(dict, _all_of(obj)))
        arr = self._array(s, keys, base)
        if arr:
            checks.append(_when((list, tuple), _all_of(arr)))
        num = self._number(s, keys)
        if num:
            checks.append(_when((int, float), _all_of(num), but=bool))
        st = self._string(s, keys)
        if st:
            checks.append(_when(str, _all_of(st)))
        if "oneOf" in keys:
            subs = [self.compile(x, base) for x in s["oneOf"]]
            checks.append(_exactly_one(subs, [self.shape(x, base) for x in s["oneOf"]]))
        if "anyOf" in keys:
            subs = [self.compile(x, base) for x in s["anyOf"]]
            checks.append(_any_of_shaped(subs, [self.shape(x, base) for x in s["anyOf"]]))
        if "allOf" in keys:
            checks.append(_all_of([self.compile(x, base) for x in s["allOf"]]))
        if "not" in keys:
            checks.append(_negate(self.compile(s["not"], base)))
        if "if" in keys:
            checks.append(_if_then_else(self.compile(s["if"], base),
                                        self.compile(s.get("then", True), base),
                                        self.compile(s.get("else", True), base)))
        handled = {"$ref", "type", "enum", "const", "oneOf", "anyOf", "allOf", "not", "if", "then",
                   "else", "properties", "required", "additionalProperties", "patternProperties",
                   "propertyNames", "minProperties", "maxProperties", "items", "prefixItems",
                   "minItems", "maxItems", "uniqueItems", "minimum", "maximum", "exclusiveMinimum",
                   "exclusiveMaximum", "minLength", "maxLength", "pattern"}
        if keys - handled:
            raise Unsupported(", ".join(sorted(keys - handled)))
        if len(checks) == 1:
            return checks[0]
        return _all_of(checks)

    def _object(self, s: dict[str, Any], keys: set[str], base: str) -> list[Check]:
        out: list[Check] = []
        if "required" in keys:  # first: the cheapest way to reject a `oneOf` branch
            req = tuple(s["required"])
            out.append(lambda x: all(r in x for r in req))
        props = {k: self.compile(v, base) for k, v in s.get("properties", {}).items()}
        pats = [(re.compile(p), self.compile(v, base)) for p, v in s.get("patternProperties", {}).items()]
        extra = s.get("additionalProperties", True)
        extra_fn = self.compile(extra, base) if "additionalProperties" in keys else None
        if props or pats or extra_fn:
            def applies(k: str) -> tuple[Check, ...]:
                """The checks a member named `k` must pass, in the order the keywords give."""
                fns = [props[k]] if k in props else []
                fns += [pf for rx, pf in pats if rx.search(k)]
                if not fns and extra_fn is not None:
                    fns.append(extra_fn)
                return tuple(fns)

            # by member name (names repeat from item to item; a bounded table)
            plans: dict[str, tuple[Check, ...]] = {}

            def members(x: dict[Any, Any]) -> bool:
                for k, v in x.items():
                    fns = plans.get(k) if type(k) is str else None
                    if fns is None:
                        if not isinstance(k, str):
                            return False
                        fns = applies(k)
                        if len(plans) < 4096:
                            plans[k] = fns
                    for f in fns:
                        if not f(v):
                            return False
                return True
            out.append(members)
        if "propertyNames" in keys:
            pn = self.compile(s["propertyNames"], base)
            out.append(lambda x: all(pn(k) for k in x))
        if "minProperties" in keys:
            n = s["minProperties"]
            out.append(lambda x: len(x) >= n)
        if "maxProperties" in keys:
            m = s["maxProperties"]
            out.append(lambda x: len(x) <= m)
        return out

    def _array(self, s: dict[str, Any], keys: set[str], base: str) -> list[Check]:
        out: list[Check] = []
        prefix = [self.compile(v, base) for v in s.get("prefixItems", [])]
        if prefix:
            out.append(lambda x: all(f(v) for f, v in zip(prefix, x, strict=False)))
        if "items" in keys:
            item = self.compile(s["items"], base)
            start = len(prefix)

            def every_item(x: Any) -> bool:
                for i in range(start, len(x)):
                    if not item(x[i]):
                        return False
                return True

            out.append(every_item)
        if "minItems" in keys:
            n = s["minItems"]
            out.append(lambda x: len(x) >= n)
        if "maxItems" in keys:
            m = s["maxItems"]
            out.append(lambda x: len(x) <= m)
        if s.get("uniqueItems"):
            out.append(unique_items)
        return out

    def _number(self, s: dict[str, Any], keys: set[str]) -> list[Check]:
        out: list[Check] = []
        if "minimum" in keys:
            lo = s["minimum"]
            out.append(lambda x: x >= lo)
        if "maximum" in keys:
            hi = s["maximum"]
            out.append(lambda x: x <= hi)
        if "exclusiveMinimum" in keys:
            elo = s["exclusiveMinimum"]
            out.append(lambda x: x > elo)
        if "exclusiveMaximum" in keys:
            ehi = s["exclusiveMaximum"]
            out.append(lambda x: x < ehi)
        return out

    def _string(self, s: dict[str, Any], keys: set[str]) -> list[Check]:
        out: list[Check] = []
        if "minLength" in keys:
            n = s["minLength"]
            out.append(lambda x: len(x) >= n)
        if "maxLength" in keys:
            m = s["maxLength"]
            out.append(lambda x: len(x) <= m)
        if "pattern" in keys:
            rx = re.compile(s["pattern"])
            out.append(lambda x: rx.search(x) is not None)
        return out


@cache
def _compiler() -> _Compiler:
    return _Compiler()


@cache
def compiled(name: str, defname: str | None = None) -> Check | None:
    """The yes/no check for schema `name` (or one of its `$defs`), None if it is unsupported."""
    doc = schema_files().get(f"{name}.schema.json")
    if doc is None or "$id" not in doc:
        return None
    try:
        return _compiler().ref(doc["$id"], f"#/$defs/{defname}" if defname else "#")
    except Unsupported:
        return None


def passes(schema: Any, data: Any) -> bool:
    """True when `data` is valid against `schema`, an object inside a bundled schema whose check
    is compiled already (`compiled` compiles every part of a schema it reaches); False when it is
    not, or when that cannot be told without `jsonschema`. Lets `jsonschema` skip the parts of a
    document that are valid when it looks for the errors of an invalid one (engine/core/schema.py)."""
    hit = _compiler().nodes.get(id(schema))
    if hit is None or hit[0] is not schema:
        return False
    try:
        return hit[1](data) is True
    except (TypeError, IndexError, RecursionError):
        return False


def is_valid(name: str, data: Any, defname: str | None = None) -> bool | None:
    """True/False when the fast check applies, None when only `jsonschema` can tell."""
    fn = compiled(name, defname)
    if fn is None:
        return None
    try:
        return fn(data)
    except (TypeError, IndexError, RecursionError):
        return None
