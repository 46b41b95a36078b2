"""One race seen turn by turn: what a viewer shows for each turn, read from the game's log.

A `FrameRecorder` sits beside a `Game` and sees every decision applied through it. It reads
the events the game logs (it never decides anything itself) and the public race state at the
turn's edges, and keeps one `TurnFrame` per turn: the cars before and after, the cells of the
cubes placed (the planned route), the player's piles, money, wear and position, and the
turn's events in words. Bots and a human seat feed the same recorder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from slipstream.engine.play.decisions import Rejection
from slipstream.engine.play.extbots import RaceContext, finish_bots, is_external, seat_bot
from slipstream.engine.play.races import RaceSpec, bot_seed
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.narration import narrator_of
from slipstream.engine.rulesets.automobiles.racesetup import (
    card_set_of,
    load_pack_cached,
    rules_for,
)
from slipstream.engine.rulesets.automobiles.roster import make_bot
from slipstream.engine.rulesets.automobiles.state import ACTIVE, BAG, DISCARD, USED, TurnState
from slipstream.engine.tracks.track import Track

Cell = tuple[int, int]
CarAt = tuple[int, int, int]  # lane, segment, lap


@dataclass(frozen=True, slots=True)
class Piles:
    """Cube counts by kind id in one player's zones (only kinds present)."""

    bag: dict[str, int]
    active: dict[str, int]
    used: dict[str, int]
    discard: dict[str, int]


@dataclass(slots=True)
class TurnFrame:
    """One turn of one player, as a viewer shows it."""

    index: int  # 0 = the grid before the first turn
    round: int
    player: int
    choice: str  # standard | pit | "" for the grid frame
    cars_before: list[CarAt]
    cars_after: list[CarAt] = field(default_factory=list)
    route: list[Cell] = field(default_factory=list)  # car start, then each placed cube's cell
    hand: Piles | None = None  # the player's piles when the turn began
    piles: Piles | None = None  # before the car moved (after Action and Buy)
    money: int = 0  # money at the start of the Buy phase
    wear_taken: int = 0
    wear_owned: int = 0
    drafting: bool = False
    positions: list[int] = field(default_factory=list)  # position per player after the turn
    events: list[str] = field(default_factory=list)
    log_end: int = 0  # number of log entries up to the end of this turn
    # what a generic frame (engine/play/watch.py) also says, here always the same: one car a
    # seat, no line per seat, no dials, nothing on the track, no secret choices
    car: int = -1
    owners: list[int] = field(default_factory=list)
    briefs: list[str] = field(default_factory=list)
    gauges: list[Any] = field(default_factory=list)
    marks: list[Any] = field(default_factory=list)
    secret: bool = False


def piles_of(game: Game, player: int) -> Piles:
    kinds = game.rules.kinds
    z = game.race.players[player].zones

    def named(zone: int) -> dict[str, int]:
        return {kinds[k].id: n for k, n in enumerate(z[zone]) if n}

    return Piles(named(BAG), named(ACTIVE), named(USED), named(DISCARD))


def cars_of(game: Game) -> list[CarAt]:
    return [(p.car.lane, p.car.segment, p.car.lap) for p in game.race.players]


def wear_owned(game: Game, player: int) -> int:
    w = game.rules.wear
    if w < 0:
        return 0
    return sum(z[w] for z in game.race.players[player].zones)


def _cell(text: str) -> Cell:
    lane, _, seg = text.partition(":")
    return int(lane), int(seg)


class FrameRecorder:
    """Turn frames of a game, built as decisions are applied through `apply`."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.names = [s.name for s in game.seats]
        self.tell = narrator_of(game)
        self.frames: list[TurnFrame] = []
        self._seen = 0
        self._turn: TurnState | None = None
        grid = TurnFrame(0, game.race.round, -1, "", cars_of(game), cars_of(game))
        grid.positions = self._positions()
        self.frames.append(grid)
        self._read_log()
        self._sync()

    # ------------------------------------------------------------------ driving
    def apply(self, key: str) -> Rejection | None:
        """Apply one option of the pending decision and update the frames."""
        g = self.game
        d = g.pending
        cur = self.current
        t = g.race.turn
        if d is not None and cur is not None and d.player == cur.player and t is not None \
                and t.stage in ("action", "buy"):
            cur.piles = piles_of(g, cur.player)
            if t.stage == "buy" and t.spent == 0:
                cur.money = g.money(cur.player)  # what the Buy phase starts with
        r = g.apply(key)
        if r is not None:
            return r
        self._read_log()
        self._sync()
        return None

    def play_bots(self, bots: dict[int, Any], stop: Callable[[], bool] | None = None,
                  max_decisions: int = 200_000) -> int:
        """Let bots decide for their seats until a seat without a bot must decide, or the end."""
        from slipstream.engine.play.watch import play_bot_seats

        return play_bot_seats(self.game, self.apply, bots, stop, max_decisions)

    def piles(self, seat: int) -> Piles:
        return piles_of(self.game, seat)

    def briefs(self) -> list[str]:
        return []  # the player panel shows the piles instead

    def gauges(self) -> list[Any]:
        return []

    def marks(self) -> list[Any]:
        return []

    @property
    def current(self) -> TurnFrame | None:
        """The frame of the turn in progress (not yet finished), if any."""
        if self._turn is not None and len(self.frames) > 1:
            return self.frames[-1]
        return None

    @property
    def finished_frames(self) -> list[TurnFrame]:
        return self.frames if self.current is None else self.frames[:-1]

    # ------------------------------------------------------------------ bookkeeping
    def _positions(self) -> list[int]:
        pos = self.game.positions(False)
        return [pos[i] for i in range(len(self.game.race.players))]

    def _sync(self) -> None:
        """Close the turn that ended, open the one that began."""
        g = self.game
        t = g.race.turn
        if self._turn is not None and t is not self._turn:
            self._close()
        if t is not None and t is not self._turn:
            self._turn = t
            p = t.player
            fr = TurnFrame(len(self.frames), g.race.round, p, "", cars_of(g))
            c = g.race.players[p].car
            fr.route = [(c.lane, c.segment)]
            fr.hand = piles_of(g, p)
            fr.piles = fr.hand
            fr.money = g.money(p)
            self.frames.append(fr)

    def _close(self) -> None:
        g = self.game
        fr = self.frames[-1]
        fr.cars_after = cars_of(g)
        fr.positions = self._positions()
        fr.wear_owned = wear_owned(g, fr.player)
        fr.log_end = len(g.log)
        self._turn = None

    def _read_log(self) -> None:
        g = self.game
        log = g.log
        while self._seen < len(log):
            ev = log[self._seen]
            self._seen += 1
            if ev.get("t") != "event":
                continue
            fr = self.frames[-1]
            text = self.describe(ev)
            name = ev["ev"]
            if name == "turn":
                fr.choice = ev["choice"]
            elif name == "place" and ev.get("p") == fr.player:
                fr.route.append(_cell(ev["cell"]))
            elif name == "drive" and ev.get("p") == fr.player:
                fr.route.append(_cell(ev["dst"]))
            elif name == "decline" and ev.get("p") == fr.player:
                fr.wear_taken = int(ev.get("wear", 0))
                fr.drafting = bool(ev.get("drafting"))
            if text:
                fr.events.append(text)
        if g.over and self._turn is not None:
            self._close()

    def describe(self, ev: dict[str, Any]) -> str:
        """One logged event in words ("" for events a viewer does not need), as narration.py
        tells it for the CLI too."""
        return self.tell(ev) or ""


def new_game(spec: RaceSpec, track: Track, humans: frozenset[int] = frozenset()) -> tuple[Game, dict[int, Any]]:
    """The game of `spec` on `track` (any track, not only the pack's) and bots for its bot seats.

    Seat names, bot seeds and the game seed are those of engine/play/races.py's `play_race`,
    so a race of bots only here is the race `slipstream race` runs for the same spec.
    """
    pack = load_pack_cached(spec.pack)
    setup = dict(spec.setup)
    rs = rules_for(pack, card_set_of(pack, setup.get("card_set") or "", spec.seed), dict(spec.options))
    drivers = tuple(setup.get("drivers") or ())
    seats = [Seat(f"P{i + 1}", "human" if i in humans else b, drivers[i] if i < len(drivers) else None)
             for i, b in enumerate(spec.bots)]
    game = Game(rs, track, seats, seed=spec.seed, laps=spec.laps, record=True)
    if any(is_external(b) for b in spec.bots):  # a seat of a program (engine/play/extbots.py)
        from slipstream.engine.play.registry import get

        ruleset = get("automobiles")
        context = RaceContext(ruleset, track, spec.seed, [s.name for s in seats], spec.laps, dict(spec.options))
        return game, {i: seat_bot(ruleset, b, i, bot_seed(spec.seed, i), context)
                      for i, b in enumerate(spec.bots) if i not in humans}
    bots = {i: make_bot(b, bot_seed(spec.seed, i)) for i, b in enumerate(spec.bots) if i not in humans}
    return game, bots


def watch_race(spec: RaceSpec, track: Track, stop: Callable[[], bool] | None = None) -> FrameRecorder:
    """Play a bots-only race on `track` and keep its turn frames."""
    game, bots = new_game(spec, track)
    rec = FrameRecorder(game)
    try:
        rec.play_bots(bots, stop)
    finally:
        finish_bots(list(bots.values()), game)
    return rec
