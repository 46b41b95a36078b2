"""The Formula Dé-style ruleset object (id `formula-de`): what the faces and tools see.

Races are played by engine/play/races.py (`play_race`) and replayed by `replay_simple`
(BaseRuleset); the rules live in game.py and rules.py, the bots in bots.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from slipstream.engine.play.base import BaseRuleset
from slipstream.engine.play.options import OptionSpec
from slipstream.engine.rulesets.formula_de.content import CONTENT, RULESET_ID
from slipstream.engine.rulesets.formula_de.narration import describe
from slipstream.engine.tracks.needs import TrackNeeds, check_needs
from slipstream.engine.tracks.track import Track

# RULES.md A.2: stops on every corner; the base game seats 10 cars
NEEDS = TrackNeeds(RULESET_ID, corner_stops=True, min_grid=10)


def _schema_only(kind: str) -> Any:
    def check(data: Any, src: Any) -> Any:
        """A lone table file: its schema."""
        from slipstream.engine.core.schema import schema_diagnostics

        return schema_diagnostics(kind, data, src)

    return check


OPTIONS = (
    OptionSpec("collision_diagonal", "bool", True,
               "A car diagonally behind the mover counts for collisions (Readings)."),
    OptionSpec("downshift_needs_points", "bool", True,
               "A downshift skip needing a wear point the car no longer has is not allowed "
               "(false: allowed, and the car is eliminated)."),
    OptionSpec("wear_model", "choice", "advanced",
               "Wear points by category (advanced) or one pool (basic).",
               choices=("advanced", "basic")),
)


class FormulaDe(BaseRuleset):
    id = RULESET_ID
    name = "Formula Dé-style racing"
    content = CONTENT
    options = OPTIONS
    players = (1, 10)
    bots = {"random": "picks any legal option", "greedy": "best expected progress for the wear and risk"}
    default_bots = ("greedy", "greedy", "greedy", "random", "random", "random")
    file_kinds = {"gears": ((1,), _schema_only("gears")), "wear": ((1,), _schema_only("wear")),
                  "fd-scenario": ((1,), _schema_only("fd-scenario"))}

    def track_checks(self, track: Any, data: Any, src: Any) -> list[Any]:
        """A track/2 track for this ruleset needs stops on every corner and 10 grid slots."""
        return check_needs(track, NEEDS, data, src) if getattr(track, "version", 1) >= 2 else []

    def new_game(self, pack: Any, track: Track, seats: Sequence[Any], seed: int,
                 options: Mapping[str, Any], laps: int | None = None,
                 setup: Mapping[str, Any] | None = None, record: bool = True) -> Any:
        from slipstream.engine.rulesets.formula_de.game import FormulaDeGame

        if pack.tables is None:
            raise ValueError(f"pack {pack.id!r} has no gear dice or wear table (P043)")
        return FormulaDeGame(track, pack.tables, [s.name for s in seats], seed, laps or track.laps,
                             options, record)

    def run_scenarios(self, pack: str, select: str = "") -> Any:
        from slipstream.engine.rulesets.formula_de.scenarios import run_pack_scenarios

        return run_pack_scenarios(pack, self, select)

    def make_bot(self, name: str, seed: int) -> Any:
        from slipstream.engine.rulesets.formula_de.bots import make_bot

        return make_bot(name, seed)

    def describe(self, event: Mapping[str, Any], context: Any = None) -> str | None:
        return describe(event, getattr(context, "names", None))

    def cars(self, game: Any) -> list[tuple[int, int]]:
        out = []
        for c in game.cars:
            sp = game.track.spaces[c.node]
            out.append((sp.lane, sp.first))
        return out

    def view(self, game: Any, seat: int) -> list[tuple[str, str]]:
        c = game.cars[seat]
        n = game.track.segments
        lap = min(game.laps, max(1, c.progress // n + 1))
        stops = ""
        if c.corner >= 0:
            corner = game.track.corners[c.corner]
            stops = f"{c.stops} of {corner.stops or 1} ({corner.name})"
        state = "eliminated: " + c.out if c.out else ("finished" if c.finished else "running")
        return [("gear", str(c.gear)), *((k, str(v)) for k, v in c.wear.items()),
                ("stops in this corner", stops or "-"), ("lap", f"{lap} of {game.laps}"), ("state", state)]

    def summarise(self, results: Sequence[Any]) -> dict[str, Any]:
        s = super().summarise(results)
        out: Counter[str] = Counter()
        over: Counter[str] = Counter()
        cars = finished = 0
        for r in results:
            out.update(r.stats.get("out", {}))
            over.update(r.stats.get("overshoots", {}))
            cars += len(r.names)
            finished += int(r.stats.get("finished", 0))
        s["finish_rate"] = round(finished / cars, 4) if cars else 0.0
        s["eliminations_by_cause"] = dict(sorted(out.items()))
        s["overshoots_by_corner"] = dict(sorted(over.items()))
        return s

    def format_summary(self, summary: Mapping[str, Any]) -> str:
        lines = [super().format_summary(summary),
                 f"finish rate: {100 * summary['finish_rate']:.1f}% of cars",
                 "eliminations by cause: " + (", ".join(f"{k} {v}" for k, v in summary["eliminations_by_cause"].items()) or "none"),
                 "overshoots by corner: " + (", ".join(f"{k} {v}" for k, v in summary["overshoots_by_corner"].items()) or "none")]
        return "\n".join(lines)


RULESET = FormulaDe()
