"""The look-ahead bot: Monte Carlo rollouts over `Game.copy()` with greedy playouts.

At the decisions that shape the next turns (standard turn or pit stop, what to buy) the bot
tries every option on copies of the game, plays each copy on with greedy bots in every seat
until its own turn has ended `HORIZON` times, and scores the end position: progress net of
the wear owned and, in a field of three cars or more, of the leading rival's progress. Each copy gets a fresh generator
drawn from the bot's own seeded one, so a rollout never peeks at the real draws and never
moves the real game's generator; the same seed gives the same decisions. Every option is
tried against the same sampled draws (common random numbers), so options differ by what
they do, not by luck. Other decisions are the greedy bot's.

What every rollout of an option plays before its first draw does not depend on the seed: it is
played once per option, and each seed's rollout copies the game from there (`_opening`), the
same scores to the bit.

`lookahead:N` sets the budget: N rollouts per searched decision, shared by its options (with
fewer than one each, greedy's choice and the first other options are tried).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from slipstream.engine.core.collector import collector_paused
from slipstream.engine.play.decisions import Decision
from slipstream.engine.rulesets.automobiles.bots import GreedyBot, PlanState
from slipstream.engine.rulesets.automobiles.game import Game
from slipstream.engine.rulesets.automobiles.state import ACTIVE


# Not compiled: a subclass of the standard generator (engine/core/accel.py compiles this module).
@mypyc_attr(native_class=False)
class _LazyRandom(random.Random):
    """A generator that seeds itself only when first drawn from: a playout bot is reset with a
    new seed for every rollout but rarely draws (seeding costs about as much as a dozen
    decisions). Every draw goes through `random` or `getrandbits`, so what it gives after
    `seed(s)` is what `random.Random(s)` gives."""

    _pending: Any = None  # the seed not applied yet

    def seed(self, a: Any = None, version: int = 2) -> None:
        if a is None:  # from the system: now, as random.Random does
            self.gauss_next = None
            self._pending = None
            super().seed(a, version)
        else:
            _reseed(self, a, version)

    def _settle(self) -> None:
        a, version = self._pending
        self._pending = None
        super().seed(a, version)

    def random(self) -> float:
        if self._pending is not None:
            self._settle()
        return super().random()

    def getrandbits(self, k: int) -> int:
        if self._pending is not None:
            self._settle()
        return super().getrandbits(k)

    def getstate(self) -> Any:
        if self._pending is not None:
            self._settle()
        return super().getstate()

    def setstate(self, state: Any) -> None:
        self._pending = None
        super().setstate(state)


def _reseed(rng: random.Random, seed: Any, version: int = 2) -> None:
    """`rng.seed(seed, version)` of a `_LazyRandom`, the seed kept to be applied at the first draw:
    its `seed`, and called directly for the playout bots (a call of the Python method cost a
    fair share of a rollout's start, two bots or more per rollout)."""
    lazy: Any = rng
    lazy.gauss_next = None
    lazy._pending = (seed, version)


# Not compiled: a subclass of the standard generator, as `_LazyRandom`.
@mypyc_attr(native_class=False)
class _Watched(random.Random):
    """A generator that notes when it is drawn from: the game's and the playout bots' while the
    opening of an option's rollouts is worked out (`LookaheadBot._opening`). What it gives does
    not matter: a game that drew from it is thrown away."""

    drawn = False

    def random(self) -> float:
        self.drawn = True
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.drawn = True
        return super().getrandbits(k)


def _state_copier() -> tuple[Any, int, int]:
    """How to copy one generator's state into another at C speed: (ctypes.memmove, offset,
    bytes) of the C part of a `random.Random` (its Mersenne Twister words and their index), or
    (None, 0, 0) where that cannot be done or does not give what seeding gives (checked here on a few
    seeds: the state and the first 700 draws of the copy against `random.Random(seed)`).

    Seeding a generator with a 64-bit seed costs about 4 µs (the Twister's initialisation), a
    fair share of a rollout; the options of one search share their seeds, so each seed is made
    once and copied into the rollout's generator for every option (`_start`). There is no
    public way to copy a generator's state that is cheaper than seeding it (getstate/setstate
    build and read a tuple of 625 ints); this reads the object's own memory, hence the check."""
    try:
        import _random
        import ctypes
    except ImportError:
        return None, 0, 0
    off = object.__basicsize__
    n = _random.Random.__basicsize__ - off
    mm = ctypes.memmove
    for seed in (0, 1, 12345, 2**63 + 7, 2**64 - 1):
        want = random.Random(seed)
        got = random.Random(99)
        got.getrandbits(32)  # a generator in the middle of its stream, as a rollout's is
        src = random.Random(seed)
        mm(id(got) + off, id(src) + off, n)
        blank: Any = got
        blank.gauss_next = None  # (as `seed` leaves it)
        if got.getstate() != want.getstate():
            return None, 0, 0
        if [got.getrandbits(32) for _ in range(700)] != [want.getrandbits(32) for _ in range(700)]:
            return None, 0, 0
    return mm, off, n


_COPIER: Final = _state_copier()
_MEMMOVE: Final[Any] = _COPIER[0]
_OFFSET: Final[int] = _COPIER[1]
_SPAN: Final[int] = _COPIER[2]  # 0: seeded afresh for each rollout


class _Opening:
    """What every rollout of one option plays before its first draw: the game there (`game`),
    the playout bots' plans there and the decisions played after the option (`steps`); or, for
    rollouts that end before any draw, their one score (`game` None)."""

    __slots__ = ("game", "plans", "steps", "stop", "score", "held")

    def __init__(self, game: Game | None, plans: list[PlanState], steps: int, stop: int, score: float,
                 held: list[int] | None = None) -> None:
        self.game = game
        self.plans = plans
        self.steps = steps
        self.stop = stop  # the rollouts' end: `me`'s turns ended then (as in `rollout`)
        self.score = score
        self.held = held  # the players whose End-phase hand is still to draw, in that order (`_resume`)


def _spent(c: Game, rng: _Watched, watched: list[_Watched], n: int) -> bool:
    """Whether an opening's copy `c` can no longer stand for every seed: the game's watched
    generator or one of the `n` bots' has been drawn from, or a hand that `c` holds back
    (Game.holding) has been needed: something read its owner's piles or acted for them, or a
    decision of its owner's is pending (the turn choice apart: `_opening`)."""
    if rng.drawn:
        return True
    for i in range(n):
        if watched[i].drawn:
            return True
    if c.broke:
        return True
    held = c.held
    if held:
        d = c.pending
        return d is not None and d.player in held and d.kind != "turn"
    return False


# Compiled with the bots (engine/core/accel.py); tests and benches subclass it.
@mypyc_attr(allow_interpreted_subclasses=True)
class LookaheadBot(GreedyBot):
    """Greedy play, with rollouts at the turn choice and in the Buy phase."""

    name: ClassVar[str] = "lookahead"
    DEFAULT_BUDGET: ClassVar[int] = 24
    HORIZON: ClassVar[int] = 3  # own turns played to the end in a rollout (this one included)
    SEARCHED: ClassVar[frozenset[str]] = frozenset({"turn", "buy", "purchase"})
    WEAR_COST: ClassVar[float] = 1.0  # segments a wear cube owned is worth
    FINISH_BONUS: ClassVar[float] = 1000.0
    REL: ClassVar[float] = 1.0  # with rivals > 1: segments of the leading rival's distance taken off the score
    MAX_STEPS: ClassVar[int] = 5000  # a safety net: a playout longer than this has gone astray
    HOLD: ClassVar[bool] = True  # openings hold back the End-phase hands (`_opening`)
    CUT: ClassVar[bool] = True  # a rollout's last turn ends short of what no score reads (`_play_on`)

    def __init__(self, seed: int = 0, budget: int | None = None) -> None:
        super().__init__(seed)
        self.budget: int = self.DEFAULT_BUDGET if budget is None else budget
        self._players: list[GreedyBot] = []
        self._rng = random.Random(0)  # the generator of every rollout, seeded afresh for each
        # the search's seeds, each a generator as seeded, copied into `_rng` (`_state_copier`)
        self._seeded: dict[int, random.Random] = {}
        # the generators an option's opening is played with (`_opening`): the game's, the bots'
        self._watched_game = _Watched(0)
        self._watched_bots: list[_Watched] = []
        self.rollouts = 0  # rollouts played so far (for cost figures)

    # ------------------------------------------------------------------ deciding
    def choose(self, game: Game, decision: Decision) -> str:
        if self.budget > 0 and decision.kind in self.SEARCHED and len(decision.options) > 1 \
                and self.worth_searching(game, decision):
            return self.search(game, decision)
        return super().choose(game, decision)

    def worth_searching(self, g: Game, d: Decision) -> bool:
        """A pit stop only removes the active pile's wear: without any, a standard turn is never
        worse, so the turn choice is searched only with wear in hand."""
        if d.kind == "turn":
            w = g.rules.wear
            return w >= 0 and g.race.players[d.player].zones[ACTIVE][w] > 0
        return True

    def search(self, g: Game, d: Decision) -> str:
        """The option with the best mean rollout score (ties: greedy's own choice)."""
        default = super().choose(g, d)
        keys = [default]
        for k in d.keys():
            if k != default:
                keys.append(k)
        if self.budget < len(keys):  # a small budget tries greedy's choice and the first others
            keys = keys[:max(2, self.budget)]
        samples = max(1, self.budget // len(keys))
        getrandbits = self.rng.getrandbits
        seeds = [getrandbits(64) for _ in range(samples)]
        seeded = self._seeded
        seeded.clear()
        if _SPAN:
            for s in seeds:
                seeded[s] = random.Random(s)
        best, best_score = default, float("-inf")
        me = d.player
        # the rollouts make no garbage that outlives them but allocate a great many objects:
        # the cyclic collector pauses meanwhile (as for checking a track, engine/tracks/load.py)
        with collector_paused():
            for key in keys:
                total = 0.0  # summed in the seeds' order, as sum() did: the same floats
                # the decisions a rollout plays before its first draw are the same for every
                # seed: played once for the option, and every seed's rollout goes on from there
                opening = self._opening(g, me, key) if samples > 1 else None
                if opening is None:
                    for s in seeds:
                        total += self.rollout(g, me, key, s)
                elif opening.game is None:  # over before any draw: the same score for every seed
                    for _s in seeds:
                        self.rollouts += 1
                        total += opening.score
                else:
                    last = samples - 1
                    for i in range(samples):  # (the last seed plays on the opening's own game)
                        total += self._resume(opening, me, seeds[i], i == last)
                score = total / samples
                if score > best_score + 1e-9:
                    best, best_score = key, score
        seeded.clear()  # (no generator kept alive past the search: fewer objects for the collector)
        return best

    def rollout(self, g: Game, me: int, key: str, seed: int) -> float:
        """Score of one playout of `key`: greedy bots in every seat, fresh draws from `seed`."""
        c, players = self._start(g, seed)
        stop: int = c.race.stats["turns"][me] + self.HORIZON
        c.apply(key)
        return self._play_on(c, players, me, stop, 0)

    def _start(self, g: Game, seed: int, spend: bool = False) -> tuple[Game, list[GreedyBot]]:
        """A rollout's copy of `g`, drawing from `seed`, and its playout bots (one rollout more).
        With `spend`, `g` is no longer needed (an opening's game at its last seed): the rollout
        plays on it, drawing from `seed`, rather than on a copy (a copy takes nothing else from
        a game that `g` does not already hold as its own: Game.__init__'s `fork`)."""
        self.rollouts += 1
        rng = self._rng
        # the draws of random.Random(seed); the copy takes no generator state
        got = self._seeded.get(seed) if _SPAN else None
        if got is not None:
            _MEMMOVE(id(rng) + _OFFSET, id(got) + _OFFSET, _SPAN)
            blank: Any = rng
            blank.gauss_next = None  # (as `seed` leaves it)
        else:
            rng.seed(seed)
        if spend:
            g.race.rng = rng
        c = g if spend else g.copy(rng=rng)
        return c, self._playout_bots(len(c.race.players), seed)

    def _play_on(self, c: Game, players: list[GreedyBot], me: int, stop: int, steps: int) -> float:
        """The rest of a rollout: greedy decisions until `me` has ended its turn `stop` times
        (or the race is over), `steps` decisions played already; then the score."""
        turns: list[int] = c.race.stats["turns"]
        limit = self.MAX_STEPS
        if self.CUT:  # its last turn may end short of what no score reads (phases.py `rollout_over`)
            c.last_player, c.last_turns = me, stop
        while True:
            d = c.pending
            if d is None or turns[me] >= stop:
                break
            c.apply(players[d.player].choose_greedy(c, d))
            steps += 1
            if steps > limit:
                break
        return self.evaluate(c, me)

    def _opening(self, g: Game, me: int, key: str) -> _Opening | None:
        """What every rollout of `key` plays before its first draw (None: the option draws, or
        its first decision does).

        A rollout differs from seed to seed by its draws only (the game's generator and the
        playout bots'): up to the first draw, every seed plays the same decisions. A first pass,
        on a copy drawing from watched generators, finds how many decisions come before it; that
        copy is spoilt by the draw, made in the middle of a decision, so a second pass plays them
        on a fresh copy, which every seed's rollout copies in turn (`_resume`). The playout bots
        carry a plan from one decision to the next (`GreedyBot.plan_state`): the opening keeps
        theirs. A rollout that ends before any draw has one score for every seed.

        The first draw is most often `me`'s new hand at the end of its turn, and the rival who
        plays next leaves it alone: the openings hold the End-phase hands back (Game.holding)
        and play on, to the next draw or until something needs a held hand (its
        owner's piles read, a step for the owner, a decision of the owner's: `_spent`). Every seed's
        rollout then draws the held hands first thing, in the order they were due: the
        generator is where it would have been (nothing drew in between) and so are their
        owners' piles (nothing touched them), so the hands, and everything after, are the same.
        The turn choice of a player whose hand is held is made from nothing the hand changes
        (the choice itself is fixed, and what comes before it in a turn's start that might read
        the piles acts for its owner, which ends the hold): an opening that reaches it untouched
        ends there, whole, in one pass. Most do: `me`'s turn, the rivals' turns, up to `me`'s
        next turn choice, are played once per option rather than once per seed."""
        n = len(g.race.players)
        stop: int = g.race.stats["turns"][me] + self.HORIZON
        hold = self.HOLD
        rng = self._watched_game
        watched = self._watched_bots
        while len(watched) < n:
            watched.append(_Watched(0))
        players = self._playout_bots(n, 0)
        kept = [p.rng for p in players]
        for i in range(n):
            players[i].rng = watched[i]
        try:
            found = -1  # the decisions before the first draw (the first pass's finding)
            for build in (False, True):
                rng.drawn = False
                for i in range(n):
                    players[i].reset_plan()
                    watched[i].drawn = False
                c = g.copy(rng=rng)
                c.holding = hold
                c.apply(key)
                turns: list[int] = c.race.stats["turns"]
                steps = 0
                whole = False  # the pass reached a held hand's owner's turn choice untouched
                while not build or steps < found:
                    if _spent(c, rng, watched, n):
                        break
                    d = c.pending
                    # over before any draw (a hand held back changes no score: it moves cubes
                    # from bag to hand, not the wear owned, nor any car)
                    if d is None or turns[me] >= stop:
                        return _Opening(None, [], steps, stop, self.evaluate(c, me))
                    if c.held and d.player in c.held:  # (its turn choice: `_spent` lets it by)
                        whole = True
                        break
                    c.apply(players[d.player].choose_greedy(c, d))
                    steps += 1
                    if steps > self.MAX_STEPS:  # as `_play_on`: cut short alike for every seed
                        if _spent(c, rng, watched, n):
                            return None
                        return _Opening(None, [], steps, stop, self.evaluate(c, me))
                if whole:
                    found = steps
                    break
                if _spent(c, rng, watched, n):
                    if build:  # (cannot be: the second pass plays what the first did)
                        return None
                    found = steps - 1  # the last decision drew (or needed a held hand)
                    if found < 1:
                        return None
            held = c.held
            c.holding = False
            c.held = []
            return _Opening(c, [p.plan_state() for p in players], found, stop, 0.0, held)
        finally:
            for i in range(n):
                players[i].rng = kept[i]

    def _resume(self, o: _Opening, me: int, seed: int, last: bool = False) -> float:
        """`rollout` of the opening's option with `seed`: from the end of the opening, which
        every seed plays alike. The `last` rollout of the opening plays on its game itself,
        which is then spent (`_start`)."""
        game = o.game
        assert game is not None
        c, players = self._start(game, seed, last)
        held = o.held
        if held is not None:  # the hands held back, drawn where they would have been (`_opening`)
            for p in held:
                c.draw_hand(p)
        plans = o.plans
        for i in range(len(players)):
            players[i].set_plan_state(plans[i])
        return self._play_on(c, players, me, o.stop, o.steps)

    def _playout_bots(self, n: int, seed: int) -> list[GreedyBot]:
        players = self._players
        while len(players) < n:
            b = GreedyBot(0)
            b.rng = _LazyRandom(0)
            players.append(b)
        for i in range(n):  # (`GreedyBot.reset`, the generator's `seed` written out: `_reseed`)
            b = players[i]
            _reseed(b.rng, seed + i)
            b.reset_plan()
        # one gear planner for every seat (its plans depend on its arguments and the other cars
        # only; it keeps the memos of the contexts it saw: gearplan.py)
        planner = players[0]._planner
        if planner is not None:
            for i in range(1, n):
                players[i]._planner = planner
        return players

    # ------------------------------------------------------------------ scoring
    def evaluate(self, g: Game, me: int) -> float:
        """Progress net of the wear owned (and of the leading rival's progress when there are
        two rivals or more), with a bonus for finishing first."""
        race = g.race
        rs = g.rules
        p = race.players[me]
        score = float(g.distance(me))
        n = len(race.players)
        if self.REL and n > 2:
            lead = max(g.distance(i) for i in range(n) if i != me)
            score -= self.REL * lead
        w = rs.wear
        if w >= 0:
            owned = 0
            for z in p.zones:
                owned += z[w]
            score -= self.WEAR_COST * owned
        if race.over:
            score += self.FINISH_BONUS if g.standings()[0] == me else -self.FINISH_BONUS
        return score


def make_lookahead(seed: int, arg: str) -> LookaheadBot:
    """`lookahead` or `lookahead:N` (N rollouts per searched decision, 0 = plain greedy)."""
    if not arg:
        return LookaheadBot(seed)
    if not arg.isdigit() or int(arg) > 100_000:
        raise ValueError(f"lookahead takes a rollout budget 0..100000, not {arg!r}")
    return LookaheadBot(seed, int(arg))
