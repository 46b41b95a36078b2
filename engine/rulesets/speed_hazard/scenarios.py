"""Speed-and-hazard rule scenarios (`sh-scenario/1`, docs/speed-hazard-scenarios.md).

A scenario sets up cars (square or pit road, speed, maximum, luck, tokens, equipment, insanity
cards, wrecks), hazard tokens on squares (of the pit road too), the tops of the hazard, nitrous
and equipment decks and exact discard piles, scripts the damage dice (the points each die shows,
in order), gives some cars their turn with a card (`play:`) or starts the round's secret choice,
applies decisions or lets a bot play, and compares the outcome: cars, tokens, every draw and
discard pile, events, the pending decision, and the pack's own data (decks and car setup). `slipstream test PACK` runs every scenario in the pack's `tests/` folder.
A malformed scenario gives coded diagnostics (schema, C1xx) with file, line, column and JSON
path; a failure names the line of the expectation or decision that differed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.core.schema import schema_diagnostics, whole_numbers
from slipstream.engine.core.yamlsource import PathKey, SourceMap
from slipstream.engine.packs.trackpack import house_options
from slipstream.engine.play.scenarios import (
    DiceOut,
    Report,
    ScenarioResult,
    check_bot,
    check_events,
    check_expected_cars,
    check_options,
    check_options_and_result,
    check_over,
    check_pending,
    check_pending_car,
    corner_square,
    diag,
    line_of,
    play_scenario,
    race_laps,
    result_of,
    run_scenario_folder,
    sayer,
    scenario_track,
    turn_of,
)
from slipstream.engine.play.scenarios import Prepared as BasePrepared
from slipstream.engine.play.scenarios import run_file as run_scenario_file
from slipstream.engine.rulesets.speed_hazard.content import (
    Decks,
    Equipment,
    HazardCard,
    NitrousCard,
)
from slipstream.engine.rulesets.speed_hazard.game import NO_CORNER, SpeedHazardGame
from slipstream.engine.rulesets.speed_hazard.ruleids import cover_ids
from slipstream.engine.tracks.track import Track

KIND = "sh-scenario"
TAG = f"{KIND}/1"
PIT = "pit"
DECKS = ("hazards", "nitrous", "equipment")
DISCARDS = {"hazard_discard": "hazards", "nitrous_discard": "nitrous"}  # discard pile -> its deck
PILES = ("hazards", "hazard_discard", "nitrous", "nitrous_discard", "equipment")


class ScriptedDice:
    """Stands in for the game's generator: `randrange` is a damage die showing the next
    scripted points; `shuffle` keeps the order (a stacked deck stays stacked when it is
    shuffled anew)."""

    def __init__(self, rolls: Sequence[int], faces: Sequence[int]) -> None:
        self.left = list(rolls)
        self.faces = list(faces)

    def randrange(self, n: int) -> int:
        if not self.left:
            raise DiceOut("damage")
        return self.faces.index(self.left.pop(0))

    def shuffle(self, xs: list[Any]) -> None:
        pass


@dataclass(slots=True)
class Prepared(BasePrepared):
    """A checked scenario, ready to run; `squares` holds per car its main square (-1: in the
    pit road)."""

    decks: Decks


def resolve_square(track: Track, at: Any, pit: bool = False) -> tuple[int | None, str]:
    """The main square a scenario square names (`L:S`, or `{corner, lane, square}`), or (None, why);
    with `pit`, `pit:S` names a square of the pit road (its node after the main squares)."""
    if pit and isinstance(at, str) and at.startswith("pit:"):
        psp = track.space_named(at)
        if psp is None or track.pit is None:
            return None, f"{at} is not a square of the track's pit road" if track.pit is not None else "the track has no pit road"
        return len(track.spaces) + track.pit.spaces.index(psp), ""
    if isinstance(at, dict):
        named, why = corner_square(track, at, "curve")
        if named is None:
            return None, why
        name = named
    else:
        name = at
    sp = track.space_named(name)
    if sp is None or sp.index >= len(track.spaces) or track.spaces[sp.index] is not sp:
        return None, f"{name} is not a square of the track"
    return sp.index, ""


def _deck_ids(decks: Decks, which: str) -> list[str]:
    by_deck: dict[str, Sequence[HazardCard | NitrousCard | Equipment]] = {
        "hazards": decks.hazards, "nitrous": decks.nitrous, "equipment": decks.equipment}
    return [c.id for c in by_deck[which]]


def check_scenario(data: Any, src: SourceMap, pack: Any, ruleset: Any) -> tuple[Prepared | None, list[Diagnostic]]:
    """Schema and reference checks of one scenario against a speed-and-hazard pack (`ruleset`:
    the ruleset object, for its options and bots)."""
    diags = schema_diagnostics(KIND, data, src)
    if diags:
        return None, diags
    data = whole_numbers(data)  # 2.0 counts as 2 (the schemas' integer)
    decks: Decks | None = getattr(pack, "decks", None)
    if decks is None:
        return None, [diag(src, "C100", (), "the pack has no usable speed-and-hazard decks (P044)")]
    known = cover_ids(decks)
    for i, cov in enumerate(data["covers"]):
        if cov not in known:
            diags.append(diag(src, "C105", ("covers", i), f"covers unknown {cov.partition(':')[0]} {cov.partition(':')[2]!r}",
                               hint="rule ids: docs/speed-hazard-scenarios.md; cards by their pack ids"))
    diags += check_options(data, src, ruleset)
    cars = data["cars"]
    track, tdiags = scenario_track(data, src, pack)
    diags += tdiags
    diags += check_bot(data, src, ruleset)
    faces = decks.setup.die
    for i, r in enumerate(data.get("dice", [])):
        if r not in faces:
            diags.append(diag(src, "C110", ("dice", i), f"no face of the damage die shows {r} points "
                                                          f"(faces: {', '.join(str(f) for f in faces)})"))
    diags += _check_cards(data, src, decks)
    diags += _check_expected_cards(data, src, decks)
    if track is None:
        return None, diags
    laps = race_laps(data, track)
    squares, cdiags = _check_cars(data, src, track, decks)
    diags += cdiags
    n = len(cars)
    kinds = [k.id for k in decks.setup.tokens]
    occupied = {x for x in squares if x is not None and x >= 0}
    for sq, kind in (data.get("board") or {}).items():
        node, why = resolve_square(track, sq, pit=True)
        if node is None:
            diags.append(diag(src, "C104", ("board", sq), why))
        if kind not in kinds:
            diags.append(diag(src, "C103", ("board", sq), f"no token kind {kind!r}", hint="kinds: " + ", ".join(kinds)))
        elif node in occupied:
            diags.append(diag(src, "C104", ("board", sq), f"a token on {sq}, where a car stands"))
    actions = {a.id for a in decks.actions}
    equipment = {e.id: e for e in decks.equipment}
    for i, pl in enumerate(data.get("play", [])):
        if pl["car"] >= n:
            diags.append(diag(src, "C106", ("play", i, "car"), f"no car {pl['car']} (cars 0 to {n - 1})"))
        kind, _, cid = pl["card"].partition(" ")
        if (kind == "card" and cid not in actions) or (kind == "equip" and (cid not in equipment or equipment[cid].action is None)):
            what = "action card" if kind == "card" else "equipment card that plays as an action"
            diags.append(diag(src, "C102", ("play", i, "card"), f"no {what} {cid!r}",
                               hint="action cards: " + ", ".join(sorted(actions))))
    if "play" in data and squares and squares[0] is None:
        diags.append(diag(src, "C106", ("play",), "`play` needs cars set on squares (`at:`)"))
    ex = data["expect"]
    diags += check_expected_cars(ex, src, n, ("grid", "standings", "order"))
    for key in ("winner",):
        if key in ex and ex[key] is not None and ex[key] >= n:
            diags.append(diag(src, "C106", ("expect", key), f"no car {ex[key]} (cars 0 to {n - 1})"))
    diags += check_pending_car(ex, src, n)
    for i, want in enumerate(ex.get("cars", [])):
        if "at" in want and want["at"] != PIT:
            node, why = resolve_square(track, want["at"])
            if node is None:
                diags.append(diag(src, "C104", ("expect", "cars", i, "at"), why))
        for k in want.get("tokens", {}):
            if k not in kinds:
                diags.append(diag(src, "C103", ("expect", "cars", i, "tokens", k), f"no token kind {k!r}",
                                   hint="kinds: " + ", ".join(kinds)))
    for sq in ex.get("board", {}):
        node, why = resolve_square(track, sq, pit=True)
        if node is None:
            diags.append(diag(src, "C104", ("expect", "board", sq), why))
    if diags:
        return None, diags
    opts = {**house_options(pack), **(data.get("options") or {})}  # the pack's house rules, then its own
    return Prepared(data["id"], src.file, data, src, track, laps, opts, squares,
                    tuple(data["covers"]), ruleset, decks=decks), []


def _check_cards(data: dict[str, Any], src: SourceMap, decks: Decks) -> list[Diagnostic]:
    """Every card stacked or put in a discard pile is a card of its deck, and no deck gives
    more copies than it holds to the cars (insanity, equipment), its top and its discard pile."""
    out: list[Diagnostic] = []
    spots: list[tuple[str, str, PathKey]] = []  # (deck, card id, where)
    for i, c in enumerate(data["cars"]):
        spots += [("hazards", h, ("cars", i, "insanity", j)) for j, h in enumerate(c.get("insanity", []))]
        spots += [("equipment", e, ("cars", i, "equipment", j)) for j, e in enumerate(c.get("equipment", []))]
    for which, ids in (data.get("decks") or {}).items():
        deck = DISCARDS.get(which, which)
        if deck in DECKS:
            spots += [(deck, cid, ("decks", which, i)) for i, cid in enumerate(ids)]
    used: dict[tuple[str, str], int] = {}
    for deck, cid, path in spots:
        have = _deck_ids(decks, deck)
        if cid not in have:
            if path[0] == "decks":  # a car's unknown card is reported with the car
                out.append(diag(src, "C102", path, f"no card {cid!r} in the {deck} deck",
                                 hint="cards: " + ", ".join(dict.fromkeys(have))))
            continue
        used[deck, cid] = used.get((deck, cid), 0) + 1
        if used[deck, cid] > have.count(cid):
            out.append(diag(src, "C102", path, f"the {deck} deck holds {have.count(cid)} {cid!r}, the scenario "
                                                f"uses more (held by cars, stacked and discarded)"))
    return out


def _check_expected_cards(data: dict[str, Any], src: SourceMap, decks: Decks) -> list[Diagnostic]:
    """The cards named by `expect.decks` are cards of their decks; `expect.pack` names cards
    of the pack and fields its data has."""
    out: list[Diagnostic] = []
    ex = data["expect"]
    for pile, want in (ex.get("decks") or {}).items():
        have = _deck_ids(decks, DISCARDS.get(pile, pile))
        at: tuple[Any, ...] = ("expect", "decks", pile)
        named: list[tuple[PathKey, Any]] = [((*at, k), want[k]) for k in ("top", "bottom") if want.get(k) is not None]
        named += [((*at, "order", i), cid) for i, cid in enumerate(want.get("order", []))]
        for path, cid in named:
            if cid not in have:
                out.append(diag(src, "C102", path, f"no card {cid!r} in the {DISCARDS.get(pile, pile)} deck",
                                 hint="cards: " + ", ".join(dict.fromkeys(have))))
    view = pack_view(decks)
    for which, want in (ex.get("pack") or {}).items():
        base: tuple[Any, ...] = ("expect", "pack", which)
        if which == "setup":
            out += _unknown_fields(src, want, view["setup"], base)
            continue
        cards = view[which]["cards"]
        for cid, fields in (want.get("cards") or {}).items():
            if cid not in cards:
                out.append(diag(src, "C102", (*base, "cards", cid), f"no card {cid!r} among the pack's {which}",
                                 hint="cards: " + ", ".join(cards)))
            else:
                out += _unknown_fields(src, fields, cards[cid], (*base, "cards", cid))
    return out


def _unknown_fields(src: SourceMap, want: Any, got: Any, path: tuple[Any, ...]) -> list[Diagnostic]:
    """C105 for each key of the mapping `want` that the pack data `got` does not have."""
    out: list[Diagnostic] = []
    if not isinstance(want, dict) or not isinstance(got, dict):
        return out
    for k, v in want.items():
        if k not in got:
            out.append(diag(src, "C105", (*path, k), f"the pack data has no field {k!r} here",
                             hint="fields: " + ", ".join(got)))
        else:
            out += _unknown_fields(src, v, got[k], (*path, k))
    return out


def _card_view(card: Any) -> dict[str, Any]:
    """A card's fields as its deck file writes them (lists for tuples, an action as a mapping)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(card):
        if f.name in ("id", "equipment"):
            continue
        v = getattr(card, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else _card_view(v) if dataclasses.is_dataclass(v) else v
    return out


def pack_view(decks: Decks) -> dict[str, Any]:
    """The pack's data as `expect.pack` compares it: per deck its size and its cards by id (with
    `count`, the copies), and the car setup in the shape of its car-setup/1 file."""
    out: dict[str, Any] = {}
    for which, cards in (("actions", decks.actions), ("hazards", decks.hazards), ("nitrous", decks.nitrous),
                         ("equipment", decks.equipment)):
        by_id: dict[str, dict[str, Any]] = {}
        for c in cards:
            if c.id in by_id:
                by_id[c.id]["count"] += 1
            else:
                by_id[c.id] = {**_card_view(c), "count": 1}
        out[which] = {"size": len(cards), "cards": by_id}
    s = decks.setup
    out["setup"] = {
        "speed": {"start": s.start, "maximum": s.maximum, "cap": s.cap}, "damage_die": list(s.die), "luck": s.luck,
        "tokens": {"start": s.token_start, "hold": s.token_hold, "supply": s.supply,
                   "kinds": {k.id: {"name": k.name, "damage": k.damage, "hazards": k.hazards, "slow": k.slow}
                             for k in s.tokens}},
        "equipment": {"hold": s.equipment_hold, "draw": s.equipment_draw},
        "pit": {"points": s.points, **dict(s.prices)},
        "dice": {k: v[0] if len(v) == 1 else list(v) for k, v in s.dice},
    }
    return out


def _check_cars(data: dict[str, Any], src: SourceMap, track: Track, decks: Decks) -> tuple[list[int | None], list[Diagnostic]]:
    cars = data["cars"]
    out: list[Diagnostic] = []
    squares: list[int | None] = [None] * len(cars)
    setup = decks.setup
    kinds = [k.id for k in setup.tokens]
    hazards = {h.id: h for h in decks.hazards}
    equipment = [e.id for e in decks.equipment]
    if not any("at" in c for c in cars):
        for i, c in enumerate(cars):
            for k in c:
                if k != "name":
                    out.append(diag(src, "C109", ("cars", i, k), f"a car on the grid takes only `name`, not `{k}`",
                                     hint="give every car `at:` to set up a position"))
        if len(cars) > len(track.grid):
            out.append(diag(src, "C104", ("cars",), f"{len(cars)} cars but the track has {len(track.grid)} grid slots"))
        return squares, out
    seen: dict[int, int] = {}
    for i, c in enumerate(cars):
        if "at" not in c:
            out.append(diag(src, "C104", ("cars", i), f"car {i} has no `at:` while other cars do",
                             hint="give every car a square (or `pit`), or none to start from the grid"))
            continue
        if c["at"] == PIT:
            if track.pit is None or not any(e.main for e in track.pit.entries):
                out.append(diag(src, "C104", ("cars", i, "at"), "the track has no pit road with a main entry"))
                continue
            squares[i] = -1
        else:
            node, why = resolve_square(track, c["at"])
            if node is None:
                out.append(diag(src, "C104", ("cars", i, "at"), why))
                continue
            squares[i] = node
            if node in seen:
                out.append(diag(src, "C104", ("cars", i, "at"), f"cars {seen[node]} and {i} stand on the same square"))
            seen[node] = i
        maximum = c.get("maximum", setup.maximum)
        speed = c.get("speed", 0)
        if maximum > setup.cap:
            out.append(diag(src, "C109", ("cars", i, "maximum"), f"a maximum above the cap of {setup.cap} km/h"))
        if speed > maximum and not c.get("nitrous"):
            out.append(diag(src, "C109", ("cars", i, "speed"), f"a speed of {speed} km/h above the car's maximum of "
                                                               f"{maximum} (only in nitrous mode, `nitrous: true`)"))
        for k in ("speed", "maximum"):
            if c.get(k, 0) % 10:
                out.append(diag(src, "C109", ("cars", i, k), f"{k} {c[k]} is not a multiple of 10 km/h"))
        if c.get("lap", 1) > race_laps(data, track):
            out.append(diag(src, "C109", ("cars", i, "lap"), "a lap beyond the race's laps"))
        for k in c.get("tokens", {}):
            if k not in kinds:
                out.append(diag(src, "C103", ("cars", i, "tokens", k), f"no token kind {k!r}", hint="kinds: " + ", ".join(kinds)))
        for j, e in enumerate(c.get("equipment", [])):
            if e not in equipment:
                out.append(diag(src, "C102", ("cars", i, "equipment", j), f"no equipment card {e!r}",
                                 hint="equipment: " + ", ".join(dict.fromkeys(equipment))))
        for j, h in enumerate(c.get("insanity", [])):
            if h not in hazards or not (hazards[h].insanity and hazards[h].keep):
                out.append(diag(src, "C102", ("cars", i, "insanity", j), f"{h!r} is not an insanity card that is kept",
                                 hint="kept insanity cards: " + ", ".join(k for k, v in hazards.items() if v.insanity and v.keep)))
    return squares, out


# --- running -------------------------------------------------------------------------------------

def _take(deck: list[Any], items: Sequence[Any]) -> list[Any]:
    """`items` (kept in order) taken out of `deck`, one copy each."""
    rest = list(deck)
    for x in items:
        rest.remove(x)
    return rest


def build_game(sc: Prepared) -> tuple[SpeedHazardGame, ScriptedDice | None]:
    """The scenario's position: the race from its grid, or the cars set where it says; decks
    stacked, the damage dice scripted (or the seeded generator when a bot plays unscripted)."""
    d = sc.data
    names = [c.get("name", f"P{i + 1}") for i, c in enumerate(d["cars"])]
    seed = d.get("seed", 0)
    g = SpeedHazardGame(sc.track, sc.decks, names, seed, sc.laps, sc.options)
    dice = None
    if "dice" in d or "bot" not in d:
        dice = ScriptedDice(d.get("dice", []), sc.decks.setup.die)
        g.rng = dice
    if sc.squares and sc.squares[0] is not None:
        _place(g, sc)
    spec = d.get("decks") or {}
    if "equipment" in spec:
        g.equip_deck = list(spec["equipment"]) + _take(g.equip_deck, spec["equipment"])
    for which, pile in (("hazards", "hazard_discard"), ("nitrous", "nitrous_discard")):
        ids = _deck_ids(sc.decks, which)
        deck, used = (g.hazard_deck, g.hazard_used) if which == "hazards" else (g.nitrous_deck, g.nitrous_used)
        top = _indices(ids, deck, spec.get(which, []))
        rest = [i for i in deck if i not in top]
        discard = _indices(ids, rest, spec.get(pile, []))
        rest = [i for i in rest if i not in discard]
        if pile in spec:  # exact: the engine keeps a discard pile bottom first
            used = discard[::-1]
        if which in spec and spec.get("only"):
            deck = top  # the rest lies in the discard pile (or is set aside when that is given)
            if pile not in spec:
                used = sorted(rest) + used
        else:
            deck = top + rest
        if which == "hazards":
            g.hazard_deck, g.hazard_used = deck, used
        else:
            g.nitrous_deck, g.nitrous_used = deck, used
    return g, dice


def _indices(ids: list[str], pool: list[int], want: Sequence[str]) -> list[int]:
    """For each card id of `want` in order, the first copy (a deck index) in `pool` not taken yet."""
    out: list[int] = []
    for cid in want:
        out.append(next(i for i in pool if ids[i] == cid and i not in out))
    return out


def _place(g: SpeedHazardGame, sc: Prepared) -> None:
    n = g.track.segments
    setup = sc.decks.setup
    hazard_ids = _deck_ids(sc.decks, "hazards")
    for i, c in enumerate(sc.data["cars"]):
        car = g.cars[i]
        node = sc.squares[i]
        assert node is not None
        if node < 0:  # in the pit road: entered by the main entry
            pit = g.track.pit
            assert pit is not None
            entry = next(e for e in pit.entries if e.main)
            sp = g.track.space_named(entry.cell)
            assert sp is not None
            car.node, car.in_pit, car.pit_node = sp.index, True, 0
            g.pit_counter += 1
            car.pit_seq = g.pit_counter
        else:
            car.node = node
        seg = g.track.spaces[car.node].first
        car.progress = (c.get("lap", 1) - 1) * n + seg
        car.speed, car.maximum = c.get("speed", 0), c.get("maximum", setup.maximum)
        car.luck = c.get("luck", 0)
        car.nitrous, car.reversed = c.get("nitrous", False), c.get("reversed", False)
        for k, v in c.get("tokens", {}).items():
            g.supply[k] += car.tokens.get(k, 0) - v
            car.tokens[k] = v
        for e in c.get("equipment", []):
            car.equipment.append(e)
            g.equip_deck.remove(e)
        for h in c.get("insanity", []):
            j = next(k for k, x in enumerate(hazard_ids) if x == h and k in g.hazard_deck)
            g.hazard_deck.remove(j)
            car.insanity.append(j)
        paid = c.get("paid", True) and not car.in_pit
        car.free_corner = g.b.corner[car.node] if paid else NO_CORNER
        if c.get("wreck"):
            car.wreck, car.speed = True, 0
            g.wrecked.append(i)
    for sq, kind in (sc.data.get("board") or {}).items():
        x, _ = resolve_square(g.track, sq, pit=True)
        assert x is not None
        g.on_board[x] = kind
        g.supply[kind] -= 1
    g.log.clear()
    g._start_round()
    g.rounds = 1


def run_prepared(sc: Prepared) -> ScenarioResult:
    problems: list[str] = []
    at: list[Any] = [("cars",), "the setup"]  # where the game is: path and words
    g: SpeedHazardGame | None = None
    dice: ScriptedDice | None = None
    try:
        g, dice = build_game(sc)
        if "play" in sc.data:
            at[:] = [("play",), "the turns given by `play`"]
            problems += _play_cards(g, sc)
        if not problems:
            problems += play_scenario(g, sc, at, lambda g: g.names[g.pending.player])
    except DiceOut:
        who = turn_of(g, "the secret choice") if g is not None else "the setup"
        problems.append(f"line {line_of(sc.src, at[0])}: the script ran out of damage dice during {at[1]} ({who})")
    if not problems and g is not None:
        problems += check_expect(g, sc)
        if dice is not None and dice.left:
            problems.append(f"line {line_of(sc.src, ('dice',))}: scripted damage dice never rolled: {dice.left}")
    return result_of(sc, problems)


def _play_cards(g: SpeedHazardGame, sc: Prepared) -> list[str]:
    """The cars of `play:` take their turns with their cards (the others sit the round out);
    a card the car could not choose is a failure."""
    hidden: dict[int, str] = {}
    for i, pl in enumerate(sc.data["play"]):
        p, key = pl["car"], pl["card"]
        legal = [k for k, _ in g.card_options(p)]
        if key not in legal:
            return [f"line {line_of(sc.src, ('play', i))}: {g.names[p]} cannot choose {key!r} now; legal: {', '.join(legal) or 'none'}"]
        hidden[p] = key
    g.choosing, g._hidden, g.turn, g._pending = [], hidden, None, None
    g._reveal()
    return []


def _car_at(g: SpeedHazardGame, car: Any) -> str:
    return PIT if car.in_pit else g.where(car.node) if car.node >= 0 else "off the board"


def check_expect(g: SpeedHazardGame, sc: Prepared) -> list[str]:
    """What differs from `expect:`, one line per difference, each naming its line."""
    ex, src = sc.data["expect"], sc.src
    out: list[str] = []
    say = sayer(src, out)

    n = g.track.segments
    hazard_ids = _deck_ids(sc.decks, "hazards")
    for i, want in enumerate(ex.get("cars", [])):
        car, who = g.cars[i], g.names[i]
        got: dict[str, Any] = {
            "at": _car_at(g, car), "speed": car.speed, "maximum": car.maximum, "luck": car.luck,
            "lap": car.progress // n + 1, "wreck": car.wreck, "in_pit": car.in_pit, "nitrous": car.nitrous,
            "reversed": car.reversed, "equipment": sorted(car.equipment),
            "insanity": sorted(hazard_ids[j] for j in car.insanity), "progress": car.progress,
        }
        for k, v in want.items():
            if k == "tokens":
                for kind, m in v.items():
                    if car.tokens.get(kind, 0) != m:
                        say(("cars", i, "tokens", kind), f"{who} {kind} tokens: expected {m}, got {car.tokens.get(kind, 0)}")
                continue
            if k == "at" and v != PIT:
                node, _ = resolve_square(g.track, v)
                v = g.where(node) if node is not None else v
            if k in ("equipment", "insanity"):
                v = sorted(v)
            if got[k] != v:
                say(("cars", i, k), f"{who} {k.replace('_', ' ')}: expected {v}, got {got[k]}")
    for sq, kind in ex.get("board", {}).items():
        node, _ = resolve_square(g.track, sq, pit=True)
        have = g.on_board.get(node) if node is not None else None
        if have != kind:
            say(("board", sq), f"token on {sq}: expected {kind or 'none'}, got {have or 'none'}")
    piles = _piles(g)
    for pile, want in (ex.get("decks") or {}).items():
        cards = piles[pile]
        got_pile: dict[str, Any] = {"size": len(cards), "top": cards[0] if cards else None,
                                    "bottom": cards[-1] if cards else None, "order": cards}
        for k, v in want.items():
            if got_pile[k] != v:
                say(("decks", pile, k), f"{pile.replace('_', ' ')} {k}: expected {v}, got {got_pile[k]}")
    if "pack" in ex:
        view = pack_view(g.decks)
        for which, want in ex["pack"].items():
            _compare(want, view[which], ("pack", which), say)
    evs = [e for e in g.log if e.get("t") == "event"]
    check_events(ex, evs, say)
    if "order" in ex:
        orders = [e["order"] for e in evs if e.get("ev") == "order"]
        if not orders or orders[0] != ex["order"]:
            say(("order",), f"turn order: expected {ex['order']}, got {orders[0] if orders else 'no order event'}")
    pend = g.pending
    check_pending(ex, pend, pend.player if pend is not None else -1,
                  g.names[pend.player] if pend is not None else "", say, player=False)
    check_options_and_result(ex, g, pend, say)
    if "winner" in ex:
        got_w = g.winner if g.winner >= 0 else None
        if got_w != ex["winner"]:
            say(("winner",), f"winner: expected {ex['winner']}, got {got_w}")
    check_over(ex, pend, say)
    return out


def _piles(g: SpeedHazardGame) -> dict[str, list[str]]:
    """Every draw and discard pile of the race as card ids, top first (the engine keeps a
    discard pile bottom first; equipment put back goes under its deck)."""
    hz, ni = _deck_ids(g.decks, "hazards"), _deck_ids(g.decks, "nitrous")
    return {"hazards": [hz[i] for i in g.hazard_deck], "hazard_discard": [hz[i] for i in reversed(g.hazard_used)],
            "nitrous": [ni[i] for i in g.nitrous_deck], "nitrous_discard": [ni[i] for i in reversed(g.nitrous_used)],
            "equipment": list(g.equip_deck)}


def _compare(want: Any, got: Any, path: tuple[Any, ...], say: Any) -> None:
    """Each key of the mapping `want` against the pack data `got` (nested mappings compare only
    their keys given; lists and values as a whole)."""
    if isinstance(want, dict) and isinstance(got, dict):
        for k, v in want.items():
            _compare(v, got.get(k), (*path, k), say)
    elif want != got:
        say(path, f"{' '.join(str(x) for x in path)}: expected {want}, got {got}")


def run_file(path: Path, pack: Any, ruleset: Any) -> tuple[ScenarioResult | None, list[Diagnostic]]:
    """Check and run one scenario file: its result, or None and the diagnostics."""
    return run_scenario_file(path, pack, ruleset, check_scenario, run_prepared)


def run_pack_scenarios(pack_path: str, ruleset: Any, select: str = "") -> Report:
    """Every scenario of the pack folder's `tests/` (`select`: ids containing it)."""
    return run_scenario_folder(pack_path, lambda f, pack: run_file(f, pack, ruleset),
                               lambda pack: getattr(pack, "decks", None) is not None, "no usable decks", select)

