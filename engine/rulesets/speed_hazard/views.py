"""What a face shows of a speed-and-hazard race beyond the log: a line per car (`brief`), the
squares a move passes (`route`), the speedometer and damage gauges (`gauges`), the tokens
and wrecks on the track (`marks`) and the heat maps of a batch (`heat`); see
engine/play/protocol.py. Nothing here changes a game.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from slipstream.engine.tracks.movegraph import node_space
from slipstream.engine.tracks.track import PIT_LANE

Cell = tuple[int, int]

HEAT_HAZARDS = "Hazard cards per race, by curve"
HEAT_WRECKS = "Wrecks per race, by square"
HEAT_RAMS = "Rams per race, by square rammed"


def last_cards(game: Any) -> dict[int, str]:
    """The card each seat played in the last revealed round (read back from the log, so a
    choice still hidden is never shown)."""
    for e in reversed(game.log):
        if e.get("t") == "event" and e.get("ev") == "reveal":
            return {int(p): str(k).split(" ", 1)[1] for p, k in e["cards"].items()}
    return {}


def damage_points(game: Any, car: Any) -> int:
    """Damage points a car carries: 10 km/h of maximum lost per point."""
    return max(0, (game.decks.setup.maximum - car.maximum) // 10)


def brief(game: Any, seat: int) -> str:
    """Speed / maximum, damage, the card played in the last revealed round, and the state."""
    c = game.cars[seat]
    card = last_cards(game).get(seat, "")
    names = {a.id: a.name for a in game.decks.actions} | {e.id: e.name for e in game.decks.equipment}
    card = names.get(card, card)
    state = "wreck" if c.wreck else "winner" if game.winner == seat else "pit road" if c.in_pit else ""
    parts = [f"{c.speed}/{c.maximum} km/h" + (" nitrous" if c.nitrous else ""),
             f"damage {damage_points(game, c)}", f"card {card}" if card else "", state]
    return ", ".join(p for p in parts if p)


def gauges(game: Any, seat: int) -> list[tuple[str, float, float, float]]:
    """The speedometer (its maximum marked; nitrous may pass it) and the damage taken."""
    c = game.cars[seat]
    setup = game.decks.setup
    top = max(setup.cap, setup.maximum)
    shot = max((n.adds for n in game.decks.nitrous), default=0)
    scale = float(top + shot)  # room above the top speed for a nitrous shot
    return [("speed", float(c.speed), float(c.maximum), max(scale, float(c.speed))),
            ("damage", float(damage_points(game, c)), float(setup.maximum // 10), float(setup.maximum // 10))]


def marks(game: Any) -> list[tuple[int, int, str, str]]:
    """Hazard tokens on their squares and wrecks where they stand."""
    spaces = game.track.spaces
    out = []
    for node, kind in sorted(game.on_board.items()):
        sp = node_space(game.track, node)  # a scenario may lay a token in the pit road
        tk = game.token_kinds.get(kind)
        out.append((sp.lane, sp.first, kind, getattr(tk, "name", kind)))
    for c in game.cars:
        if c.wreck and c.node >= 0 and not c.in_pit:
            sp = spaces[c.node]
            out.append((sp.lane, sp.first, "wreck", f"wreck of {game.names[c.seat]}"))
    return out


def _cell(game: Any, name: str) -> Cell | None:
    sp = game.track.space_named(name)
    return (sp.lane, sp.first) if sp is not None else None


def route(game: Any, key: str) -> list[Cell]:
    """The squares the car of the pending decision passes if `key` is taken, its own first:
    a step is the square it names; another option is tried on a copy of the game (its log
    left behind) and the steps it logs read back; [] when the car does not move."""
    d = game.pending
    if d is None or d.option(key) is None or d.kind == "card" and len(game.choosing) > 1:
        return []
    p = d.player
    c = game.cars[p]
    if key.startswith("to ") and not c.in_pit:
        # one square; should the move go on by itself, the face shows the rest as a jump
        here, there = game.track.spaces[c.node], _cell(game, key[3:])
        return [(here.lane, here.first), there] if there is not None else []
    memo = {id(game.track): game.track, id(game.decks): game.decks, id(game.b): game.b, id(game.log): []}
    g = copy.deepcopy(game, memo)
    c = g.cars[p]
    start = (PIT_LANE, c.pit_node) if c.in_pit else (game.track.spaces[max(c.node, 0)].lane,
                                                       game.track.spaces[max(c.node, 0)].first)
    g.apply(key)
    path = [start]
    for e in g.log:
        if e.get("t") != "event" or e.get("p") != p:
            continue
        ev = e.get("ev")
        cell = None
        if ev in ("step", "pit-exit", "u-turn"):
            cell = _cell(g, str(e["to"]))
        elif ev == "pit":
            cell = (PIT_LANE, g.cars[p].pit_node)
        if cell is not None and cell != path[-1]:
            path.append(cell)
    return path if len(path) > 1 else []


def heat(summary: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """Per-race means of a batch: hazard cards per curve, wrecks and rams per square."""
    races = max(1, int(summary.get("races", 1)))
    maps = {HEAT_HAZARDS: {f"corner:{k}": round(v / races, 4)
                           for k, v in summary.get("hazards_by_corner", {}).items() if str(k).isdigit()},
            HEAT_WRECKS: {f"space:{k}": round(v / races, 4) for k, v in summary.get("wrecks_at", {}).items()},
            HEAT_RAMS: {f"space:{k}": round(v / races, 4) for k, v in summary.get("rams_at", {}).items()}}
    return {k: v for k, v in maps.items() if v or k == HEAT_HAZARDS}
