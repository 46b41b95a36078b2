"""Frozen dataclasses of compiled modules copy and pickle as the same objects (core/frozen.py).

Compiled with mypyc (build_support/slipstream_accel.py) they are native classes that `copy`
and `pickle` could not rebuild field by field; these run pure and compiled alike (the accel
tests run the whole races both ways)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from slipstream.engine.play.decisions import Decision, Option, Rejection
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack


def _objects() -> list[object]:
    rules = ruleset_from_pack(base_pack())
    return [Option("a", "play a"), Decision(1, "action", (Option("a", "play a"),), "choose"),
            Rejection("not-an-option", "no", ("a",)), rules, rules.options, rules.kinds[0],
            *rules.drivers[:1], *rules.sponsors[:1]]


@pytest.mark.parametrize("obj", _objects(), ids=lambda o: type(o).__name__)
def test_copies_and_pickles_are_equal_and_frozen(obj: object) -> None:
    for twin in (copy.deepcopy(obj), copy.copy(obj), pickle.loads(pickle.dumps(obj))):
        assert type(twin) is type(obj)
        assert twin == obj
        name = dataclasses.fields(obj)[0].name  # type: ignore[arg-type]
        with pytest.raises((dataclasses.FrozenInstanceError, AttributeError)):
            setattr(twin, name, None)


def test_a_copied_ruleset_has_its_lookups() -> None:
    rules = ruleset_from_pack(base_pack())
    for twin in (copy.deepcopy(rules), pickle.loads(pickle.dumps(rules))):
        assert twin.by_id == rules.by_id and twin.gear_index == rules.gear_index
        assert (twin.wear, twin.with_effect, twin.for_sale) == (rules.wear, rules.with_effect, rules.for_sale)
