"""Merging a pack with the packs it extends, and the cross-checks beyond the schemas.

Every problem is a coded diagnostic (family P for packs, E for effects; engine/core/codes.py) at
the line and column of the offending value. Nothing here knows a particular card.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.core.yamlsource import Loaded
from slipstream.engine.packs.data import FrozenMap, Origin, freeze
from slipstream.engine.packs.loader import Build, Entry
from slipstream.engine.packs.merge import (
    apply_overrides,
    inherit,
    merge,
    merge_tracks,
    read_replaces,
    report_unused_replaces,
)
from slipstream.engine.rulesets.automobiles.content import (
    BRACKETS,
    DATA_KINDS,
    ITEM_LISTS,
    RULESET_ID,
    Card,
    CardSet,
    CubeKind,
    Driver,
    Pack,
    Rules,
    Sponsor,
    SponsorBracket,
)

KIND_LABEL = {
    "cube": "cube kind",
    "card": "card",
    "driver": "driver",
    "sponsor": "sponsor",
    "card_set": "card set",
    "track": "track",
}


def _rule_keys(section: str) -> tuple[str, ...]:
    """The constants or options the rules schema defines: every one needs a value."""
    from slipstream.engine.core.schema import schema_files

    defs = schema_files()["rules.schema.json"]["$defs"]
    return tuple(defs[section]["properties"])


def filter_schema(diags: list[Diagnostic], loaded: Loaded) -> list[Diagnostic]:
    """Schema diagnostics of a data file, minus noise the effect checks explain better."""
    from slipstream.engine.rulesets.automobiles.effectcheck import schema_noise

    return schema_noise(diags, loaded)


# ---------------------------------------------------------------------------------------------
# Building items from raw entries
# ---------------------------------------------------------------------------------------------


def _cube(e: Entry) -> CubeKind:
    d = e.data
    return CubeKind(e.id, e.pack, d["name"], d["role"], d.get("gear"), int(d["supply"]),
                    d.get("display"), d.get("text"), e.origin)


def _card(e: Entry) -> Card:
    d = e.data
    return Card(e.id, e.pack, d["name"], d["colour"], int(d["cost"]), int(d["value"]),
                int(d.get("supply", 0)), bool(d.get("buyable", True)), bool(d.get("fixed", False)),
                d["text"], d.get("notes"), freeze(d.get("effect", [])), e.origin,
                supply_explicit="supply" in d)


def _driver(e: Entry) -> Driver:
    d = e.data
    return Driver(e.id, e.pack, d["name"], d["text"], d.get("notes"),
                  FrozenMap({k: freeze(v) for k, v in d["hooks"].items()}), e.origin)


def standard_removal(effect: Any) -> int | None:
    """The number of the standard removal that opens a sponsor bracket (`as: standard`)."""
    if not isinstance(effect, list | tuple) or not effect:
        return None
    step = effect[0]
    rem = step.get("remove") if isinstance(step, dict) else None
    if not isinstance(rem, dict) or rem.get("as") != "standard":
        return None
    count = rem.get("count", 1)
    if isinstance(count, dict) and "up_to" in count:
        count = count["up_to"]
    return count if isinstance(count, int) and not isinstance(count, bool) else None


def _bracket(data: Any, origin: Origin) -> SponsorBracket:
    return SponsorBracket(standard_removal(data) or 0, freeze(data), origin)


def _sponsor(e: Entry) -> Sponsor:
    d = e.data
    brackets = FrozenMap({
        br: _bracket(d["brackets"][br], e.origin.child("brackets", br)) for br in BRACKETS
    })
    return Sponsor(e.id, e.pack, d["family"], int(d["level"]), d["name"], d["text"],
                   d.get("notes"), brackets, e.origin)


_BUILDERS: dict[str, Callable[[Entry], Any]] = {
    "cube": _cube, "card": _card, "driver": _driver, "sponsor": _sponsor,
}


def _override(kind: str, item: Any, o: Entry) -> Any:
    """Apply one `overrides:` entry to an inherited item."""
    d = {k: v for k, v in o.data.items() if k != "id"}
    if kind == "card":
        changes: dict[str, Any] = {k: d[k] for k in ("name", "cost", "value", "buyable", "text", "notes")
                                   if k in d}
        if "supply" in d:
            changes["supply"] = d["supply"]
            changes["supply_explicit"] = True
        if "effect" in d:
            changes["effect"] = freeze(d["effect"])
            changes["origin"] = o.origin
        return dataclasses.replace(item, **changes)
    if kind == "cube":
        return dataclasses.replace(item, **{k: d[k] for k in ("name", "supply", "display", "text") if k in d})
    if kind == "driver":
        changes = {k: d[k] for k in ("name", "text", "notes") if k in d}
        if "hooks" in d:
            changes["hooks"] = FrozenMap({k: freeze(v) for k, v in d["hooks"].items()})
            changes["origin"] = o.origin
        return dataclasses.replace(item, **changes)
    if kind == "sponsor":
        changes = {k: d[k] for k in ("name", "text", "notes") if k in d}
        if "brackets" in d:
            brackets = dict(item.brackets)
            for br, bd in d["brackets"].items():
                brackets[br] = _bracket(bd, o.origin.child("brackets", br))
            changes["brackets"] = FrozenMap(brackets)
        return dataclasses.replace(item, **changes)
    return item  # pragma: no cover - other kinds have no overrides


# ---------------------------------------------------------------------------------------------
# Merge
# ---------------------------------------------------------------------------------------------


def _manifest_file(b: Build) -> str:
    return b.manifest.file


def build_pack(b: Build) -> Pack:
    """Merge the pack's own items over its parents' and run every cross-check."""
    lineage = b.lineage
    mdata = b.manifest.data
    replaces = read_replaces(b)

    results: dict[str, dict[str, Any]] = {}
    for kind, attr in (("cube", "cube_kinds"), ("card", "cards"), ("driver", "drivers"),
                       ("sponsor", "sponsors")):
        inherited = inherit(b, attr, KIND_LABEL[kind])
        owners = {k: v.pack for k, v in inherited.items()}
        merged, _ = merge(b, kind, KIND_LABEL[kind], inherited, owners, replaces, _BUILDERS.get(kind))
        apply_overrides(b, KIND_LABEL[kind], b.overrides.get(kind, []), merged, lineage,
                        partial(_override, kind))
        results[kind] = merged

    tracks, track_origins, track_owner = merge_tracks(b, replaces)

    # Cube kinds resolve card supplies.
    kinds: dict[str, CubeKind] = results["cube"]
    cards: dict[str, Card] = {}
    for cid, card in results["card"].items():
        if not card.supply_explicit:
            ck = kinds.get(card.colour)
            card = dataclasses.replace(card, supply=ck.supply if ck else 0)
        cards[cid] = card

    # Card sets (no overrides: a set is small, replace it instead).
    inherited_sets = inherit(b, "card_sets", KIND_LABEL["card_set"])
    set_owners = {k: v.pack for k, v in inherited_sets.items()}
    sets_merged, own_sets = merge(b, "card_set", KIND_LABEL["card_set"], inherited_sets, set_owners,
                                  replaces, None)
    for sid, e in own_sets.items():
        if sid in sets_merged and sets_merged[sid].pack != b.id:
            if f"{set_owners[sid]}:{sid}" not in replaces:
                continue
        cs = _check_card_set(b, e, kinds, cards, lineage)
        if cs is not None:
            sets_merged[sid] = cs
        else:
            sets_merged.pop(sid, None)

    report_unused_replaces(b, replaces, "a track, card, driver, sponsor or card set")

    rules = _merge_rules(b, kinds)

    pack = Pack(
        id=b.id,
        ruleset=b.ruleset,
        name=str(mdata.get("name", b.id)),
        version=str(mdata.get("version", "")),
        description=str(mdata.get("description", "")),
        extends=b.extends,
        root=b.root,
        lineage=lineage,
        cube_kinds=FrozenMap(kinds),
        cards=FrozenMap(cards),
        drivers=FrozenMap(results["driver"]),
        sponsors=FrozenMap(results["sponsor"]),
        card_sets=FrozenMap(sets_merged),
        rules=rules,
        tracks=FrozenMap(tracks),
        scenario_files=tuple(b.scenario_files),
        sources=FrozenMap({**_parent_sources(b), **b.sources}),
        track_origins=FrozenMap(track_origins),
        track_owners=FrozenMap({t: track_owner[t] for t in tracks}),
        digest=b.digest.hexdigest() if b.digest is not None else "",
    )
    _check_cubes(b, pack)
    _check_cards(b, pack)
    _check_sponsors(b, pack)
    if rules is not None:
        _check_rules(b, pack, rules)
    from slipstream.engine.rulesets.automobiles.effectcheck import check_effects

    b.diags += check_effects(pack, files=set(b.sources))
    return pack


def _parent_sources(b: Build) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in b.parents:
        out.update(p.sources)
    return out


# ---------------------------------------------------------------------------------------------
# Cross-checks
# ---------------------------------------------------------------------------------------------


def _check_card_set(b: Build, e: Entry, kinds: dict[str, CubeKind], cards: dict[str, Card],
                    lineage: tuple[str, ...]) -> CardSet | None:
    if not e.valid:
        return None
    refs = e.data.get("cards", [])
    chosen: dict[str, str] = {}
    first_at: dict[str, int] = {}
    ok = True
    for j, ref in enumerate(refs):
        owner, sep, slug = ref.rpartition(":")
        if sep and owner not in lineage:
            b.at("P018", e.origin, ("cards", j), f"{ref!r} names pack {owner!r}, which this pack "
                 "does not extend", hint="known packs here: " + ", ".join(lineage))
            ok = False
            continue
        card = cards.get(slug)
        if card is None or (sep and card.pack != owner):
            near = _near(slug, [c for c in cards if not cards[c].fixed])
            b.at("P011", e.origin, ("cards", j), f"card set {e.id!r} names unknown card {ref!r}",
                 hint=f"did you mean {near!r}?" if near else "see `slipstream cards PACK` for the ids")
            ok = False
            continue
        kind = kinds.get(card.colour)
        if card.fixed or kind is None or kind.role != "action":
            b.at("P014", e.origin, ("cards", j),
                 f"card set {e.id!r} names {ref!r}, which is not an action card "
                 f"(its colour {card.colour!r} is not an action colour)",
                 hint="card sets choose one card per action colour; gear and wear cards are always in play")
            ok = False
            continue
        if card.colour in chosen:
            other = refs[first_at[card.colour]]
            b.at("P012", e.origin, ("cards", j),
                 f"card set {e.id!r} has two {card.colour} cards: {other!r} and {ref!r}",
                 hint="a game uses exactly one card per action colour")
            ok = False
            continue
        chosen[card.colour] = card.id
        first_at[card.colour] = j
    missing = [k.id for k in kinds.values() if k.role == "action" and k.id not in chosen]
    if missing and ok:
        b.at("P013", e.origin, ("cards",),
             f"card set {e.id!r} has no card for {', '.join(missing)}",
             hint="name one action card of every action colour")
        ok = False
    if not ok:
        return None
    d = e.data
    return CardSet(e.id, e.pack, d["name"], d.get("description"), FrozenMap(chosen), e.origin)


def _near(word: str, options: list[str]) -> str | None:
    import difflib

    m = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return m[0] if m else None


def _own(item: Any, b: Build) -> bool:
    return getattr(item, "pack", None) == b.id


def _check_cubes(b: Build, pack: Pack) -> None:
    gears = [k for k in pack.cube_kinds.values() if k.role == "gear"]
    by_gear = Counter(k.gear for k in gears)
    for k in gears:
        if by_gear[k.gear] > 1 and _own(k, b):
            b.at("P033", k.origin, ("gear",),
                 f"gear {k.gear} is given to {by_gear[k.gear]} cube kinds",
                 hint="each gear number (3-6, the space colours) belongs to exactly one cube kind")
    if not pack.cube_kinds and not b.broken_extends:
        b.diag("P034", b.manifest.file, ("id",), "the pack and the packs it extends define no cube kinds",
               hint="add a cubes/1 file, or extend `base`")
        return


def _check_cards(b: Build, pack: Pack) -> None:
    kinds = pack.cube_kinds
    fixed_for: dict[str, list[Card]] = {}
    for card in pack.cards.values():
        kind = kinds.get(card.colour)
        if kind is None:
            if card.pack == b.id:
                near = _near(card.colour, list(kinds))
                b.at("P015", card.origin, ("colour",) if card.origin.path[-2:-1] != ("overrides",) else (),
                     f"card {card.id!r} has colour {card.colour!r}, which is not a cube kind",
                     hint=f"did you mean {near!r}?" if near else "known kinds: " + ", ".join(kinds))
            continue
        if card.fixed:
            fixed_for.setdefault(card.colour, []).append(card)
            if kind.role == "action" and card.pack == b.id:
                b.at("P016", card.origin, ("fixed",),
                     f"card {card.id!r} is marked fixed but {card.colour!r} is an action colour",
                     hint="fixed cards are the gear and wear cards; action cards are chosen by card sets")
        elif kind.role != "action" and card.pack == b.id:
            b.at("P016", card.origin, ("colour",),
                 f"card {card.id!r} is for {kind.role} cubes ({card.colour!r}) but is not marked `fixed: true`",
                 hint="gear and wear cards are in every game: add `fixed: true`")
    for cid_list in fixed_for.values():
        if len(cid_list) > 1:
            for card in cid_list[1:]:
                if card.pack == b.id:
                    b.at("P016", card.origin, ("colour",),
                         f"two fixed cards for {card.colour!r}: {cid_list[0].id!r} and {card.id!r}",
                         hint="keep one; change an inherited one with `overrides:`")
    if pack.cards or any(_own(k, b) for k in kinds.values()):
        for kind in kinds.values():
            if kind.role != "action" and kind.id not in fixed_for and _own(kind, b):
                b.at("P016", kind.origin, ("id",),
                     f"{kind.role} cubes {kind.id!r} have no fixed card saying what they do",
                     hint="add a card with `colour: " + kind.id + "` and `fixed: true`")
            if kind.role == "action" and _own(kind, b) and not any(
                    c.colour == kind.id for c in pack.cards.values()):
                b.at("P038", kind.origin, ("id",), f"no action card of colour {kind.id!r}",
                     hint="add at least one card of this colour, or no card set can be complete")


def _strength(effect: Any) -> int:
    """Sum of the numbers in an effect list: a rough measure for the level check."""
    if isinstance(effect, bool):
        return 0
    if isinstance(effect, int):
        return effect
    if isinstance(effect, dict):
        return sum(_strength(v) for v in effect.values())
    if isinstance(effect, tuple | list):
        return sum(_strength(v) for v in effect)
    return 0


def _check_sponsors(b: Build, pack: Pack) -> None:
    for sp in pack.sponsors.values():
        for br, bracket in sp.brackets.items():
            if bracket.origin.file in b.sources and standard_removal(bracket.effect) is None:
                b.at("P042", bracket.origin, (),
                     f"sponsor {sp.id!r} ({br}) does not start with the standard removal",
                     hint="begin with `- remove: {from: owned, count: {up_to: N}, as: standard}`")
    seen: dict[tuple[str, int], Sponsor] = {}
    for sp in pack.sponsors.values():
        key = (sp.family, sp.level)
        if key in seen and sp.origin.file in b.sources:
            b.at("P036", sp.origin, ("level",),
                 f"sponsors {seen[key].id!r} and {sp.id!r} are both {sp.family}{sp.level}",
                 hint="each family has one card per level 1-3")
            continue
        seen.setdefault(key, sp)
    for (family, level), sp in seen.items():
        lower = seen.get((family, level - 1))
        if lower is None:
            continue
        for br in BRACKETS:
            hi, lo = sp.brackets[br], lower.brackets[br]
            if hi.origin.file not in b.sources and lo.origin.file not in b.sources:
                continue
            if (hi.standard_remove, _strength(hi.effect)) < (lo.standard_remove, _strength(lo.effect)) \
                    or hi.standard_remove < lo.standard_remove:
                if hi.origin.file in b.sources:
                    b.at("P037", hi.origin, (), f"{family}{level} ({br}) is weaker than {family}{level - 1}",
                         hint="higher levels should give at least the numbers of lower ones")
                else:
                    b.at("P037", lo.origin, (), f"{family}{level - 1} ({br}) is now stronger than "
                         f"{family}{level}", hint="higher levels should give at least the numbers of lower ones")
                break


def _merge_rules(b: Build, kinds: dict[str, CubeKind]) -> Rules | None:
    rules_files = b.whole.get("rules", [])
    constants: dict[str, Any] = {}
    options: dict[str, Any] = {}
    origin: Origin | None = None
    for parent in b.parents:
        assert isinstance(parent, Pack), "the loader extends only packs of the same ruleset (P029)"
        r = parent.rules
        if r is None:
            continue
        constants.update({
            "hand_size": r.hand_size, "players": {"min": r.players_min, "max": r.players_max},
            "starting_bag": dict(r.starting_bag), "wear_by_darkest": dict(r.wear_by_darkest),
            "grid_money": list(r.grid_money), "sponsor_pool_extra": r.sponsor_pool_extra,
            "season_races": r.season_races,
        })
        options.update(r.options)
        origin = r.origin
    for i, loaded in enumerate(rules_files):
        if i > 0:
            b.diag("P035", loaded.file, ("slipstream",),
                   f"a second rules file in one pack (the first is {rules_files[0].file})",
                   hint="keep one rules/1 file per pack")
            continue
        data = loaded.data if isinstance(loaded.data, dict) else {}
        c = data.get("constants")
        o = data.get("options")
        if isinstance(c, dict):
            constants.update(c)
        if isinstance(o, dict):
            options.update(o)
        origin = Origin(loaded.file, ())
    missing = [k for k in _rule_keys("constants") if k not in constants]
    missing_o = [k for k in _rule_keys("options") if k not in options]
    if b.broken_extends and (origin is None or missing or missing_o):
        return None  # the broken `extends` entry is reported; the rest would be noise
    if origin is None or missing or missing_o:
        where = rules_files[0].file if rules_files else b.manifest.file
        what = ", ".join([*missing, *missing_o]) if origin is not None else "every constant and option"
        b.diag("P034", where, (), f"the rules are incomplete: no value for {what}",
               hint="give them in a rules/1 file, or extend `base` to inherit its rules")
        return None
    try:
        return Rules(
            hand_size=int(constants["hand_size"]),
            players_min=int(constants["players"]["min"]),
            players_max=int(constants["players"]["max"]),
            starting_bag=FrozenMap({str(k): int(v) for k, v in constants["starting_bag"].items()}),
            wear_by_darkest=FrozenMap({str(k): int(v) for k, v in constants["wear_by_darkest"].items()}),
            grid_money=tuple(int(x) for x in constants["grid_money"]),
            sponsor_pool_extra=int(constants["sponsor_pool_extra"]),
            season_races=int(constants["season_races"]),
            options=FrozenMap({k: freeze(v) for k, v in options.items()}),
            origin=origin,
        )
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError):  # int(.inf)
        return None  # the schema has reported the bad value already


def _rules_pos(b: Build, rules: Rules, *path: str | int) -> tuple[str, tuple[str | int, ...]]:
    """Where to point for a rules value: this pack's rules file if it sets it, else its origin."""
    for loaded in b.whole.get("rules", [])[:1]:
        data = loaded.data if isinstance(loaded.data, dict) else {}
        node: Any = data
        ok = True
        for p in path:
            if isinstance(node, dict) and p in node:
                node = node[p]
            else:
                ok = False
                break
        if ok:
            return loaded.file, tuple(path)
    return rules.origin.file, ()


def _check_rules(b: Build, pack: Pack, rules: Rules) -> None:
    own_rules = bool(b.whole.get("rules"))
    kinds = pack.cube_kinds
    for k in rules.starting_bag:
        if k not in kinds:
            file, path = _rules_pos(b, rules, "constants", "starting_bag", k)
            near = _near(k, list(kinds))
            b.diag("P031", file, path, f"starting bag names unknown cube kind {k!r}", key=True,
                   hint=f"did you mean {near!r}?" if near else "known kinds: " + ", ".join(kinds))
    gear_ids = {k.id for k in kinds.values() if k.role == "gear"}
    wear_keys = set(rules.wear_by_darkest)
    if wear_keys != gear_ids and (own_rules or any(_own(k, b) for k in kinds.values())):
        file, path = _rules_pos(b, rules, "constants", "wear_by_darkest")
        if not path:  # this pack's rules do not set the table: point at its own gear kind
            mine = [k for k in kinds.values() if k.role == "gear" and _own(k, b) and k.id not in wear_keys]
            if mine:
                file, path = mine[0].origin.file, (*mine[0].origin.path, "id")
        extra = sorted(wear_keys - gear_ids)
        lacking = sorted(gear_ids - wear_keys)
        parts = []
        if extra:
            parts.append("names " + ", ".join(extra) + " (not gear kinds)")
        if lacking:
            parts.append("lacks " + ", ".join(lacking))
        b.diag("P032", file, path, "the wear table " + " and ".join(parts),
               hint="give the Decline wear for exactly the gear cube kinds")
    if rules.players_min > rules.players_max:
        file, path = _rules_pos(b, rules, "constants", "players", "min")
        b.diag("P041", file, path,
               f"players.min {rules.players_min} is greater than players.max {rules.players_max}")
    # Supply must hold the starting bags of the largest race.
    n = rules.players_max
    for k, per_player in rules.starting_bag.items():
        kind = kinds.get(k)
        if kind is None:
            continue
        supply = kind.supply
        for card in pack.cards.values():
            if card.colour == k and card.supply_explicit:
                supply = min(supply, card.supply)
        need = per_player * n
        if supply >= need:
            continue
        override = next((o for o in b.overrides.get("cube", [])
                         if o.id.rpartition(":")[2] == k and "supply" in o.data), None)
        if override is not None:
            file, pos_path = override.origin.file, (*override.origin.path, "supply")
        elif _own(kind, b):
            file, pos_path = kind.origin.file, (*kind.origin.path, "supply")
        elif own_rules:
            file, pos_path = _rules_pos(b, rules, "constants", "players", "max")
            if pos_path == ():
                file, pos_path = _rules_pos(b, rules, "constants", "starting_bag", k)
        else:
            continue  # the extended pack reports it
        b.diag("P030", file, pos_path,
               f"supply of {k!r} is {supply} but {n} players' starting bags need {need}",
               hint=f"raise the supply to at least {need}, or lower players.max or the starting bag")
    if len(rules.grid_money) < rules.players_max:
        file, path = _rules_pos(b, rules, "constants", "grid_money")
        b.diag("P039", file, path,
               f"grid_money has {len(rules.grid_money)} slots but races may have {rules.players_max} players",
               hint="give one amount per grid slot, pole first")
    points = rules.options.get("season_points")
    if isinstance(points, tuple) and len(points) < rules.players_max:
        file, path = _rules_pos(b, rules, "options", "season_points")
        b.diag("P040", file, path,
               f"season_points lists {len(points)} places but races may have {rules.players_max} players",
               hint="places beyond the list score nothing; list every place if that is not meant")


class _Content:
    """The `automobiles` ruleset's content model, as engine/packs/loader.py expects it."""

    ruleset = RULESET_ID
    data_kinds = DATA_KINDS
    item_lists = ITEM_LISTS

    def build(self, b: Build) -> Pack:
        return build_pack(b)

    def filter_schema(self, diags: list[Diagnostic], loaded: Loaded) -> list[Diagnostic]:
        return filter_schema(diags, loaded)


CONTENT = _Content()
