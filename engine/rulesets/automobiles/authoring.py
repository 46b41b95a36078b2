"""Automobiles as the `authoring` capability of the ruleset protocol (engine/play/protocol.py):
the starting files of a new pack, the item kinds the pack editor adds, the cube kinds and
cards offered while typing, and the faces of cards for previews, print sheets and the table
of `slipstream cards`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from slipstream.engine.play.protocol import CardFace, CardRow, DataTable, ItemKind, PackFile

NO_DISPLAY = "#9a9a9a"  # a kind without a `display` colour (or a card whose kind is unknown)

ITEM_KINDS = (ItemKind("cubes", "cube", "Cubes"), ItemKind("cards", "card", "Cards"),
              ItemKind("drivers", "driver", "Drivers"), ItemKind("sponsors", "sponsor", "Sponsors"),
              ItemKind("cardsets", "card set", "Card sets"))
KIND_GROUPS = ("gears", "actions")  # the effect vocabulary's names for groups of cube kinds


def wear_of(effect: Any) -> int | None:
    """Wear a card always gives: the literal `gain_wear` steps at the top of its effect."""
    total = 0
    variable = False
    for step in effect if isinstance(effect, list | tuple) else ():
        if isinstance(step, Mapping) and "gain_wear" in step:
            n = step["gain_wear"]
            if isinstance(n, int) and not isinstance(n, bool):
                total += n
            else:
                variable = True
    return None if variable and total == 0 else total


@lru_cache(maxsize=1)
def base_kinds() -> dict[str, Any]:
    """The cube kinds of the bundled base pack: the colours of a card drawn without its pack."""
    from slipstream.engine.packs.loader import PackLoader, bundled_packs
    from slipstream.engine.rulesets.automobiles.content import Pack

    pack, _ = PackLoader().load(bundled_packs()["base"])
    return dict(pack.cube_kinds) if isinstance(pack, Pack) else {}


def face_from_data(item: Mapping[str, Any], kinds: Mapping[str, Any] | None = None) -> CardFace:
    """The face of a card written as YAML data; colours are the `display` of the cube kinds
    `kinds` of its pack (None: of the base pack)."""
    if kinds is None:
        kinds = base_kinds()
    colour = str(item.get("colour", ""))
    kind = kinds.get(colour)
    hex_ = (kind.display if kind is not None else None) or NO_DISPLAY
    name = (kind.name if kind is not None else None) or colour
    wear = next((k for k in kinds.values() if k.role == "wear"), None)
    cost = item.get("cost")
    value = item.get("value")
    return CardFace(
        name=str(item.get("name", item.get("id", ""))), colour=colour, colour_hex=hex_,
        kind_name=str(name), cost=cost if isinstance(cost, int) else None,
        value=value if isinstance(value, int) else None, wear=wear_of(item.get("effect", ())),
        text=str(item.get("text", "")), ident=str(item.get("id", "")),
        buyable=bool(item.get("buyable", True)), wear_hex=(wear.display if wear is not None else None) or NO_DISPLAY,
    )


def face_from_card(card: Any, kinds: Mapping[str, Any]) -> CardFace:
    """The face of a loaded `Card` of a pack."""
    return face_from_data({"id": card.id, "name": card.name, "colour": card.colour, "cost": card.cost,
                           "value": card.value, "text": card.text, "effect": list(card.effect),
                           "buyable": card.buyable}, kinds)


def _examples() -> tuple[str, str]:
    """Ids for the commented examples of a new pack, taken from the bundled base pack."""
    from slipstream.engine.play.registry import load_pack

    try:
        pack = load_pack("")
        first = next(iter(pack.card_sets.values()))
    except (ValueError, RuntimeError, StopIteration):
        return "some-card", "card-1, card-2, card-3, card-4, card-5"
    return next(iter(first.cards.values())), ", ".join(first.cards.values())


def _colour_name(pack: Any, kind_id: str) -> str:
    """`White (3rd gear)` -> `white`: the colour players see on the cube."""
    kind = pack.cube_kinds.get(kind_id)
    return kind.name.split(" (")[0].lower() if kind else kind_id


SAMPLE = "rule-lapped-car"  # the bundled scenario a new pack starts from (tests/sample-...)


def _sample() -> str:
    """A bundled scenario as a new pack's sample, under an id of its own."""
    from slipstream.engine.packs.loader import bundled_packs

    text = (bundled_packs()["base"] / "tests" / f"{SAMPLE}.yaml").read_text(encoding="utf-8")
    text = "".join(line for line in text.splitlines(keepends=True) if "yaml-language-server" not in line)
    return ("# A sample to start from (a copy of a bundled scenario): change the track, hands, bags\n"
            "# and decisions, and say what must follow under `expect`.\n"
            + text.replace(f"id: {SAMPLE}\n", f"id: sample-{SAMPLE}\n", 1))




class AutomobilesAuthoring:
    """New packs, new items and card faces of Automobiles packs."""

    item_kinds = ITEM_KINDS
    card_kinds = ("cards",)
    sheet_kind = "cardsets"
    tables: tuple[DataTable, ...] = ()

    def pack_files(self, pid: str, name: str, extends: Sequence[str]) -> list[PackFile]:
        ex_card, ex_set = _examples()
        return [
            PackFile("cards.yaml", "cards.schema.json", f"""slipstream: cards/1
# New cards: one per entry; `slipstream cards .` shows them.
cards: []
#  - id: tow-truck
#    name: Tow Truck
#    colour: purple
#    cost: 3
#    value: 1
#    text: Return up to two wear cubes from your discard pile to the stock.
#    effect:
#      - remove: {{from: discard, kind: wear, count: {{up_to: 2}}}}
# Changes to inherited cards: name the card and give only what changes.
overrides: []
#  - id: base:{ex_card}
#    cost: 3
"""),
            PackFile("cardsets.yaml", "cardsets.schema.json", f"""slipstream: cardsets/1
# One action card per colour (yellow, red, purple, blue, green), by id.
card_sets: []
#  - id: my-set
#    name: My Set
#    cards: [{ex_set}]
"""),
            PackFile("rules.yaml", "rules.schema.json", """slipstream: rules/1
# Only what differs from the extended packs; see schemas/rules.schema.json for every option.
options: {}
#  weaving: true
"""),
            *([PackFile(f"tests/sample-{SAMPLE}.yaml", "scenario.schema.json", _sample())] if extends else []),
        ]

    def item_groups(self, pack: Any, kind: str) -> tuple[str, list[tuple[str, str]]] | None:
        """Cards by colour, in cube-kind order (gears, wear, then the action colours)."""
        if kind != "cards":
            return None
        kinds = pack.cube_kinds if pack is not None else {}
        return "colour", [(kid, str(k.name)) for kid, k in kinds.items()]

    def completions(self, pack: Any, own: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, list[str]]:
        """Cube kinds (for `colour`, `kind` ...) and action cards (for `cards`), the pack's and
        those of the open files."""
        kinds = list(pack.cube_kinds) if pack is not None else []
        kinds += [i for i in (str(x.get("id")) for x in own.get("cubes", ())) if i not in kinds]
        cards = [c.id for c in pack.cards.values() if not c.fixed] if pack is not None else []
        cards += [i for i, x in ((str(x.get("id")), x) for x in own.get("cards", ()))
                  if i not in cards and not x.get("fixed", False)]
        groups = [*kinds, *KIND_GROUPS]
        return {"colour": kinds, "kind": groups, "kinds": groups, "not_kinds": groups, "cards": cards}

    def card_rows(self, pack: Any, sheet: str | None) -> list[CardRow]:
        """Every card of the pack, or those in play with the card set `sheet` (gears, wear and
        the set's five action cards), in cube-kind order; KeyError for an unknown set."""
        order = {k: i for i, k in enumerate(pack.cube_kinds)}
        cards = list(pack.cards.values()) if sheet is None else list(pack.cards_in_play(sheet).values())
        cards.sort(key=lambda c: (order.get(c.colour, 99), c.name.lower()))
        return [CardRow(id=c.qualified, name=c.name, kind=c.colour, kind_label=_colour_name(pack, c.colour),
                        cost=c.cost, value=c.value, supply=c.supply, buyable=c.buyable, fixed=c.fixed,
                        text=c.text, effect=c.effect, own=c.pack == pack.id,
                        house="house value" in (c.notes or "").lower()) for c in cards]

    def card_face(self, pack: Any, item: Mapping[str, Any] | str, kind: str = "") -> CardFace | None:
        if isinstance(item, str):
            card = pack.cards.get(item) if pack is not None else None
            return face_from_card(card, pack.cube_kinds) if card is not None else None
        return face_from_data(item, pack.cube_kinds if pack is not None else None)

    def sheets(self, pack: Any) -> list[tuple[str, str]]:
        return [(sid, cs.name) for sid, cs in pack.card_sets.items()]

    def card_faces(self, pack: Any, sheet: str) -> tuple[str, list[CardFace]]:
        """The faces of every card in play with a card set: the fixed cards, then the set's."""
        faces = [face_from_card(c, pack.cube_kinds) for c in pack.cards_in_play(sheet).values()]
        return pack.card_set(sheet).name, faces


AUTHORING = AutomobilesAuthoring()
