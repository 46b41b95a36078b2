"""Season scenarios (`season-scenario/1`): the sponsor draft and the points table, as data.

They live in a pack's `tests/` folder beside the rule scenarios and run with them
(`slipstream test`). A scenario gives either a draft (finishing order, sponsors held, and the
pool or a deck to draw it from) with decisions and the expected result, or the finishing
orders of the races so far with the expected points, standings and next grid. Problems in
the file are coded diagnostics (schema errors, C105 unknown sponsor, C106 bad player index).
"""

from __future__ import annotations

from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic, make
from slipstream.engine.core.schema import schema_diagnostics, whole_numbers
from slipstream.engine.core.yamlsource import PathKey, SourceMap, json_path
from slipstream.engine.play.decisions import pending_mismatches, play_decisions
from slipstream.engine.rulesets.automobiles.draft import Draft, bracket_for, draw_pool
from slipstream.engine.rulesets.automobiles.season import next_grid, season_config, season_standings

FORMAT = "season-scenario"
TAG = "season-scenario/1"


def _diag(src: SourceMap, code: str, path: PathKey, msg: str) -> Diagnostic:
    pos = src.value(path)
    return make(code, src.file, pos.line, pos.column, json_path(path), msg)


def check_season_scenario(data: Any, src: SourceMap, pack: Any) -> list[Diagnostic]:
    diags = schema_diagnostics(FORMAT, data, src)
    if diags:
        return diags
    data = whole_numbers(data)  # 2.0 counts as 2 (the schemas' integer)
    n = data["players"]
    for i, cov in enumerate(data["covers"]):
        what, _, ident = cov.partition(":")
        if what == "sponsor" and ident not in pack.sponsors:
            diags.append(_diag(src, "C105", ("covers", i), f"covers unknown sponsor {ident!r}"))
    d = data.get("draft") or {}
    for key in ("pool", "deck", "held"):
        for i, sid in enumerate(d.get(key) or []):
            if sid is not None and sid not in pack.sponsors:
                diags.append(_diag(src, "C105", ("draft", key, i), f"unknown sponsor {sid!r}"))
    if "held" in d and len(d["held"]) != n:
        diags.append(_diag(src, "C106", ("draft", "held"), f"held names {len(d['held'])} players, not {n}"))
    orders: list[tuple[PathKey, list[int]]] = []
    if "finish" in d:
        orders.append((("draft", "finish"), d["finish"]))
    for i, f in enumerate(data.get("races") or []):
        orders.append((("races", i), f))
    for path, order in orders:
        if sorted(order) != list(range(n)):
            diags.append(_diag(src, "C106", path, f"a finishing order must list players 0-{n - 1} once each"))
    if "draft" not in data and "races" not in data:
        diags.append(_diag(src, "C106", (), "give `draft:` or `races:`"))
    return diags


def run_season_scenario(data: dict[str, Any], src: SourceMap, pack: Any) -> tuple[Any, list[Diagnostic]]:
    """Check and run one season scenario: (ScenarioResult or None, diagnostics)."""
    from slipstream.engine.play.scenarios import ScenarioResult, report_pos

    diags = check_season_scenario(data, src, pack)
    if diags:
        return None, diags
    data = whole_numbers(data)  # 2.0 counts as 2 (the schemas' integer)
    try:
        config = season_config(pack, data.get("options") or {})
    except ValueError as e:
        return None, [_diag(src, "C107", ("options",), str(e))]
    n = data["players"]
    ex = data["expect"]
    problems: list[str] = []
    if "draft" in data:
        d = data["draft"]
        if "pool" in d:
            pool = list(d["pool"])
        else:
            deck = list(d.get("deck") or [])
            pool = draw_pool(deck, n + config.pool_extra, {s.id: s.level for s in pack.sponsors.values()},
                             d.get("level"))
        draft = Draft(pool, d["finish"], d.get("held") or [None] * n)
        problems += play_decisions(draft, data.get("decisions") or [])
        if not problems:
            problems += _expect_draft(draft, pool, d["finish"], n, ex)
    if "races" in data:
        problems += _expect_races(data["races"], config, n, ex)
    return ScenarioResult(data["id"], src.file, not problems, problems, tuple(data["covers"]),
                          *report_pos(src)), []


def _expect_draft(draft: Draft, pool: list[str], finish: list[int], n: int, ex: dict[str, Any]) -> list[str]:
    out = []
    if "pool" in ex and pool != ex["pool"]:
        out.append(f"pool: expected {ex['pool']}, got {pool}")
    if "pick_order" in ex and draft.order != ex["pick_order"]:
        out.append(f"pick order: expected {ex['pick_order']}, got {draft.order}")
    if "held" in ex and draft.held != ex["held"]:
        out.append(f"held: expected {ex['held']}, got {draft.held}")
    if "left_out" in ex and sorted(draft.left_out) != sorted(ex["left_out"]):
        out.append(f"left out: expected {sorted(ex['left_out'])}, got {sorted(draft.left_out)}")
    if "brackets" in ex:
        got = [bracket_for(finish.index(p) + 1, n) for p in range(n)]
        if got != ex["brackets"]:
            out.append(f"brackets: expected {ex['brackets']}, got {got}")
    pend = draft.pending
    out += pending_mismatches(ex, pend)
    if "options" in ex:
        keys = sorted(pend.keys()) if pend else []
        if keys != sorted(ex["options"]):
            out.append(f"legal options: expected {sorted(ex['options'])}, got {keys}")
    if "over" in ex and draft.over != ex["over"]:
        out.append(f"draft over: expected {ex['over']}, got {draft.over}")
    return out


def _expect_races(races: list[list[int]], config: Any, n: int, ex: dict[str, Any]) -> list[str]:
    out = []
    points = [0] * n
    for finish in races:
        for place, p in enumerate(finish, start=1):
            points[p] += config.points_for(place, n)
    if "points" in ex and points != ex["points"]:
        out.append(f"points: expected {ex['points']}, got {points}")
    st = season_standings(points, races[-1])
    if "standings" in ex and st != ex["standings"]:
        out.append(f"standings: expected {ex['standings']}, got {st}")
    grid = next_grid(races[-1], config.grid)
    if "grid" in ex and grid != ex["grid"]:
        out.append(f"next grid: expected {ex['grid']}, got {grid}")
    return out


def _standalone_checker(data: Any, src: SourceMap) -> list[Diagnostic]:
    """`slipstream validate` on a lone season scenario: the schema only (references need the pack)."""
    return schema_diagnostics(FORMAT, data, src)

