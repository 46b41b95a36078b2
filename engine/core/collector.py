"""Pausing Python's cyclic garbage collector around work that allocates a great many objects
and leaves no cycles behind (checking a big track, a look-ahead bot's rollouts): without the
pause the collector rescans the live objects again and again, and the work stops being linear."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off inside the block, and back on after it if it was on before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
