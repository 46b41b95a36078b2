"""What the designer-pack tests (test_designer_cards.py, test_designer_cards_2.py) share: the
pack loaded clean, its own cards, the effect forms a card uses, and a card's scenarios run
against the pack with that card's effect replaced (a wrong version of it)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from slipstream.engine.core.yamlsource import load_file
from slipstream.engine.packs.data import FrozenMap
from slipstream.engine.packs.loader import load_pack
from slipstream.engine.rulesets.automobiles.scenarios import check_scenario, run_prepared

COLOURS = ("yellow", "red", "purple", "blue", "green")


def loaded_clean(folder: Path) -> Any:
    """The pack in `folder`, asserting it loads without an error."""
    p, diags = load_pack(folder)
    assert p is not None and not [d for d in diags if d.is_error], [str(d) for d in diags]
    return p


def own_cards(pack: Any) -> dict[str, Any]:
    return {c.id: c for c in pack.cards.values() if c.pack == pack.id}


def forms(data: Any, found: Callable[[str, Any, str], Iterable[str]], parent: str = "") -> set[str]:
    """Every form `found(key, value, parent)` names at any key of the effect data `data`."""
    out: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            out.update(found(k, v, parent))
            out |= forms(v, found, k)
    elif isinstance(data, list | tuple):
        for v in data:
            out |= forms(v, found, parent)
    return out


def scenarios_of(folder: Path, cid: str) -> list[Any]:
    """The scenario files of the pack in `folder` that cover the card `cid`, loaded."""
    out = []
    for f in sorted((folder / "tests").glob("*.yaml")):
        loaded = load_file(f)
        if f"card:{cid}" in loaded.data["covers"]:
            out.append(loaded)
    return out


def outcomes(pack: Any, scenarios: list[Any], cid: str, effect: Any) -> list[bool]:
    """Whether each of `scenarios` passes when the card `cid` has the effect `effect`."""
    cards = dict(pack.cards)
    cards[cid] = dataclasses.replace(pack.cards[cid], effect=effect)
    changed = dataclasses.replace(pack, cards=FrozenMap(cards))
    out = []
    for loaded in scenarios:
        sc, diags = check_scenario(loaded.data, loaded.source, changed)
        assert sc is not None, diags
        out.append(run_prepared(sc).ok)
    return out
