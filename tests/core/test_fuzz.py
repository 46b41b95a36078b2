"""Seeded mutants of every base file kind give diagnostics, never a traceback (tests/core/fuzzing.py).

1,000 mutants per run, through validate (file alone, in its pack, pack folder), the editor's
track and pack documents and, for scenarios, `slipstream test`'s runner. `bench/fuzz.py`
runs the same mutants by the ten thousand and reports the slowest.
"""

from __future__ import annotations

import pytest

from .fuzzing import KINDS, Workbench, mutants

SEEDS = range(4)
PER_SEED = 250
# A mutant is slow when it takes over SLOW times the median mutant of the same run (the
# slowest measured take about 10x; a shared machine slows all of them alike, so the bar is a
# ratio against this run, not a clock time), and at least FLOOR seconds.
SLOW = 40
FLOOR = 0.5
LONGEST = 2_000  # items of a list written into a mutant (bench/fuzz.py goes to 20,000)


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    # the pack editor's analysis and a scenario on the mutated pack: every eighth mutant in CI
    return Workbench(tmp_path_factory.mktemp("fuzz"), dear_every=8)


@pytest.mark.parametrize("seed", SEEDS)
def test_mutants_of_every_file_kind_end_in_diagnostics(bench, seed):
    outcomes = [bench.run(kind, rel, data) for kind, rel, data in mutants(seed, PER_SEED, LONGEST)]
    crashed = [(o.kind, o.rel, name, tb.strip().splitlines()[-1])
               for o in outcomes for name, tb in o.failures]
    assert crashed == []
    median = sorted(o.seconds for o in outcomes)[len(outcomes) // 2]
    bar = max(FLOOR, SLOW * median)
    slow = [(o.kind, o.rel, round(o.seconds, 2)) for o in outcomes if o.seconds > bar]
    assert slow == []
    assert {o.kind for o in outcomes} == set(KINDS)
    # the mutations really break files: most mutants have errors (they are not all no-ops)
    assert sum(o.errors > 0 for o in outcomes) > PER_SEED // 2
