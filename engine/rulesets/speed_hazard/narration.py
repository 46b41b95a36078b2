"""Plain sentences for the events of a speed-and-hazard race log (`describe`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from slipstream.engine.play.base import Who, narrate


def describe(e: Mapping[str, Any], names: Sequence[str] | None = None) -> str | None:
    """One sentence for a log entry, None for entries not worth telling (steps, decisions)."""
    return narrate(e, names, _SENTENCES)


_SENTENCES: dict[str, Callable[[Mapping[str, Any], Who], str]] = {
    "grid": lambda e, w: "grid: " + ", ".join(w(p) for p in e["order"]),
    "reveal": lambda e, w: "cards: " + ", ".join(f"{w(int(p))} {k.split()[1]}" for p, k in e["cards"].items()),
    "turn": lambda e, w: f"{w(e['p'])} plays {e['card']} at {e['speed']} km/h (maximum {e['maximum']})",
    "speed": lambda e, w: f"{w(e['p'])} now at {e['speed']} km/h ({e['why']})",
    "move": lambda e, w: f"{w(e['p'])} drives {e['steps']} square{'s' if e['steps'] != 1 else ''} to {e['to']}",
    "hazards": lambda e, w: f"{w(e['p'])} owes {e['n']} hazard card{'s' if e['n'] != 1 else ''}"
                            + (f" in curve {int(e['at']) + 1}" if str(e["at"]).isdigit() else ""),
    "hazard": lambda e, w: f"{w(e['p'])} draws hazard {e['card']}",
    "nitrous": lambda e, w: f"{w(e['p'])} draws nitrous {e['card']}",
    "nitrous-click": lambda e, w: f"{w(e['p'])}'s nitrous clicks: the nitrous deck is shuffled",
    "reshuffle": lambda e, w: f"the {e['deck']} deck ran out: its {e['cards']} used cards are shuffled into a new one",
    "luck": lambda e, w: f"{w(e['p'])} spends a luck token ({e['left']} left)",
    "insanity": lambda e, w: f"{w(e['p'])} keeps insanity {e['card']}",
    "insanity-ignored": lambda e, w: f"{w(e['p'])}'s helmet shrugs off {e['card']}",
    "spin": lambda e, w: f"{w(e['p'])} spins out",
    "damage": lambda e, w: f"{w(e['p'])} rolls {e['dice']} damage ({e['why']}): {e['points']} points, "
                           f"maximum {e['maximum']} km/h",
    "wreck": lambda e, w: f"{w(e['p'])} is a wreck at {e['at']}",
    "bump": lambda e, w: f"{w(e['p'])} is blocked and bumps {w(e['target'])} from behind",
    "ram": lambda e, w: f"{w(e['p'])} {e['kind']}-rams {w(e['target'])}" + (" into the pit wall" if e.get("wall") else ""),
    "ram-missed": lambda e, w: f"{w(e['p'])} finds nobody to ram",
    "drop": lambda e, w: f"{w(e['p'])} drops {e['kind']} on {e['at']}",
    "token-hit": lambda e, w: f"{w(e['p'])} hits {e['kind']} on {e['at']}" + (f" (met on {e['lay']})" if e.get("lay") else "")
    + (" (immune)" if e.get("immune") else ""),
    "pit": lambda e, w: f"{w(e['p'])} enters the pit road at {e['entry']}",
    "buy": lambda e, w: f"{w(e['p'])} buys {e['what']}",
    "pit-stop": lambda e, w: f"{w(e['p'])} is done in the pit road, maximum now {e['maximum']} km/h",
    "pit-wait": lambda e, w: f"{w(e['p'])} waits in the pit road ({e['why']})",
    "pit-exit": lambda e, w: f"{w(e['p'])} leaves the pit road onto {e['to']}",
    "extra-lap": lambda e, w: f"{w(e['p'])} must drive one more lap (no win through the pit road)",
    "u-turn": lambda e, w: f"{w(e['p'])} makes a {e['kind']} U-turn to {e['to']}",
    "u-turn-impossible": lambda e, w: f"{w(e['p'])} cannot make the U-turn and drives on normally",
    "no-action": lambda e, w: f"{w(e['p'])}'s {e['card']} card has nothing left to do",
    "top-speed": lambda e, w: f"{w(e['p'])}'s maximum is now {e['maximum']} km/h ({e['why']})",
    "tokens": lambda e, w: f"{w(e['p'])} {'takes' if e['change'] >= 0 else 'gives back'} {abs(e['change'])} {e['kind']} "
                           f"token{'s' if abs(e['change']) != 1 else ''} ({e['held']} held)",
    "luck-change": lambda e, w: f"{w(e['p'])} now holds {e['luck']} luck token{'s' if e['luck'] != 1 else ''}",
    "extra-squares": lambda e, w: f"{w(e['p'])} moves {abs(e['squares'])} square{'s' if abs(e['squares']) != 1 else ''} "
                                  f"{'more' if e['squares'] > 0 else 'fewer'} this turn",
    "finish": lambda e, w: f"{w(e['p'])} crosses the line after {e['laps']} laps and wins",
}
