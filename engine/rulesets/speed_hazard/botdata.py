"""The options of a speed-and-hazard decision as values for external bots (docs/bots.md): a
card's kind, number and amounts, a speed change, a square as [lane, segment] with the token
lying on it, a car to ram or bump, a token to drop and where, a pit-road purchase and its price
in points, a luck token spent."""

from __future__ import annotations

from typing import Any


def option_values(g: Any, decision: Any) -> list[dict[str, Any]]:
    t = g.turn
    if t is None:  # the secret card choice
        return [card(a) for _, a in g.card_options(decision.player)]
    return [value(g, t, o.key) for o in decision.options]


def card(a: Any) -> dict[str, Any]:
    return {"card": a.id, "name": a.name, "number": a.number, "kind": a.kind, "amounts": list(a.amounts),
            "nitrous": a.nitrous, "equipment": a.equipment or None}


def cell(g: Any, x: int) -> dict[str, Any]:
    """A main square (the pit road's are numbered after them: no cell)."""
    if not 0 <= x < len(g.track.spaces):
        return {}
    sp = g.track.spaces[x]
    return {"cell": [sp.lane, sp.first], "square": g.where(x), "token": g.on_board.get(x)}


def value(g: Any, t: Any, key: str) -> dict[str, Any]:
    entry = t.opts.get(key)
    if entry is None:
        return {}
    _, fn, *args = entry
    name = getattr(fn, "__name__", "")
    if name == "_pit_luck":  # a luck decision in the pit road: the wrapped choice
        name = getattr(args[0], "__name__", "")
    if name in ("_accelerate", "_brake"):
        return {name[1:]: args[0]}
    if name == "_nitrous":
        return {"nitrous": True}
    if name == "_u_turn":
        return {"u_turn": args[0], "squares": len(args[1])}
    if name == "_keep_drawn":
        return {"keep": True}
    if name == "_redraw":
        return {"keep": False, "cost": {"luck": 1}}
    if name in ("_step", "_pit_out"):
        return cell(g, args[0])
    if name == "_enter_pit":
        return {"pit": True}
    if name in ("_bump", "_ram", "_ram_after"):
        out = {"bump" if name == "_bump" else "ram": args[0]}
        if name != "_bump":
            out["how"] = args[1]
        x = g.b.by_name.get(key.partition(" ")[2])
        return out if x is None else {**out, **cell(g, x)}
    if name == "_drop":
        return {"drop": args[0], **cell(g, args[1])}
    if name in ("_end_turn", "_shop_done"):
        return {"end": True}
    if name == "_buy":
        what = args[0]
        s = g.decks.setup
        return {"buy": what, "cost": {"points": s.price("token" if what.startswith("token ") else what)}}
    if name in ("_keep_equipment", "_return_equipment"):
        return {"keep" if name == "_keep_equipment" else "return": args[0], "name": g.equip_by_id[args[0]].name}
    return {}
