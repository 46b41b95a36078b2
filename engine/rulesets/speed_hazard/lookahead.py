"""The `lookahead:N` bot of the speed-and-hazard ruleset: Monte Carlo rollouts over `game.fork()`.

At the decisions that set the speed of a turn (the secret card, the Brake and Accelerate
amounts, a nitrous draw) it tries every option N times: on a copy of the race it makes the
choice, lets greedy bots drive every car to the end of the next round (`HORIZON`), and
scores where its car got to (progress, the speed it carries against the curve ahead, its
maximum, a wreck or a win) against the rivals. The option with the best mean wins; ties go to
the greedy bot's own choice, which an option must beat by MARGIN on the mean to be taken (a
few rollouts are noisy: deviating on noise lost to greedy). Every other decision is greedy's.

It sees only what a player sees. Each rollout deals the hidden information afresh from the
bot's own generator: the hazard, nitrous and equipment decks are shuffled, the damage dice come
from a new generator, and at the secret choice the cards other seats chose this round are
forgotten (the greedy stand-ins choose again). The same N rollout seeds serve every option of
a decision (common random numbers), so options are compared on the same luck. Deterministic:
the bot's generator is seeded by the race, and its rollouts draw nothing from the race's own.

A rollout is cheap where it can be without changing a choice (issue 36): `fork()` copies only
what play changes and leaves the log and generator behind, nothing is recorded, one greedy bot
stands in for every seat (greedy keeps nothing between decisions), and the decisions of the car
whose turn it is are answered from the turn's options without building a Decision or a log line.
"""

from __future__ import annotations

import random
from typing import Any, Final

from slipstream.engine.play.decisions import Decision
from slipstream.engine.rulesets.speed_hazard import rules
from slipstream.engine.rulesets.speed_hazard.game import SpeedHazardGame
from slipstream.engine.rulesets.speed_hazard.greedy import GreedyBot, speed_value

KINDS: Final = frozenset({"card", "brake", "accelerate"})
HORIZON: Final = 1  # rounds after the current one that a rollout plays
SPEED: Final = 0.5  # worth of the next turn's speed value (greedy's estimate) at the horizon
MAXIMUM: Final = 0.8  # worth of 10 km/h of maximum
RIVALS: Final = 0.3  # weight of the rivals' mean score, subtracted
WRECK: Final = 60.0
WIN: Final = 1000.0
MARGIN: Final = 1.0  # mean score another option must gain over greedy's choice to be taken
DECISION_CAP: Final = 5_000  # per rollout (a round is a few dozen decisions)


class LookaheadBot:
    def __init__(self, seed: int, budget: int = 8, horizon: int = HORIZON) -> None:
        self.rng = random.Random(seed)
        self.budget = max(1, budget)
        self.horizon = horizon
        self.greedy = GreedyBot(seed)
        self.stand_in = GreedyBot(0)  # the greedy bot of every seat in the rollouts
        # the other seats' secret cards in the rollouts of the decision `secret_of`
        self.secret: list[str] = []
        self.secret_of: Decision | None = None

    def choose(self, game: Any, d: Decision) -> str:
        self.secret_of = None
        keys = d.keys()
        fallback = self.greedy.choose(game, d)
        if len(keys) == 1 or d.kind not in KINDS:
            return fallback
        seeds = [self.rng.getrandbits(63) for _ in range(self.budget)]
        base = sum(self.rollout(game, d, fallback, s) for s in seeds)
        best, best_v = fallback, base + MARGIN * len(seeds)  # greedy's choice unless clearly beaten
        for key in keys:
            if key == fallback:
                continue
            v = sum(self.rollout(game, d, key, s) for s in seeds)
            if v > best_v + 1e-9:
                best, best_v = key, v
        return best

    def rollout(self, game: Any, d: Decision, key: str, seed: int) -> float:
        """The score of seat `d.player` after choosing `key` and greedy play to the horizon."""
        me = d.player
        # the race's log and generator are not the rollout's: left out of the copy (a
        # generator's state is 625 numbers to copy; the rollout deals its own dice)
        g: SpeedHazardGame = game.fork()
        rng = random.Random(seed)
        for deck in (g.hazard_deck, g.nitrous_deck, g.equip_deck):
            if SHUFFLE_OK:
                shuffle(rng, deck)
            else:
                rng.shuffle(deck)
        g.rng = random.Random(rng.getrandbits(63))
        if d.kind == "card":  # forget the secret choices already made this round
            others = sorted((set(g._hidden) | set(g.choosing)) - {me})
            g._hidden, g.choosing, g._pending = {}, [me, *others], None
        stop = g.rounds + self.horizon + 1
        bot = self.stand_in  # every seat's: greedy keeps nothing from one decision to the next
        r = g.apply(key)
        assert r is None, r
        n = 0
        if d.kind == "card":
            # the other seats choose their cards now, the same in every rollout of the decision:
            # greedy's card reads the board and the cars, not the decks, dice or secret cards
            if self.secret_of is not d:
                picks: list[str] = []
                while g.choosing:
                    p = g.pending
                    assert p is not None and p.kind == "card"
                    picks.append(bot.choose(g, p))
                    g.play(p, picks[-1])
                    n += 1
                self.secret, self.secret_of = picks, d
            else:
                for pick in self.secret:
                    g.choose_card(pick)
                    n += 1
        while n < DECISION_CAP and not g.over:
            t = g.turn
            if t is not None and t.opts:  # the pending decision of the car whose turn it is
                g.play_turn(bot.pick(g, t.car, t.phase, list(t.opts)))  # no check, no log line
            else:
                p = g.pending
                if p is None or p.kind == "card" and g.rounds >= stop:
                    break
                g.play(p, bot.choose(g, p))
            n += 1
        return score(g, me)


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """`rng.shuffle(x)` as the standard library does it (the same draws of `getrandbits`, the
    same swaps), in compiled code; used only where `SHUFFLE_OK` says it matches."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _shuffles_as_random() -> bool:
    """Does `shuffle` deal as this Python's random.shuffle (same order, same generator state)?"""
    for n in (0, 1, 2, 7, 40, 300):
        a, b = list(range(n)), list(range(n))
        r, q = random.Random(n), random.Random(n)
        r.shuffle(a)
        shuffle(q, b)
        if a != b or r.getrandbits(64) != q.getrandbits(64):
            return False
    return True


SHUFFLE_OK: Final = _shuffles_as_random()


def car_score(g: Any, car: Any) -> float:
    if car.wreck:
        return car.progress - WRECK
    v = car.progress + MAXIMUM * car.maximum / rules.SQUARE_KMH
    if not car.in_pit and car.node >= 0:
        v += SPEED * speed_value(g, car, car.speed)
    return v


def score(g: Any, me: int) -> float:
    if g.winner >= 0:
        return WIN if g.winner == me else -WIN
    mine = car_score(g, g.cars[me])
    rivals = [car_score(g, c) for c in g.cars if c.seat != me]
    return mine - (RIVALS * sum(rivals) / len(rivals) if rivals else 0.0)


def parse(name: str) -> int | None:
    """The budget of a `lookahead:N` bot name (N rollouts per option), None for other names."""
    head, _, n = name.partition(":")
    if head != "lookahead":
        return None
    return int(n) if n.isdigit() and 1 <= int(n) <= 1000 else 8
