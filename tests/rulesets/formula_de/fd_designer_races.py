"""Races with the Formula Dé-style designer packs' items in play (tests/packs/designer-formula-de
and its -deck child), shared by test_formula_de_designer.py and bench/designer_cards.py
(`--ruleset formula-de`).

A race is run through the ordinary runner (the same path as `slipstream race`) on the designer
circuit; each designer item is counted from the log: a category by the wear events that take
its points, a corner kind by the stops, overshoots and too-fast stops in corners of that kind,
a weather condition by the rounds it came in, the schedule and the deck by the changes they made.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from slipstream.engine.play.racelog import log_lines
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import load_pack
from slipstream.engine.rulesets.formula_de.designdata import design_track
from slipstream.engine.rulesets.formula_de.ruleset import RULESET

PACKS_DIR = Path(__file__).resolve().parents[2] / "packs"
PACKS = ("designer-formula-de", "designer-formula-de-deck")  # the weather by schedule, by deck
TRACK = "designer-ring"
ITEMS = ("category:fuel", "category:suspension", "category:nerves", "corner-kind:hairpin",
         "corner-kind:tight-chicane", "corner-kind:fast-kink", "corner-kind:esses", "corner-kind:gravel-turn",
         "weather:drizzle", "weather:rain", "weather:storm", "weather:schedule", "weather:deck")
PRINTED = ("tyres", "brakes", "transmission", "body", "engine")


def field(kind: str, seed: int) -> tuple[str, ...]:
    """The bots of race `seed`: 2-6 random or greedy bots."""
    return (kind,) * (2 + seed % 5)


def spec(pack: str, seed: int, bots: tuple[str, ...]) -> RaceSpec:
    """Race `seed` of a designer pack: 2 laps, every fourth race 1 lap."""
    return RaceSpec(pack=str(PACKS_DIR / pack), track=TRACK, seed=seed, bots=bots, laps=1 if seed % 4 == 3 else 2)


def exercised(pack: str, log: list[dict[str, Any]]) -> Counter[str]:
    """How often each designer item came into play in a race's log."""
    loaded = load_pack(str(PACKS_DIR / pack))
    design = loaded.tables.design
    kinds = design.corner_table(design_track(loaded.tracks[TRACK], design))
    out: Counter[str] = Counter()
    for e in log:
        if e.get("t") != "event":
            continue
        ev = e.get("ev")
        if ev == "wear" and e["what"] not in PRINTED and e["n"]:
            out[f"category:{e['what']}"] += 1
        elif ev == "box" and e.get("restored"):
            out.update(f"category:{k}" for k, n in e["restored"].items() if n)
        elif ev in ("stop", "overshoot", "too-fast"):
            out[f"corner-kind:{kinds[e['corner']].id}"] += 1
        elif ev == "weather":
            out[f"weather:{e['weather']}"] += 1
            if e["round"] > 1 or design.weather is not None and design.weather.deck:
                out["weather:deck" if design.weather is not None and design.weather.deck else "weather:schedule"] += 1
    return out


def checked_race(pack: str, seed: int, bots: tuple[str, ...], replay: bool = False) -> tuple[Any, Counter[str]]:
    """Play race `seed` of `pack`; with `replay`, play it twice (the logs must be the same bytes)
    and replay its log. Returns the result and the items it exercised."""
    s = spec(pack, seed, bots)
    res = RULESET.run_race(s)
    if replay:
        lines = log_lines(res.header, res.log, res.result)
        again = RULESET.run_race(s)
        assert lines == log_lines(again.header, again.log, again.result), f"{pack} seed {seed}: two logs differ"
        rep = RULESET.replay(lines)
        assert rep.identical, f"{pack} seed {seed}: {rep.message} at line {rep.line}"
    return res, exercised(pack, res.log)
