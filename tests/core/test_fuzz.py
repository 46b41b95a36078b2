"""Seeded mutants of every file kind of every ruleset, and of race logs, give diagnostics or
one-line reports, never a traceback (tests/core/fuzzing.py).

1,000 file mutants per run, spread over the 24 kinds of the three bundled packs (Automobiles,
Formula Dé, speed-hazard: data files, tracks, rule scenarios) and the loose track/2 files,
through validate (file alone, in its pack, pack folder), the editor's track and pack
documents, `slipstream test` (scenario mutants; a scenario on data mutants that validate
clean) and a short race on data mutants that validate clean. Then 400 mutants of a race log
of each ruleset and of a Formula Dé season log (header and body) through replay.
`bench/fuzz.py` runs the same by the ten thousand and reports the slowest.
"""

from __future__ import annotations

import pytest

from .fuzzing import (
    KINDS,
    PACKS,
    SCENARIO_KINDS,
    Workbench,
    bundled_files,
    log_mutants,
    mutants,
    pack_folder,
    race_logs,
    run_log,
)

SEEDS = range(4)
PER_SEED = 250
# A mutant is slow when it takes over SLOW times the CPU time of its bar in the same run (its
# kind's unmutated file in a fresh process, or for a mutant with the dear steps the median such
# mutant of its pack: see the test), and at least FLOOR seconds (CPU time, as the wall clock of
# a shared machine stretches at random, and a ratio against this run, not a fixed time).
SLOW = 40
FLOOR = 0.5
LONGEST = 2_000  # items of a list written into a mutant (bench/fuzz.py goes to 20,000)
LOG_MUTANTS = 400


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    # the dear steps (the pack folder's check, the pack editor's analysis, a scenario and a
    # race on a data mutant that validates clean): every eighth mutant in CI
    return Workbench(tmp_path_factory.mktemp("fuzz"), dear_every=8)


@pytest.mark.parametrize("seed", SEEDS)
def test_mutants_of_every_file_kind_end_in_diagnostics(bench, seed):
    outcomes = [bench.run(kind, rel, data) for kind, rel, data in mutants(seed, PER_SEED, LONGEST)]
    crashed = [(o.kind, o.rel, name, tb.strip().splitlines()[-1])
               for o in outcomes for name, tb in o.failures]
    assert crashed == []
    # the bar for a mutant is what its kind's unmutated file costs a fresh process through the
    # same steps (a sponsors file of the base pack costs twenty times a loose track/2 file): a
    # process keeps the files it has read (engine/core/yamlsource.py), so the cheap mutants of
    # one run cost less than a fresh process's first file, and their median is no bar. A mutant
    # that also went through the dear steps (its whole pack checked, a scenario and a race) is
    # held against the median such mutant of its pack.
    from slipstream.engine.packs.loader import clear_cache

    first = {}
    for kind, rel in bundled_files():
        first.setdefault(kind, rel)
    bar: dict[tuple[str, str], float] = {}
    for kind in {o.kind for o in outcomes if not o.dear}:
        clear_cache()
        original = (pack_folder(KINDS[kind][0]) / first[kind]).read_bytes()
        bar["kind", kind] = bench.run(kind, first[kind], original, dear=False).cpu
    dear: dict[tuple[str, str], list[float]] = {}
    for o in outcomes:
        if o.dear:
            dear.setdefault(("dear", KINDS[o.kind][0]), []).append(o.cpu)
    assert min(len(v) for v in dear.values()) >= 4
    bar.update({k: sorted(v)[len(v) // 2] for k, v in dear.items()})

    def group(o):  # type: ignore[no-untyped-def]
        return ("dear", KINDS[o.kind][0]) if o.dear else ("kind", o.kind)

    slow = [(o.kind, o.rel, round(o.cpu, 2)) for o in outcomes if o.cpu > max(FLOOR, SLOW * bar[group(o)])]
    assert slow == []
    assert {o.kind for o in outcomes} == set(KINDS)
    # the mutations really break files: most mutants have errors (they are not all no-ops)
    checked = [o for o in outcomes if o.errors >= 0]
    assert sum(o.errors > 0 for o in checked) > len(checked) // 2


@pytest.mark.parametrize("key", [k for k, name in PACKS.items() if name is not None])
def test_every_ruleset_was_tested_and_raced(tmp_path, key):
    """Each pack's data mutants that validate clean run a scenario and a race, and a scenario
    mutant runs `slipstream test` (self-contained, so that it holds however pytest-xdist
    spreads the seeds over its workers)."""
    bench = Workbench(tmp_path, dear_every=1)
    data_kinds = [k for k, (pack, _) in KINDS.items() if pack == key and k not in SCENARIO_KINDS]
    clean = next((o for o in (bench.run(*m) for m in mutants(7, 200, LONGEST, data_kinds)) if o.errors == 0), None)
    assert clean is not None, f"no data mutant of {key} validated clean"
    assert clean.failures == []
    assert {"slipstream test on the mutant pack", "slipstream race on the mutant pack"} <= set(clean.steps)
    scenario_kinds = [k for k, (pack, _) in KINDS.items() if pack == key and k in SCENARIO_KINDS]
    scenario = bench.run(*next(mutants(7, 1, LONGEST, scenario_kinds)))
    assert "slipstream test" in scenario.steps and scenario.failures == []


def test_mutants_of_every_rulesets_logs_end_in_one_line_reports(tmp_path):
    logs = race_logs()
    assert {"automobiles", "formula-de", "speed-hazard"} <= set(logs)
    outcomes = [run_log(tmp_path, name, op, data, logs[name])
                for name, op, data in log_mutants(5, LOG_MUTANTS, logs)]
    crashed = [(o.kind, o.rel, name, tb.strip().splitlines()[-1]) for o in outcomes for name, tb in o.failures]
    assert crashed == []
    assert {o.kind for o in outcomes} == {f"log:{n}" for n in logs}
