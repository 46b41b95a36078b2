"""The speed-and-hazard `lookahead:N` bot (engine/rulesets/speed_hazard/lookahead.py): legal in
every decision, deterministic per seed, blind to the other seats' secret cards and to the
race's own generator. Its strength is measured by bench/speed_hazard_bots.py, not here."""

from __future__ import annotations

import random
from pathlib import Path

from slipstream.engine.play.races import RaceSpec, play_out, play_race, seats_of
from slipstream.engine.play.registry import get, load_pack
from slipstream.engine.rulesets.speed_hazard.lookahead import LookaheadBot, parse

ROOT = Path(__file__).resolve().parents[3]
PACK = str(ROOT / "content" / "speed-hazard")
RS = get("speed-hazard")


def test_lookahead_is_registered_with_its_budget_in_the_name() -> None:
    assert {"lookahead:4", "lookahead:16"} <= set(RS.bots)
    bot = RS.make_bot("lookahead:7", 3)
    assert isinstance(bot, LookaheadBot) and bot.budget == 7
    assert parse("lookahead:16") == 16 and parse("greedy") is None


def test_lookahead_never_picks_an_illegal_option_in_fifty_races() -> None:
    """50 one-lap races, the look-ahead seat rotated among greedy and random cars; its
    rollouts end with the round (horizon 0) to keep the test short - the decisions and their
    legality are those of every budget and horizon (bench/speed_hazard_bots.py plays 500
    full races of `lookahead:4`, also checked for illegal options)."""
    pack = load_pack(PACK)
    track = pack.tracks["redline-loop"]
    decided = 0
    for seed in range(50):
        names = ["greedy", "random", "greedy", "greedy"]
        g = RS.new_game(pack, track, seats_of(names), seed, {}, laps=1, record=False)
        bots = [RS.make_bot(b, seed * 10 + i) for i, b in enumerate(names)]
        la = seed % 4
        bots[la] = LookaheadBot(seed, budget=1, horizon=0)
        n = play_out(g, bots)  # raises on any refused option
        assert n > 0 and not g.capped
        decided += sum(1 for e in g.log if e.get("t") == "decision" and e["p"] == la)
    assert decided > 50 * 20


def test_same_seed_same_decisions() -> None:
    pack = load_pack(PACK)
    spec = RaceSpec(PACK, "redline-loop", 11, ("lookahead:2", "greedy", "greedy", "random"), laps=1)
    a, b = play_race(RS, spec, pack), play_race(RS, spec, pack)
    assert a.log == b.log and a.standings == b.standings
    assert [e for e in a.log if e.get("t") == "decision" and e["p"] == 0]


def test_the_choice_does_not_depend_on_secret_cards_or_the_race_generator() -> None:
    pack = load_pack(PACK)
    track = pack.tracks["redline-loop"]
    picks = []
    for first, reseed in (("card accelerate", 1), ("card ram", 1), ("card accelerate", 2)):
        g = RS.new_game(pack, track, seats_of(("a", "b", "c")), 5, {})
        for _ in range(3):  # a few rounds in, so several cards are playable
            while g.pending is not None and g.pending.kind != "card" or g.rounds < 3:
                d = g.pending
                g.apply(RS.make_bot("greedy", 1).choose(g, d))
        d = g.pending
        assert d is not None and d.player == 0
        keys = d.keys()
        g.apply(first if first in keys else keys[-1])  # seat 0's secret choice differs
        g.rng = random.Random(reseed)  # the race's own dice ahead differ too
        d = g.pending
        assert d is not None and d.player == 1 and d.kind == "card"
        picks.append(LookaheadBot(42, budget=3).choose(g, d))
    assert picks[0] == picks[1] == picks[2]


def test_the_rollouts_shortcuts_score_as_a_plain_rollout_does() -> None:
    """The compiled shuffle deals as random.shuffle, and at a card decision the rollouts that
    reuse the other seats' secret cards (worked out in the decision's first rollout) score
    exactly as a first rollout, which plays those choices out, does."""
    from slipstream.engine.rulesets.speed_hazard import lookahead

    assert lookahead.SHUFFLE_OK  # on this Python the fast shuffle is the one in use
    pack = load_pack(PACK)
    track = pack.tracks["redline-loop"]
    compared = 0
    for seed in range(4):
        g = RS.new_game(pack, track, seats_of(("a", "b", "c", "d")), seed, {})
        greedy = RS.make_bot("greedy", 1)
        while g.rounds < 3 or g.pending is not None and g.pending.kind != "card":
            g.apply(greedy.choose(g, g.pending))
        d = g.pending
        assert d is not None and d.kind == "card"
        keys = d.keys()
        shared = LookaheadBot(seed, budget=2)
        first = [shared.rollout(g, d, k, 7) for k in keys]  # the first works the picks out
        assert shared.secret_of is d and len(shared.secret) == 3
        for k, v in zip(keys, first, strict=True):
            assert LookaheadBot(seed, budget=2).rollout(g, d, k, 7) == v == shared.rollout(g, d, k, 7)
            compared += 1
    assert compared >= 8
