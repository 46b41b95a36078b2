"""The options of an Automobiles decision as values for external bots (docs/bots.md): what a
key names (a cube kind, a pile, a space, a sponsor, a driver) and what it costs where the
rules give a price (a cube's price in the Buy phase and at a shop, the wear a shade costs)."""

from __future__ import annotations

from typing import Any

from slipstream.engine.rulesets.automobiles.effects import ZONE_NAMES_ as ZONES
from slipstream.engine.rulesets.automobiles.rules import GEAR_NAMES

FLAGS: dict[str, dict[str, Any]] = {
    "end": {"end": True}, "done": {"end": True}, "stop": {"end": True},  # end the phase or effect
    "standard": {"pit": False}, "pit": {"pit": True}, "yes": {"yes": True}, "no": {"yes": False},
    "draw": {"draw": True}, "ability": {"ability": True}, "keep": {"keep": True}}


def cube(g: Any, kid: str) -> dict[str, Any]:
    """A cube kind by id: its id, name, role, gear (3 to 6, or null) and value."""
    i = g.rules.by_id.get(kid)
    if i is None:
        return {"cube": kid}
    k = g.rules.kinds[i]
    return {"cube": k.id, "name": k.name, "role": k.role, "gear": k.gear, "value": k.value}


def option_values(g: Any, decision: Any) -> list[dict[str, Any]]:
    rules = g.rules
    turn = g.race.turn
    prices = turn.prices if decision.kind == "buy" and turn is not None else None
    frame = g.stack[-1] if decision.kind == "shade" and g.stack else None
    out: list[dict[str, Any]] = []
    for o in decision.options:
        key = o.key
        verb, _, rest = key.partition(" ")
        v: dict[str, Any]
        if key in FLAGS:
            v = dict(FLAGS[key])
        elif verb == "buy":
            v = {"buy": rest, **cube(g, rest)}
            i = rules.by_id.get(rest)
            if i is not None:
                cost = rules.kinds[i].cost
                v["cost"] = cost if prices is None else max(0, cost + prices.get(i, 0))
        elif verb == "play":
            v = {"play": rest, **cube(g, rest)}
        elif verb == "to" and ":" in rest:
            lane, _, seg = rest.partition(":")
            cell = [int(lane), int(seg)]
            colour = g.track.spaces[g.track.cells[cell[0]][cell[1]]].colour
            v = {"cell": cell, "colour": GEAR_NAMES.get(colour, str(colour)),
                 "gear": colour if colour in GEAR_NAMES else None}
        elif verb == "shade":
            c = int(rest)
            own = rules.kinds[frame.kind].gear if frame is not None and frame.kind is not None else None
            v = {"gear": c, "colour": GEAR_NAMES.get(c, str(c)),
                 "wear": frame.stand_wear if frame is not None and c != own else 0}
        elif verb in ("take", "discard"):
            v = {verb: rest}  # a sponsor of the draft pool
        elif verb == "driver":
            v = {"driver": rest}
        elif key.isdigit():
            v = {"number": int(key)}  # draw that many, or the numbered choice of a `choose_one`
        elif ":" in key:
            pile, _, kid = key.partition(":")
            v = {"pile": pile, **cube(g, kid)} if pile in ZONES else {**cube(g, pile), "to": kid}
        else:
            v = {}
        out.append(v)
    return out

