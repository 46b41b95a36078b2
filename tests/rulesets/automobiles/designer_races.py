"""Races with the designer pack's cards in play (tests/packs/designer-cards), shared by
tests/rulesets/automobiles/test_designer_races.py and bench/designer_cards.py.

A race is run through the ordinary runner (the same path as `slipstream race`); the cubes
played are counted from the log's `play` events and mapped to the card of their colour in
the race's card set, so a run shows that every card was really played.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from slipstream.engine.play.racelog import log_lines
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.play.races import Result as RaceResult
from slipstream.engine.rulesets.automobiles.racelog import replay_lines
from slipstream.engine.rulesets.automobiles.racesetup import load_pack_cached

PACKS = tuple(str(Path(__file__).resolve().parents[2] / "packs" / name)
              for name in ("designer-cards", "designer-cards-2"))
PACK = PACKS[0]  # the pack the functions below read (bench/designer_cards.py sets each in turn)
TRACKS = ("first-oval", "road-course")
GROUPS = ("yellow", "red", "purple", "blue", "green")  # how bench/designer_cards.py lists the cards


def card_sets() -> list[str]:
    """Every card set the designer pack defines itself (not the inherited base sets)."""
    pack = load_pack_cached(PACK)
    return [cs.id for cs in pack.card_sets.values() if cs.pack == pack.id]


def designer_cards() -> dict[str, str]:
    """Card id -> colour of every card the designer pack defines itself."""
    pack = load_pack_cached(PACK)
    return {c.id: c.colour for c in pack.cards.values() if c.pack == pack.id}


def field(kind: str, seed: int) -> tuple[str, ...]:
    """The bots of race `seed`: 2-5 random bots, 2-4 greedy ones, or a look-ahead bot against
    two greedy ones (in the seat `seed` names)."""
    if kind == "lookahead":
        seats = ["greedy", "greedy"]
        seats.insert(seed % 3, "lookahead")
        return tuple(seats)
    return (kind,) * (2 + seed % (4 if kind == "random" else 3))


def spec(card_set: str, seed: int, bots: tuple[str, ...]) -> RaceSpec:
    """The race of `seed`: tracks alternate, bots as given."""
    return RaceSpec(pack=PACK, track=TRACKS[seed % len(TRACKS)], seed=seed, bots=bots,
                    setup=(("card_set", card_set),))


def plays(res: RaceResult) -> Counter[str]:
    """How many cubes of each designer card were played in the race."""
    pack = load_pack_cached(PACK)
    by_colour = dict(pack.card_set(res.setup["card_set"]).cards)
    out: Counter[str] = Counter()
    for e in res.log:
        if e.get("t") == "event" and e.get("ev") == "play" and e.get("kind") in by_colour:
            out[by_colour[e["kind"]]] += 1
    return out


def checked_race(card_set: str, seed: int, bots: tuple[str, ...], replay: bool = False) -> tuple[RaceResult, Counter[str]]:
    """Run one race; with `replay`, also play it again (byte-identical log) and replay its log.
    Raises AssertionError when the race has no result or its log misbehaves (a race that
    reaches the round cap is not an error; `res.capped` says so)."""
    res = run_race(spec(card_set, seed, bots))
    assert res.result and len(res.standings) == len(bots), f"{card_set} seed {seed}: no result"
    if replay:
        lines = log_lines(res.header, res.log, res.result)
        again = run_race(spec(card_set, seed, bots))
        assert lines == log_lines(again.header, again.log, again.result), f"{card_set} seed {seed}: two logs differ"
        rep = replay_lines(lines)
        assert rep.identical, f"{card_set} seed {seed}: replay {rep.kind} at line {rep.line}: {rep.message}"
    return res, plays(res)
