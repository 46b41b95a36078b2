"""The effect editor offers the forms of issue 17 part B (generated from the schema): `pay`,
the Buy-phase modifiers, lane rules of moves and mandatory `others`, and gives every test card
of tests/rulesets/automobiles/scenarios/vocab-b back exactly as written."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

pytest.importorskip("PySide6")

from slipstream.editor.forms import schemas  # noqa: E402
from slipstream.editor.rulesets.automobiles.effecteditor import EffectListField, primitives  # noqa: E402

CARDS = Path(__file__).resolve().parents[2] / "rulesets" / "automobiles" / "scenarios" / "vocab-b" / "cards.yaml"


def test_pay_and_the_new_keys_are_offered() -> None:
    prims = {name: params for name, params, _desc in primitives(schemas())}
    assert "pay" in prims
    s = schemas()
    for prim, keys in (("move", {"straight", "lanes", "lane_change"}), ("drive", {"straight", "lanes", "lane_change"}),
                       ("modify_turn", {"prices", "buy_limit"}), ("others", {"mandatory"})):
        params, _base = s.resolve(prims[prim], s.names["effect"])
        assert keys <= set(params["properties"]), prim
        assert all(params["properties"][k].get("description") for k in keys), prim


@pytest.mark.parametrize("card", yaml.safe_load(CARDS.read_text())["cards"], ids=lambda c: c["id"])
def test_every_test_card_round_trips_through_the_effect_editor(qtbot, card) -> None:  # type: ignore[no-untyped-def]
    eff = EffectListField(schemas(), card["effect"])
    qtbot.addWidget(eff)
    assert eff.value() == card["effect"]
