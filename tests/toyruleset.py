"""A toy ruleset: roll a die, move that many segments; first home after the laps wins.

It proves the plug-in protocol (engine/play/protocol.py): registered by id (through
`SLIPSTREAM_RULESETS=toy=toyruleset:RULESET`, so worker processes and CLI runs find it too),
it races with `slipstream race tests/toy` and in the editor's Test race dock, and no face names
it. It offers three capabilities: a race view (where its cars are), championships of points
by place (`slipstream season`, engine/play/seasons.py) and its own file kind, `toy-scenario/1`,
whose schema `slipstream schema -o DIR` writes. Everything not written here comes from
`BaseRuleset`, `TracksOnly` and `PointsSeasons`.
"""

from __future__ import annotations

import random
from typing import Any

from slipstream.engine.packs.trackpack import TracksOnly, house_options
from slipstream.engine.play.base import BaseRaceView, BaseRuleset, OwnFileKinds, house_rules_schemas
from slipstream.engine.play.decisions import Decision, Option, Rejection
from slipstream.engine.play.options import OptionSpec
from slipstream.engine.play.seasons import PointsChampionship, PointsSeasons


class ToyGame:
    def __init__(self, track: Any, names: list[str], seed: int, laps: int, die: int) -> None:
        self.track, self.names, self.laps, self.die = track, names, laps, die
        self.rng = random.Random(seed)
        self.progress, self.finished, self.turn, self.rounds = [0] * len(names), [], 0, 1
        self.log: list[dict[str, Any]] = []

    @property
    def pending(self) -> Decision | None:
        if len(self.finished) == len(self.names):
            return None
        return Decision(self.turn, "roll", (Option("roll", f"roll a d{self.die}"),
                                            Option("creep", "move one segment")), "move your car")

    def apply(self, key: str) -> Rejection | None:
        if self.pending is None or key not in ("roll", "creep"):
            return Rejection("not-an-option", f"{key!r} is not an option now")
        p, n = self.turn, (self.rng.randint(1, self.die) if key == "roll" else 1)
        self.progress[p] += n
        self.log += [{"t": "decision", "p": p, "choice": key},
                     {"t": "event", "ev": "move", "p": p, "by": n, "segment": self.progress[p] % self.track.segments}]
        if self.progress[p] >= self.laps * self.track.segments:
            self.finished.append(p)
            self.log.append({"t": "event", "ev": "finish", "p": p})
        left = [i for i in range(len(self.names)) if i not in self.finished]
        if left:
            self.turn = next((i for i in left if i > p), left[0])
            self.rounds += self.turn <= p
        return None

    def copy(self) -> ToyGame:
        g = ToyGame(self.track, self.names, 0, self.laps, self.die)
        g.rng.setstate(self.rng.getstate())
        g.progress, g.finished, g.turn, g.rounds = list(self.progress), list(self.finished), self.turn, self.rounds
        return g

    @property
    def grid(self) -> list[int]:
        return list(range(len(self.names)))  # seat order

    @property
    def stats(self) -> dict[str, Any]:
        return {}

    def standings(self) -> list[int]:
        rest = sorted(set(range(len(self.names))) - set(self.finished), key=lambda i: -self.progress[i])
        return self.finished + rest

    def result(self) -> dict[str, Any]:
        return {"t": "result", "standings": [self.names[i] for i in self.standings()],
                "rounds": self.rounds, "capped": False}


class Bot:
    def __init__(self, seed: int, bold: bool) -> None:
        self.rng, self.bold = random.Random(seed), bold

    def choose(self, game: Any, d: Decision) -> str:
        return "roll" if self.bold else self.rng.choice(d.keys())


class ToyView(BaseRaceView):
    """Where the cars are, so that a face draws them (the `race_view` capability)."""

    def cars(self, game: Any) -> list[tuple[int, int]]:
        grid, n = game.track.grid, game.track.segments
        return [(grid[i % len(grid)].lane, (grid[i % len(grid)].segment + game.progress[i]) % n)
                for i in range(len(game.names))]


def schema_only(kind: str) -> Any:
    """A file of `kind` checked against its schema alone."""
    from slipstream.engine.core.schema import schema_diagnostics

    return lambda data, src: schema_diagnostics(kind, data, src)


CHAMPIONSHIP = PointsChampionship((3, 2, 1), 2)  # HOUSE VALUES of the toy: points by place, races


class Toy(BaseRuleset):
    id = "toy"
    name = "Toy race"
    content = TracksOnly("toy")
    options = (OptionSpec("die", "int", 6, "Faces of the die.", minimum=2, maximum=20), *CHAMPIONSHIP.options)
    players = (1, 6)
    bots = {"random": "rolls or creeps at random", "bold": "always rolls"}
    race_view = ToyView()
    # its own file kind, with its schema shipped beside it (tests/toyschemas/)
    files = OwnFileKinds({"toy-scenario": ((1,), schema_only("toy-scenario"))}, "toyschemas",
                         ("toy-scenario.schema.json",),
                         generated=house_rules_schemas(content, name, options))  # toy-rules/1

    def __init__(self) -> None:
        self.seasons = PointsSeasons(self, CHAMPIONSHIP)  # championships of points by place

    def new_game(self, pack: Any, track: Any, seats: Any, seed: int, options: Any, laps: Any = None,
                 setup: Any = None, record: bool = True) -> ToyGame:
        options = {**house_options(pack), **options}  # the pack's house rules (toy-rules/1), then the race's
        return ToyGame(track, [s.name for s in seats], seed, laps or track.laps, int(options.get("die", 6)))

    def make_bot(self, name: str, seed: int) -> Bot:
        return Bot(seed, name == "bold")

    def describe(self, e: Any, context: Any = None) -> str | None:
        if e.get("ev") == "move":
            return f"P{e['p'] + 1} moves {e['by']} to segment {e['segment']}"
        return f"P{e['p'] + 1} finishes" if e.get("ev") == "finish" else None

    def view(self, game: Any, seat: int) -> list[tuple[str, str]]:
        return [("segments driven", str(game.progress[seat]))]


RULESET = Toy()
