"""The mutation run (tests/tools/mutate.py) stays in step with the engine: every ruleset's
mutant still applies to the module or pack file it names and compiles, and every Automobiles
rule option value has a mutant."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from mutate import RULESETS, apply, mutated, table

from slipstream.engine.rulesets.automobiles.rules import SUPPORTED, Options
from slipstream.engine.rulesets.automobiles.season import SEASON_OPTIONS

# the tables' sizes when they were merged, so that one cannot lose most of its mutants unseen
AT_LEAST = {"automobiles": 48, "formula-de": 40, "speed-hazard": 70}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_mutant_applies_and_compiles(ruleset: str) -> None:
    t = table(ruleset)
    assert t.ruleset == ruleset
    assert len(t.mutants) >= AT_LEAST[ruleset]
    for m in t.mutants:
        if m.data:  # a change to a file of the pack
            assert t.pack is not None, m.name
            src = (t.pack / m.data).read_text(encoding="utf-8")
            assert all(old in src for old, _ in m.edits) and mutated(src, m) != src, \
                f"{m.name}: the edit no longer applies to {m.data}"
            continue
        spec = importlib.util.find_spec(m.module)
        assert spec is not None and spec.origin, m.module
        src = Path(spec.origin).read_text(encoding="utf-8")
        out = mutated(src, m)
        assert out is not None, f"{m.name}: an edit no longer applies to {m.module}"
        assert out != src
        compile(out, spec.origin, "exec")
    assert len({(m.module, m.edits) for m in t.mutants}) == len(t.mutants)


def test_every_option_and_value_has_a_mutant() -> None:
    mutants = table("automobiles").mutants
    options = {m.option.split()[0] for m in mutants}
    # `drivers` is a season option (dealt drivers); sponsor_pool_extra is a number, not a branch
    wanted = (set(Options.names()) | set(SEASON_OPTIONS)) - {"sponsor_pool_extra"}
    assert wanted <= options, wanted - options
    for name, values in SUPPORTED.items():
        broken = {m.value for m in mutants if m.option == name}
        assert broken == {repr(v) for v in values}, name
    for name in Options.names():
        if isinstance(getattr(Options(), name), bool):
            assert {m.value for m in mutants if m.option.split()[0] == name} == {"True", "False"}, name


def test_an_edit_matches_whole_expressions_only() -> None:
    edit = [("rules.options.x", "True")]
    assert apply("a = rules.options.x", edit, every=True) == "a = True"
    assert apply("a = self.rules.options.x", edit, every=True) is None  # a stale mutant is reported


def test_an_edit_of_text_replaces_its_first_place_only() -> None:
    edit = [("x = 1", "x = 2")]
    assert apply("x = 1\nx = 1\n", edit) == "x = 2\nx = 1\n"
    assert apply("y = 1\n", edit) is None
