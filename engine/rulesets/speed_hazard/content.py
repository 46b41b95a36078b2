"""The speed-and-hazard content model: tracks plus five data kinds (docs/rules/speed-hazard.md):
the action cards (`action-cards/1`), the hazard, nitrous and equipment decks (`hazard-deck/1`,
`nitrous-deck/1`, `equipment-deck/1`) and the car setup (`car-setup/1`: speeds, damage die,
tokens, luck, pit prices, collision dice).

A pack holds at most one file of each kind; a pack that extends another inherits the kinds it
does not give itself, and changes single cards of the inherited action cards and decks in its
own files (engine/packs/merge.py's `rows`): new cards in `cards:`, changed fields under
`overrides:`, cards left out under `removes:`, a card replaced whole through `replaces:` in
pack.yaml; its car setup replaces the inherited one. A kind missing from the whole lineage, a
second file of a kind, action cards without one of the four base actions, a deck left without
cards or a speed that is not a multiple of 10 km/h is reported (P044).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from slipstream.engine.core.diagnostics import make
from slipstream.engine.core.schema import validator
from slipstream.engine.packs.data import FrozenMap, thaw
from slipstream.engine.packs.loader import Build
from slipstream.engine.packs.merge import Row, rows
from slipstream.engine.packs.trackpack import TrackPack, TracksOnly
from slipstream.engine.play.base import own_file

RULESET_ID = "speed-hazard"
KINDS = ("action-cards", "hazard-deck", "nitrous-deck", "equipment-deck", "car-setup")
CARD_KINDS = KINDS[:4]  # the kinds whose cards a pack may change one by one
LABELS = {"action-cards": "action card", "hazard-deck": "hazard card", "nitrous-deck": "nitrous card",
          "equipment-deck": "equipment card"}
BASE_ACTIONS = ("brake", "accelerate", "ram", "sabotage")
SPEED_UNIT = 10


@dataclass(frozen=True, slots=True)
class ActionCard:
    """An action card (or the action side of an equipment card: `equipment` is its id)."""

    id: str
    name: str
    number: int
    kind: str  # brake | accelerate | ram | sabotage | u-turn
    amounts: tuple[int, ...] = ()
    nitrous: bool = False
    drops: tuple[int, ...] = (1, 2)
    optional: bool = False
    equipment: str = ""


@dataclass(frozen=True, slots=True)
class HazardCard:
    id: str
    name: str
    damage: int = 0
    slow: int = 0
    spin: bool = False
    insanity: str = ""  # no-brake | late | no-luck
    late: int = 0
    keep: bool = False


@dataclass(frozen=True, slots=True)
class NitrousCard:
    id: str
    name: str
    adds: int = 0
    damage: int = 0
    click: bool = False


@dataclass(frozen=True, slots=True)
class Equipment:
    id: str
    name: str
    action: ActionCard | None = None
    armour: int = 0
    grip: int = 0
    sane: bool = False
    nitrous_safe: bool = False
    immune: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TokenKind:
    id: str
    name: str
    damage: int = 0
    hazards: int = 0
    slow: int = 0


@dataclass(frozen=True, slots=True)
class Setup:
    """car-setup/1: speeds in km/h, the damage die, tokens, luck, limits, prices, dice."""

    start: int
    maximum: int
    cap: int
    die: tuple[int, ...]
    luck: int
    tokens: tuple[TokenKind, ...]
    token_start: int
    token_hold: int
    supply: int
    equipment_hold: int
    equipment_draw: int
    points: int
    prices: tuple[tuple[str, int], ...]  # equipment, repair, token, therapy
    dice: tuple[tuple[str, tuple[int, ...]], ...]  # forced_rear_end, side_ram, ... pit_wall

    def price(self, what: str) -> int:
        return dict(self.prices)[what]

    def dice_of(self, what: str) -> tuple[int, ...]:
        return dict(self.dice)[what]


@dataclass(frozen=True, slots=True)
class Decks:
    """Everything the rules read from a pack. Decks list one entry per card copy."""

    actions: tuple[ActionCard, ...]
    hazards: tuple[HazardCard, ...]
    nitrous: tuple[NitrousCard, ...]
    equipment: tuple[Equipment, ...]
    setup: Setup


@dataclass(frozen=True, slots=True)
class SHPack(TrackPack):
    """A loaded speed-and-hazard pack: a track pack with its decks (None when unusable) and the
    cards they were made of, by kind (what a pack extending this one changes)."""

    decks: Decks | None = None
    rows: Mapping[str, tuple[Row, ...]] = FrozenMap()



class SHContent(TracksOnly):
    """Tracks merged as for any track pack, plus the five data kinds."""

    kinds = KINDS
    row_kinds = CARD_KINDS  # cards by id; the car setup replaces the inherited one whole
    pack_type = SHPack
    replaced = "a track or a card"

    def build_data(self, b: Build, replaces: dict[str, tuple[int, bool]]) -> dict[str, Any]:
        # the parents are packs of this ruleset (the loader refuses others, P029)
        parent = next((p for p in reversed(b.parents) if isinstance(p, SHPack) and p.decks), None)
        own = {k: own_file(b, k, "P044") for k in KINDS}
        if parent is not None and all(f is None for f in own.values()):
            return {"decks": parent.decks, "rows": parent.rows}
        return _decks(b, own, parent, replaces)


class _Bad(Exception):
    pass


def _decks(b: Build, own: dict[str, Any], parent: SHPack | None,
           replaces: dict[str, tuple[int, bool]]) -> dict[str, Any]:
    missing = [k for k, f in own.items() if f is None]
    if missing and parent is None:
        b.diags.append(make("P044", "pack.yaml", 1, 1, "$",
                            "no " + ", ".join(f"{k}/1" for k in missing) + " file in the pack",
                            hint="add the missing files, or extend `speed-hazard` to inherit them"))
        return {}
    if not all(f is None or validator(k).is_valid(f.data) for k, f in own.items()):
        return {}  # the schema diagnostics say what is wrong
    old = parent.decks if parent is not None else None
    old_rows = parent.rows if parent is not None else {}
    # the cards of each deck kind: the inherited ones changed card by card (engine/packs/merge.py)
    card_rows = {k: tuple(rows(b, own[k], "cards", "id", LABELS[k], old_rows.get(k, ()), replaces))
                 for k in CARD_KINDS}
    try:
        got = {k: _READERS[k](b, card_rows[k], own[k]) for k in CARD_KINDS if own[k] is not None}
        setup = _read_setup(b, own["car-setup"]) if own["car-setup"] is not None else None
    except _Bad:
        return {}
    if setup is None:
        assert old is not None  # a pack without a parent has every kind (above)
        setup = old.setup

    def pick(k: str, attr: str) -> Any:
        return got[k] if k in got else getattr(old, attr)

    decks = Decks(actions=pick("action-cards", "actions"), hazards=pick("hazard-deck", "hazards"),
                  nitrous=pick("nitrous-deck", "nitrous"), equipment=pick("equipment-deck", "equipment"),
                  setup=setup)
    return {"decks": decks, "rows": FrozenMap(card_rows)}


def _bad(b: Build, file: str, path: tuple[Any, ...], message: str, hint: str) -> _Bad:
    b.diag("P044", file, path, message, hint=hint)
    return _Bad()


def _speeds(b: Build, file: str, path: tuple[Any, ...], values: Any) -> None:
    """Every km/h value must be a multiple of 10 (cars move one square per 10 km/h)."""
    items = values if isinstance(values, list | tuple) else [values]
    for i, v in enumerate(items):
        if int(v) % SPEED_UNIT:
            at = (*path, i) if isinstance(values, list | tuple) else path
            raise _bad(b, file, at, f"{v} km/h is not a multiple of {SPEED_UNIT}",
                       hint="speeds move in steps of 10 km/h")


def _action(b: Build, file: str, path: tuple[Any, ...], c: dict[str, Any], cid: str, name: str,
            equipment: str = "") -> ActionCard:
    kind = c["kind"]
    amounts = [int(a) for a in c.get("amounts", [])]
    if kind in ("brake", "accelerate") and not amounts:
        raise _bad(b, file, path, f"a {kind} card needs its `amounts`", hint="list the km/h it offers, e.g. [10, 20]")
    _speeds(b, file, (*path, "amounts"), amounts) if amounts else None
    return ActionCard(cid, name, int(c["number"]), kind, tuple(amounts), bool(c.get("nitrous", False)),
                      tuple(int(x) for x in c.get("drops", [1, 2])), bool(c.get("optional", False)), equipment)


def _cards(cards: tuple[Row, ...]) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """(file, JSON path, fields) of each card: where it was written last, and its data."""
    return [(r.origin.file, tuple(r.origin.path), thaw(r.data)) for r in cards]


def _empty(b: Build, f: Any, cards: tuple[Row, ...], what: str) -> None:
    if not cards:
        raise _bad(b, f.file, (), f"the {what} has no cards",
                   hint="keep at least one card (`removes:` left out every inherited one)")


def _read_actions(b: Build, cards: tuple[Row, ...], f: Any) -> tuple[ActionCard, ...]:
    _empty(b, f, cards, "set of action cards")
    out = tuple(_action(b, file, path, c, c["id"], c["name"]) for file, path, c in _cards(cards))
    lacking = [k for k in BASE_ACTIONS if not any(a.kind == k and not a.optional for a in out)]
    if lacking:
        raise _bad(b, f.file, ("cards",) if "cards" in f.data else (),
                   "no " + " or ".join(lacking) + " card among the action cards",
                   hint="every car holds a Brake, Accelerate, Ram and Sabotage card")
    return out


def _read_hazards(b: Build, cards: tuple[Row, ...], f: Any) -> tuple[HazardCard, ...]:
    _empty(b, f, cards, "hazard deck")
    out: list[HazardCard] = []
    for file, path, c in _cards(cards):
        if "slow" in c:
            _speeds(b, file, (*path, "slow"), c["slow"])
        card = HazardCard(c["id"], c["name"], int(c.get("damage", 0)), int(c.get("slow", 0)), bool(c.get("spin", False)),
                          str(c.get("insanity", "")), int(c.get("late", 0)), bool(c.get("keep", False)))
        out += [card] * int(c["count"])
    return tuple(out)


def _read_nitrous(b: Build, cards: tuple[Row, ...], f: Any) -> tuple[NitrousCard, ...]:
    _empty(b, f, cards, "nitrous deck")
    out: list[NitrousCard] = []
    for file, path, c in _cards(cards):
        if "adds" in c:
            _speeds(b, file, (*path, "adds"), c["adds"])
        out += [NitrousCard(c["id"], c["name"], int(c.get("adds", 0)), int(c.get("damage", 0)), bool(c.get("click", False)))] * int(c["count"])
    return tuple(out)


def _read_equipment(b: Build, cards: tuple[Row, ...], f: Any) -> tuple[Equipment, ...]:
    _empty(b, f, cards, "equipment deck")
    out: list[Equipment] = []
    for file, path, c in _cards(cards):
        act = None
        if "action" in c:
            act = _action(b, file, (*path, "action"), c["action"], c["id"], c["name"], equipment=c["id"])
        if "grip" in c:
            _speeds(b, file, (*path, "grip"), c["grip"])
        out += [Equipment(c["id"], c["name"], act, int(c.get("armour", 0)), int(c.get("grip", 0)), bool(c.get("sane", False)),
                          bool(c.get("nitrous_safe", False)), tuple(c.get("immune", [])))] * int(c["count"])
    return tuple(out)


def _read_setup(b: Build, f: Any) -> Setup:
    d = f.data
    for k in ("start", "maximum", "cap"):
        _speeds(b, f.file, ("speed", k), d["speed"][k])
    for i, t in enumerate(d["tokens"]["kinds"]):
        if "slow" in t:
            _speeds(b, f.file, ("tokens", "kinds", i, "slow"), t["slow"])
    if d["speed"]["maximum"] > d["speed"]["cap"]:
        raise _bad(b, f.file, ("speed", "maximum"), "the starting maximum is above the repair cap", hint="keep maximum <= cap")
    if d["speed"]["start"] > d["speed"]["maximum"]:
        raise _bad(b, f.file, ("speed", "start"), "the starting speed is above the starting maximum", hint="keep start <= maximum")
    kinds = tuple(TokenKind(t["id"], t["name"], int(t.get("damage", 0)), int(t.get("hazards", 0)), int(t.get("slow", 0)))
                  for t in d["tokens"]["kinds"])
    dice = d["dice"]
    return Setup(int(d["speed"]["start"]), int(d["speed"]["maximum"]), int(d["speed"]["cap"]),
                 tuple(int(x) for x in d["damage_die"]), int(d["luck"]), kinds, int(d["tokens"]["start"]),
                 int(d["tokens"]["hold"]), int(d["tokens"]["supply"]), int(d["equipment"]["hold"]),
                 int(d["equipment"]["draw"]), int(d["pit"]["points"]),
                 tuple((k, int(d["pit"][k])) for k in ("equipment", "repair", "token", "therapy")),
                 tuple((k, tuple(int(x) for x in v) if isinstance(v, list) else (int(v),)) for k, v in dice.items()))


_READERS: dict[str, Any] = {"action-cards": _read_actions, "hazard-deck": _read_hazards, "nitrous-deck": _read_nitrous,
                            "equipment-deck": _read_equipment}

CONTENT = SHContent(RULESET_ID)
