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

Card effects are lists of steps in the ruleset's own small vocabulary (`effects:` of hazard and
nitrous cards and of action cards of a new kind, `on_keep:` of equipment; schemas/
sh-effect.schema.json, docs/rules/speed-hazard.md "Designing new content"): `speed`, `boost`,
`top_speed`, `damage`, `draw`, `tokens`, `luck`, `spin`, `move`, `reshuffle` and `if`. The older
single fields (`adds`, `damage`, `click`, `slow`, `spin`) are shorthands, read as the steps they
stand for, placed before the card's own `effects`. A step that cannot act where it stands, an
unknown token kind or an action card of a new kind without effects is an E201-E204 diagnostic.
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
KNOWN_KINDS = (*BASE_ACTIONS, "u-turn")  # the kinds the rules play; any other does its effects
SPEED_UNIT = 10


Cond = tuple[tuple[str, int], ...]  # (test, value) pairs that must all hold; booleans as 0 / 1
EFFECT_OPS = ("speed", "boost", "top_speed", "damage", "draw", "tokens", "luck", "spin", "move", "reshuffle", "if")
CONDITIONS = ("speed_at_least", "speed_at_most", "top_speed_at_most", "top_speed_at_least", "on_curve", "nitrous",
              "tokens_at_least", "luck_at_least")
# where each step may stand: action cards of a new kind (`action`), hazard and nitrous cards, and
# equipment as it is kept in the pit road (`keep`)
PLACES: dict[str, tuple[str, ...]] = {
    "speed": ("action", "hazard", "nitrous"), "boost": ("action", "nitrous"),
    "top_speed": ("action", "hazard", "nitrous", "keep"), "damage": ("action", "hazard", "nitrous", "keep"),
    "draw": ("action", "hazard", "nitrous"), "tokens": ("action", "hazard", "nitrous", "keep"),
    "luck": ("action", "hazard", "nitrous", "keep"), "spin": ("action", "hazard", "nitrous"),
    "move": ("action", "hazard", "nitrous"), "reshuffle": ("nitrous",), "if": ("action", "hazard", "nitrous", "keep"),
}
PLACE_WORDS = {"action": "an action card", "hazard": "a hazard card", "nitrous": "a nitrous card",
               "keep": "equipment's `on_keep`"}


@dataclass(frozen=True, slots=True)
class Effect:
    """One step of a card's effects: `op` with its number `n` (km/h, dice, cards, tokens,
    squares), `what` (a deck or a token kind), and for `if` the condition and both branches."""

    op: str
    n: int = 0
    what: str = ""
    cond: Cond = ()
    then: tuple[Effect, ...] = ()
    orelse: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Choice:
    """One way to play an action card of a new kind: the player picks one (`choose ID`)."""

    id: str
    name: str
    effects: tuple[Effect, ...]


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
    effects: tuple[Effect, ...] = ()  # a new kind: what the card does before the move
    choices: tuple[Choice, ...] = ()  # a new kind: ways to play it, one chosen
    needs: Cond = ()  # playable only while this holds


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
    effects: tuple[Effect, ...] = ()  # what the card does (damage, slow and spin are shorthands)


@dataclass(frozen=True, slots=True)
class NitrousCard:
    id: str
    name: str
    adds: int = 0  # km/h added (the sum of its boost and speed steps: for bots)
    damage: int = 0  # damage dice (the sum of its damage steps: for bots)
    click: bool = False  # it reshuffles the nitrous deck
    effects: tuple[Effect, ...] = ()  # what the card does when kept


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
    on_keep: tuple[Effect, ...] = ()  # done once when the car keeps it in the pit road


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
    rd = _Reader(b)
    try:
        got = {k: _READERS[k](rd, card_rows[k], own[k]) for k in CARD_KINDS if own[k] is not None}
        setup = _read_setup(b, own["car-setup"]) if own["car-setup"] is not None else None
        known = setup if setup is not None else old.setup if old is not None else None
        kinds = {t.id for t in known.tokens} if known is not None else set()
        for file, path, kind in rd.tokens:
            if kind not in kinds:
                rd.error("E203", file, path, f"no token kind {kind!r} in the car setup",
                         hint="token kinds: " + ", ".join(sorted(kinds)))
        if rd.bad:
            raise _Bad()
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


class _Reader:
    """Reads card effects for one pack build: the diagnostics go to the build; `bad` once an
    error makes the decks unusable; `tokens` the token kinds effects name, with where."""

    def __init__(self, b: Build) -> None:
        self.b = b
        self.bad = False
        self.tokens: list[tuple[str, tuple[Any, ...], str]] = []

    def error(self, code: str, file: str, path: tuple[Any, ...], message: str, hint: str, key: bool = False) -> None:
        self.b.diag(code, file, path, message, hint=hint, key=key)
        self.bad = True

    def cond(self, file: str, path: tuple[Any, ...], c: dict[str, Any]) -> Cond:
        for k in ("speed_at_least", "speed_at_most", "top_speed_at_least", "top_speed_at_most"):
            if k in c:
                _speeds(self.b, file, (*path, k), c[k])
        return tuple((k, int(c[k])) for k in CONDITIONS if k in c)

    def effects(self, file: str, path: tuple[Any, ...], steps: list[Any], place: str, top: bool = True) -> tuple[Effect, ...]:
        out: list[Effect] = []
        for i, st in enumerate(steps):
            at = (*path, i)
            ops = [k for k in EFFECT_OPS if k in st]
            if len(ops) != 1:
                self.error("E201", file, at, f"an effect step gives {len(ops)} actions ({', '.join(ops) or 'none'}), not one",
                           hint="split it into one step per action: " + ", ".join(EFFECT_OPS))
                continue
            op = ops[0]
            with_ = {"draw": ("count",), "tokens": ("count",), "if": ("then", "else")}.get(op, ())
            stray = [k for k in st if k not in (op, *with_) and not k.startswith("x-")]
            if stray:
                self.error("E201", file, (*at, stray[0]), f"`{stray[0]}` does not go with `{op}`",
                           hint="`count` goes with `draw` and `tokens`, `then` and `else` with `if`", key=True)
                continue
            if place not in PLACES[op]:
                self.error("E202", file, (*at, op), f"`{op}` cannot act on {PLACE_WORDS[place]}",
                           hint=f"`{op}` acts on " + ", ".join(PLACE_WORDS[x] for x in PLACES[op]), key=True)
                continue
            v = st[op]
            if op in ("speed", "boost", "top_speed"):
                _speeds(self.b, file, (*at, op), v)
                out.append(Effect(op, int(v)))
            elif op == "draw":
                if v == "nitrous" and (place != "action" or not top or i != len(steps) - 1):
                    self.error("E202", file, (*at, op), "a nitrous card can be drawn only by the last step of an action card",
                               hint="move `draw: nitrous` to the end of the action card's own list (not inside `if`)")
                    continue
                out.append(Effect(op, int(st.get("count", 1)), str(v)))
            elif op == "tokens":
                self.tokens.append((file, (*at, op), str(v)))
                out.append(Effect(op, int(st.get("count", 1)), str(v)))
            elif op == "reshuffle":
                out.append(Effect(op, 0, str(v)))
            elif op == "spin":
                out.append(Effect(op))
            elif op == "if":
                if "then" not in st and "else" not in st:
                    self.error("E201", file, (*at, op), "`if` without `then` or `else`",
                               hint="give the steps to run in `then` (and / or `else`)", key=True)
                    continue
                out.append(Effect(op, 0, "", self.cond(file, (*at, "if"), v),
                                  self.effects(file, (*at, "then"), st.get("then", []), place, False),
                                  self.effects(file, (*at, "else"), st.get("else", []), place, False)))
            else:  # damage, luck, move
                out.append(Effect(op, int(v)))
        return tuple(out)


def _action(rd: _Reader, file: str, path: tuple[Any, ...], c: dict[str, Any], cid: str, name: str,
            equipment: str = "") -> ActionCard:
    b = rd.b
    kind = c["kind"]
    amounts = [int(a) for a in c.get("amounts", [])]
    if kind in ("brake", "accelerate") and not amounts:
        raise _bad(b, file, path, f"a {kind} card needs its `amounts`", hint="list the km/h it offers, e.g. [10, 20]")
    _speeds(b, file, (*path, "amounts"), amounts) if amounts else None
    own = "effects" in c or "choices" in c
    if kind in KNOWN_KINDS and own:
        rd.error("E204", file, (*path, "effects" if "effects" in c else "choices"),
                 f"a {kind} card does what the rules say; `effects` and `choices` belong to a kind of the pack's own",
                 hint="give the card a kind of its own (e.g. `hop`) to make it do its effects", key=True)
    elif kind not in KNOWN_KINDS and not own:
        rd.error("E204", file, (*path, "kind"), f"{kind!r} is no kind of the rules, and the card has no `effects` or `choices`",
                 hint="kinds of the rules: " + ", ".join(KNOWN_KINDS) + "; a new kind does its `effects`")
    elif "effects" in c and "choices" in c:
        rd.error("E204", file, (*path, "choices"), "a card gives `effects` or `choices`, not both",
                 hint="put shared steps into every choice", key=True)
    effects = rd.effects(file, (*path, "effects"), c.get("effects", []), "action")
    choices: list[Choice] = []
    for j, ch in enumerate(c.get("choices", [])):
        if any(x.id == ch["id"] for x in choices):
            rd.error("E204", file, (*path, "choices", j, "id"), f"two choices called {ch['id']!r}", hint="give each choice its own id")
        choices.append(Choice(ch["id"], str(ch.get("name", ch["id"])),
                              rd.effects(file, (*path, "choices", j, "effects"), ch["effects"], "action")))
    needs = rd.cond(file, (*path, "needs"), c["needs"]) if "needs" in c else ()
    return ActionCard(cid, name, int(c["number"]), kind, tuple(amounts), bool(c.get("nitrous", False)),
                      tuple(int(x) for x in c.get("drops", [1, 2])), bool(c.get("optional", False)), equipment,
                      effects, tuple(choices), needs)


def _cards(cards: tuple[Row, ...]) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """(file, JSON path, fields) of each card: where it was written last, and its data."""
    return [(r.origin.file, tuple(r.origin.path), thaw(r.data)) for r in cards]


def _empty(b: Build, f: Any, cards: tuple[Row, ...], what: str) -> None:
    if not cards:
        raise _bad(b, f.file, (), f"the {what} has no cards",
                   hint="keep at least one card (`removes:` left out every inherited one)")


def _read_actions(rd: _Reader, cards: tuple[Row, ...], f: Any) -> tuple[ActionCard, ...]:
    b = rd.b
    _empty(b, f, cards, "set of action cards")
    out = tuple(_action(rd, file, path, c, c["id"], c["name"]) for file, path, c in _cards(cards))
    lacking = [k for k in BASE_ACTIONS if not any(a.kind == k and not a.optional for a in out)]
    if lacking:
        raise _bad(b, f.file, ("cards",) if "cards" in f.data else (),
                   "no " + " or ".join(lacking) + " card among the action cards",
                   hint="every car holds a Brake, Accelerate, Ram and Sabotage card")
    return out


def _sum(effects: tuple[Effect, ...], op: str) -> int:
    return sum(e.n for e in effects if e.op == op)


def _read_hazards(rd: _Reader, cards: tuple[Row, ...], f: Any) -> tuple[HazardCard, ...]:
    b = rd.b
    _empty(b, f, cards, "hazard deck")
    out: list[HazardCard] = []
    for file, path, c in _cards(cards):
        if "slow" in c:
            _speeds(b, file, (*path, "slow"), c["slow"])
        # the shorthands first, in the order the rules apply them, then the card's own steps
        steps = [Effect("damage", int(c["damage"]))] if c.get("damage") else []
        steps += [Effect("speed", -int(c["slow"]))] if c.get("slow") else []
        steps += [Effect("spin")] if c.get("spin") else []
        steps += rd.effects(file, (*path, "effects"), c.get("effects", []), "hazard")
        effects = tuple(steps)
        card = HazardCard(c["id"], c["name"], _sum(effects, "damage"), -sum(e.n for e in effects if e.op == "speed" and e.n < 0),
                          any(e.op == "spin" for e in effects), str(c.get("insanity", "")), int(c.get("late", 0)),
                          bool(c.get("keep", False)), effects)
        out += [card] * int(c["count"])
    return tuple(out)


def _read_nitrous(rd: _Reader, cards: tuple[Row, ...], f: Any) -> tuple[NitrousCard, ...]:
    b = rd.b
    _empty(b, f, cards, "nitrous deck")
    out: list[NitrousCard] = []
    for file, path, c in _cards(cards):
        if "adds" in c:
            _speeds(b, file, (*path, "adds"), c["adds"])
        # the shorthands: a click reshuffles; otherwise the card boosts (0 km/h when it says
        # nothing at all) and rolls its damage; then the card's own steps
        short = any(k in c for k in ("adds", "damage", "click")) or "effects" not in c
        steps = [Effect("reshuffle", 0, "nitrous")] if c.get("click") else [Effect("boost", int(c.get("adds", 0)))] if short else []
        steps += [Effect("damage", int(c["damage"]))] if c.get("damage") and not c.get("click") else []
        steps += rd.effects(file, (*path, "effects"), c.get("effects", []), "nitrous")
        effects = tuple(steps)
        adds = _sum(effects, "boost") + sum(e.n for e in effects if e.op == "speed" and e.n > 0)
        out += [NitrousCard(c["id"], c["name"], adds, _sum(effects, "damage"),
                            any(e.op == "reshuffle" for e in effects), effects)] * int(c["count"])
    return tuple(out)


def _read_equipment(rd: _Reader, cards: tuple[Row, ...], f: Any) -> tuple[Equipment, ...]:
    b = rd.b
    _empty(b, f, cards, "equipment deck")
    out: list[Equipment] = []
    for file, path, c in _cards(cards):
        act = None
        if "action" in c:
            act = _action(rd, file, (*path, "action"), c["action"], c["id"], c["name"], equipment=c["id"])
        if "grip" in c:
            _speeds(b, file, (*path, "grip"), c["grip"])
        kept = rd.effects(file, (*path, "on_keep"), c.get("on_keep", []), "keep")
        out += [Equipment(c["id"], c["name"], act, int(c.get("armour", 0)), int(c.get("grip", 0)), bool(c.get("sane", False)),
                          bool(c.get("nitrous_safe", False)), tuple(c.get("immune", [])), kept)] * int(c["count"])
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
