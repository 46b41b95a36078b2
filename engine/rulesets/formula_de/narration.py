"""Plain sentences for the events of a Formula Dé-style race log (`describe`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from slipstream.engine.play.base import Who, narrate


def describe(e: Mapping[str, Any], names: Sequence[str] | None = None) -> str | None:
    """One sentence for a log entry, None for entries not worth telling."""
    return narrate(e, names, _SENTENCES)


_SENTENCES: dict[str, Callable[[Mapping[str, Any], Who], str]] = {
    "grid-roll": lambda e, w: "grid rolls: " + ", ".join(f"{w(c)} {r}" for c, r in zip(e["cars"], e["rolls"], strict=False)),
    "grid": lambda e, w: "grid: " + ", ".join(w(p) for p in e["order"]),
    "gear": lambda e, w: f"{w(e['p'])} in gear {e['gear']}",
    "start": lambda e, w: f"{w(e['p'])} start roll {e['roll']}: "
                          + {"stall": "stalls", "flying": "flying start, 4 squares"}.get(e["result"], "gets away"),
    "roll": lambda e, w: f"{w(e['p'])} rolls {e['roll']} in gear {e['gear']}",
    "move": lambda e, w: f"{w(e['p'])} drives {e['steps']} squares to {e['to']}"
                         + (", swerving across two lanes" if e.get("swerve") else ""),
    "pit-in": lambda e, w: f"{w(e['p'])} turns into the pit lane",
    "pit-move": lambda e, w: f"{w(e['p'])} drives {e['steps']} squares in the pit lane to pit:{e['to']}",
    "box": lambda e, w: f"{w(e['p'])} stops in box {e['box']}: {e['tyres']} tyre points back, {e['left']} now"
                        + "".join(f"; {n} {k} back" for k, n in (e.get("restored") or {}).items()),
    "pit-exit": lambda e, w: f"{w(e['p'])} pit exit roll {e['roll']}: "
                             + (f"quick stop, leaves with {e['squares']} squares in 4th gear"
                                if e["result"] == "quick" else "slow stop, waits for the next turn"),
    "pit-out": lambda e, w: f"{w(e['p'])} leaves the pit lane at {e['to']}"
                            + (f" with {e['rest']} squares to go" if e["rest"] else ""),
    "wear": lambda e, w: f"{w(e['p'])} loses {e['n']} {e['what']} ({e['why']}), {e['left']} left",
    "stop": lambda e, w: f"{w(e['p'])} makes stop {e['stops']} in corner {e['corner'] + 1}",
    "overshoot": lambda e, w: f"{w(e['p'])} overshoots corner {e['corner'] + 1} by {e['past']} "
                              f"({e['made']} of {e['required']} stops)",
    "spin": lambda e, w: f"{w(e['p'])} spins and drops to 1st gear",
    "blocked": lambda e, w: f"{w(e['p'])} is blocked and loses {e['absorbed']} squares",
    "collision-check": lambda e, w: f"{w(e['p'])} ends beside " + ", ".join(w(q) for q in e["near"]),
    "collision-roll": lambda e, w: f"{w(e['p'])} collision roll {e['roll']}",
    "engine-strain": lambda e, w: f"{w(e['p'])} strains the engines in 5th and 6th",
    "engine-roll": lambda e, w: f"{w(e['p'])} engine roll {e['roll']}",
    "out": lambda e, w: f"{w(e['p'])} is eliminated ({e['cause']})",
    "finish": lambda e, w: f"{w(e['p'])} finishes, place {e['place']}",
    "too-fast": lambda e, w: f"{w(e['p'])} is too fast for corner {e['corner'] + 1} in gear {e['gear']} "
                             f"(gear {e['max_gear']} at most): no stop",
    "weather": lambda e, w: f"weather from round {e['round']}: {e['weather']}",
}
