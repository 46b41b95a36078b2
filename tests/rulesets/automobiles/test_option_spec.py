"""The Automobiles option spec is the one source of option names, types and values."""

from __future__ import annotations

import dataclasses
import json

import pytest

from slipstream.engine.core.schemafiles import schema_files
from slipstream.engine.play.options import OptionError, parse_items
from slipstream.engine.rulesets.automobiles.options import (
    OPTIONS,
    RACE_OPTIONS,
    rules_options_schema,
)
from slipstream.engine.rulesets.automobiles.rules import Options


def test_the_rules_schema_options_are_generated_from_the_spec():
    committed = schema_files()["rules.schema.json"]["$defs"]["options"]
    assert committed == rules_options_schema(), (
        "regenerate with: python -m slipstream.engine.rulesets.automobiles.options")


def test_race_options_are_the_fields_of_options():
    assert {s.name for s in RACE_OPTIONS} == {f.name for f in dataclasses.fields(Options)}
    for s in RACE_OPTIONS:
        assert getattr(Options(), s.name) == s.default, s.name


@pytest.mark.parametrize("item, message", [
    ("max_rounds=abc", "max_rounds takes a whole number 1..100000"),
    ("weaving=maybe", "weaving takes true or false"),
    ("full_spaces=pass", "full_spaces='pass' is a reading this engine does not implement yet"),
    ("nonsense=1", "unknown rule option 'nonsense'"),
    ("weaving", "write KEY=VALUE"),
    ("season_grid=reverse", "season_grid is a season option"),
    ("max_rounds=0", "max_rounds takes a whole number 1..100000"),
])
def test_bad_items_name_the_option_and_what_it_takes(item, message):
    with pytest.raises(OptionError) as e:
        parse_items(OPTIONS, [item])
    assert message in str(e.value)


def test_good_items_parse_to_typed_values():
    got = parse_items(OPTIONS, ["weaving=yes", "max_rounds=40", "drafting=space",
                                "season_points=10,6,4", "season_grid=reverse"],
                      scopes=("race", "season"))
    assert got == {"weaving": True, "max_rounds": 40, "drafting": "space",
                   "season_points": [10, 6, 4], "season_grid": "reverse"}


def test_a_huge_number_is_refused_without_printing_it():
    with pytest.raises(OptionError) as e:
        parse_items(OPTIONS, ["max_rounds=" + "9" * 5000])
    assert len(str(e.value)) < 200
    json.dumps(str(e.value))
