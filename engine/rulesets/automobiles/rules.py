"""What the rules engine needs from a pack, in one flat, indexable form.

A `Ruleset` is built from a loaded pack and a card set (`ruleset_from_pack`) or, in tests,
directly (`basic_ruleset`). Cube kinds are addressed by index everywhere in the game state;
the effect data stays exactly as written in the pack (the interpreter reads it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from slipstream.engine.core.frozen import deep_copied, reduced

GEAR_NAMES = {3: "white", 4: "light grey", 5: "dark grey", 6: "black"}
DEFAULT_WEAR = {3: 1, 4: 2, 5: 3, 6: 4}


@dataclass(frozen=True, slots=True)
class Kind:
    """One cube kind in play, with the card that defines it."""

    index: int
    id: str
    name: str
    role: str  # gear | wear | action
    gear: int | None
    cost: int
    value: int
    supply: int
    buyable: bool
    card: str
    effect: tuple[Any, ...]

    def __reduce__(self) -> tuple[Any, ...]:  # compiled, a frozen native class (core/frozen.py)
        return reduced(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return deep_copied(self, memo)


@dataclass(frozen=True, slots=True)
class DriverDef:
    id: str
    name: str
    hooks: Mapping[str, Sequence[Any]]

    def __reduce__(self) -> tuple[Any, ...]:  # compiled, a frozen native class (core/frozen.py)
        return reduced(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return deep_copied(self, memo)


@dataclass(frozen=True, slots=True)
class SponsorDef:
    id: str
    family: str
    level: int
    name: str
    standard_remove: Mapping[str, int]
    effects: Mapping[str, Sequence[Any]]

    def __reduce__(self) -> tuple[Any, ...]:  # compiled, a frozen native class (core/frozen.py)
        return reduced(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return deep_copied(self, memo)


@dataclass(frozen=True, slots=True)
class Options:
    """House-rule switches (RULES §8); names match the pack's rules file."""

    weaving: bool = False
    momentum: str = "slide"
    drivers_in_single_races: bool = False
    strict_play: bool = False
    unlimited_wear: bool = True
    wear_card_playable: bool = True
    turn_order: str = "fixed"
    occupancy: str = "segment"
    full_spaces: str = "block"
    drafting: str = "segment_or_space"
    placement_chain: bool = True
    positions_count_laps: bool = True
    refill_on_any_draw: bool = True
    gains_to: str = "used"
    max_rounds: int = 150

    def __reduce__(self) -> tuple[Any, ...]:  # compiled, a frozen native class (core/frozen.py)
        return reduced(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return deep_copied(self, memo)

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def updated(self, values: Mapping[str, Any]) -> Options:
        known = {k: v for k, v in values.items() if k in self.names()}
        return replace(self, **known)


def _supported() -> dict[str, set[Any]]:
    from slipstream.engine.rulesets.automobiles.options import RACE_OPTIONS

    return {s.name: set(s.implemented) for s in RACE_OPTIONS if s.type == "choice"}


# Values of each choice option the engine implements (from the option spec, options.py).
SUPPORTED: dict[str, set[Any]] = _supported()


def unsupported_options(opts: Options) -> list[str]:
    """Option values this engine does not implement (reported, never silently ignored)."""
    from slipstream.engine.rulesets.automobiles.options import RACE_OPTIONS

    out = []
    for spec in RACE_OPTIONS:
        value = getattr(opts, spec.name)
        if spec.problem(value) is not None:
            out.append(f"{spec.name}={value!r}")
    return out


@dataclass(frozen=True, slots=True)
class Ruleset:
    kinds: tuple[Kind, ...]
    drivers: tuple[DriverDef, ...] = ()
    sponsors: tuple[SponsorDef, ...] = ()
    options: Options = field(default_factory=Options)
    hand_size: int = 7
    starting_bag: Mapping[str, int] = field(default_factory=dict)
    wear_by_gear: Mapping[int, int] = field(default_factory=lambda: dict(DEFAULT_WEAR))
    players_min: int = 2
    players_max: int = 5
    pack_id: str = ""
    pack_digest: str = ""
    card_set: str = ""

    # Derived look-ups (filled in __post_init__).
    by_id: dict[str, int] = field(default_factory=dict, compare=False)
    gear_index: dict[int, int] = field(default_factory=dict, compare=False)
    wear: int = field(default=-1, compare=False)
    with_effect: tuple[int, ...] = field(default=(), compare=False)  # kinds whose card does something
    for_sale: tuple[tuple[int, int], ...] = field(default=(), compare=False)  # (kind, cost) buyable
    # effects.py: kind filters by id(spec)
    memo: dict[int | tuple[Any, ...], Any] = field(default_factory=dict, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:  # compiled, a frozen native class (core/frozen.py)
        return reduced(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return deep_copied(self, memo)

    def __post_init__(self) -> None:
        object.__setattr__(self, "with_effect", tuple(k.index for k in self.kinds if k.effect))
        object.__setattr__(self, "for_sale", tuple((k.index, k.cost) for k in self.kinds
                                                   if k.buyable and k.role != "wear"))
        by_id = {k.id: k.index for k in self.kinds}
        for k in self.kinds:
            if k.gear is not None:
                by_id.setdefault(f"gear-{k.gear}", k.index)
                self.gear_index[k.gear] = k.index
            if k.role == "wear":
                object.__setattr__(self, "wear", k.index)
        self.by_id.update(by_id)

    def kind(self, ref: str) -> int:
        """Kind index by id (`gear-5` also finds the gear-5 kind whatever its id); KeyError."""
        return self.by_id[ref.rpartition(":")[2]]

    def group(self, ref: str) -> list[int]:
        """Kind indices for a kind id or a group name (`gears`, `actions`, `any`)."""
        if ref == "gears":
            return [k.index for k in self.kinds if k.role == "gear"]
        if ref == "actions":
            return [k.index for k in self.kinds if k.role == "action"]
        if ref == "any":
            return [k.index for k in self.kinds]
        return [self.kind(ref)]

    def driver(self, ref: str) -> int:
        slug = ref.rpartition(":")[2]
        for i, d in enumerate(self.drivers):
            if d.id == slug:
                return i
        raise KeyError(ref)

    def sponsor(self, ref: str) -> SponsorDef:
        slug = ref.rpartition(":")[2]
        for s in self.sponsors:
            if s.id == slug:
                return s
        raise KeyError(ref)

    def with_options(self, values: Mapping[str, Any]) -> Ruleset:
        return replace(self, options=self.options.updated(values), by_id={}, gear_index={}, memo={})


def gear_kinds_inline(costs: Mapping[int, tuple[int, int]] | None = None, supply: int = 40) -> list[Kind]:
    """The four gear kinds and wear, for tests and tiny rulesets."""
    costs = costs or {3: (1, 1), 4: (2, 1), 5: (3, 1), 6: (4, 2)}
    out: list[Kind] = []
    for g in (3, 4, 5, 6):
        cost, value = costs[g]
        eff = ({"move": {"spaces": 1, "colours": [g], "gear": True}},)
        out.append(Kind(len(out), f"gear-{g}", GEAR_NAMES[g], "gear", g, cost, value, supply, True,
                        f"gear-{g}", eff))
    out.append(Kind(len(out), "wear", "wear", "wear", None, 0, 0, 200, False, "wear",
                    ({"move_cubes": {"from": "played", "to": "discard"}},)))
    return out


def basic_ruleset(actions: Mapping[str, tuple[Sequence[Any], int, int]] | None = None,
                  drivers: Sequence[DriverDef] = (), **options: Any) -> Ruleset:
    """Gears + wear (+ action kinds `{id: (effect, cost, value)}`), starting bag of RULES §2.4."""
    kinds = gear_kinds_inline()
    for kid, (eff, cost, value) in (actions or {}).items():
        kinds.append(Kind(len(kinds), kid, kid, "action", None, cost, value, 16, True, kid,
                          tuple(eff)))
    bag = {"gear-3": 5, "gear-4": 2}
    if actions and "yellow" in actions:
        bag["yellow"] = 5
    return Ruleset(kinds=tuple(kinds), drivers=tuple(drivers), starting_bag=bag,
                   options=Options().updated(options))


def ruleset_from_pack(pack: Any, card_set: str | None = None,
                      cards_by_colour: Mapping[str, str] | None = None) -> Ruleset:
    """Build the engine's view of a loaded `Pack` with one card set (first set by default).

    `cards_by_colour` puts other action cards in play (scenarios): `{yellow: engineer}`.
    """
    sets = list(pack.card_sets.values())
    cs = pack.card_set(card_set) if card_set else (sets[0] if sets else None)
    cards = dict(pack.cards_in_play(cs)) if cs is not None else {c.colour: c for c in pack.fixed_cards}
    for colour, cid in (cards_by_colour or {}).items():
        cards[colour] = pack.card(cid)
    kinds: list[Kind] = []
    for ck in pack.cube_kinds.values():
        card = cards.get(ck.id)
        if card is None and ck.role == "action":
            continue
        kinds.append(Kind(
            len(kinds), ck.id, card.name if card else ck.name, ck.role, ck.gear,
            card.cost if card else 0, card.value if card else 0,
            card.supply if card and card.supply else ck.supply,
            bool(card.buyable) if card else False, card.id if card else ck.id,
            tuple(card.effect) if card else (),
        ))
    rules = pack.rules
    drivers = tuple(DriverDef(d.id, d.name, dict(d.hooks)) for d in pack.drivers.values())
    sponsors = tuple(
        SponsorDef(s.id, s.family, s.level, s.name,
                   {b: s.standard_remove(b) for b in s.brackets},
                   {b: tuple(s.effect(b)) for b in s.brackets})
        for s in pack.sponsors.values()
    )
    opts = Options()
    kw: dict[str, Any] = {}
    if rules is not None:
        opts = opts.updated(dict(rules.options))
        wear: dict[int, int] = {}
        for kid, n in rules.wear_by_darkest.items():
            ck = pack.cube_kinds.get(kid)
            if ck is not None and ck.gear is not None:
                wear[ck.gear] = int(n)
        kw = dict(hand_size=rules.hand_size, starting_bag=dict(rules.starting_bag),
                  wear_by_gear=wear or dict(DEFAULT_WEAR), players_min=rules.players_min,
                  players_max=rules.players_max)
    return Ruleset(kinds=tuple(kinds), drivers=drivers, sponsors=sponsors, options=opts,
                   pack_id=pack.id, pack_digest=pack.digest, card_set=cs.id if cs else "", **kw)
