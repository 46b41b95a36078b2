"""The Formula Dé-style rule mutation run (tests/tools/mutate_formula_de.py) stays in step with
the engine: every mutant's edit still applies to its module and compiles."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from mutate_formula_de import MUTANTS, PACK, mutated


def test_every_formula_de_mutant_applies_and_compiles() -> None:
    assert len(MUTANTS) >= 40
    for m in MUTANTS:
        if m.data:  # a change to a file of the pack
            src = (PACK / m.data).read_text(encoding="utf-8")
            assert m.old in src and mutated(src, m) != src, f"{m.name}: the edit no longer applies to {m.data}"
            continue
        spec = importlib.util.find_spec(m.module)
        assert spec is not None and spec.origin, m.module
        src = Path(spec.origin).read_text(encoding="utf-8")
        out = mutated(src, m)
        assert out is not None, f"{m.name}: the edit no longer applies to {m.module}"
        assert out != src
        compile(out, spec.origin, "exec")
    assert len({(m.module, m.old, m.new) for m in MUTANTS}) == len(MUTANTS)
