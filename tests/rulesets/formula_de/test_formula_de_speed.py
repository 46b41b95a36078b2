"""The Formula Dé-style bots' shortcuts change no choice: greedy and the look-ahead bot decide
exactly as the plain algorithms written out below (every gear worked out to the end, every
destination rated through `prepare_at` and `finish`, full copies of the game, the pending
decision read as the rules offer it), and the state a bot plays on (`rollout`, the reachable
squares kept by the game) is the state the rules would have."""

from __future__ import annotations

import dataclasses
import random

import pytest

from slipstream.engine.play.races import bot_seed, seats_of
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.formula_de import lookahead as la
from slipstream.engine.rulesets.formula_de import rules
from slipstream.engine.rulesets.formula_de.bots import GreedyBot, make_bot
from slipstream.engine.rulesets.formula_de.moves import reach
from slipstream.engine.rulesets.formula_de.ruleset import RULESET
from slipstream.engine.rulesets.formula_de.scoring import (
    OUT,
    WEAR,
    Scorer,
    destinations,
    gear_values,
    pit_choice,
)

from .test_formula_de_bots import new_game, play

# --- the plain algorithms ---------------------------------------------------------------------


def plain_best(sc, layers, roll, gear):
    brakes = sc.game.points(sc.car, "brakes")
    return max(sc.finish(sc.prepare_at(*dest), gear) for dest in destinations(layers, roll, brakes))


def plain_layers(game, car, roll):
    start = game.track.spaces[car.node].first
    from slipstream.engine.rulesets.formula_de.moves import exits

    lock = {roll - e.past + 1 for e in exits(game.track, start, roll, car.corner, car.stops)}
    return reach(game.track, car.node, roll, game.occupied(car.seat), lock)


def plain_gear_values(game, car, keys):
    sc = Scorer(game, car, game.occupied(car.seat))
    top = max(f for k in keys for f in game.tables.gears[int(k.split()[1]) - 1])
    layers = plain_layers(game, car, top)
    out = {}
    for key in keys:
        g = int(key.split()[1])
        faces = game.tables.gears[g - 1]
        total = 0.0
        for roll in set(faces):
            total += faces.count(roll) * plain_best(sc, layers, roll, g)
        out[key] = total / len(faces) - WEAR * sum((rules.downshift_cost(car.gear, g) or {}).values())
    return out


class PlainGreedy:
    def choose(self, game, d):
        car = game.cars[game.turn.car]
        if d.kind == "pit" or (d.kind == "gear" and car.pit >= 0):
            return pit_choice(game, car, d)
        if d.kind == "move":
            t = game.turn
            sc = Scorer(game, car, game.occupied(car.seat))
            return max(d.keys(), key=lambda k: sc.score(t.targets[k], car.gear))
        if not car.started:
            return d.keys()[0]
        values = plain_gear_values(game, car, d.keys())
        return max(values, key=values.__getitem__)


class PlainLookahead:
    """The look-ahead bot as first written: full copies, every leaf rated to the end."""

    def __init__(self, seed, budget=la.DEFAULT_BUDGET):
        self.dice = random.Random(seed)
        self.budget = budget

    def choose(self, game, d):
        car = game.cars[d.player]
        if d.kind == "pit" or (d.kind == "gear" and car.pit >= 0):
            return pit_choice(game, car, d)
        if d.kind == "move":
            t = game.turn
            sc = Scorer(game, car, game.occupied(car.seat))
            ranked = sorted(d.keys(), key=lambda k: -sc.score(t.targets[k], car.gear))
            best, best_v = ranked[0], float("-inf")
            for key in ranked[: self.budget]:
                v = self.after(self.sim(game), car, key)
                if v > best_v:
                    best, best_v = key, v
            return best
        if not car.started or len(d.keys()) == 1:
            return d.keys()[0]
        greedy = plain_gear_values(game, car, d.keys())
        best, best_v = max(greedy, key=greedy.__getitem__), float("-inf")
        for key in d.keys():
            if greedy[key] < greedy[best] - la.HOPELESS:
                continue
            shifted = self.sim(game)
            shifted.apply(key)
            t = shifted.turn
            if t is None or t.car != car.seat or t.phase != "move":
                v = self.rate(shifted, car)
            else:
                g = shifted.cars[car.seat].gear
                faces = game.tables.gears[g - 1]
                total = 0.0
                layers = plain_layers(shifted, shifted.cars[car.seat], max(faces))
                for roll in sorted(set(faces)):
                    total += faces.count(roll) * self.roll_value(shifted, car, g, roll, layers)
                v = total / len(faces)
            if v > best_v:
                best, best_v = key, v
        return best

    def sim(self, game):
        sim = game.copy()
        sim.record = False
        sim.rng = self.dice
        return sim

    def roll_value(self, shifted, car, gear, roll, layers):
        me = shifted.cars[car.seat]
        targets = shifted.targets(me, roll, layers)
        sc = Scorer(shifted, me, shifted.occupied(me.seat))
        ranked = sorted(targets, key=lambda k: -sc.score(targets[k], gear))
        best = float("-inf")
        for key in ranked[: self.budget]:
            sim = self.sim(shifted)
            t = sim.turn
            t.roll, t.targets = roll, dict(targets)
            t.strained = rules.engine_strained(gear, roll, sim.tables.gears[gear - 1])
            best = max(best, self.after(sim, car, key))
        return best

    def after(self, sim, car, key):
        sim.apply(key)
        return self.rate(sim, car)

    def rate(self, sim, before):
        me = sim.cars[before.seat]
        if me.out:
            return OUT
        value = float(me.progress - before.progress)
        if me.finished:
            return value + la.FINISH
        for k, left in me.wear.items():
            spent = before.wear[k] - left
            if spent > 0:
                value -= WEAR * spent * (1.0 + 1.0 / (left + 1))
        keys = [f"gear {g}" for g in sim.gears(me.seat)]
        if keys:
            value += max(plain_gear_values(sim, me, keys).values())
        return value


# --- the same races ---------------------------------------------------------------------------


def twins(seed, bots, laps, options, plain):
    """The race with the bots as they are, and the same race with `plain` bots in their seats."""
    fast, fast_bots = new_game(seed, bots, laps, options)
    slow, slow_bots = new_game(seed, bots, laps, options)
    for i, name in enumerate(bots):
        if name in plain:
            slow_bots[i] = plain[name](fast_bots[i])
    return (fast, fast_bots), (slow, slow_bots)


def plain_twin(bot):
    if isinstance(bot, GreedyBot):
        return PlainGreedy()
    twin = PlainLookahead(0, bot.budget)
    twin.dice.setstate(bot.dice.getstate())
    return twin


@pytest.mark.parametrize("seed, bots, laps, options", [
    (3, ("greedy", "greedy", "greedy", "greedy", "random"), 2, {}),
    (11, ("greedy", "random", "greedy"), 3, {"wear_model": "basic", "collision_diagonal": False}),
    (4, ("greedy",) * 6, 1, {"tyre_limit_counts": "all", "cars_per_player": 2}),
])
def test_greedy_chooses_as_the_plain_algorithm(seed, bots, laps, options):
    (fast, fast_bots), (slow, slow_bots) = twins(seed, bots, laps, options, {"greedy": plain_twin})
    play(fast, fast_bots)
    play(slow, slow_bots)
    assert fast.log == slow.log and len(fast.log) > 100


def placed(options, me, other):
    """A race of two cars, the first (started, in 3rd gear) on square `me`, the other on `other`."""
    game, _ = new_game(1, ("greedy", "greedy"), 2, options)
    for car, node in zip(game.cars, (me, other), strict=True):
        car.node, car.started, car.gear, car.corner, car.stops = node, True, 3, -1, 0
    return game


def test_ratings_kept_between_races_are_kept_apart_by_the_rules_they_were_worked_out_for():
    # the same position under either collision rule, one after the other in one process: what
    # one rule gave (a car diagonally ahead is a neighbour or not) is never taken for the other's
    keys = ["gear 2", "gear 3", "gear 4"]
    game = placed({}, 0, 0)
    me = game.track.spaces.index(game.track.space_at(1, 10))
    differ = 0
    for other in range(len(game.track.spaces)):
        if other == me or not 1 <= (game.track.spaces[other].first - 10) % game.track.segments <= 10:
            continue
        diag, square = placed({}, me, other), placed({"collision_diagonal": False}, me, other)
        want = [plain_gear_values(g, g.cars[0], keys) for g in (diag, square)]
        differ += want[0] != want[1]
        for g, w in zip((diag, square, diag), (*want, want[0]), strict=True):
            assert gear_values(g, g.cars[0], keys) == w
    assert differ > 0


@pytest.mark.parametrize("seed, bots, laps, options", [
    (2, ("lookahead", "greedy", "greedy"), 1, {}),
    (7, ("lookahead:2", "random", "lookahead:1"), 1, {"wear_model": "basic"}),
    (5, ("greedy", "lookahead"), 2, {"pit_entry_max_gear": 4, "collision_diagonal": False}),
])
def test_the_lookahead_bot_chooses_as_the_plain_algorithm(seed, bots, laps, options):
    plain = {"lookahead": plain_twin, "lookahead:1": plain_twin, "lookahead:2": plain_twin, "greedy": plain_twin}
    (fast, fast_bots), (slow, slow_bots) = twins(seed, bots, laps, options, plain)
    play(fast, fast_bots)
    play(slow, slow_bots)
    assert fast.log == slow.log
    assert sum(e["t"] == "decision" and bots[e["p"]].startswith("lookahead") for e in fast.log) > 20


def test_gear_values_with_a_slack_keep_the_best_and_every_gear_within_it():
    checked = pruned = 0
    for seed in range(3):
        game, bots = new_game(seed, ("greedy", "random", "greedy", "random"))
        while game.pending is not None:
            d = game.pending
            car = game.cars[game.turn.car]
            if d.kind == "gear" and car.started and car.pit < 0 and len(d.keys()) > 1:
                full = plain_gear_values(game, car, d.keys())
                assert gear_values(game, car, d.keys()) == full
                top = max(full.values())
                for slack in (0.0, 5.0, la.HOPELESS):
                    got = gear_values(game, car, d.keys(), slack)
                    for key, v in got.items():
                        if v == float("-inf"):
                            assert full[key] < top - slack
                            pruned += 1
                        else:
                            assert v == full[key]
                    assert max(got, key=got.__getitem__) == max(full, key=full.__getitem__)
                checked += 1
            game.apply(bots[d.player].choose(game, d))
    assert checked > 100 and pruned > 100


def test_a_rollout_plays_on_as_a_copy_and_refilled_rollouts_as_new_ones():
    game, bots = new_game(6, ("greedy",) * 4, laps=2, options={"cars_per_player": 2})
    for _ in range(120):
        d = game.pending
        game.apply(bots[d.player].choose(game, d))
    used = None
    for start in range(3):  # play on from three positions, the rollout filled again each time
        for _ in range(17):
            d = game.pending
            game.apply(bots[d.player].choose(game, d))
        copy = game.copy()
        copy.record, copy.rng = False, random.Random(start)
        used = game.rollout(random.Random(start), used)
        assert used.quiet and used.turn is not game.turn and all(a is not b for a, b in zip(used.cars, game.cars, strict=True))
        state = (game.rng.getstate(), list(game.log), [dict(c.wear) for c in game.cars], game.turn)
        for sim in (copy, used):
            _, twins_ = new_game(6, ("greedy",) * 4, 2, {"cars_per_player": 2})
            play(sim, twins_)
        assert used.log == [] and used.standings() == copy.standings() and len(copy.log) > 200
        assert used.rng.getstate() == copy.rng.getstate() and used.rounds == copy.rounds
        assert [vars_of(c) for c in used.cars] == [vars_of(c) for c in copy.cars]
        assert (game.rng.getstate(), game.log, [c.wear for c in game.cars], game.turn) == state


def vars_of(car):
    return {f.name: getattr(car, f.name) for f in dataclasses.fields(car)}


def test_the_reachable_squares_kept_are_those_of_the_position():
    checked = 0
    for seed in range(4):
        game, bots = new_game(seed, ("greedy", "random", "greedy", "random", "greedy"))
        while game.pending is not None:
            d = game.pending
            car = game.cars[game.turn.car]
            if car.pit < 0 and not car.out:
                for roll in (30, 7, 12, 3, 30):  # kept, cut from a larger roll, worked out again
                    assert game.layers(car, roll) == plain_layers(game, car, roll)
                checked += 1
            game.apply(bots[d.player].choose(game, d))
    assert checked > 300


@pytest.mark.parametrize("pack", ["designer-formula-de", "designer-formula-de-deck"])
def test_the_lookahead_bot_chooses_as_the_plain_algorithm_in_the_weather(pack):
    # a designer pack's weather (by schedule, by deck): a rollout carries it as a copy does
    from .fd_designer_races import PACKS_DIR, TRACK

    loaded = load_pack(str(PACKS_DIR / pack))
    assert loaded.tables.design.weather is not None
    bots = ("lookahead:2", "greedy", "greedy")
    games = []
    for plain in (False, True):
        game = RULESET.new_game(loaded, loaded.tracks[TRACK], seats_of(bots), 3, {}, 2)
        players = [make_bot(b, bot_seed(3, i)) for i, b in enumerate(bots)]
        if plain:
            players = [plain_twin(p) for p in players]
        games.append(play(game, players))
    fast, slow = games
    assert fast.log == slow.log
    assert any(e.get("ev") == "weather" for e in fast.log)
