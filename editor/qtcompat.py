"""Workarounds for bugs of the Qt bindings, applied once when the editor package is imported.

PySide6 6.12 returns None from void methods without taking a new reference. On Python 3.12+
None is immortal and nothing happens; on Python 3.11 every such call (setPen, moveTo, addItem,
...) takes one reference away from None, and after some ten thousand calls Python aborts with
"Fatal Python error: none_dealloc". We detect the leak with a probe and, only where it shows,
give None a reference count that cannot run out (None is never freed anyway).
"""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QPointF

PROBE_CALLS = 64


def none_leaks_references() -> bool:
    """True when calling a void PySide6 method lowers None's reference count."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    point = QPointF()
    before = sys.getrefcount(None)
    for _ in range(PROBE_CALLS):
        point.setX(1.0)
    return before - sys.getrefcount(None) >= PROBE_CALLS // 2


def protect_none() -> bool:
    """Apply the workaround where needed; returns True when it was applied."""
    if not none_leaks_references():
        return False
    # ob_refcnt is the first field of every CPython object (release builds)
    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 48
    return True


APPLIED = protect_none()
