"""`BaseRuleset`: the parts of the ruleset protocol most rulesets share, ready to inherit.

A new ruleset subclasses it and writes what is its own (id, name, options, players, bots,
`new_game`, `make_bot`); the defaults play races with engine/play/races.py, replay their logs
with `replay_simple`, narrate with `describe` and report the shared statistics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from slipstream.engine.play.options import house_rules_schema
from slipstream.engine.play.racelog import ReplayReport, replay_simple
from slipstream.engine.play.races import play_race
from slipstream.engine.play.scenarios import Report
from slipstream.engine.play.stats import format_races, summarise_races

if TYPE_CHECKING:
    from slipstream.engine.play.protocol import Ruleset


class BaseRuleset:
    """Defaults for the protocol methods of engine/play/protocol.py.

    It is not a whole ruleset by itself (a subclass adds `new_game` and `make_bot`): the
    defaults that play or replay a race take `self` as the `Ruleset` the subclass makes."""

    id = ""
    name = ""
    options: Sequence[Any] = ()
    players = (2, 6)
    bots: Mapping[str, str] = {}
    default_bots: Sequence[str] = ()  # empty: one of each bot
    file_kinds: Mapping[str, Any] = {}
    content: Any = None
    setup_keys: Sequence[str] = ()  # no race settings beyond the options
    panels: Mapping[str, str] = {}  # no ruleset-specific panels: faces show their generic ones
    secret_kinds: Sequence[str] = ()  # decision kinds made in secret (none here)

    @property
    def schemas(self) -> dict[str, dict[str, Any]]:
        """The schemas this ruleset generates (registered when it loads): its house-rules file
        (`RULESET-rules/1`, when its content model reads one), made from its option spec."""
        kind = getattr(self.content, "rules_kind", None)
        if not kind:
            return {}
        return {f"{kind}.schema.json": house_rules_schema(kind, self.name, list(self.options))}

    def track_checks(self, track: Any, data: Any, src: Any) -> list[Any]:
        return []

    def setup_problems(self, pack: Any, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        flag = {"card_set": "--set"}
        return [(flag.get(k, f"--{k}"), f"{self.name} races take no setting {k!r}") for k in setup]

    def setup_choices(self, pack: Any, key: str) -> list[tuple[str, str]]:
        return []

    def run_race(self: Ruleset, spec: Any) -> Any:
        return play_race(self, spec)

    def describe(self, event: Mapping[str, Any], context: Any = None) -> str | None:
        return None

    def cars(self, game: Any) -> list[tuple[int, int]]:
        return []  # a face then draws no cars

    def view(self, game: Any, seat: int) -> list[tuple[str, str]]:
        return []

    def race_text(self, result: Any) -> str:
        told = [t for t in (self.describe(e, result) for e in result.log) if t]
        names = result.result.get("standings") or [result.names[i] for i in result.standings]
        return "\n".join([*told, "", "final standings: " + ", ".join(names),
                          f"{result.rounds} rounds, {result.decisions} decisions"])

    def race_json(self, result: Any) -> dict[str, Any]:
        return {"seed": result.spec.seed, "track": result.spec.track,
                "standings": [{"place": i + 1, "name": result.names[p], "bot": result.bots[p]}
                              for i, p in enumerate(result.standings)],
                "rounds": result.rounds, "capped": result.capped, "decisions": result.decisions}

    def summarise(self, results: Sequence[Any]) -> dict[str, Any]:
        return summarise_races(results)

    def format_summary(self, summary: Mapping[str, Any]) -> str:
        return format_races(dict(summary))

    def brief(self, game: Any, seat: int) -> str:
        """One short line about a seat's car for a face's table of the field ("": none)."""
        return ""

    def car_owners(self, game: Any) -> list[int]:
        """The seat of each car of `cars(game)` (here one car a seat)."""
        return list(range(len(self.cars(game))))

    def car_of(self, game: Any) -> int:
        """The index in `cars(game)` of the car the pending decision moves (-1: none)."""
        d = game.pending
        return -1 if d is None else int(d.player)

    def route(self, game: Any, key: str) -> list[tuple[int, int]]:
        """The cells the car of the pending decision passes if `key` is taken ([]: unknown)."""
        return []

    def gauges(self, game: Any, seat: int) -> list[tuple[str, float, float, float]]:
        """A seat's gauges as (label, value, maximum, scale) for a face's dials (none here)."""
        return []

    def marks(self, game: Any) -> list[tuple[int, int, str, str]]:
        """(lane, segment, kind, label) of what lies on the track besides cars (none here)."""
        return []

    def heat(self, summary: Mapping[str, Any]) -> dict[str, dict[str, float]]:
        """Heat maps of a batch keyed `corner:INDEX` or `space:LANE:SEGMENT` (none here)."""
        return {}

    def run_scenario_file(self, pack: Any, path: Any) -> tuple[Any, list[Any]]:
        """One scenario file of the loaded `pack`: (its result, or None, and the diagnostics)."""
        from slipstream.engine.core.diagnostics import make

        return None, [make("C100", str(path), 1, 1, "$", f"the {self.id} ruleset runs no scenario files")]

    def run_scenarios(self, pack: str, select: str = "") -> Report:
        return Report([], [])

    def item_users(self, result: Any, kind: str, item_id: str) -> dict[str, list[bool]]:
        return {}

    def replay(self: Ruleset, lines: list[str]) -> ReplayReport:
        return replay_simple(self, lines)
