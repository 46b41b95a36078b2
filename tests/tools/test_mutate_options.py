"""The option mutation run (tests/tools/mutate_options.py) stays in step with the engine: every
mutant still applies to the module it names, and every option value has one."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from mutate_options import MUTANTS, mutated

from slipstream.engine.rulesets.automobiles.rules import SUPPORTED, Options
from slipstream.engine.rulesets.automobiles.season import SEASON_OPTIONS


def test_every_mutant_applies_and_compiles() -> None:
    for m in MUTANTS:
        spec = importlib.util.find_spec(m.module)
        assert spec is not None and spec.origin, m.module
        src = mutated(Path(spec.origin).read_text(encoding="utf-8"), m.edits)
        assert src is not None, f"{m.option} {m.value} {m.as_}: an edit no longer applies to {m.module}"
        assert src != Path(spec.origin).read_text(encoding="utf-8")
        compile(src, spec.origin, "exec")


def test_every_option_and_value_has_a_mutant() -> None:
    options = {m.option.split()[0] for m in MUTANTS}
    # `drivers` is a season option (dealt drivers); sponsor_pool_extra is a number, not a branch
    wanted = (set(Options.names()) | set(SEASON_OPTIONS)) - {"sponsor_pool_extra"}
    assert wanted <= options, wanted - options
    for name, values in SUPPORTED.items():
        broken = {m.value for m in MUTANTS if m.option == name}
        assert broken == {repr(v) for v in values}, name
    for name in Options.names():
        if isinstance(getattr(Options(), name), bool):
            assert {m.value for m in MUTANTS if m.option.split()[0] == name} == {"True", "False"}, name


def test_an_edit_matches_whole_expressions_only() -> None:
    edit = [("rules.options.x", "True")]
    assert mutated("a = rules.options.x", edit) == "a = True"
    assert mutated("a = self.rules.options.x", edit) is None  # a stale mutant is reported
