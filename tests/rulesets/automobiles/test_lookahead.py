"""The look-ahead bot: legal, deterministic, blind to the real draws, and it pits rather than stall."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from slipstream.engine.play.decisions import Decision
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.rulesets.automobiles.bots import GreedyBot, play_out
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.effects import memory
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.lookahead import LookaheadBot
from slipstream.engine.rulesets.automobiles.phases import ROLLOUT_OVER
from slipstream.engine.rulesets.automobiles.racesetup import load_pack_cached
from slipstream.engine.rulesets.automobiles.roster import make_bot
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack

from .tiny import game, track, zone

PACKS = Path(__file__).resolve().parents[2] / "packs"

SHORT = ("3 4x2 5x3 6x4 3 3 4x2 5x3 3 4x2", "4x2 3 3 5x3 6x4 4x2 3 5x3 3 3 3",
         "5x2 4x2 3x3 6x2 3 5x3 4x2 3 6x2 3x2")


def test_the_lookahead_bot_never_applies_an_illegal_option_over_200_races() -> None:
    # short races (a 20-segment track, one lap) with every card set and a small budget keep
    # this fast; play_out raises on an illegal option
    pack = base_pack()
    sets = sorted(pack.card_sets)
    short = track(*SHORT, grid=[(0, 0), (1, 0), (2, 0)])
    rules_of = {cs: ruleset_from_pack(pack, cs) for cs in sets}
    searched = 0
    for seed in range(200):
        rules = rules_of[sets[seed % len(sets)]]
        n = 2 + seed % 2
        tr = pack.tracks["road-course"] if seed % 50 == 0 else short
        g = Game(rules, tr, [Seat(f"P{i + 1}") for i in range(n)], seed=seed, laps=1, record=False)
        bots = [LookaheadBot(seed, budget=2), *(make_bot(("greedy", "random")[i % 2], seed + i)
                                                 for i in range(n - 1))]
        play_out(g, bots)
        assert g.over
        searched += bots[0].rollouts
    assert searched > 1000  # the rollouts really ran


def race_log(bots: tuple[str, ...], seed: int) -> list[dict]:
    return run_race(RaceSpec("", "first-oval", seed, bots, laps=1)).log


def test_same_seed_same_decisions() -> None:
    one = race_log(("lookahead:6", "greedy", "lookahead:6"), 5)
    two = race_log(("lookahead:6", "greedy", "lookahead:6"), 5)
    assert one == two
    assert one != race_log(("greedy", "greedy", "greedy"), 5)  # the rollouts changed decisions


def test_a_budget_of_zero_is_the_greedy_bot() -> None:
    assert race_log(("lookahead:0", "greedy"), 9) == race_log(("greedy", "greedy"), 9)


def test_rollouts_leave_the_real_game_and_its_generator_alone() -> None:
    pack = base_pack()
    g = Game(ruleset_from_pack(pack), pack.tracks["first-oval"], [Seat("A"), Seat("B")], seed=3)
    bot = LookaheadBot(1, budget=8)
    greedy = GreedyBot(2)
    checked = 0
    while g.pending is not None and checked < 6:
        d = g.pending
        if d.player == 0 and d.kind in bot.SEARCHED and len(d.options) > 1:
            state, snap, log = g.race.rng.getstate(), g.snapshot(), list(g.log)
            counts = {k: [r[:] if isinstance(r, list) else r for r in v] for k, v in g.race.stats.items()}
            before = bot.rollouts
            key = bot.choose(g, d)
            assert bot.rollouts > before or d.kind == "turn"
            assert g.race.rng.getstate() == state and g.snapshot() == snap and g.log == log
            # what the rollouts played and bought is not counted in the race (cards read it)
            assert g.race.stats == counts
            assert d.option(key) is not None
            checked += bot.rollouts > before
        else:
            key = (bot if d.player == 0 else greedy).choose(g, d)
        assert g.apply(key) is None
    assert checked == 6


def test_it_pits_where_greedy_would_stand_still() -> None:
    # an all-white track: the dark gears in hand cannot be placed, so a standard turn moves
    # nothing; the pit stop at least clears the three wear cubes in hand
    tr = track("3 3 3 3 3 3 3 3 3 3 3 3", "3 3 3 3 3 3 3 3 3 3 3 3")
    players = [{"car": {"lane": 0, "segment": 2}, "active": {"wear": 3, "gear-6": 2, "gear-5": 2},
                "bag": {"gear-3": 7}},
               {"car": {"lane": 1, "segment": 1}, "active": {"gear-3": 3}, "bag": {"gear-3": 7}}]
    g = game(tr, players, start="turn")
    d = g.pending
    assert d is not None and d.kind == "turn" and d.player == 0
    assert GreedyBot(0).choose(g, d) == "standard"
    assert LookaheadBot(0, budget=8).choose(g, d) == "pit"


@pytest.mark.parametrize("name, message", [
    ("lookahead:x", "lookahead takes a rollout budget"),
    ("greedy:3", "bot 'greedy' takes no setting"),
    ("clever", "unknown bot 'clever'"),
])
def test_bot_names_with_settings(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(name, 0)
    assert make_bot("lookahead:50", 0).budget == 50  # type: ignore[attr-defined]


def still_turns_in_log(log: list[dict]) -> tuple[int, int]:
    """(standard turns in which the player's car entered no space, all turns), read from a log."""
    still = turns = 0
    cur, moved, standard = None, False, False
    for e in log:
        if e.get("t") != "event":
            continue
        if e["ev"] == "turn":
            still += cur is not None and standard and not moved
            turns += 1
            cur, moved, standard = e["p"], False, e["choice"] == "standard"
        elif e["ev"] == "decline" and e["p"] == cur:
            moved = True  # the Decline phase runs on the spaces the car entered
    still += cur is not None and standard and not moved
    return still, turns


def test_batch_statistics_count_the_turns_standing_still() -> None:
    from slipstream.engine.rulesets.automobiles.stats import format_summary, summarise

    results = [run_race(RaceSpec("", "first-oval", s, ("greedy", "greedy", "random"), laps=1)) for s in (1, 2)]
    counted = [still_turns_in_log(r.log) for r in results]
    still, turns = sum(c[0] for c in counted), sum(c[1] for c in counted)
    s = summarise(results)
    assert still > 0
    assert s["still_turn_rate"] == round(still / turns, 4)
    assert s["bots"] == ["greedy", "greedy", "random"]
    assert "bots by seat: greedy, greedy, random" in format_summary(s)


def test_with_two_rivals_or_more_the_score_counts_the_gap_to_the_leading_rival() -> None:
    tr = track("3 3 3 3 3 3 3 3 3 3 3 3", "3 3 3 3 3 3 3 3 3 3 3 3")

    def score(rivals: list[int]) -> float:
        players = [{"car": {"lane": 0, "segment": 2}, "bag": {"gear-3": 7}},
                   *({"car": {"lane": 1, "segment": s}, "bag": {"gear-3": 7}} for s in rivals)]
        return LookaheadBot(0).evaluate(game(tr, players, start="turn"), 0)

    # one against one only the bot's own position counts
    assert score([1]) == score([5])
    # in a field the leading rival's distance is taken off, the trailing ones do not matter
    assert score([1, 5]) < score([1, 4]) < score([1, 1])
    assert score([1, 5]) == score([0, 5])


def _searched_decisions(pack: Any, races: int, searched_per_race: int) -> Iterator[tuple[int, Game, Decision]]:
    """The first `searched_per_race` decisions that a look-ahead in seat 0 would search, in
    `races` short races of `pack` (2-4 players, drivers in every other race, the pack's card sets
    in turn, greedy bots playing every seat): (race seed, game, decision), the game at it."""
    sets = sorted(pack.card_sets)
    drivers = sorted(pack.drivers)
    for seed in range(races):
        n = 2 + seed % 3
        seats = [Seat(f"P{i + 1}", driver=drivers[(seed + i) % len(drivers)] if seed % 2 and drivers else None)
                 for i in range(n)]
        g = Game(ruleset_from_pack(pack, sets[seed % len(sets)]), pack.tracks[("first-oval", "road-course")[seed % 2]],
                 seats, seed=seed, laps=1, record=False)
        greedy = [GreedyBot(seed + i) for i in range(n)]
        searched = 0
        while g.pending is not None and searched < searched_per_race:
            d = g.pending
            if d.player == 0 and d.kind in LookaheadBot.SEARCHED and len(d.options) > 1:
                searched += 1
                yield seed, g, d
            assert g.apply(greedy[d.player].choose(g, d)) is None


def _openings_against_rollouts(pack: Any, races: int, searched_per_race: int) -> tuple[int, int]:
    """Every option's opening (`_opening`) at the searched decisions of `_searched_decisions`,
    each seed's score from it checked against a rollout from the real game; returns how many
    openings were resumed from and how many of those held a hand back."""
    opened = held = 0
    for seed, g, d in _searched_decisions(pack, races, searched_per_race):
        bot = LookaheadBot(seed, budget=6)
        for key in d.keys():
            o = bot._opening(g, 0, key)
            if o is None:
                continue
            for s in (seed, 2**63 + seed, 12345):  # the last on the opening's own game
                want = bot.rollout(g, 0, key, s)
                got = o.score if o.game is None else bot._resume(o, 0, s, s == 12345)
                assert got == want, (seed, d.kind, key, s)
            opened += o.game is not None
            held += o.game is not None and bool(o.held)
    return opened, held


def test_an_options_opening_gives_every_seed_the_score_of_its_own_rollout() -> None:
    # the search plays what every seed's rollout of an option plays before its first draw once
    # (`_opening`), holding back the searching player's next hand while nothing needs it, and
    # each seed goes on from there (`_resume`): the same score, to the bit, as a rollout from
    # the real game (the plans the playout bots carry included)
    opened, held = _openings_against_rollouts(base_pack(), 12, 8)
    assert opened > 50  # openings were found and resumed from
    assert held > 100  # most of them held the hand back (the next player's turn played once)


@pytest.mark.parametrize("name", ["designer-cards", "designer-cards-2"])
def test_openings_hold_no_hand_that_the_next_turns_need(name: str) -> None:
    # the designer packs' cards read and take from other players' piles (`take`, counts over
    # `whose: others`), offer effects to them (`others`) and react to their moves (`watch`):
    # whatever needs the held hand ends the opening before it (Game.hold), the same scores
    opened, held = _openings_against_rollouts(load_pack_cached(str(PACKS / name)), 16, 10)
    assert opened > 200
    assert held > 100


class _Counting(LookaheadBot):
    """Counts the rollouts that ended at ROLLOUT_OVER (their last turn cut short)."""

    cut = 0

    def _play_on(self, c: Game, players: list[GreedyBot], me: int, stop: int, steps: int) -> float:
        score = super()._play_on(c, players, me, stop, steps)
        self.cut += c.pending is ROLLOUT_OVER
        return score


class _Whole(LookaheadBot):
    CUT = False  # every rollout's last turn played out, as before the cut


def _cut_against_whole(pack: Any, races: int, searched_per_race: int) -> tuple[int, int]:
    """At the searched decisions of `_searched_decisions`, every option's rollout for a few
    seeds scored with its last turn cut short where `rollout_over` allows it and played out
    whole: the same score; returns how many rollouts were cut and how many were not."""
    rollouts = cut = 0
    for seed, g, d in _searched_decisions(pack, races, searched_per_race):
        short, whole = _Counting(seed, budget=6), _Whole(seed, budget=6)
        for key in d.keys():
            for s in (seed, 2**63 + seed, 12345):
                assert short.rollout(g, 0, key, s) == whole.rollout(g, 0, key, s), (seed, d.kind, key, s)
                rollouts += 1
        cut += short.cut
    return cut, rollouts - cut


def test_a_rollouts_last_turn_cut_short_scores_as_played_out() -> None:
    # the clean-up, the new hand and the next turn's start that end a rollout are skipped
    # (phases.py `rollout_over`) unless a driver's End-phase hook, an effect scheduled for
    # after the turn (Crate Motor's) or one for a next turn's start may run there
    cut, whole = _cut_against_whole(base_pack(), 12, 8)
    assert cut > 500 and whole > 50  # both ways were taken


def test_a_rollouts_last_turn_plays_out_whatever_its_end_may_run() -> None:
    # the designer packs schedule effects for the next turn's start, and their drivers have
    # End-phase hooks: those rollouts are played out, the others cut, the same scores
    cut, whole = _cut_against_whole(load_pack_cached(str(PACKS / "designer-cards")), 12, 8)
    assert cut > 200 and whole > 50


def test_a_rollout_over_copy_has_no_option_to_play() -> None:
    g = _last_turn(TWO)  # a rollout ending with this turn
    assert g.pending is not None and g.pending.kind == "turn" and g.pending.player == 0
    assert g.apply("pit") is None  # a pit stop: straight to the End phase, cut there
    assert g.pending is ROLLOUT_OVER and g.race.stats["turns"] == [1, 0]
    # no new hand: it would have refilled the empty bag from the discard and drawn from it
    assert zone(g, 0, "discard") == {"gear-3": 5} and zone(g, 0, "active") == {}
    assert g.race.turn is None  # and no next turn started
    rejected = g.apply("standard")
    assert rejected is not None and rejected.code == "not-an-option"


def _last_turn(players: list[dict[str, Any]], rules: Any = None) -> Game:
    """P1 at the start of a look-ahead rollout's last turn (Game.last_player, last_turns)."""
    g = game(track(*SHORT[:2]), players, rules, start="turn", record=False)
    g.last_player, g.last_turns = 0, 1
    return g


def _wear(g: Game, i: int) -> int:
    w = g.rules.wear
    return sum(z[w] for z in g.race.players[i].zones)


TWO = [{"car": {"lane": 0, "segment": 3}, "active": {"gear-3": 5}},
       {"car": {"lane": 1, "segment": 1}, "active": {"gear-3": 5}}]


def test_a_rollouts_last_turn_plays_out_an_effect_scheduled_after_it() -> None:
    g = _last_turn(TWO)
    t = g.race.turn
    assert t is not None
    t.scheduled["k"] = ("after_end", [{"gain_wear": 1}], 0)  # as `schedule: {at: after_end}` keeps it
    assert g.apply("pit") is None
    assert _wear(g, 0) == 1  # it ran: the turn was not cut short
    assert g.pending is not None and g.pending.kind == "turn" and g.pending.player == 1


def test_a_rollouts_last_turn_plays_out_the_next_players_scheduled_turn_start() -> None:
    g = _last_turn(TWO)
    # P2 scheduled, in an earlier turn, an effect for its next turn's start that gives P1 wear
    memory(g, 1).later.append(("next_turn_start", "k", [{"others": {"effect": [{"gain_wear": 1}], "mandatory": True}}]))
    assert g.apply("pit") is None
    assert _wear(g, 0) == 1
    assert g.pending is not None and g.pending.kind == "turn" and g.pending.player == 1


def test_a_rollouts_last_turn_plays_out_a_drivers_end_phase_hook() -> None:
    pack = base_pack()
    rules = ruleset_from_pack(pack, sorted(pack.card_sets)[0])
    # Micah Conner may return wear from the board before drawing: a decision that changes the score
    g = _last_turn([{**TWO[0], "driver": "micah-conner", "used": {"wear": 2}}, TWO[1]], rules)
    assert g.apply("pit") is None
    assert g.pending is not ROLLOUT_OVER and g.pending is not None and g.pending.player == 0


def _holding(effects: list[Any] | None = None) -> Game:
    """Two cars, P1's next hand held back (as in an opening), then `effects` run for P2 (a
    position with no turn: its race ends when its stack runs out, so effects run once)."""
    tr = track(*SHORT[:2])
    g = game(tr, [{"car": {"lane": 0, "segment": 3}, "bag": {"gear-3": 5}, "discard": {"gear-4": 2}},
                  {"car": {"lane": 1, "segment": 1}, "bag": {"gear-3": 5}, "active": {"gear-4": 2}}],
             start="none", record=False)
    g.holding = True
    g.draw_hand(0)
    assert g.held == [0] and not g.broke
    assert zone(g, 0, "active") == {}  # held back: nothing drawn, the bag as it was
    assert zone(g, 0, "bag") == {"gear-3": 5}
    if effects is not None:
        g.run_effects(1, effects)
    return g


def test_a_held_hand_is_left_held_by_what_only_touches_the_player_acting() -> None:
    g = _holding([{"gain_wear": 1}, {"gain_wear": {"count": {"zone": "active"}}}])
    assert g.held == [0] and not g.broke
    g.draw(1, 1)  # the other player's draw: their own piles (the generator is watched apart)
    assert not g.broke
    bag = zone(g, 1, "bag")
    g.draw_hand(1)  # their End-phase hand: held back too, after P1's
    assert g.held == [0, 1] and not g.broke
    assert zone(g, 1, "bag") == bag


@pytest.mark.parametrize("effects", [
    [{"gain_wear": {"count": {"zone": "active", "whose": "others"}}}],  # reads P1's hand
    [{"gain_wear": {"count": {"zone": "bag", "whose": "everyone"}}}],
    [{"take": {"who": "all", "from": "discard", "count": 1, "to": "discard"}}],  # takes from P1
    [{"others": {"effect": [{"gain_wear": 1}], "mandatory": True}}],  # acts for P1
], ids=["count-others", "count-everyone", "take", "others"])
def test_a_held_hand_is_needed_by_what_may_read_or_change_its_owners_piles(effects: list[Any]) -> None:
    g = _holding(effects)
    assert g.broke


def test_a_held_hand_is_needed_by_its_owners_own_draws_and_steps() -> None:
    g = _holding()
    g.draw(0, 1)
    assert g.broke
    g = _holding()
    g.run_effects(0, [{"gain_wear": 1}])  # a step for P1
    assert g.broke
    g = _holding()
    g.draw_hand(0)  # a second hand of the same player
    assert g.broke
