"""Automobiles races in words: a sentence per log event, a line per turn, a race summary.

The CLI's turn-by-turn summary, the editor's race panels and the batch reports all read
races through these functions (reached through the ruleset object, engine/play/protocol.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from slipstream.engine.tracks.track import COLOUR_NAMES


def kind_label(kind: Any) -> str:
    """A cube kind as players know it: gears and wear by their id, the others by colour and
    card, e.g. `yellow (Manager)`."""
    if kind.role in ("gear", "wear") or kind.name.lower() == kind.id.lower():
        return str(kind.id)
    return f"{kind.id} ({kind.name})"


def _steps(n: Any, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


@dataclass(frozen=True, slots=True)
class Narrator:
    """Tells log entries in words, with the seat names and cube kind labels of one race."""

    names: Sequence[str] = ()
    kinds: Mapping[str, str] = field(default_factory=dict)  # kind id -> label

    def who(self, p: Any) -> str:
        if isinstance(p, int):
            return self.names[p] if 0 <= p < len(self.names) else f"P{p + 1}"
        return "the race"

    def kind(self, kid: Any) -> str:
        return self.kinds.get(str(kid), str(kid))

    def __call__(self, entry: Mapping[str, Any]) -> str | None:
        """A plain sentence for one log entry (None for entries not worth telling)."""
        if entry.get("t") != "event":
            return None
        e = entry
        ev = e.get("ev")
        who = self.who(e.get("p"))
        kind = self.kind(e.get("kind"))
        if ev == "turn":
            return f"{who} makes a pit stop" if e.get("choice") == "pit" else f"{who} takes a standard turn"
        if ev == "pit":
            return f"{who} removes {e.get('wear_removed', 0)} wear in the pits"
        if ev == "play":
            return f"{who} plays {kind}"
        if ev == "place":
            return f"{who} places {kind} on {e.get('cell')} ({_steps(int(e.get('steps', 1)), 'step')})"
        if ev == "car":
            return f"{who}'s car moves from {e.get('src')} to {e.get('dst')} ({_steps(e.get('spaces'), 'space')})"
        if ev == "drive":
            return f"{who}'s car is driven on to {e.get('dst')}"
        if ev == "momentum":
            return f"{who} slides forward from segment {e.get('src')} to {e.get('dst')}"
        if ev == "decline":
            if e.get("drafting"):
                return f"{who} is drafting: no wear"
            shade = COLOUR_NAMES.get(int(e.get("darkest", 0) or 0), "none")
            return f"{who} takes {e.get('wear', 0)} wear (darkest space entered: {shade})"
        if ev == "gain":
            n = e.get("n", 1)
            if e.get("why") == "buy":
                return f"{who} buys {kind}" + (f" ×{n}" if n != 1 else "")
            if e.get("why") == "decline":
                return None  # the decline entry before it says so
            return f"{who} gains {n} {kind}"
        if ev == "remove":
            return f"{who} returns {kind} from the {e.get('zone')} pile to the stock"
        if ev == "move":
            return f"{who} moves {kind} from the {e.get('src')} pile to the {e.get('dst')} pile"
        if ev == "refill":
            return f"{who} refills the bag ({_steps(e.get('n'), 'cube')})"
        if ev == "modify":
            return f"{who}'s turn changes: " + ", ".join(str(w).replace("_", " ") for w in e.get("what", ()))
        if ev == "pay":
            return f"{who} pays ${e.get('n')} of this turn's money"
        if ev == "gain_money":
            return f"{who} gains ${e.get('n')} of this turn's money"
        if ev == "watch":
            return f"{who} arms the trigger {e.get('key')}"
        if ev == "trigger":
            return f"{who}'s trigger {e.get('key')} fires (" + ", ".join(
                self.who(i) for i in e.get("by", ())) + ")"
        if ev == "take":
            return (f"{who} takes {kind} from {self.who(e.get('src'))}'s {e.get('zone')} pile to the "
                    f"{e.get('dst')} pile")
        if ev == "choose":
            return f"{who} chooses option {e.get('option')}"
        if ev == "ability":
            return f"{who} uses {e.get('driver')}'s ability"
        if ev == "driver":
            return f"{who} drives as {e.get('driver')}"
        if ev == "start":
            return "Turn order: " + ", ".join(e.get("order", []))
        if ev == "final_round":
            return f"{who} reaches the finish: this is the final round"
        if ev == "race_over":
            return ("The race is over" + (" (the round cap)" if e.get("capped") else "") + ": "
                    + ", ".join(e.get("standings", [])))
        # season entries (engine/rulesets/automobiles/season.py, draft.py)
        if ev == "grid":
            return "Grid: " + ", ".join(e.get("order", []))
        if ev == "driver_deal":
            return "Drivers dealt: " + ", ".join(str(d) for d in e.get("drivers", []))
        if ev == "draft_pool":
            return "Sponsors on offer: " + ", ".join(str(s) for s in e.get("pool", []))
        if ev == "draft_take":
            return f"{who} takes sponsor {e.get('sponsor')}" + (
                f" in place of {e['replaced']}" if e.get("replaced") else "")
        if ev == "draft_keep":
            return f"{who} keeps sponsor {e.get('sponsor')}" + (
                f" and discards {e['discard']}" if e.get("discard") else "")
        if ev == "draft_none":
            return f"{who} takes no sponsor"
        if ev == "draft_unpicked":
            return "Sponsors left over: " + ", ".join(str(s) for s in e.get("sponsors", []))
        if ev == "sponsor":
            return f"{who}'s sponsor {e.get('sponsor')} pays out"
        if ev == "sponsor_done":
            return f"{who}'s sponsor {e.get('sponsor')} is done"
        rest = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("t", "ev", "round", "phase"))
        return f"{ev}: {rest}" if rest else str(ev)


def narrator_of(context: Any) -> Narrator:
    """The narrator of a race from what a face holds: a `Game`, a race result, a log header
    (a dict with `t: race`), a Narrator, or None (kinds by their ids, seats as P1, P2, ...)."""
    if isinstance(context, Narrator):
        return context
    if context is None:
        return Narrator()
    rules = getattr(context, "rules", None)
    if rules is not None and hasattr(rules, "kinds"):  # a Game
        return Narrator(tuple(s.name for s in context.seats), {k.id: kind_label(k) for k in rules.kinds})
    header: Mapping[str, Any] = context if isinstance(context, Mapping) else getattr(context, "header", {}) or {}
    names = getattr(context, "names", None) or [str(s.get("name")) for s in header.get("seats", [])]
    card_set = getattr(context, "card_set", None) or header.get("card_set") \
        or dict(header.get("setup") or {}).get("card_set") or ""
    spec = getattr(context, "spec", None)
    pack = header.get("pack_path", getattr(spec, "pack", "")) or ""
    return Narrator(tuple(names), _kind_labels(str(pack), str(card_set)))


def _kind_labels(pack: str, card_set: str) -> dict[str, str]:
    from slipstream.engine.rulesets.automobiles.racesetup import _ruleset

    try:
        rules = _ruleset(pack, card_set, ())
    except (ValueError, KeyError, OSError, RuntimeError):
        return {}  # a log of a pack not at hand: kinds by their ids
    return {k.id: kind_label(k) for k in rules.kinds}


def describe(entry: Mapping[str, Any], context: Any = None) -> str | None:
    """A plain sentence for one log entry (None for entries not worth telling); `context` as
    for `narrator_of` gives seat and card names."""
    return narrator_of(context)(entry)


def race_json(res: Any) -> dict[str, Any]:
    """One race as JSON: standings with grid slots, rounds, decisions, wear and pit stops."""
    return {"seed": res.spec.seed, "track": res.spec.track, "card_set": res.setup["card_set"],
            "standings": [{"place": i + 1, "name": res.names[p], "bot": res.bots[p],
                           "grid_slot": res.grid.index(p) + 1} for i, p in enumerate(res.standings)],
            "rounds": res.rounds, "capped": res.capped, "decisions": res.decisions,
            "wear": res.stats["wear"], "pit_stops": res.stats["pits"]}


def race_text(res: Any) -> str:
    """The turn-by-turn summary of one race (a line a turn) and the final standings."""
    names = res.names
    tell = narrator_of(res)
    drivers = res.setup["drivers"]
    lines = [f"Race on {res.spec.track} with card set {res.setup['card_set']}, seed {res.spec.seed}",
             "grid: " + ", ".join(f"{i + 1}. {names[p]} ({res.bots[p]}"
                                  + (f", {drivers[p]}" if drivers[p] else "") + ")"
                                  for i, p in enumerate(res.grid)), ""]
    cur: dict[str, Any] | None = None
    out_turns: list[str] = []
    lanes: dict[int, str] = {}  # seat -> lane of its car, from the last car or drive entry

    def flush() -> None:
        if cur is None:
            return
        p = cur["p"]
        if cur["pit"]:
            what = f"pit stop, {cur['pit_wear']} wear removed"
        else:
            plays = ", ".join(f"{n}x {tell.kind(k)}" if n > 1 else tell.kind(k)
                              for k, n in cur["plays"].items()) or "nothing"
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
            extras.append("bought " + ", ".join(tell.kind(k) for k in cur["bought"]))
        extras += cur["slides"]
        if cur["lap"]:
            extras.append(cur["lap"])
        out_turns.append(f"R{cur['round']:<3} {names[p]:<4} {what}" + (f" ({'; '.join(extras)})" if extras else ""))

    for ev in res.log:
        if ev.get("t") != "event":
            continue
        e = ev["ev"]
        if e in ("car", "drive"):
            lanes[ev["p"]] = str(ev["dst"]).split(":")[0]
        if e == "turn":
            flush()
            cur = {"p": ev["p"], "round": ev["round"], "pit": ev["choice"] == "pit", "pit_wear": 0,
                   "plays": {}, "move": "", "wear": 0, "draft": False, "bought": [], "lap": "",
                   "slides": []}
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
        elif e in ("car", "drive"):  # another seat's car moved by an effect during this turn
            cur["slides"].append(f"{tell.who(ev['p'])} driven on to {ev['dst']}")
        elif e == "gain" and ev["p"] == cur["p"]:
            if ev["why"] == "buy":
                cur["bought"].append(ev["kind"])
            elif ev["kind"] == "wear":
                cur["wear"] += ev["n"]
        elif e == "decline" and ev["p"] == cur["p"]:
            cur["draft"] = ev["drafting"]
        elif e == "momentum":  # RULES §4.1: any car may slide after a move, not only the mover's
            lane = lanes.get(ev["p"])
            src, dst = (f"{lane}:{ev['src']}", f"{lane}:{ev['dst']}") if lane is not None \
                else (f"segment {ev['src']}", str(ev["dst"]))
            mover = "slid" if ev["p"] == cur["p"] else f"{tell.who(ev['p'])} slid"
            cur["slides"].append(f"{mover} {src} -> {dst}")
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


