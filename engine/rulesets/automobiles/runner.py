"""Run bot races from a plain, picklable description (single races, batches, parallel jobs)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from slipstream.engine.rulesets.automobiles.bots import play_out
from slipstream.engine.rulesets.automobiles.game import Game, Seat
from slipstream.engine.rulesets.automobiles.roster import make_bot
from slipstream.engine.rulesets.automobiles.rules import Ruleset, ruleset_from_pack
from slipstream.engine.tracks.track import Track


@dataclass(frozen=True, slots=True)
class RaceSpec:
    """Everything that determines a race (with the decisions the bots make from it)."""

    pack: str  # a pack folder, or "" for the bundled base pack
    track: str
    seed: int
    bots: tuple[str, ...]
    card_set: str = ""  # "" = the pack's first set, "random" = drawn from the seed
    laps: int | None = None
    options: tuple[tuple[str, Any], ...] = ()
    drivers: tuple[str | None, ...] = ()
    record: bool = True


@dataclass(slots=True)
class RaceResult:
    spec: RaceSpec
    card_set: str
    names: list[str]
    bots: list[str]
    grid: list[int]  # player index per grid slot (pole first)
    standings: list[int]
    rounds: int
    capped: bool
    decisions: int
    stats: dict[str, Any]
    log: list[dict[str, Any]] = field(default_factory=list)
    header: dict[str, Any] = field(default_factory=dict)
    drivers: list[str | None] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    kind_ids: list[str] = field(default_factory=list)
    orders: list[list[int]] = field(default_factory=list)  # the order after every round (play_out)


@cache
def load_pack_cached(path: str) -> Any:
    """The Automobiles pack of a folder ("" for the bundled base pack), loaded once per process
    through the registry's cache (engine/play/registry.py); ValueError when it has errors."""
    from slipstream.engine.play.registry import load_pack
    from slipstream.engine.rulesets.automobiles.content import Pack

    pack = load_pack(path)
    if not isinstance(pack, Pack):
        raise ValueError(f"{path} is a pack of the {pack.ruleset!r} ruleset; this needs an Automobiles pack")
    return pack


@cache
def _ruleset(path: str, card_set: str, options: tuple[tuple[str, Any], ...]) -> Ruleset:
    pack = load_pack_cached(path)
    rs = ruleset_from_pack(pack, card_set or None)
    return rs.with_options(dict(options)) if options else rs


def resolve_card_set(spec: RaceSpec) -> str:
    pack = load_pack_cached(spec.pack)
    if spec.card_set == "random":
        ids = sorted(pack.card_sets)
        return random.Random(f"set-{spec.seed}").choice(ids) if ids else ""
    if spec.card_set:
        return str(pack.card_set(spec.card_set).id)
    return str(next(iter(pack.card_sets), ""))


def setup(spec: RaceSpec) -> tuple[Ruleset, Track, str]:
    pack = load_pack_cached(spec.pack)
    cs = resolve_card_set(spec)
    rs = _ruleset(spec.pack, cs, spec.options)
    track = pack.tracks[spec.track]
    return rs, track, cs


def header(spec: RaceSpec, rs: Ruleset, track: Track, cs: str, seats: list[Seat]) -> dict[str, Any]:
    from slipstream.engine.play.logcheck import track_digest

    return {"t": "race", "format": "racelog/1", "ruleset": "automobiles", "pack": rs.pack_id, "pack_path": spec.pack,
            "digest": rs.pack_digest, "card_set": cs, "track": track.id, "track_digest": track_digest(track),
            "laps": spec.laps or track.laps, "options": dict(spec.options), "seed": spec.seed,
            "seats": [{"name": s.name, "bot": s.bot, "driver": s.driver} for s in seats]}


def run_race(spec: RaceSpec) -> RaceResult:
    rs, track, cs = setup(spec)
    seats = [Seat(f"P{i + 1}", b, spec.drivers[i] if i < len(spec.drivers) else None)
             for i, b in enumerate(spec.bots)]
    game = Game(rs, track, seats, seed=spec.seed, laps=spec.laps, record=spec.record)
    bots = [make_bot(b, spec.seed * 1009 + i) for i, b in enumerate(spec.bots)]
    orders: list[list[int]] = []
    n = play_out(game, bots, orders=orders)
    race = game.race
    return RaceResult(
        spec=spec, card_set=cs, names=[s.name for s in seats], bots=list(spec.bots),
        grid=list(_grid_order(game)), standings=game.standings(), rounds=race.round,
        capped=race.capped, decisions=n, stats=race.stats, log=game.log,
        header=header(spec, rs, track, cs, seats),
        drivers=[rs.drivers[p.driver].id if p.driver is not None else None for p in race.players],
        result=game.result(), kind_ids=[k.id for k in rs.kinds], orders=orders,
    )


def _grid_order(game: Game) -> list[int]:
    """Player index per grid slot: the random starting order (RULES §2.3)."""
    return list(game.starting_order)


def run_many(specs: list[RaceSpec], jobs: int = 1, progress: Any = None) -> list[RaceResult]:
    """Run races, in `jobs` processes when jobs > 1 (engine/play/batch.py); results in spec order."""
    from slipstream.engine.play.batch import run_many as run_batch

    return run_batch(specs, jobs, progress, run=run_race)


def pack_path(arg: str | Path | None) -> str:
    return "" if arg is None or str(arg) == "" else str(Path(arg))
