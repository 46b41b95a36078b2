"""Automobiles races in words: a sentence per log event, a line per turn, a race summary.

The CLI's turn-by-turn summary, the editor's race panels and the batch reports all read
races through these functions (reached through the ruleset object, engine/play/protocol.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def describe(entry: Mapping[str, Any]) -> str | None:
    """A plain sentence for one log entry (None for entries not worth telling)."""
    if entry.get("t") != "event":
        return None
    ev = entry.get("ev")
    p = entry.get("p")
    who = f"P{p + 1}" if isinstance(p, int) else "the race"
    if ev == "turn":
        return f"{who} starts a turn" + (" with a pit stop" if entry.get("choice") == "pit" else "")
    if ev == "pit":
        return f"{who} pits and removes {entry.get('wear_removed', 0)} wear"
    if ev == "play":
        return f"{who} plays {entry.get('kind')}"
    if ev == "car":
        return f"{who} drives from {entry.get('src')} to {entry.get('dst')}"
    if ev == "drive":
        return f"{who} drives on to {entry.get('dst')}"
    if ev == "momentum":
        return f"{who} slides forward to {entry.get('dst', entry.get('to'))}"
    if ev == "gain":
        n = entry.get("n", 1)
        what = f"{n}x {entry.get('kind')}" if n != 1 else str(entry.get("kind"))
        return f"{who} buys {what}" if entry.get("why") == "buy" else f"{who} gains {what}"
    if ev == "decline":
        return f"{who} ends the turn" + (" in the draft" if entry.get("drafting") else "")
    if ev == "final_round":
        return "a car crosses the finish line: final round"
    if ev == "race_over":
        return "the race is over"
    return None


def race_json(res: Any) -> dict[str, Any]:
    """One race as JSON: standings with grid slots, rounds, decisions, wear and pit stops."""
    return {"seed": res.spec.seed, "track": res.spec.track, "card_set": res.card_set,
            "standings": [{"place": i + 1, "name": res.names[p], "bot": res.bots[p],
                           "grid_slot": res.grid.index(p) + 1} for i, p in enumerate(res.standings)],
            "rounds": res.rounds, "capped": res.capped, "decisions": res.decisions,
            "wear": res.stats["wear"], "pit_stops": res.stats["pits"]}


def race_text(res: Any) -> str:
    """The turn-by-turn summary of one race (a line a turn) and the final standings."""
    names = res.names
    lines = [f"Race on {res.spec.track} with card set {res.card_set}, seed {res.spec.seed}",
             "grid: " + ", ".join(f"{i + 1}. {names[p]} ({res.bots[p]}"
                                  + (f", {res.drivers[p]}" if res.drivers[p] else "") + ")"
                                  for i, p in enumerate(res.grid)), ""]
    cur: dict[str, Any] | None = None
    out_turns: list[str] = []

    def flush() -> None:
        if cur is None:
            return
        p = cur["p"]
        if cur["pit"]:
            what = f"pit stop, {cur['pit_wear']} wear removed"
        else:
            plays = ", ".join(f"{n}x {k}" if n > 1 else k for k, n in cur["plays"].items()) or "nothing"
            what = f"played {plays}"
            if cur["move"]:
                what += f"; moved {cur['move']}"
            else:
                what += "; stayed"
        extras = []
        if cur["wear"]:
            extras.append(f"+{cur['wear']} wear")
        if cur["draft"]:
            extras.append("drafting")
        if cur["bought"]:
            extras.append("bought " + ", ".join(cur["bought"]))
        if cur["lap"]:
            extras.append(cur["lap"])
        out_turns.append(f"R{cur['round']:<3} {names[p]:<4} {what}" + (f" ({'; '.join(extras)})" if extras else ""))

    for ev in res.log:
        if ev.get("t") != "event":
            continue
        e = ev["ev"]
        if e == "turn":
            flush()
            cur = {"p": ev["p"], "round": ev["round"], "pit": ev["choice"] == "pit", "pit_wear": 0,
                   "plays": {}, "move": "", "wear": 0, "draft": False, "bought": [], "lap": ""}
        elif cur is None:
            continue
        elif e == "pit":
            cur["pit_wear"] = ev["wear_removed"]
        elif e == "play" and ev["p"] == cur["p"]:
            cur["plays"][ev["kind"]] = cur["plays"].get(ev["kind"], 0) + 1
        elif e == "car" and ev["p"] == cur["p"]:
            cur["move"] = f"{ev['src']} -> {ev['dst']}"
        elif e == "drive" and ev["p"] == cur["p"]:
            cur["move"] = (cur["move"] or "") + f" -> {ev['dst']}"
        elif e == "gain" and ev["p"] == cur["p"]:
            if ev["why"] == "buy":
                cur["bought"].append(ev["kind"])
            elif ev["kind"] == "wear":
                cur["wear"] += ev["n"]
        elif e == "decline" and ev["p"] == cur["p"]:
            cur["draft"] = ev["drafting"]
        elif e == "final_round":
            cur["lap"] = "finish line: final round"
    flush()
    lines += out_turns
    lines += ["", "final standings:"]
    for i, p in enumerate(res.standings):
        lines.append(f"  {i + 1}. {names[p]} ({res.bots[p]}), wear gained {res.stats['wear'][p]}, "
                     f"pit stops {res.stats['pits'][p]}")
    lines.append(f"{res.rounds} rounds{' (ended by the round cap)' if res.capped else ''}, "
                 f"{res.decisions} decisions")
    return "\n".join(lines)


