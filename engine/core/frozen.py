"""Copying and pickling the frozen dataclasses of compiled modules (build_support/slipstream_accel.py).

Compiled with mypyc, a dataclass is a native class: `copy` and `pickle` would rebuild it by
setting its fields one by one, which a frozen dataclass refuses. Such a class's `__reduce__`
and `__deepcopy__` call these two instead, which make it anew through its `__init__` from the
same field values, as the pure Python class gives: the same object either way."""

from __future__ import annotations

import copy
from dataclasses import fields
from typing import Any


def reduced(obj: Any) -> tuple[Any, ...]:
    """`__reduce__` of a dataclass whose fields are all `__init__` arguments, in order."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))


def deep_copied(obj: Any, memo: dict[int, Any]) -> Any:
    """`__deepcopy__` of such a dataclass: every field deep-copied, then `__init__`."""
    new = type(obj)(*[copy.deepcopy(getattr(obj, f.name), memo) for f in fields(obj)])
    memo[id(obj)] = new
    return new
