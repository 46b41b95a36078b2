"""Races of any ruleset on a given track, step by step, for a face that draws them.

`start` builds the game of a `RaceSpec` on any `Track` object (the editor's open track, not
only the pack's) with bots for its bot seats, seeded as `play_race` seeds them, so a race of
bots here is the race `slipstream race` runs when the track is the pack's. A `Recorder` sits
beside the game, applies every decision through itself and keeps one `Frame` per decision:
the cars before and after (the `race_view` capability's `cars`), the standings, the seat's
view and the entries the decision logged in words (`Ruleset.describe`). A ruleset with turns
of many decisions may register a richer recorder of its own for a face (`Ruleset.panels`);
this one needs nothing but the protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from slipstream.engine.play.base import view_of
from slipstream.engine.play.decisions import Rejection
from slipstream.engine.play.extbots import RaceContext, finish_bots, is_external, seat_bot
from slipstream.engine.play.protocol import SeatSpec
from slipstream.engine.play.races import Result, bot_seed, header, play_out, resolved_setup

if TYPE_CHECKING:
    from slipstream.engine.play.protocol import Bot, Game, Gauge, Mark, Ruleset
    from slipstream.engine.play.races import RaceSpec

Cell = tuple[int, int]  # lane, segment

HUMAN = "human"


@dataclass(slots=True)
class Frame:
    """One decision of one seat as a viewer shows it (frame 0 is the grid)."""

    index: int
    round: int  # 0: the ruleset does not say
    player: int  # -1 for the grid
    choice: str  # the text of the option taken ("" for the grid)
    cars_before: list[Cell]
    cars_after: list[Cell] = field(default_factory=list)
    route: list[Cell] = field(default_factory=list)  # where the seat's car went, if it moved
    positions: list[int] = field(default_factory=list)  # position per seat after the decision
    events: list[str] = field(default_factory=list)
    view: list[tuple[str, str]] = field(default_factory=list)  # the seat's view after it
    log_end: int = 0
    briefs: list[str] = field(default_factory=list)  # `RaceView.brief` of every seat after it
    car: int = -1  # the index in the cars lists of the car the decision moved (-1: the grid)
    owners: list[int] = field(default_factory=list)  # the seat of each car ([]: car i is seat i)
    gauges: list[list[Gauge]] = field(default_factory=list)  # `RaceView.gauges` per seat
    marks: list[Mark] = field(default_factory=list)  # `RaceView.marks` after it
    secret: bool = False  # the decision's kind is one of `RaceView.secret_kinds`


def positions_of(game: Game) -> list[int]:
    """Position (1 = leading) of each seat in the game's standings now."""
    order = game.standings()
    pos = [0] * len(order)
    for i, p in enumerate(order):
        pos[p] = i + 1
    return pos


class Recorder:
    """Frames of a game of `rs`, one per decision applied through `apply`."""

    def __init__(self, rs: Ruleset, game: Game, names: Sequence[str]) -> None:
        self.rs = rs
        self.view = view_of(rs)
        self.game = game
        self.names = list(names)
        self._seen = len(game.log)
        cars = self.view.cars(game)
        self.owners = list(self.view.car_owners(game))
        grid = Frame(0, 0, -1, "", cars, list(cars), positions=positions_of(game), owners=self.owners)
        grid.events = self._new_events()
        grid.briefs = self.briefs()
        grid.gauges = self.gauges()
        grid.marks = self.marks()
        self.frames: list[Frame] = [grid]

    @property
    def current(self) -> Frame | None:
        """The frame in progress: none, every frame is one whole decision."""
        return None

    @property
    def finished_frames(self) -> list[Frame]:
        return self.frames

    @property
    def over(self) -> bool:
        return self.game.pending is None

    def _new_events(self) -> list[str]:
        log = self.game.log
        told = [self.rs.describe(e, self.game) for e in log[self._seen:]]
        self._seen = len(log)
        return [t for t in told if t]

    def briefs(self) -> list[str]:
        """`RaceView.brief` of every seat now (empty when the ruleset gives none)."""
        out = [self.view.brief(self.game, i) for i in range(len(self.names))]
        return out if any(out) else []

    def gauges(self) -> list[list[Gauge]]:
        """`RaceView.gauges` of every seat now (empty when the ruleset gives none)."""
        out = [list(self.view.gauges(self.game, i)) for i in range(len(self.names))]
        return out if any(out) else []

    def marks(self) -> list[Mark]:
        """`RaceView.marks` now: what lies on the track besides the cars."""
        return list(self.view.marks(self.game))

    def apply(self, key: str) -> Rejection | None:
        """Apply one option of the pending decision and add its frame."""
        g = self.game
        d = g.pending
        if d is None:
            return Rejection("race-over", "the race is over")
        text = next((o.text for o in d.options if o.key == key), key)
        view = self.view
        c = view.car_of(g)  # several cars a seat: not the seat
        before = view.cars(g)
        path = list(view.route(g, key))
        r = g.apply(key)
        if r is not None:
            return r
        after = view.cars(g)
        p = d.player
        fr = Frame(len(self.frames), g.rounds, p, text, before, after, car=c, owners=self.owners)
        if 0 <= c < len(before) and c < len(after) and before[c] != after[c]:
            # the ruleset's route square by square when it gives one that fits, else a jump
            ok = len(path) > 1 and path[0] == before[c] and path[-1] == after[c]
            fr.route = [(x[0], x[1]) for x in path] if ok else [before[c], after[c]]
        fr.positions = positions_of(g)
        fr.events = self._new_events()
        fr.view = list(self.rs.view(g, p))
        fr.briefs = self.briefs()
        fr.gauges = self.gauges()
        fr.marks = self.marks()
        fr.secret = d.kind in view.secret_kinds
        fr.log_end = len(g.log)
        self.frames.append(fr)
        return None

    def play_bots(self, bots: dict[int, Bot], stop: Callable[[], bool] | None = None,
                  max_decisions: int = 200_000) -> int:
        """Let bots decide for their seats until a seat without a bot must decide, or the end."""
        return play_bot_seats(self.game, self.apply, bots, stop, max_decisions)


def seats(spec: RaceSpec, humans: frozenset[int] = frozenset()) -> list[SeatSpec]:
    return [SeatSpec(f"P{i + 1}", HUMAN if i in humans else b) for i, b in enumerate(spec.bots)]


def start(rs: Ruleset, pack: Any, spec: RaceSpec, track: Any,
          humans: frozenset[int] = frozenset()) -> tuple[Game, dict[int, Bot]]:
    """The game of `spec` on `track` and bots for its bot seats (seeded as `play_race` does)."""
    game = rs.new_game(pack, track, seats(spec, humans), spec.seed, dict(spec.options), spec.laps,
                       dict(spec.setup), True)
    if not any(is_external(b) for b in spec.bots):
        return game, {i: rs.make_bot(b, bot_seed(spec.seed, i)) for i, b in enumerate(spec.bots) if i not in humans}
    from slipstream.engine.packs.trackpack import house_options

    context = RaceContext(rs, track, spec.seed, [s.name for s in seats(spec)], spec.laps,
                          {**house_options(pack), **dict(spec.options)})
    return game, {i: seat_bot(rs, b, i, bot_seed(spec.seed, i), context)
                  for i, b in enumerate(spec.bots) if i not in humans}


def finish(bots: Mapping[int, Any], game: Any) -> None:
    """End the seats' external bot processes (engine/play/extbots.py), after the race or when
    it is abandoned; built-in bots need nothing."""
    finish_bots(list(bots.values()), game)


def watch(rs: Ruleset, pack: Any, spec: RaceSpec, track: Any,
          stop: Callable[[], bool] | None = None) -> Recorder:
    """Play a race of bots on `track` and keep its frames."""
    game, bots = start(rs, pack, spec, track)
    rec = Recorder(rs, game, [s.name for s in seats(spec)])
    try:
        rec.play_bots(bots, stop)
    finally:
        finish(bots, game)
    return rec


def run_on_track(job: tuple[RaceSpec, Any]) -> Result:
    """One race of bots of `spec` on the track object given with it (the log is dropped, so
    that only the figures travel back from a worker process)."""
    from slipstream.engine.play.registry import for_pack

    spec, track = job
    rs, pack = for_pack(spec.pack)
    game, bots = start(rs, pack, spec, track)
    try:
        n = play_out(game, [bots[i] for i in range(len(spec.bots))])
    finally:
        finish(bots, game)
    result = game.result()
    return Result(spec=spec, names=[s.name for s in seats(spec)], bots=list(spec.bots),
                  grid=list(game.grid), standings=game.standings(),
                  rounds=int(result.get("rounds", 0)), capped=bool(result.get("capped", False)),
                  decisions=n, stats=dict(game.stats), log=[],
                  header=header(rs, spec, pack, track), result=result, setup=resolved_setup(rs, spec, game))


def play_bot_seats(game: Any, apply: Callable[[str], Any], bots: Mapping[int, Any],
                   stop: Callable[[], bool] | None = None, max_decisions: int = 200_000) -> int:
    """Decisions of the seats that have a bot, through `apply` (a recorder's), until a seat
    without a bot must decide, `stop()` turns true, or the race ends; returns how many."""
    n = 0
    while game.pending is not None and game.pending.player in bots:
        if stop is not None and stop():
            break
        d = game.pending
        r = apply(bots[d.player].choose(game, d))
        if r is not None:
            raise AssertionError(f"the bot of seat {d.player} chose an illegal option: {r.message}")
        n += 1
        if n > max_decisions:
            raise AssertionError("race did not end")
    return n
