"""Tiny inline tracks and positions for rule tests."""

from __future__ import annotations

from typing import Any

from slipstream.engine.core.yamlsource import SourceMap
from slipstream.engine.rulesets.automobiles.game import Game, position_game
from slipstream.engine.rulesets.automobiles.rules import Ruleset, basic_ruleset
from slipstream.engine.tracks.track import Track, parse_track


def track(*lanes: str, grid: list[tuple[int, int]] | None = None, laps: int = 1) -> Track:
    grid = grid or [(0, 0), (1, 0)]
    data = {"id": "tiny", "laps": laps, "lanes": len(lanes), "layout": list(lanes),
            "grid": [{"lane": ln, "segment": s, "money": 10 + i} for i, (ln, s) in enumerate(grid)]}
    t, diags = parse_track(data, SourceMap("tiny.yaml"))
    assert t is not None, diags
    return t


def game(tr: Track, players: list[dict[str, Any]], rules: Ruleset | None = None,
         start: str = "action", **kw: Any) -> Game:
    return position_game(rules or basic_ruleset(), tr, players, start=start, **kw)


def play(g: Game, *keys: str) -> None:
    for k in keys:
        r = g.apply(k)
        assert r is None, (k, r, g.pending)


def cell(g: Game, i: int) -> tuple[int, int]:
    c = g.race.players[i].car
    return (c.lane, c.segment)


def zone(g: Game, i: int, name: str) -> dict[str, int]:
    from slipstream.engine.rulesets.automobiles.state import ZONE_INDEX

    z = g.race.players[i].zones[ZONE_INDEX[name]]
    return {g.rules.kinds[k].id: n for k, n in enumerate(z) if n}
