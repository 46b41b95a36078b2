"""A race and its bots leave no reference cycles: when a race is over, reference counting frees
the game and the bots with everything they cache. A cycle would leave them, with their caches
(thousands of lists for a look-ahead bot), to the cyclic collector's full passes, which long
sweeps and ladders pay for over and over."""

from __future__ import annotations

import gc

import pytest

from slipstream.engine.packs.loader import bundled_packs
from slipstream.engine.play import registry
from slipstream.engine.play.races import RaceSpec, run_race


@pytest.mark.parametrize("pid", sorted(bundled_packs()))  # a pack of every ruleset
def test_a_finished_race_and_its_bots_are_freed_without_the_cyclic_collector(pid: str) -> None:
    path = "" if pid == "base" else str(bundled_packs()[pid])
    track = sorted(registry.load_pack(path).tracks)[0]
    look = ("lookahead:2", "greedy")
    # (results dropped at once: what a race returns is not what this test is about)
    run_race(RaceSpec(path, track, 7, look))  # what a first race sets up once (tables, lazy imports) is kept
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        run_race(RaceSpec(path, track, 1, ("greedy",) * 3))
        run_race(RaceSpec(path, track, 2, look))
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
