"""Races with the speed-and-hazard designer pack's items in play (tests/packs/designer-speed-hazard),
shared by tests/rulesets/speed_hazard/test_speed_hazard_designer_races.py and
bench/designer_cards.py (`--ruleset speed-hazard`).

A race is run through the ordinary runner; the items played are counted from the log: an
action card or equipment played (`turn`), a nitrous or hazard card drawn (`nitrous`, `hazard`),
an equipment card kept in the pit road (`keep ID`).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

from slipstream.engine.play.racelog import log_lines, replay_lines
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.play.races import Result as RaceResult
from slipstream.engine.play.registry import load_pack

PACK = str(Path(__file__).resolve().parents[2] / "packs" / "designer-speed-hazard")
BASE = str(Path(__file__).resolve().parents[3] / "content" / "speed-hazard")  # what the pack extends
TRACK = "redline-loop"
GROUPS = ("card", "nitrous", "hazard", "equipment")  # how bench/designer_cards.py lists the items
PLAYED = "times played, drawn or kept"  # what bench/designer_cards.py counts
# the "card sets" of this ruleset: rule options the races cycle through
SETS = {"default": (), "u-turn": (("u_turn", True),),
        "nitrous-until-curve": (("nitrous_until", "curve"), ("ram_beside", True))}


def card_sets() -> list[str]:
    return list(SETS)


@cache
def _items(pack: str) -> dict[str, str]:
    here, base = load_pack(pack).decks, load_pack(BASE).decks
    out: dict[str, str] = {}
    for group, mine, theirs in (("card", here.actions, base.actions), ("nitrous", here.nitrous, base.nitrous),
                                ("hazard", here.hazards, base.hazards), ("equipment", here.equipment, base.equipment)):
        old = {c.id for c in theirs}
        out |= {f"{group}:{c.id}": group for c in mine if c.id not in old}
    return out


def designer_cards() -> dict[str, str]:
    """`card:ID`, `nitrous:ID`, `hazard:ID`, `equipment:ID` -> its group, for every item the
    designer pack adds to the bundled pack."""
    return _items(PACK)


def field(kind: str, seed: int) -> tuple[str, ...]:
    """2-5 random bots, 2-4 greedy ones, or a look-ahead bot (4 rollouts) against two greedy ones."""
    if kind == "lookahead":
        seats = ["greedy", "greedy"]
        seats.insert(seed % 3, "lookahead:4")
        return tuple(seats)
    return (kind,) * (2 + seed % (4 if kind == "random" else 3))


def spec(card_set: str, seed: int, bots: tuple[str, ...]) -> RaceSpec:
    return RaceSpec(pack=PACK, track=TRACK, seed=seed, bots=bots, laps=1 + seed % 2, options=SETS[card_set])


def plays(res: RaceResult) -> Counter[str]:
    """How often each designer item was played, drawn or kept in the race."""
    items = designer_cards()
    out: Counter[str] = Counter()
    for e in res.log:
        if e.get("t") == "event":
            ev = e.get("ev")
            keys = ((f"card:{e['card']}", f"equipment:{e['card']}") if ev == "turn" else
                    (f"{ev}:{e['card']}",) if ev in ("nitrous", "hazard") else ())
        elif e.get("t") == "decision" and e.get("kind") == "keep":
            keys = (f"equipment:{e['choice'].split()[1]}",)
        else:
            continue
        out.update(k for k in keys if k in items)
    return out


def checked_race(card_set: str, seed: int, bots: tuple[str, ...], replay: bool = False) -> tuple[RaceResult, Counter[str]]:
    """Run one race; with `replay`, play it again (byte-identical log) and replay its log."""
    res = run_race(spec(card_set, seed, bots))
    assert res.result and len(res.standings) == len(bots), f"{card_set} seed {seed}: no result"
    if replay:
        lines = log_lines(res.header, res.log, res.result)
        again = run_race(spec(card_set, seed, bots))
        assert lines == log_lines(again.header, again.log, again.result), f"{card_set} seed {seed}: two logs differ"
        rep = replay_lines(lines)
        assert rep.identical, f"{card_set} seed {seed}: replay {rep.kind} at line {rep.line}: {rep.message}"
    return res, plays(res)
