"""A toy ruleset: roll a die, move that many segments; first home after the laps wins.

It proves the plug-in protocol (engine/play/protocol.py): registered by id (through
`SLIPSTREAM_RULESETS=toy=toyruleset:RULESET`, so worker processes and CLI runs find it too),
it races with `slipstream race tests/toy` and in the editor's Test race dock, and no face names
it. Its packs hold named dice (`toy-dice/1`, dice.yaml) that a race may roll (`--die ID`, its
setup) in place of the plain die of its `die` option. It offers a race view (where its cars
are), championships of points by place (`slipstream season`, engine/play/seasons.py),
authoring (new packs get a die; the pack editor adds dice and shows them as a table) and its
own file kinds with their schemas (tests/toyschemas/). Everything not written here comes from `BaseRuleset`, `TracksOnly`,
`BaseAuthoring` and `PointsSeasons`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from slipstream.engine.core.schema import validator
from slipstream.engine.packs.data import FrozenMap
from slipstream.engine.packs.trackpack import TrackPack, TracksOnly, house_options
from slipstream.engine.play.base import (
    BaseAuthoring,
    BaseRaceView,
    BaseRuleset,
    OwnFileKinds,
    house_rules_schemas,
)
from slipstream.engine.play.decisions import Decision, Option, Rejection
from slipstream.engine.play.options import OptionSpec
from slipstream.engine.play.protocol import DataTable, ItemKind, PackFile, SetupKey
from slipstream.engine.play.seasons import PointsChampionship, PointsSeasons


class ToyGame:
    def __init__(self, track: Any, names: list[str], seed: int, laps: int, die: int,
                 named: tuple[str, Die] | None = None) -> None:  # the plain die's faces; a die of the pack
        self.track, self.names, self.laps, self.die, self.named = track, names, laps, die, named
        self.rng = random.Random(seed)
        self.progress, self.finished, self.turn, self.rounds = [0] * len(names), [], 0, 1
        self.log: list[dict[str, Any]] = []

    @property
    def pending(self) -> Decision | None:
        if len(self.finished) == len(self.names):
            return None
        what = self.named[1].name if self.named else f"a d{self.die}"
        return Decision(self.turn, "roll", (Option("roll", f"roll {what}"), Option("creep", "move one segment")),
                        "move your car")

    def apply(self, key: str) -> Rejection | None:
        if self.pending is None or key not in ("roll", "creep"):
            return Rejection("not-an-option", f"{key!r} is not an option now")
        faces = self.named[1].faces if self.named else range(1, self.die + 1)
        p, n = self.turn, (self.rng.choice(faces) if key == "roll" else 1)
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
        g = ToyGame(self.track, self.names, 0, self.laps, self.die, self.named)
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


@dataclass(frozen=True, slots=True)
class Die:
    name: str
    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ToyPack(TrackPack):
    dice: Mapping[str, Die] = FrozenMap()  # id -> die, in file order


class ToyContent(TracksOnly):
    """Tracks, house rules and dice: the pack's own toy-dice/1 files (read whole), else its parents' dice."""

    kinds = ("toy-dice",)
    pack_type = ToyPack

    def build_data(self, b: Any, replaces: Any) -> dict[str, Any]:
        files = [f for f in b.whole.get("toy-dice", []) if validator("toy-dice").is_valid(f.data)]
        if not b.whole.get("toy-dice"):
            return {"dice": next((p.dice for p in reversed(b.parents) if getattr(p, "dice", None)), FrozenMap())}
        dice: dict[str, Die] = {}
        for f in files:
            for i, d in enumerate(f.data["dice"]):
                if d["id"] in dice:
                    b.diag("P010", f.file, ("dice", i, "id"), f"a second die {d['id']!r}", hint="give each die its own id")
                dice.setdefault(d["id"], Die(d["name"], tuple(d["faces"])))
        return {"dice": FrozenMap(dice)}


class ToySetup:
    """The die a race rolls (the `setup` capability): one of the pack's dice by id, else the plain one."""

    keys = (SetupKey("named_die", "--die", "ID", "A die of the pack by id (default: a plain die, option `die`)."),)

    def problems(self, pack: Any, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        die = setup.get("named_die")
        return [] if not die or die in pack.dice else [("--die", f"no die {die!r}; dice: {', '.join(pack.dice)}")]

    def choices(self, pack: Any, key: str) -> list[tuple[str, str]]:
        return [("", "plain die (option die)"), *((i, d.name) for i, d in pack.dice.items())]

    def log_header(self, head: dict[str, Any], spec: Any, pack: Any, track: Any) -> dict[str, Any]:
        return head

    def resolved(self, game: Any) -> dict[str, Any]:
        return {"named_die": game.named[0]} if game.named else {}


DICE = """slipstream: toy-dice/1
dice:
  - id: d6
    name: Plain die
    faces: [1, 2, 3, 4, 5, 6]
"""


class ToyAuthoring(BaseAuthoring):
    """New packs start with a die; the pack editor adds dice and shows them as a table."""

    item_kinds = (ItemKind("toy-dice", "die", "Dice", ("dice",)),)
    tables = (DataTable("toy-dice", ("dice",), "Dice", columns=("id", "name"), spread="faces"),)

    def pack_files(self, pid: str, name: str, extends: Any) -> list[PackFile]:
        return [] if extends else [PackFile("dice.yaml", "toy-dice.schema.json", DICE)]


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
    content = ToyContent("toy")
    options = (OptionSpec("die", "int", 6, "Faces of the plain die (1 to N).", minimum=2, maximum=20),
               *CHAMPIONSHIP.options)
    players = (1, 6)
    bots = {"random": "rolls or creeps at random", "bold": "always rolls"}
    race_view = ToyView()
    setup = ToySetup()
    authoring = ToyAuthoring()
    # its own file kinds, with their schemas shipped beside it (tests/toyschemas/)
    files = OwnFileKinds({"toy-scenario": ((1,), schema_only("toy-scenario"))}, "toyschemas",
                         ("toy-scenario.schema.json", "toy-dice.schema.json"),
                         generated=house_rules_schemas(content, name, options))  # toy-rules/1

    def __init__(self) -> None:
        self.seasons = PointsSeasons(self, CHAMPIONSHIP)  # championships of points by place

    def new_game(self, pack: Any, track: Any, seats: Any, seed: int, options: Any, laps: Any = None,
                 setup: Any = None, record: bool = True) -> ToyGame:
        options = {**house_options(pack), **options}  # the pack's house rules (toy-rules/1), then the race's
        named = (setup or {}).get("named_die")
        return ToyGame(track, [s.name for s in seats], seed, laps or track.laps, int(options.get("die", 6)),
                       (named, pack.dice[named]) if named else None)

    def make_bot(self, name: str, seed: int) -> Bot:
        return Bot(seed, name == "bold")

    def describe(self, e: Any, context: Any = None) -> str | None:
        if e.get("ev") == "move":
            return f"P{e['p'] + 1} moves {e['by']} to segment {e['segment']}"
        return f"P{e['p'] + 1} finishes" if e.get("ev") == "finish" else None

    def view(self, game: Any, seat: int) -> list[tuple[str, str]]:
        return [("segments driven", str(game.progress[seat]))]


RULESET = Toy()
