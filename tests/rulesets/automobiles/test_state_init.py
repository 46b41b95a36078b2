"""The race state classes write their `__init__` out (state.py): it must take every field of
the dataclass, in order and by name, with the field's default (a fresh container for a factory)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from slipstream.engine.rulesets.automobiles import state as st

# each class with its fields that have no default
REQUIRED: dict[type, tuple[Any, ...]] = {
    st.Car: (1, 2, 3),
    st.Memory: (),
    st.PlayerState: (0, "A", "greedy", [[0, 1]], st.Car(0, 0, 0)),
    st.Placement: (1, 2, 3, (4, 5), 0),
    st.TurnState: (2,),
    st.RaceState: ([], [3], [0], 1, random.Random(0)),
}


def test_every_state_class_is_listed() -> None:
    classes = {v for v in vars(st).values() if isinstance(v, type) and dataclasses.is_dataclass(v)}
    assert classes == set(REQUIRED)


def test_the_written_init_sets_every_field_to_its_default() -> None:
    for cls, args in REQUIRED.items():
        obj = cls(*args)
        fields = dataclasses.fields(cls)
        for f, a in zip(fields, args, strict=False):
            assert getattr(obj, f.name) is a, (cls, f.name)
        for f in fields[len(args):]:
            want = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
            assert getattr(obj, f.name) == want, (cls, f.name)
        assert cls(*args) == obj


def test_it_takes_the_fields_in_order_and_by_name() -> None:
    for cls, args in REQUIRED.items():
        fields = dataclasses.fields(cls)
        obj = cls(*args)
        values = [getattr(obj, f.name) for f in fields]
        assert cls(*values) == obj
        assert cls(**{f.name: v for f, v in zip(fields, values, strict=True)}) == obj


def test_a_factory_default_is_a_fresh_container_each_time() -> None:
    a, b = st.TurnState(0), st.TurnState(0)
    for f in dataclasses.fields(st.TurnState):
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(a, f.name) is not getattr(b, f.name), f.name
    m, n = st.Memory(), st.Memory()
    assert all(getattr(m, f.name) is not getattr(n, f.name) for f in dataclasses.fields(st.Memory))
