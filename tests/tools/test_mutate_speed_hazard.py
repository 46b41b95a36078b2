"""The speed-and-hazard rule mutation run (tests/tools/mutate_speed_hazard.py) stays in step with
the engine: every mutant's edit still applies to its module and compiles."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from mutate_speed_hazard import MUTANTS, mutated


def test_every_speed_hazard_mutant_applies_and_compiles() -> None:
    assert len(MUTANTS) >= 70
    for m in MUTANTS:
        spec = importlib.util.find_spec(m.module)
        assert spec is not None and spec.origin, m.module
        src = Path(spec.origin).read_text(encoding="utf-8")
        out = mutated(src, m)
        assert out is not None, f"{m.name}: the edit no longer applies to {m.module}"
        assert out != src
        compile(out, spec.origin, "exec")
    assert len({(m.module, m.old, m.new) for m in MUTANTS}) == len(MUTANTS)
