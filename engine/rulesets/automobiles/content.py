"""The Automobiles content model: cube kinds, cards, drivers, sponsors, card sets and rules.

A pack of the `automobiles` ruleset (DESIGN §6) holds `cubes/1`, `cards/1`, `drivers/1`,
`sponsors/1`, `cardsets/1` and `rules/1` files next to its tracks. The generic pack machinery
(engine/packs: manifest, extends / overrides / replaces, file discovery) loads them and hands
the raw items to this ruleset's content model (`CONTENT` in engine/rulesets/automobiles/contentcheck.py), which
merges them into a `Pack` and runs the cross-checks.

Everything here is plain, read-only data: mappings are `FrozenMap`s and lists are tuples, and
effect lists stay as the YAML data they were written as (the effect interpreter reads them).
Each item keeps an `Origin` so diagnostics can point into the file it came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slipstream.engine.core.diagnostics import Diagnostic, make
from slipstream.engine.core.yamlsource import Pos, SourceMap, json_path
from slipstream.engine.packs import loader
from slipstream.engine.packs.data import FrozenMap, Origin
from slipstream.engine.packs.loader import ItemList
from slipstream.engine.tracks.track import Track

if TYPE_CHECKING:
    pass

RULESET_ID = "automobiles"
# File kinds an Automobiles pack reads itself; `track` files go through the track checks.
DATA_KINDS = ("cubes", "cards", "drivers", "sponsors", "cardsets", "rules")
BRACKETS = ("first", "middle", "last")
HOOK_PHASES = ("action", "buy", "car", "decline", "end_before_draw", "end_draw", "end_after_draw")
# file kind -> (list key, item kind, schema $def of an item, $def of an override)
ITEM_LISTS = {
    "cubes": ItemList("cubes", "cube", "cube", "cube_override"),
    "cards": ItemList("cards", "card", "card", "card_override"),
    "drivers": ItemList("drivers", "driver", "driver", "driver_override"),
    "sponsors": ItemList("sponsors", "sponsor", "sponsor", "sponsor_override"),
    "cardsets": ItemList("card_sets", "card_set", "card_set", None),
}


@dataclass(frozen=True, slots=True)
class CubeKind:
    """A kind of cube: a gear shade, wear, or an action colour (RULES §1.1)."""

    id: str
    pack: str
    name: str
    role: str  # "gear" | "wear" | "action"
    gear: int | None  # 3..6 for gear cubes: also the space colour in track layouts
    supply: int
    display: str | None
    text: str | None
    origin: Origin = field(compare=False)


@dataclass(frozen=True, slots=True)
class Card:
    """A card: what cubes of `colour` (a cube kind id) do, cost and are worth (RULES §1.2)."""

    id: str
    pack: str
    name: str
    colour: str
    cost: int
    value: int
    supply: int
    buyable: bool
    fixed: bool
    text: str
    notes: str | None
    effect: tuple[Any, ...]
    # The mapping that supplied `effect` (the card, or an override that replaced the effect).
    origin: Origin = field(compare=False)
    # True when the card sets its own supply rather than taking its cube kind's.
    supply_explicit: bool = field(default=False, compare=False, repr=False)

    @property
    def qualified(self) -> str:
        return f"{self.pack}:{self.id}"


@dataclass(frozen=True, slots=True)
class Driver:
    """A driver card: effect lists keyed by the turn moment they may be used (RULES §7.1)."""

    id: str
    pack: str
    name: str
    text: str
    notes: str | None
    hooks: FrozenMap[str, tuple[Any, ...]]
    origin: Origin = field(compare=False)

    @property
    def qualified(self) -> str:
        return f"{self.pack}:{self.id}"


@dataclass(frozen=True, slots=True)
class SponsorBracket:
    """One finishing bracket of a sponsor: its effect list, which opens with the standard
    removal (`remove ... as: standard`); `standard_remove` is that step's number."""

    standard_remove: int
    effect: tuple[Any, ...]
    origin: Origin = field(compare=False)


@dataclass(frozen=True, slots=True)
class Sponsor:
    """A sponsor card (RULES §7.2): family A-F, level 1-3, one bracket per finishing place."""

    id: str
    pack: str
    family: str
    level: int
    name: str
    text: str
    notes: str | None
    brackets: FrozenMap[str, SponsorBracket]
    origin: Origin = field(compare=False)

    @property
    def qualified(self) -> str:
        return f"{self.pack}:{self.id}"

    def standard_remove(self, bracket: str) -> int:
        return self.brackets[bracket].standard_remove

    def effect(self, bracket: str) -> tuple[Any, ...]:
        return self.brackets[bracket].effect


@dataclass(frozen=True, slots=True)
class CardSet:
    """One action card per action colour: `cards` maps colour → card id."""

    id: str
    pack: str
    name: str
    description: str | None
    cards: FrozenMap[str, str]
    origin: Origin = field(compare=False)

    @property
    def qualified(self) -> str:
        return f"{self.pack}:{self.id}"


@dataclass(frozen=True, slots=True)
class Rules:
    """Rule constants and house-rule options of the merged pack (RULES §2, §3.5, §5, §8)."""

    hand_size: int
    players_min: int
    players_max: int
    starting_bag: FrozenMap[str, int]
    wear_by_darkest: FrozenMap[str, int]
    grid_money: tuple[int, ...]
    sponsor_pool_extra: int
    season_races: int
    options: FrozenMap[str, Any]
    origin: Origin = field(compare=False)

    def option(self, name: str) -> Any:
        return self.options[name]


@dataclass(frozen=True, slots=True)
class Pack:
    """A loaded pack with everything it inherits merged in. Items are keyed by plain slug."""

    id: str
    name: str
    version: str
    description: str
    extends: tuple[str, ...]
    root: Path
    ruleset: str  # always "automobiles" here
    lineage: tuple[str, ...]  # this pack's id, then every pack it inherits from
    cube_kinds: FrozenMap[str, CubeKind]
    cards: FrozenMap[str, Card]
    drivers: FrozenMap[str, Driver]
    sponsors: FrozenMap[str, Sponsor]
    card_sets: FrozenMap[str, CardSet]
    rules: Rules | None
    tracks: FrozenMap[str, Track]
    scenario_files: tuple[Path, ...]
    sources: FrozenMap[str, SourceMap] = field(compare=False)
    track_origins: FrozenMap[str, Origin] = field(compare=False)
    track_owners: FrozenMap[str, str] = field(compare=False)  # track id -> pack that defines it
    digest: str = ""  # sha256 over the bytes of every file read (own and inherited)

    # --- look-ups -----------------------------------------------------------------------
    def resolve(self, ref: str) -> str | None:
        """The plain id for `ref` (`ID` or `PACK:ID`) if the pack line knows it."""
        owner, sep, slug = ref.rpartition(":")
        if sep and owner not in self.lineage:
            return None
        return slug

    def card(self, ref: str) -> Card:
        """A card by plain or namespaced id; KeyError if unknown."""
        return self.cards[self.resolve(ref) or ref]

    def card_set(self, name: str) -> CardSet:
        """A card set by id (plain or namespaced) or by its display name (case-insensitive)."""
        slug = self.resolve(name) or ""
        if slug in self.card_sets:
            return self.card_sets[slug]
        for cs in self.card_sets.values():
            if cs.name.lower() == name.lower():
                return cs
        raise KeyError(name)

    @property
    def action_colours(self) -> tuple[str, ...]:
        return tuple(k.id for k in self.cube_kinds.values() if k.role == "action")

    @property
    def gear_kinds(self) -> tuple[CubeKind, ...]:
        """Gear cube kinds, lowest gear first."""
        return tuple(sorted((k for k in self.cube_kinds.values() if k.role == "gear"),
                            key=lambda k: k.gear or 0))

    @property
    def fixed_cards(self) -> tuple[Card, ...]:
        """The cards in every game (gears and wear), in cube-kind order."""
        order = {k: i for i, k in enumerate(self.cube_kinds)}
        return tuple(sorted((c for c in self.cards.values() if c.fixed),
                            key=lambda c: order.get(c.colour, 99)))

    def cards_in_play(self, card_set: str | CardSet) -> FrozenMap[str, Card]:
        """Colour → card for a game with this card set: the fixed cards plus the set's cards."""
        cs = card_set if isinstance(card_set, CardSet) else self.card_set(card_set)
        out = {c.colour: c for c in self.fixed_cards}
        for colour, cid in cs.cards.items():
            out[colour] = self.cards[cid]
        return FrozenMap(out)

    def position(self, origin: Origin, *sub: str | int) -> tuple[str, Pos, str]:
        """(file, line/column, JSON path) of `origin` plus a sub-path, for diagnostics."""
        path = (*origin.path, *sub)
        src = self.sources.get(origin.file)
        pos = src.value(path) if src is not None else Pos(1, 1)
        return origin.file, pos, json_path(path)

    def diagnostic(self, code: str, origin: Origin, sub: Sequence[str | int], message: str,
                   *, hint: str | None = None) -> Diagnostic:
        """A diagnostic at an item's position (for the rules engine's effect errors)."""
        file, pos, jp = self.position(origin, *sub)
        return make(code, file, pos.line, pos.column, jp, message, hint=hint)



def load_pack(path: str | Path, *, search: Sequence[str | Path] = ()) -> tuple[Pack | None, list[Diagnostic]]:
    """An Automobiles pack with every pack it extends (engine/packs/loader.py `load_pack`).

    ValueError when the folder holds a pack of another ruleset.
    """
    pack, diags = loader.load_pack(path, search=search)
    if pack is None or isinstance(pack, Pack):
        return pack, diags
    raise ValueError(f"{path} is a pack of the {pack.ruleset!r} ruleset; this needs an Automobiles pack")


@cache
def base_pack() -> Pack:
    """The bundled base pack. Raises RuntimeError if it has errors (a bug in the package)."""
    from slipstream.engine.play.registry import load_pack as load_cached

    try:
        pack = load_cached("")  # the one cached load every part of the process shares
    except ValueError as e:
        raise RuntimeError(f"the bundled base pack cannot be used: {e}") from None
    if not isinstance(pack, Pack):
        raise RuntimeError("the bundled base pack is not an Automobiles pack")
    return pack


def iter_effects(pack: Pack) -> Iterable[tuple[str, Origin, tuple[str | int, ...], tuple[Any, ...]]]:
    """Every effect list of a pack: (owner label, origin, sub-path, effect list)."""
    for card in pack.cards.values():
        yield f"card {card.id}", card.origin, ("effect",), card.effect
    for drv in pack.drivers.values():
        for phase, eff in drv.hooks.items():
            yield f"driver {drv.id}", drv.origin, ("hooks", phase), eff
    for sp in pack.sponsors.values():
        for br, bracket in sp.brackets.items():
            yield f"sponsor {sp.id} ({br})", bracket.origin, (), bracket.effect


