"""Races of any ruleset from a plain, picklable description, and bots playing them out.

`RaceSpec` says everything that determines a race; `run_race` finds the pack's ruleset
through the registry and lets it play the race (`Ruleset.run_race`; `BaseRuleset` gives
`play_race`, which builds the game, its bots, the log header and a `Result`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from slipstream.engine.play.decisions import play_out
from slipstream.engine.play.extbots import is_external
from slipstream.engine.play.protocol import SeatSpec

if TYPE_CHECKING:
    from slipstream.engine.play.protocol import Game, Ruleset

LOG_FORMAT = "racelog/1"


@dataclass(frozen=True, slots=True)
class RaceSpec:
    """Everything that determines a race of any ruleset (with its bots' decisions)."""

    pack: str  # a pack folder, or "" for the bundled base pack
    track: str
    seed: int
    bots: tuple[str, ...]
    laps: int | None = None
    options: tuple[tuple[str, Any], ...] = ()
    setup: tuple[tuple[str, Any], ...] = ()  # ruleset-specific settings (e.g. a card set)
    record: bool = True


@dataclass(slots=True)
class Result:
    """One finished race (the fields engine/play/protocol.py's RaceResult names)."""

    spec: Any
    names: list[str]
    bots: list[str]
    grid: list[int]
    standings: list[int]
    rounds: int
    capped: bool
    decisions: int
    stats: dict[str, Any]
    log: list[dict[str, Any]] = field(default_factory=list)
    header: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)  # as the game resolved it (`Setup.resolved`)
    orders: list[list[int]] = field(default_factory=list)  # the order after every round, see play_out


def seats_of(bots: Sequence[str]) -> list[SeatSpec]:
    return [SeatSpec(f"P{i + 1}", b) for i, b in enumerate(bots)]


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in `seat` for a race of `seed` (bots never share a generator)."""
    return seed * 1009 + seat


def header(rs: Ruleset, spec: RaceSpec, pack: Any, track: Any, seats: Sequence[SeatSpec] | None = None) -> dict[str, Any]:
    """Line 1 of a race log, one for every ruleset: what replays the race. A ruleset with
    setup keys writes its settings in (`Setup.log_header`); the others log them as `setup`."""
    head = {"t": "race", "format": LOG_FORMAT, "ruleset": rs.id, "pack": pack.id,
            "pack_path": spec.pack, "digest": pack.digest, "track": track.id,
            "laps": spec.laps, "options": dict(spec.options), "setup": dict(spec.setup),
            "seed": spec.seed, "seats": [{"name": s.name, "bot": s.bot} for s in seats or seats_of(spec.bots)]}
    return rs.setup.log_header(head, spec, pack, track) if rs.setup is not None else head


def resolved_setup(rs: Ruleset, spec: RaceSpec, game: Any) -> dict[str, Any]:
    """A result's `setup`: as the game resolved it, or as given for a ruleset without setup keys."""
    return rs.setup.resolved(game) if rs.setup is not None else dict(spec.setup)


def resolve_track(pack: Any, ref: str) -> Any:
    """The track `ref` names: a track id of `pack`, or a track file (.yaml), checked as the pack
    checks its own tracks; ValueError saying why it cannot be raced."""
    from pathlib import Path

    if ref in pack.tracks:
        return pack.tracks[ref]
    p = Path(ref)
    if p.suffix in (".yaml", ".yml") and p.is_file():
        from slipstream.engine.core.diagnostics import format_text
        from slipstream.engine.core.yamlsource import load_file
        from slipstream.engine.packs.trackrules import checked_track

        loaded = load_file(p)
        track, diags = (None, loaded.diagnostics) if loaded.data is None else \
            checked_track(pack.ruleset, loaded.data, loaded.source)
        errors = [d for d in diags if d.is_error]
        if track is None or errors:
            raise ValueError(f"track {ref} has errors:\n" + format_text(errors[:10]))
        return track
    raise ValueError(f"no track {ref!r} in the pack (tracks: {', '.join(sorted(pack.tracks))}) "
                     "and no such track file")


def play_race(rs: Ruleset, spec: RaceSpec, pack: Any | None = None) -> Result:
    """Play `spec` with the ruleset's own games and bots (a ready `Ruleset.run_race`); its
    track is a track id of the pack or a track file (`resolve_track`)."""
    from slipstream.engine.play.registry import load_pack

    pack = pack if pack is not None else load_pack(spec.pack)
    track = resolve_track(pack, spec.track)
    seats = seats_of(spec.bots)
    game = rs.new_game(pack, track, seats, spec.seed, dict(spec.options), spec.laps,
                       dict(spec.setup), spec.record)
    orders: list[list[int]] = []
    n, log = play_seats(rs, spec, game, track, pack, orders)
    result = game.result()
    return Result(spec=spec, names=[s.name for s in seats], bots=list(spec.bots),
                  grid=list(game.grid), standings=game.standings(),
                  rounds=int(result.get("rounds", 0)), capped=bool(result.get("capped", False)),
                  decisions=n, stats=dict(game.stats),
                  log=log, header=header(rs, spec, pack, track), result=result,
                  setup=resolved_setup(rs, spec, game), orders=orders)


def play_seats(rs: Ruleset, spec: RaceSpec, game: Game, track: Any, pack: Any = None,
               orders: list[list[int]] | None = None) -> tuple[int, list[dict[str, Any]]]:
    """Play `game` out with the seats' bots of `spec`: `play_bots`, told the options in force
    (the pack's house rules, then the race's)."""
    from slipstream.engine.packs.trackpack import house_options

    options = {**house_options(pack), **dict(spec.options)}
    return play_bots(rs, spec.bots, spec.seed, game, track, spec.laps, options, orders)


def play_bots(rs: Ruleset, names: Sequence[str], seed: int, game: Game, track: Any, laps: int | None = None,
              options: Mapping[str, Any] | None = None,
              orders: list[list[int]] | None = None) -> tuple[int, list[dict[str, Any]]]:
    """Play `game` out with the bots `names` by seat, seeded by `bot_seed`, external ones too
    (engine/play/extbots.py: their processes end on every way out); the number of decisions and
    the race log, with a `t: bot` line where an external bot was at fault; with `orders`, the
    race order after every round (`play_out`)."""
    if not any(is_external(b) for b in names):
        bots = [rs.make_bot(b, bot_seed(seed, i)) for i, b in enumerate(names)]
        return play_out(game, bots, orders=orders), list(game.log)
    from slipstream.engine.play.extbots import (
        RaceContext,
        fault_lines,
        finish_bots,
        make_bots,
        with_faults,
    )

    context = RaceContext(rs, track, seed, [s.name for s in seats_of(names)], laps, dict(options or {}))
    ext = make_bots(rs, names, [bot_seed(seed, i) for i in range(len(names))], context)
    try:
        n = play_out(game, ext, orders=orders)
    finally:
        finish_bots(ext, game)
    return n, with_faults(list(game.log), fault_lines(ext))


def run_race(spec: RaceSpec) -> Any:
    """One race of the pack's ruleset (found through the registry)."""
    from slipstream.engine.play.registry import for_pack

    rs, _ = for_pack(spec.pack)
    return rs.run_race(spec)


def parse_setup(items: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Setup settings as the sorted tuple a RaceSpec holds."""
    return tuple(sorted((k, v) for k, v in items.items() if v not in (None, "", ())))
