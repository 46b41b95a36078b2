"""Rule scenarios (DESIGN §6): a position, decisions to apply, the expected outcome.

`slipstream test PACK` loads every `scenario/1` file of the pack's `tests/` folder, runs it
and reports pass/fail; a malformed scenario gives coded diagnostics (schema errors and C1xx
codes) with file, line, column and JSON path instead of running.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slipstream.engine.core.diagnostics import Diagnostic, make
from slipstream.engine.core.schema import schema_diagnostics, whole_numbers
from slipstream.engine.core.yamlsource import PathKey, SourceMap, json_path, load_file
from slipstream.engine.play.decisions import pending_mismatches, play_decisions
from slipstream.engine.play.scenarios import Report, ScenarioResult, report_pos
from slipstream.engine.rulesets.automobiles.game import Game, position_game
from slipstream.engine.rulesets.automobiles.options import RACE_OPTIONS
from slipstream.engine.rulesets.automobiles.rules import (
    Ruleset,
    ruleset_from_pack,
    unsupported_options,
)
from slipstream.engine.rulesets.automobiles.state import ZONE_INDEX
from slipstream.engine.tracks.track import Track, parse_track

FORMAT = "scenario"
RACE_SPECS = {s.name: s for s in RACE_OPTIONS}


@dataclass(slots=True)
class Prepared:
    """A checked scenario, ready to run."""

    id: str
    file: str
    data: dict[str, Any]
    rules: Ruleset
    track: Track
    covers: tuple[str, ...]
    pos: tuple[int, int] = (1, 1)


def _diag(src: SourceMap, code: str, path: PathKey, msg: str, hint: str | None = None) -> Diagnostic:
    pos = src.value(path)
    return make(code, src.file, pos.line, pos.column, json_path(path), msg, hint=hint)


def check_scenario(data: Any, src: SourceMap, pack: Any) -> tuple[Prepared | None, list[Diagnostic]]:
    """Schema and reference checks of one scenario against a pack."""
    diags = schema_diagnostics(FORMAT, data, src)
    if diags:
        return None, diags
    data = whole_numbers(data)  # 2.0 counts as 2 (the schemas' integer)
    # card set and cards
    cards = data.get("cards") or {}
    try:
        if data.get("card_set"):
            pack.card_set(data["card_set"])
    except KeyError:
        diags.append(_diag(src, "C102", ("card_set",), f"unknown card set {data['card_set']!r}",
                           hint="sets: " + ", ".join(sorted(pack.card_sets))))
    for colour, cid in cards.items():
        try:
            card = pack.card(cid)
        except KeyError:
            diags.append(_diag(src, "C102", ("cards", colour), f"unknown card {cid!r}"))
            continue
        if card.colour != colour:
            diags.append(_diag(src, "C102", ("cards", colour),
                               f"card {cid!r} is {card.colour}, not {colour}"))
    for cov_i, cov in enumerate(data["covers"]):
        what, _, ident = cov.partition(":")
        table = {"card": pack.cards, "driver": pack.drivers, "sponsor": pack.sponsors}.get(what)
        if table is not None and ident not in table:
            diags.append(_diag(src, "C105", ("covers", cov_i), f"covers unknown {what} {ident!r}"))
    opts = data.get("options") or {}
    for k, v in opts.items():
        spec = RACE_SPECS.get(k)
        if spec is None:
            diags.append(_diag(src, "C107", ("options", k), f"unknown rule option {k!r}",
                               hint="options: " + ", ".join(RACE_SPECS)))
        elif spec.problem(v) is not None and v not in spec.choices:
            # (a documented reading the engine lacks is reported once, with the pack's options)
            diags.append(_diag(src, "C107", ("options", k), str(spec.problem(v))))
    # track
    tspec = data.get("track")
    track: Track | None = None
    if tspec is None:
        track = pack.tracks.get("first-oval") or next(iter(pack.tracks.values()), None)
        if track is None:
            diags.append(_diag(src, "C101", (), "the pack has no track; give `track:`"))
    elif isinstance(tspec, str):
        track = pack.tracks.get(tspec)
        if track is None:
            diags.append(_diag(src, "C101", ("track",), f"unknown track {tspec!r}",
                               hint="tracks: " + ", ".join(sorted(pack.tracks))))
    else:
        grid = tspec.get("grid") or [{"lane": 0, "segment": 0, "money": 10}]
        tdata = {"id": data["id"], "laps": tspec.get("laps", 1), "layout": tspec["layout"], "grid": grid}
        sub = SourceMap(src.file)
        for path, pos in src.values.items():
            if path[:1] == ("track",):
                sub.values[path[1:]] = pos
        track, tdiags = parse_track(tdata, sub)
        for d in tdiags:
            if d.is_error:
                diags.append(make("C108", d.file, d.line, d.column, "$.track" + d.path[1:],
                                  f"inline track: {d.message}", hint=d.hint))
        if any(d.is_error for d in tdiags):
            track = None
    if diags or track is None:
        return None, diags
    try:
        rules = ruleset_from_pack(pack, data.get("card_set"), cards)
    except KeyError as e:
        return None, [_diag(src, "C102", (), f"cannot put the cards in play: {e}")]
    rules = rules.with_options(opts)
    for bad in unsupported_options(rules.options):
        diags.append(_diag(src, "C107", ("options",), f"rule option value not supported: {bad}"))
    # players
    seen: dict[tuple[int, int], int] = {}
    for i, p in enumerate(data["players"]):
        car = p["car"]
        lane, seg = car["lane"], car["segment"]
        if lane >= track.lanes or seg >= track.segments or track.cells[lane][seg] < 0:
            diags.append(_diag(src, "C104", ("players", i, "car"),
                               f"player {i + 1}'s car stands on {lane}:{seg}, which is not a cell of the track"))
        elif (lane, seg) in seen:
            diags.append(_diag(src, "C104", ("players", i, "car"),
                               f"players {seen[(lane, seg)] + 1} and {i + 1} stand on the same segment {lane}:{seg}"))
        seen[(lane, seg)] = i
        for zname in ("bag", "active", "used", "discard"):
            for kid in (p.get(zname) or {}):
                try:
                    rules.kind(kid)
                except KeyError:
                    diags.append(_diag(src, "C103", ("players", i, zname, kid),
                                       f"unknown cube kind {kid!r} (not in play)",
                                       hint="kinds: " + ", ".join(k.id for k in rules.kinds)))
        if p.get("driver") and p["driver"] not in pack.drivers:
            diags.append(_diag(src, "C105", ("players", i, "driver"), f"unknown driver {p['driver']!r}"))
    for where, zone in (("stock", data.get("stock")), ):
        for kid in (zone or {}):
            try:
                rules.kind(kid)
            except KeyError:
                diags.append(_diag(src, "C103", (where, kid), f"unknown cube kind {kid!r}"))
    ex = data.get("expect", {})
    for i, p in enumerate(ex.get("players", [])):
        if i >= len(data["players"]):
            diags.append(_diag(src, "C106", ("expect", "players", i), "more expected players than players"))
        for zname in ("bag", "active", "used", "discard", "revealed", "owned"):
            for kid in (p.get(zname) or {}):
                try:
                    rules.kind(kid)
                except KeyError:
                    diags.append(_diag(src, "C103", ("expect", "players", i, zname, kid),
                                       f"unknown cube kind {kid!r}"))
    n = len(data["players"])
    if data.get("turn", 0) >= n:
        diags.append(_diag(src, "C106", ("turn",), f"turn names player {data['turn']} but there are {n} players"))
    sp = data.get("sponsor")
    if sp:
        if sp["id"] not in pack.sponsors:
            diags.append(_diag(src, "C105", ("sponsor", "id"), f"unknown sponsor {sp['id']!r}"))
        if sp.get("player", 0) >= n:
            diags.append(_diag(src, "C106", ("sponsor", "player"), "no such player"))
    if diags:
        return None, diags
    covers = tuple(data["covers"])
    return Prepared(data["id"], src.file, data, rules, track, covers, report_pos(src)), []


def build_game(sc: Prepared) -> Game:
    d = sc.data
    start = "none" if d.get("sponsor") else d.get("start", "action")
    g = position_game(sc.rules, sc.track, d["players"], turn=d.get("turn", 0), start=start,
                      seed=d.get("seed", 0), laps=d.get("laps"), stock=d.get("stock"),
                      round_=d.get("round", 1))
    sp = d.get("sponsor")
    if sp:
        spon = sc.rules.sponsor(sp["id"])
        g.run_effects(sp.get("player", 0), spon.effects[sp["bracket"]], spon.id)
    return g


def run_prepared(sc: Prepared) -> ScenarioResult:
    problems: list[str] = []
    g = build_game(sc)
    problems += play_decisions(g, sc.data.get("decisions", []))
    if not problems:
        problems += check_expect(g, sc.data.get("expect", {}))
    return ScenarioResult(sc.id, sc.file, not problems, problems, sc.covers, *sc.pos)


def _zone_dict(g: Game, counts: list[int]) -> dict[str, int]:
    return {g.rules.kinds[k].id: n for k, n in enumerate(counts) if n}


def _norm(g: Game, want: Mapping[str, int]) -> dict[str, int]:
    return {g.rules.kinds[g.rules.kind(k)].id: int(n) for k, n in want.items() if n}



def check_expect(g: Game, ex: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for i, want in enumerate(ex.get("players", [])):
        p = g.race.players[i]
        who = f"P{i + 1}"
        if "car" in want:
            c = want["car"]
            got = (p.car.lane, p.car.segment, p.car.lap)
            exp = (c["lane"], c["segment"], c.get("lap", got[2]))
            if got != exp:
                out.append(f"{who} car: expected {exp[0]}:{exp[1]} lap {exp[2]}, got {got[0]}:{got[1]} lap {got[2]}")
        for zname in ("bag", "active", "used", "discard", "revealed"):
            if zname in want:
                got_z = _zone_dict(g, p.zones[ZONE_INDEX[zname]])
                if got_z != _norm(g, want[zname]):
                    out.append(f"{who} {zname}: expected {_norm(g, want[zname])}, got {got_z}")
        if "owned" in want:
            tot = [sum(p.zones[z][k] for z in range(5)) for k in range(len(g.rules.kinds))]
            if _zone_dict(g, tot) != _norm(g, want["owned"]):
                out.append(f"{who} owned: expected {_norm(g, want['owned'])}, got {_zone_dict(g, tot)}")
        if "placed" in want:
            t = g.race.turn
            got_p = [f"{pl.lane}:{pl.segment}" for pl in t.placements] if t and t.player == i else []
            if got_p != list(want["placed"]):
                out.append(f"{who} placed: expected {want['placed']}, got {got_p}")
        if "wear_gained" in want and g.race.stats["wear"][i] != want["wear_gained"]:
            out.append(f"{who} wear gained: expected {want['wear_gained']}, got {g.race.stats['wear'][i]}")
        if "money" in want and g.money(i) != want["money"]:
            out.append(f"{who} money: expected {want['money']}, got {g.money(i)}")
    pend = g.pending
    out += pending_mismatches(ex, pend)
    keys = set(pend.keys()) if pend else set()
    if "options" in ex and keys != set(ex["options"]):
        out.append(f"legal options: expected {sorted(ex['options'])}, got {sorted(keys)}")
    for k in ex.get("options_include", []):
        if k not in keys:
            out.append(f"option {k!r} should be legal; legal: {sorted(keys)}")
    for k in ex.get("options_exclude", []):
        if k in keys:
            out.append(f"option {k!r} should not be legal")
    if "standings" in ex and g.standings() != list(ex["standings"]):
        out.append(f"standings: expected {ex['standings']}, got {g.standings()}")
    if "final_round" in ex and g.race.final_round != ex["final_round"]:
        out.append(f"final round: expected {ex['final_round']}, got {g.race.final_round}")
    if "over" in ex and g.over != ex["over"]:
        out.append(f"race over: expected {ex['over']}, got {g.over}")
    if "stock" in ex:
        for kid, n in ex["stock"].items():
            got_n = g.race.stock[g.rules.kind(kid)]
            if got_n != n:
                out.append(f"stock of {kid}: expected {n}, got {got_n}")
    return out


def run_file(path: Path, pack: Any) -> tuple[ScenarioResult | None, list[Diagnostic]]:
    loaded = load_file(path)
    if loaded.data is None:
        return None, loaded.diagnostics
    # season scenarios (season-scenario/1) run beside these
    from slipstream.engine.rulesets.automobiles import seasonscenarios as _seasonscenarios

    if isinstance(loaded.data, dict) and loaded.data.get("slipstream") == _seasonscenarios.TAG:
        return _seasonscenarios.run_season_scenario(loaded.data, loaded.source, pack)
    sc, diags = check_scenario(loaded.data, loaded.source, pack)
    if sc is None:
        return None, diags
    return run_prepared(sc), diags


def scenario_paths(pack: Any) -> list[Path]:
    files = list(getattr(pack, "scenario_files", ()) or ())
    if not files:
        tests = Path(pack.root) / "tests"
        files = sorted(p for p in tests.rglob("*.y*ml")) if tests.is_dir() else []
    return sorted(Path(f) for f in files)


def run_pack_scenarios(pack_path: str, select: str = "") -> Report:
    from slipstream.engine.rulesets.automobiles.racesetup import load_pack_cached

    try:
        pack = load_pack_cached(pack_path)
    except (ValueError, RuntimeError) as e:
        return Report([], [make("C100", pack_path or "base", 1, 1, "$", f"the pack cannot be loaded: {e}")])
    results: list[ScenarioResult] = []
    diags: list[Diagnostic] = []
    for f in scenario_paths(pack):
        res, ds = run_file(f, pack)
        # -k selects by scenario id; a file too broken to have one is kept if its name matches
        chosen = not select or (select in res.id if res is not None else select in f.stem)
        if chosen:
            diags += ds
        if res is not None and chosen:
            results.append(res)
    return Report(results, diags)


def _standalone_checker(data: Any, src: SourceMap) -> list[Diagnostic]:
    """`slipstream validate` on a lone scenario file: the schema only (references need the pack)."""
    return schema_diagnostics(FORMAT, data, src)


