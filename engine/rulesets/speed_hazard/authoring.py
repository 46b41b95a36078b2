"""Speed-and-hazard packs as the `authoring` capability of the ruleset protocol
(engine/play/protocol.py): the item kinds and tables of the pack editor, and the cards of its
four decks for `slipstream cards`, the card preview and the print sheets.

Sections: the pack editor's item kinds and tables; the cards (rows, faces and sheets, with
what each card does in words made from its numbers); new packs (`pack_files`, the scaffolds).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from slipstream.engine.core.yamlsource import load_file
from slipstream.engine.play.base import BaseAuthoring
from slipstream.engine.play.protocol import CardFace, CardRow, DataTable, ItemKind, PackFile
from slipstream.engine.rulesets.speed_hazard import templates

# ---------------------------------------------------------------------------------------------
# The pack editor: one item per card of each deck and per token kind; decks and prices as tables
# ---------------------------------------------------------------------------------------------

ACTIONS, HAZARDS, NITROUS, EQUIPMENT, SETUP = ("action-cards", "hazard-deck", "nitrous-deck",
                                               "equipment-deck", "car-setup")
DECKS = (ACTIONS, HAZARDS, NITROUS, EQUIPMENT)

ITEM_KINDS = (ItemKind(ACTIONS, "action card", "Action cards", ("cards",)),
              ItemKind(HAZARDS, "hazard card", "Hazard cards", ("cards",)),
              ItemKind(NITROUS, "nitrous card", "Nitrous cards", ("cards",)),
              ItemKind(EQUIPMENT, "equipment card", "Equipment cards", ("cards",)),
              ItemKind(SETUP, "token kind", "Tokens", ("tokens", "kinds")))
TABLES = (
    DataTable(ACTIONS, ("cards",), "Action cards", columns=("name", "number", "kind"), spread="amounts"),
    DataTable(HAZARDS, ("cards",), "Hazard deck",
              columns=("name", "count", "damage", "slow", "spin", "insanity", "late", "keep")),
    DataTable(NITROUS, ("cards",), "Nitrous deck", columns=("name", "count", "adds", "damage", "click")),
    DataTable(EQUIPMENT, ("cards",), "Equipment deck", columns=("name", "count", "armour", "grip")),
    DataTable(SETUP, ("tokens", "kinds"), "Tokens", columns=("name", "damage", "hazards", "slow")),
    DataTable(SETUP, ("pit",), "Pit road prices", key="pit points for", value="points"),
)

# ---------------------------------------------------------------------------------------------
# The cards: a deck's look (HOUSE VALUES: the seed prints no card, so the colours are ours)
# ---------------------------------------------------------------------------------------------

LOOK = {  # kind -> (short name, the name of one card, band colour)
    ACTIONS: ("action", "Action card", "#2f6db5"),
    HAZARDS: ("hazard", "Hazard card", "#c0392b"),
    NITROUS: ("nitrous", "Nitrous card", "#7d3c98"),
    EQUIPMENT: ("equipment", "Equipment card", "#4d6b53"),
}
SHEET_NAMES = {ACTIONS: "Action cards", HAZARDS: "Hazard deck", NITROUS: "Nitrous deck",
               EQUIPMENT: "Equipment deck"}
ALL = "all"


def _amounts(values: Sequence[Any], joiner: str = "or") -> str:
    vs = [str(v) for v in values]
    if not vs:  # a card being written, its amounts not given yet
        return "?"
    return vs[0] if len(vs) == 1 else f"{', '.join(vs[:-1])} {joiner} {vs[-1]}"


def _dice(n: int) -> str:
    return f"roll {n} damage {'die' if n == 1 else 'dice'}"


def _signed(n: Any, unit: str, up: str, down: str) -> str:
    v = int(n)
    return f"{up} {v}{unit}" if v >= 0 else f"{down} {-v}{unit}"


def _cond_words(c: Mapping[str, Any]) -> str:
    words = {"speed_at_least": "the speed is at least {} km/h", "speed_at_most": "the speed is at most {} km/h",
             "top_speed_at_least": "the maximum is at least {} km/h", "top_speed_at_most": "the maximum is at most {} km/h",
             "tokens_at_least": "the car holds at least {} tokens", "luck_at_least": "the car holds at least {} luck tokens"}
    parts = [w.format(c[k]) for k, w in words.items() if k in c]
    if "on_curve" in c:
        parts.append("the car is on a curve" if c["on_curve"] else "the car is off the curves")
    if "nitrous" in c:
        parts.append("the car is in nitrous mode" if c["nitrous"] else "the car is not in nitrous mode")
    return " and ".join(parts) or "always"


def effect_words(steps: Any) -> str:
    """What a list of effect steps does, in words (schemas/sh-effect.schema.json)."""
    out: list[str] = []
    for st in steps if isinstance(steps, list | tuple) else []:
        if not isinstance(st, Mapping):
            continue
        if "speed" in st:
            out.append(_signed(st["speed"], " km/h", "add", "lose"))
        elif "boost" in st:
            out.append(f"nitrous mode: add {st['boost']} km/h")
        elif "top_speed" in st:
            out.append(_signed(st["top_speed"], " km/h", "maximum up", "maximum down"))
        elif "damage" in st:
            out.append(_dice(int(st["damage"])))
        elif "draw" in st:
            n = int(st.get("count", 1))
            out.append(f"draw {n} {st['draw']} card{'s' * (n != 1)}")
        elif "tokens" in st:
            out.append(_signed(st.get("count", 1), f" {st['tokens']} token(s)", "take", "give back"))
        elif "luck" in st:
            out.append(_signed(st["luck"], " luck token(s)", "gain", "lose"))
        elif "spin" in st:
            out.append("spin: speed 0 and the turn ends")
        elif "move" in st:
            v = int(st["move"])
            out.append(f"move {abs(v)} square(s) {'more' if v > 0 else 'fewer'} this turn")
        elif "reshuffle" in st:
            out.append(f"shuffle every {st['reshuffle']} card into a new deck")
        elif "if" in st and isinstance(st["if"], Mapping):
            words = f"if {_cond_words(st['if'])}: {effect_words(st.get('then', [])) or 'nothing'}"
            out.append(words + (f", else {effect_words(st['else'])}" if st.get("else") else ""))
    return "; ".join(out)


def action_words(c: Mapping[str, Any]) -> str:
    """What an action card (or the action side of an equipment card) does."""
    kind = c.get("kind")
    amounts = list(c.get("amounts") or [])
    if kind == "brake":
        return f"before moving, lower the speed by {_amounts(amounts)} km/h"
    if kind == "accelerate":
        words = f"before moving, raise the speed by {_amounts(amounts)} km/h up to the maximum"
        return words + (", or draw a nitrous card instead" if c.get("nitrous") else "")
    if kind == "ram":
        return "ram a car straight ahead or beside-ahead, before, during or after the move"
    if kind == "sabotage":
        return f"after moving, drop {_amounts(c.get('drops') or [1, 2])} tokens of one kind on squares passed"
    if kind == "u-turn":
        return "instead of moving, turn across the road or skid round" + (" (an optional card)" if c.get("optional") else "")
    if c.get("choices"):
        ways = [f"{ch.get('name', ch.get('id'))}: {effect_words(ch.get('effects'))}"
                for ch in c["choices"] if isinstance(ch, Mapping)]
        return "before moving, one of - " + " / ".join(ways) + _needs(c)
    if c.get("effects"):
        return "before moving: " + effect_words(c["effects"]) + _needs(c)
    return str(kind or "")


def _needs(c: Mapping[str, Any]) -> str:
    return f" (only while {_cond_words(c['needs'])})" if isinstance(c.get("needs"), Mapping) else ""


def hazard_words(c: Mapping[str, Any]) -> str:
    parts = []
    if c.get("damage"):
        parts.append(_dice(int(c["damage"])))
    if c.get("slow"):
        parts.append(f"lose {c['slow']} km/h")
    if c.get("spin"):
        parts.append("spin: speed 0 and the turn ends")
    insanity = c.get("insanity")
    if insanity == "no-brake":
        parts.append("no Brake card while held")
    elif insanity == "no-luck":
        parts.append("no luck tokens while held")
    elif insanity == "late" and c.get("late"):
        parts.append(f"the card number counts {c['late']} higher while held")
    if c.get("keep"):
        parts.append("kept until therapy in the pit road")
    if c.get("effects"):
        parts.append(effect_words(c["effects"]))
    return "; ".join(parts) or "nothing happens"


def nitrous_words(c: Mapping[str, Any]) -> str:
    if c.get("click"):
        return "the nitrous fails: nothing added, the nitrous deck is shuffled anew"
    parts = [f"add {int(c.get('adds', 0))} km/h"] if "adds" in c or "damage" in c or not c.get("effects") else []
    if c.get("damage"):
        parts.append(_dice(int(c["damage"])))
    if c.get("effects"):
        parts.append(effect_words(c["effects"]))
    return "; ".join(parts)


def equipment_words(c: Mapping[str, Any]) -> str:
    parts = []
    act = c.get("action")
    if isinstance(act, Mapping):
        parts.append(f"plays as action card {act.get('number')}: {action_words(act)}")
    if c.get("armour"):
        parts.append(f"every damage roll counts {c['armour']} point{'s' * (c['armour'] != 1)} less")
    if c.get("grip"):
        parts.append(f"every curve limit is {c['grip']} km/h higher")
    if c.get("sane"):
        parts.append("insanity cards drawn are thrown away")
    if c.get("nitrous_safe"):
        parts.append("nitrous explosions roll no damage dice")
    if c.get("immune"):
        parts.append(f"{_amounts(list(c['immune']), 'and')} tokens do nothing")
    if c.get("on_keep"):
        parts.append("when kept: " + effect_words(c["on_keep"]))
    return "; ".join(parts) or "no effect"


WORDS = {ACTIONS: action_words, HAZARDS: hazard_words, NITROUS: nitrous_words, EQUIPMENT: equipment_words}


def figures(kind: str, c: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The numbers a card shows, (label, value)."""
    out: list[tuple[str, str]] = []
    if kind == ACTIONS or (kind == EQUIPMENT and isinstance(c.get("action"), Mapping)):
        act = c if kind == ACTIONS else c["action"]
        out.append(("number", str(act.get("number", "?"))))
        if act.get("amounts"):
            out.append(("km/h", " ".join(str(a) for a in act["amounts"])))
        if act.get("kind") == "sabotage":
            out.append(("tokens", " or ".join(str(d) for d in act.get("drops") or [1, 2])))
        if act.get("nitrous"):
            out.append(("or", "nitrous"))
    if kind == HAZARDS:
        if c.get("damage"):
            out.append(("damage dice", str(c["damage"])))
        if c.get("slow"):
            out.append(("km/h", f"−{c['slow']}"))
        if c.get("spin"):
            out.append(("spin", "stop"))
        if c.get("keep"):
            out.append(("kept", "until therapy"))
    if kind == NITROUS:
        if c.get("click"):
            out.append(("click", "fails"))
        else:
            out.append(("km/h", f"+{c.get('adds', 0)}"))
        if c.get("damage"):
            out.append(("damage dice", str(c["damage"])))
    if kind == EQUIPMENT:
        if c.get("armour"):
            out.append(("armour", str(c["armour"])))
        if c.get("grip"):
            out.append(("curves", f"+{c['grip']} km/h"))
    return tuple(out)  # not its copies: every printed copy shows the same face


def face(kind: str, c: Mapping[str, Any]) -> CardFace:
    """The face of one card of deck `kind`, written as data."""
    short, one, colour = LOOK.get(kind, (kind, kind, "#777777"))
    does = WORDS[kind](c) if kind in WORDS else ""
    text = str(c.get("text") or "") or (does[:1].upper() + does[1:] + "." if does else "")
    return CardFace(name=str(c.get("name", c.get("id", ""))), colour=kind, colour_hex=colour,
                    kind_name=one, cost=None, value=None, wear=None, text=text,
                    ident=str(c.get("id", "")), buyable=kind == EQUIPMENT, figures=figures(kind, c))


def deck_files(pack: Any) -> dict[str, tuple[str, Any, bool]]:
    """kind -> (pack id, data, own) of the file of each deck and of the car setup the pack
    plays with: its own, else the nearest inherited one (the files as the loader read them)."""
    out: dict[str, tuple[str, Any, bool]] = {}
    root = Path(pack.root).resolve()
    for file in reversed(list(pack.sources)):
        path = Path(file)
        if path.name == "pack.yaml" or not path.is_file():
            continue
        data = load_file(path).data
        tag = data.get("slipstream") if isinstance(data, dict) else None
        kind = str(tag).partition("/")[0] if tag else ""
        if kind in (*DECKS, SETUP) and kind not in out:
            own = root in path.resolve().parents
            pid = pack.id if own else _owner(pack, path)
            out[kind] = (pid, data, own)
    return out


def _owner(pack: Any, path: Path) -> str:
    """The id of the pack whose folder holds `path` (its manifest beside it, or above)."""
    for folder in path.resolve().parents:
        manifest = folder / "pack.yaml"
        if manifest.is_file():
            data = load_file(manifest).data
            return str(data.get("id", folder.name)) if isinstance(data, dict) else folder.name
    return ""


def _sheet_kinds(pack: Any, sheet: str | None) -> list[str]:
    """The deck kinds of a sheet (id, short name or name; None or `all`: every deck)."""
    if sheet is None or sheet == ALL:
        return list(DECKS)
    want = sheet.strip().lower()
    for kind in DECKS:
        if want in (kind, LOOK[kind][0], SHEET_NAMES[kind].lower()):
            return [kind]
    raise KeyError(sheet)


class SpeedHazardAuthoring(BaseAuthoring):
    """Decks and token kinds for the pack editor, the cards of the four decks."""

    item_kinds = ITEM_KINDS
    card_kinds = DECKS
    tables = TABLES

    def card_rows(self, pack: Any, sheet: str | None) -> list[CardRow]:
        """The cards of the four decks (or of one, `sheet`), in deck and file order; a card's
        supply is its copies in the deck (an action card: one per car)."""
        files = deck_files(pack)
        setup = files.get(SETUP, ("", {}, False))[1]
        price = setup.get("pit", {}).get("equipment") if isinstance(setup, dict) else None
        rows = []
        for kind in _sheet_kinds(pack, sheet):
            pid, data, own = files.get(kind, ("", {}, False))
            for c in data.get("cards", []) if isinstance(data, dict) else []:
                act = c if kind == ACTIONS else c.get("action")
                number = act.get("number") if isinstance(act, Mapping) else None
                buyable = kind == EQUIPMENT
                effect = {k: v for k, v in c.items() if k not in ("id", "name", "text", "count")}
                rows.append(CardRow(
                    id=f"{pid}:{c['id']}", name=str(c.get("name", c["id"])), kind=kind, kind_label=LOOK[kind][0],
                    cost=int(price) if buyable and isinstance(price, int) else 0, value=0,
                    supply=int(c.get("count", 1)), buyable=buyable, fixed=kind == ACTIONS,
                    text=str(c.get("text", "")), effect=effect, own=own, house=False,
                    cells=(("deck", LOOK[kind][0]), ("number", number), ("copies", int(c.get("count", 1))),
                           ("price", int(price) if buyable and isinstance(price, int) else None)),
                    does=WORDS[kind](c)))
        return rows

    def card_face(self, pack: Any, item: Mapping[str, Any] | str, kind: str = "") -> CardFace | None:
        kind = kind or ACTIONS
        if kind not in DECKS:
            return None
        if isinstance(item, str):
            if pack is None:
                return None
            data = deck_files(pack).get(kind, ("", {}, False))[1]
            found = next((c for c in data.get("cards", []) if c.get("id") == item), None) if isinstance(data, dict) else None
            return face(kind, found) if found is not None else None
        return face(kind, item)

    def sheets(self, pack: Any) -> list[tuple[str, str]]:
        files = deck_files(pack)
        return [(k, SHEET_NAMES[k]) for k in DECKS if k in files] + [(ALL, "Every card")]

    def card_faces(self, pack: Any, sheet: str) -> tuple[str, list[CardFace]]:
        """A face per card to cut out: one per copy in a deck, one per action card (a car's
        hand: print a sheet per car)."""
        kinds = _sheet_kinds(pack, sheet)
        files = deck_files(pack)
        faces = []
        for kind in kinds:
            data = files.get(kind, ("", {}, False))[1]
            for c in data.get("cards", []) if isinstance(data, dict) else []:
                faces += [face(kind, c)] * int(c.get("count", 1))
        title = "Every card" if len(kinds) > 1 else SHEET_NAMES[kinds[0]]
        return title, faces

    # -----------------------------------------------------------------------------------------
    # New packs (`slipstream new pack`): the starting files besides the manifest
    # -----------------------------------------------------------------------------------------

    def pack_files(self, pid: str, name: str, extends: Sequence[str]) -> list[PackFile]:
        return templates.pack_files(pid, name, extends)  # templates.py: the scaffold's files


AUTHORING = SpeedHazardAuthoring()
