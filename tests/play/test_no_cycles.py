"""A race and its bots leave no reference cycles: when a race is over, reference counting frees
the game and the bots with everything they cache. A cycle would leave them, with their caches
(thousands of lists for a look-ahead bot), to the cyclic collector's full passes, which long
sweeps and ladders pay for over and over."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from slipstream.engine.packs.loader import bundled_packs
from slipstream.engine.play import registry
from slipstream.engine.play.races import bot_seed, seats_of


def _race(pack: Any, bots: tuple[str, ...], seed: int) -> None:
    rs = registry.get(pack.ruleset)
    track = pack.tracks[sorted(pack.tracks)[0]]
    g = rs.new_game(pack, track, seats_of(bots), seed, {}, None, {}, False)
    players = [rs.make_bot(b, bot_seed(seed, i)) for i, b in enumerate(bots)]
    while (d := g.pending) is not None:
        g.apply(players[d.player].choose(g, d))


@pytest.mark.parametrize("pid", sorted(bundled_packs()))  # a pack of every ruleset
def test_a_finished_race_and_its_bots_are_freed_without_the_cyclic_collector(pid: str) -> None:
    pack = registry.load_pack("" if pid == "base" else str(bundled_packs()[pid]))
    look = ("lookahead:2", "greedy")
    _race(pack, look, 7)  # what a first race sets up once (tables, lazy imports) is kept
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        _race(pack, ("greedy",) * 3, 1)
        _race(pack, look, 2)
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
