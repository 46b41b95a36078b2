"""What the faces want of a race beyond the rules: per-corner counts for batch statistics and
heat maps (stops made, overshoots and stops missed, keyed by corner index as a string, so the
stats stay JSON-able) and each car's last gear roll for the watched race's panels.

The game announces every rule outcome through `event`; `TalliedGame` counts the corner ones
into `stats` as they happen, logged or not, so a batch that drops the logs still has them.
It is compiled with the game (build_support/slipstream_accel.py): the races of the ruleset
run on it, and a game class of an interpreted module would reach every method of the compiled
game through Python calls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from slipstream.engine.rulesets.formula_de.content import Tables
from slipstream.engine.rulesets.formula_de.game import FormulaDeGame
from slipstream.engine.tracks.track import Track


class TalliedGame(FormulaDeGame):
    """A race that also counts `stops_at`, `overshoots_at` and `missed_at` per corner and keeps
    `last_roll` (seat -> the last gear die it rolled)."""

    def __init__(self, track: Track, tables: Tables, names: Sequence[str], seed: int, laps: int,
                 options: Mapping[str, Any], record: bool = True, dice: Any = None) -> None:
        self.last_roll: dict[int, int] = {}
        super().__init__(track, tables, names, seed, laps, options, record, dice)

    def event(self, ev: str, **data: Any) -> None:
        if self.quiet:  # a bot's rollout
            return
        if ev == "roll":
            self.last_roll[data["p"]] = data["roll"]
        elif ev == "stop":
            self.stats.setdefault("stops_at", Counter())[str(data["corner"])] += 1
        elif ev == "overshoot":
            key = str(data["corner"])
            self.stats.setdefault("overshoots_at", Counter())[key] += 1
            self.stats.setdefault("missed_at", Counter())[key] += max(0, int(data["required"]) - int(data["made"]))
        super().event(ev, **data)

    def copy(self) -> TalliedGame:
        new = super().copy()
        assert isinstance(new, TalliedGame)
        new.last_roll = dict(self.last_roll)
        return new
