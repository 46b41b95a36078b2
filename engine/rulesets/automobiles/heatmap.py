"""Where things happen on a track over many races: counts per space read from race logs.

For a track designer's balance report: where turns end, where wear is taken, how often a
move that ends on a space is drafting, which lanes cars use, and which gear colours the
placed cubes land on in each part of the lap. Everything is counted from the events of the
race log (`car`, `drive`, `momentum`, `place`, `decline`, `turn`), never re-derived from rules.

`run_batch` runs seeded bot races on any `Track` (the editor's open track, not only a pack's)
in parallel processes, counts each race's log in the worker and sends back only the counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from slipstream.engine.play.batch import Pool
from slipstream.engine.play.races import RaceSpec, header
from slipstream.engine.play.races import Result as RaceResult
from slipstream.engine.rulesets.automobiles.racesetup import load_pack_cached, resolved
from slipstream.engine.tracks.track import NO_SPACE, Track

SECTIONS = 8  # parts of the lap for "colours used per lap section"
COLOURS = (3, 4, 5, 6)


@dataclass(slots=True)
class Heat:
    """Counts over some races on one track; `add` folds in another Heat of the same track."""

    spaces: int
    lanes: int
    races: int = 0
    turns: int = 0
    turn_ends: list[int] = field(default_factory=list)  # per space: turns ending there
    wear: list[int] = field(default_factory=list)  # per space: wear cubes taken for it
    moves: list[int] = field(default_factory=list)  # per space: moves ending there
    drafts: list[int] = field(default_factory=list)  # per space: of those, drafting
    lane_ends: list[int] = field(default_factory=list)  # per lane: turns ending there
    colours: list[list[int]] = field(default_factory=list)  # per lap section, per colour 3..6
    colour_ids = COLOURS  # the track colours of `colours`' columns

    def __post_init__(self) -> None:
        for name, n in (("turn_ends", self.spaces), ("wear", self.spaces), ("moves", self.spaces),
                        ("drafts", self.spaces), ("lane_ends", self.lanes)):
            if not getattr(self, name):
                setattr(self, name, [0] * n)
        if not self.colours:
            self.colours = [[0] * len(COLOURS) for _ in range(SECTIONS)]

    @classmethod
    def empty(cls, track: Track) -> Heat:
        return cls(len(track.spaces), track.lanes)

    def add(self, other: Heat) -> None:
        self.races += other.races
        self.turns += other.turns
        for name in ("turn_ends", "wear", "moves", "drafts", "lane_ends"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for i, v in enumerate(theirs):
                mine[i] += v
        for a, b in zip(self.colours, other.colours, strict=True):
            for i, v in enumerate(b):
                a[i] += v

    def drafting_rate(self, space: int) -> float | None:
        """Share of the moves ending on `space` that were drafting (None: no moves ended there)."""
        n = self.moves[space]
        return self.drafts[space] / n if n else None

    def to_dict(self) -> dict[str, Any]:
        return {"spaces": self.spaces, "lanes": self.lanes, "races": self.races, "turns": self.turns,
                "turn_ends": self.turn_ends, "wear": self.wear, "moves": self.moves,
                "drafts": self.drafts, "lane_ends": self.lane_ends, "colours": self.colours}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Heat:
        return cls(int(d["spaces"]), int(d["lanes"]), int(d["races"]), int(d["turns"]),
                   list(d["turn_ends"]), list(d["wear"]), list(d["moves"]), list(d["drafts"]),
                   list(d["lane_ends"]), [list(r) for r in d["colours"]])


def section_of(track: Track, segment: int) -> int:
    return min(SECTIONS - 1, segment * SECTIONS // max(1, track.segments))


def _cell(text: str) -> tuple[int, int]:
    lane, _, seg = text.partition(":")
    return int(lane), int(seg)


def heat_of_log(track: Track, log: Sequence[dict[str, Any]], start: Sequence[tuple[int, int]]) -> Heat:
    """Count one race's log; `start` is each player's (lane, segment) on the grid."""
    heat = Heat.empty(track)
    heat.races = 1
    cars = [list(c) for c in start]
    cells = track.cells
    turn_player: int | None = None
    placed: list[int] = []  # spaces of this turn's placed cubes

    def space(lane: int, seg: int) -> int:
        if 0 <= lane < track.lanes and 0 <= seg < track.segments:
            return cells[lane][seg]
        return NO_SPACE

    def end_turn() -> None:
        if turn_player is None:
            return
        lane, seg = cars[turn_player]
        sp = space(lane, seg)
        heat.turns += 1
        if sp != NO_SPACE:
            heat.turn_ends[sp] += 1
        if 0 <= lane < track.lanes:
            heat.lane_ends[lane] += 1

    for ev in log:
        if ev.get("t") != "event":
            continue
        e = ev["ev"]
        if e == "turn":
            end_turn()
            turn_player = int(ev["p"])
            placed = []
        elif e in ("car", "drive"):
            cars[int(ev["p"])] = list(_cell(ev["dst"]))
        elif e == "momentum":
            cars[int(ev["p"])][1] = int(ev["dst"])
        elif e == "place":
            lane, seg = _cell(ev["cell"])
            sp = space(lane, seg)
            if sp != NO_SPACE:
                placed.append(sp)
                colour = track.spaces[sp].colour
                if colour in COLOURS:
                    heat.colours[section_of(track, seg)][COLOURS.index(colour)] += 1
        elif e == "decline":
            p = int(ev["p"])
            sp = space(*cars[p])
            if sp == NO_SPACE:
                continue
            heat.moves[sp] += 1
            if ev.get("drafting"):
                heat.drafts[sp] += 1
            wear = int(ev.get("wear", 0))
            if wear:
                # the wear is for the darkest space entered: the last placed cube of that
                # shade when there is one, else the space where the car stopped
                darkest = int(ev.get("darkest", 0))
                at = next((s for s in reversed(placed) if track.spaces[s].colour == darkest), sp)
                heat.wear[at] += wear
        elif e == "race_over":
            end_turn()
            turn_player = None
    return heat


# ---------------------------------------------------------------------------------- races
def run_on_track(spec: RaceSpec, track: Track) -> tuple[RaceResult, Heat]:
    """One bots-only race of `spec` on `track`; the result (without its log) and its heat.

    The race is the one `slipstream race` runs for the same spec when `track` is the pack's.
    """
    from slipstream.engine.play.registry import get
    from slipstream.engine.rulesets.automobiles.raceframes import new_game

    game, bots = new_game(spec, track)
    start = [(p.car.lane, p.car.segment) for p in game.race.players]
    from slipstream.engine.play.extbots import finish_bots
    from slipstream.engine.rulesets.automobiles.bots import play_out

    try:
        n = play_out(game, [bots[i] for i in range(len(spec.bots))])
    finally:
        finish_bots(list(bots.values()), game)
    race = game.race
    pack = load_pack_cached(spec.pack)
    res = RaceResult(
        spec=spec, names=[s.name for s in game.seats], bots=list(spec.bots),
        grid=list(game.starting_order), standings=game.standings(), rounds=race.round,
        capped=race.capped, decisions=n, stats=race.stats, log=[],
        header=header(get(pack.ruleset), spec, pack, track), result=game.result(), setup=resolved(game))
    return res, heat_of_log(track, game.log, start)


def _run_chunk(job: tuple[Sequence[RaceSpec], Track]) -> tuple[list[RaceResult], Heat]:
    return run_chunk(*job)


def run_chunk(specs: Sequence[RaceSpec], track: Track) -> tuple[list[RaceResult], Heat]:
    heat = Heat.empty(track)
    out = []
    for s in specs:
        r, h = run_on_track(s, track)
        out.append(r)
        heat.add(h)
    return out, heat


@dataclass(slots=True)
class Batch:
    results: list[RaceResult]
    heat: Heat
    cancelled: bool = False


def _warm(pack: str) -> bool:
    load_pack_cached(pack)
    return True


class BatchPool:
    """Worker processes kept between batches, so a re-run after a track edit starts at once.

    The track travels with every chunk of races, so one pool serves any track and pack. The
    processes are engine/play/batch.py's `Pool`, the one batch runner of the engine.
    """

    def __init__(self, jobs: int | None = None, start_method: str | None = None,
                 pool: Pool | None = None) -> None:
        self.pool = pool if pool is not None else Pool(jobs, start_method)  # or one shared with a face
        self.jobs = self.pool.jobs

    @property
    def _pool(self) -> Any:
        """The live multiprocessing pool, None between batches that closed it."""
        return self.pool._pool

    def close(self) -> None:
        self.pool.close()

    def run(self, specs: Sequence[RaceSpec], track: Track,
            progress: Callable[[int], None] | None = None,
            cancelled: Callable[[], bool] | None = None, chunk: int | None = None) -> Batch:
        """Run bot races on `track`; results in spec order.

        `progress(n)` is called as races finish; when `cancelled()` turns true the workers
        are stopped (the pool starts afresh next time) and the races finished so far come
        back with `cancelled=True`.
        """
        if chunk is None:
            # small enough for even work and smooth progress, large enough to pay for pickling
            chunk = max(1, min(10, len(specs) // (self.jobs * 8)))
        chunks = [(list(specs[i:i + chunk]), track) for i in range(0, len(specs), chunk)]
        heat = Heat.empty(track)
        results: list[RaceResult] = []
        if self.jobs > 1 and len(chunks) > 1:
            # every worker loads the pack once (cached there); a no-op when already loaded
            self.pool.warm(_warm, specs[0].pack)
        for rs, h in self.pool.each(_run_chunk, chunks, cancelled):
            results.extend(rs)
            heat.add(h)
            if progress:
                progress(len(rs))
        return Batch(results, heat, len(results) < len(specs))


def run_batch(specs: Sequence[RaceSpec], track: Track, jobs: int | None = None,
              progress: Callable[[int], None] | None = None,
              cancelled: Callable[[], bool] | None = None, chunk: int | None = None,
              start_method: str | None = None) -> Batch:
    """Run bot races on `track` in `jobs` processes (default: all cores), in a pool of its own."""
    pool = BatchPool(jobs, start_method)
    try:
        return pool.run(specs, track, progress, cancelled, chunk)
    finally:
        pool.close()
