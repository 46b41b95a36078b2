"""Showing a file's numbers in spin boxes: any value a file holds, kept within the box's range.

An invalid file still opens in the editor, so a spin box may be handed a number beyond what Qt
can hold (2**31 and more), a float where it shows whole numbers, or something that is not a
number at all; `set_spin` shows the nearest value it can, or `fallback`.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtWidgets import QDoubleSpinBox, QSpinBox


def set_spin(box: QSpinBox | QDoubleSpinBox, value: Any, fallback: int | float | None = None) -> None:
    """`box.setValue(value)` clamped to the box's range; `fallback` (default: the minimum) for a
    value that is not a finite number."""
    lo, hi = box.minimum(), box.maximum()
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        shown: int | float = min(max(value, lo), hi)
    else:
        shown = lo if fallback is None else fallback
    if isinstance(box, QSpinBox):
        box.setValue(int(shown))
    else:
        box.setValue(float(shown))


def seat(value: Any) -> int | None:
    """A lane or segment index a signal can carry (a small whole number >= 0), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31 else None
