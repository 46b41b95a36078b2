"""What an Automobiles race is set up from: its pack, the card set in play, the rules built
from both (one `Ruleset` per pack, card set and options, shared by every race that uses them,
so its memos stay warm), how its log header records them, and what a race result says of
them. Races themselves run on the shared path (engine/play/races.py `play_race`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from slipstream.engine.core.byidentity import ByIdentity
from slipstream.engine.rulesets.automobiles.rules import Ruleset, ruleset_from_pack


@cache
def load_pack_cached(path: str) -> Any:
    """The Automobiles pack of a folder ("" for the bundled base pack), loaded once per process
    through the registry's cache (engine/play/registry.py); ValueError when it has errors."""
    from slipstream.engine.play.registry import load_pack
    from slipstream.engine.rulesets.automobiles.content import Pack

    pack = load_pack(path)
    if not isinstance(pack, Pack):
        raise ValueError(f"{path} is a pack of the {pack.ruleset!r} ruleset; this needs an Automobiles pack")
    return pack


def card_set_of(pack: Any, wanted: str, seed: int) -> str:
    """The card set id a race uses: `wanted` by id or name, `random` by seed, or the first."""
    if wanted == "random":
        ids = sorted(pack.card_sets)
        return random.Random(f"set-{seed}").choice(ids) if ids else ""
    if wanted:
        return str(pack.card_set(wanted).id)
    return str(next(iter(pack.card_sets), ""))


# pack -> {(card set, options): rules}
_RULES: ByIdentity[Any, dict[tuple[str, Any], Ruleset]] = ByIdentity(lambda pack: {}, limit=16)


def rules_for(pack: Any, card_set: str, options: Mapping[str, Any]) -> Ruleset:
    """The rules of `pack` with the card set `card_set` ("" the first) and rule options, made
    once and shared."""
    table = _RULES.get(pack)
    try:
        key: tuple[str, Any] = (card_set, tuple(sorted(options.items())))
        hash(key)
    except TypeError:  # an option value that is not hashable: made afresh
        key = ("", None)
    rules = table.get(key) if key[1] is not None else None
    if rules is None:
        rules = ruleset_from_pack(pack, card_set or None)
        if options:
            rules = rules.with_options(dict(options))
        if key[1] is not None:
            table[key] = rules
    return rules


def _ruleset(path: str, card_set: str, options: tuple[tuple[str, Any], ...]) -> Ruleset:
    """The rules of the pack folder `path` (`rules_for` of its loaded pack)."""
    return rules_for(load_pack_cached(path), card_set, dict(options))


def log_header(head: dict[str, Any], spec: Any, pack: Any, track: Any) -> dict[str, Any]:
    """The race header as Automobiles logs have always written it: the card set in play (a
    `random` one resolved by the seed), the track's digest, the laps raced, the driver of each
    seat, and no `setup` entry."""
    from slipstream.engine.play.logcheck import track_digest

    setup = dict(spec.setup)
    drivers = tuple(setup.get("drivers") or ())
    out = {k: v for k, v in head.items() if k != "setup"}
    out["card_set"] = card_set_of(pack, setup.get("card_set") or "", spec.seed)
    out["track_digest"] = track_digest(track)
    out["laps"] = spec.laps or track.laps
    out["seats"] = [{**s, "driver": drivers[i] if i < len(drivers) else None} for i, s in enumerate(head["seats"])]
    return out


def resolved(game: Any) -> dict[str, Any]:
    """The card set a race was run with and the driver of each seat at its end (dealt ones
    included)."""
    rs = game.rules
    return {"card_set": rs.card_set,
            "drivers": [rs.drivers[p.driver].id if p.driver is not None else None for p in game.race.players]}


def kind_ids(result: Any) -> list[str]:
    """The cube kind ids that index a race's counts (`stats["bought"]`, `stats["plays"]`): a
    stored record keeps them, a race result has them from its pack and card set."""
    ids = getattr(result, "kind_ids", None)
    if ids is not None:
        return list(ids)
    return [k.id for k in _ruleset(result.spec.pack, result.setup.get("card_set") or "", ()).kinds]


def drivers_of(result: Any) -> list[str | None]:
    """The driver of each seat of a race result (or of a stored record)."""
    drivers = getattr(result, "drivers", None)
    if drivers is not None:
        return list(drivers)
    return list(result.setup.get("drivers") or [None] * len(result.bots))
