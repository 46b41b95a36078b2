"""Per-corner counts of a race for batch statistics and heat maps: stops made, overshoots and
stops missed, keyed by corner index (as a string, so the stats stay JSON-able).

The game announces every rule outcome through `event`; `TalliedGame` counts the corner ones
into `stats` as they happen, logged or not, so a batch that drops the logs still has them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from slipstream.engine.rulesets.formula_de.game import FormulaDeGame


class TalliedGame(FormulaDeGame):
    """A race that also counts `stops_at`, `overshoots_at` and `missed_at` per corner."""

    def event(self, ev: str, **data: Any) -> None:
        if ev == "stop":
            self.stats.setdefault("stops_at", Counter())[str(data["corner"])] += 1
        elif ev == "overshoot":
            key = str(data["corner"])
            self.stats.setdefault("overshoots_at", Counter())[key] += 1
            self.stats.setdefault("missed_at", Counter())[key] += max(0, int(data["required"]) - int(data["made"]))
        super().event(ev, **data)
