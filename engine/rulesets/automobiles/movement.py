"""Movement on the segment grid (DESIGN §5, RULES §1.6, §3.1.2, §3.5, §4.1).

Targets of a step come from `movegraph.ahead_of_cell` / `segments_ahead`; occupancy, weaving,
drafting, momentum, laps and standings are decided here, once for cube placements and car
moves alike.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from slipstream.engine.core.byidentity import ByIdentity
from slipstream.engine.play.decisions import Option
from slipstream.engine.rulesets.automobiles.rules import GEAR_NAMES, Options
from slipstream.engine.rulesets.automobiles.state import Car, PlayerState, RaceState
from slipstream.engine.tracks.movegraph import ahead_of_cell, segments_ahead
from slipstream.engine.tracks.track import Track

Cell = tuple[int, int]


class TrackIndex:
    """Cached geometry of one track: spaces ahead of each cell and their segments."""

    __slots__ = ("track", "n", "_ahead", "_segs", "_steps", "_next", "_by_colour", "front", "_to",
                 "colours", "_drafts", "lanes", "_colour_rows", "_to_rows", "_draft_rows", "cells")

    def __init__(self, track: Track) -> None:
        self.track = track
        self.n = track.segments
        # front[lane][seg]: the front-most segment of the space at (lane, seg) (-1: no space)
        self.front = tuple(tuple(track.spaces[i].last if i >= 0 else -1 for i in row)
                           for row in track.cells)
        self._ahead: dict[Cell, tuple[int, ...]] = {}
        self._segs: dict[tuple[int, int, int], tuple[int, ...]] = {}
        self._steps: dict[Cell, tuple[tuple[int, int, int, tuple[int, ...]], ...]] = {}
        self._next: dict[Cell, tuple[int, tuple[Cell, ...]]] = {}
        self._by_colour: dict[tuple[int, int, int], tuple[tuple[int, int, int, tuple[int, ...]], ...]] = {}
        # `steps_of_colour` of the track's cells and shades 0-7, by int code (see there): a list
        # read by index, no key tuple made and hashed for every gear cube placed
        self.lanes = len(track.cells)
        self._colour_rows: list[tuple[tuple[int, int, int, tuple[int, ...]], ...] | None] = (
            [None] * (self.lanes * self.n * 8))
        self._to_rows: list[Option | None] = [None] * (self.lanes * self.n)  # `to_option`'s, likewise
        self._draft_rows: dict[str, list[tuple[Cell, ...] | None]] = {}  # `drafting_cells`', by option
        self._to: dict[Cell, Option] = {}
        self.colours = tuple(sp.colour for sp in track.spaces)  # the colour of each space, by index
        # the track's space index of each cell (`Track.cells`), read as a field of this native
        # class (the track is a plain Python object: each read of its fields goes by name)
        self.cells: tuple[tuple[int, ...], ...] = track.cells
        self._drafts: dict[tuple[str, int, int], tuple[Cell, ...]] = {}

    def ahead(self, lane: int, seg: int) -> tuple[int, ...]:
        key = (lane, seg)
        got = self._ahead.get(key)
        if got is None:
            got = self._ahead[key] = tuple(ahead_of_cell(self.track, lane, seg))
        return got

    def segments(self, lane: int, seg: int, target: int) -> tuple[int, ...]:
        key = (lane, seg, target)
        got = self._segs.get(key)
        if got is None:
            got = self._segs[key] = tuple(segments_ahead(self.track, lane, seg, target))
        return got

    def steps_of_colour(self, lane: int, seg: int,
                        colour: int) -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
        """`steps(lane, seg)` of the spaces of one colour only (in the same order)."""
        n = self.n
        if 0 <= lane < self.lanes and 0 <= seg < n and 0 <= colour < 8:  # (always, on a track)
            code = (lane * n + seg) * 8 + colour
            rows = self._colour_rows
            row = rows[code]
            if row is None:
                row = rows[code] = tuple(x for x in self.steps(lane, seg) if x[1] == colour)
            return row
        key = (lane, seg, colour)
        got = self._by_colour.get(key)
        if got is None:
            got = self._by_colour[key] = tuple(x for x in self.steps(lane, seg) if x[1] == colour)
        return got

    def to_option(self, lane: int, seg: int) -> Option:
        """The option `to LANE:SEGMENT` of a step to (lane, seg), with its shade in the text."""
        n = self.n
        if 0 <= lane < self.lanes and 0 <= seg < n:  # (always, on a track) by cell code, as above
            rows = self._to_rows
            code = lane * n + seg
            got = rows[code]
            if got is None:
                got = rows[code] = self._option(lane, seg)
            return got
        got = self._to.get((lane, seg))
        if got is None:
            got = self._to[lane, seg] = self._option(lane, seg)
        return got

    def _option(self, lane: int, seg: int) -> Option:
        colour = self.track.spaces[self.track.cells[lane][seg]].colour
        return Option(f"to {lane}:{seg}", f"to {lane}:{seg} ({GEAR_NAMES[colour]})")

    def next_space(self, lane: int, seg: int) -> tuple[int, tuple[Cell, ...]]:
        """The last segment of the space at (lane, seg), and the cells of the space after it."""
        key = (lane, seg)
        got = self._next.get(key)
        if got is None:
            track = self.track
            sp = track.spaces[track.cells[lane][seg]]
            nidx = track.cells[lane][(sp.last + 1) % self.n]
            cells = () if nidx < 0 else tuple((lane, t) for t in track.spaces[nidx].segments())
            got = self._next[key] = (sp.last, cells)
        return got

    def drafting_cells(self, drafting: str, lane: int, seg: int) -> tuple[Cell, ...]:
        """`draft_cells` of a car at (lane, seg) under the option `drafting`, computed once."""
        n = self.n
        if 0 <= lane < self.lanes and 0 <= seg < n:  # (always, on a track) by cell code
            rows = self._draft_rows.get(drafting)
            if rows is None:
                rows = self._draft_rows[drafting] = [None] * (self.lanes * n)
            code = lane * n + seg
            cells = rows[code]
            if cells is None:
                cells = rows[code] = _draft_cells(self, drafting, lane, seg)
            return cells
        key = (drafting, lane, seg)
        got = self._drafts.get(key)
        if got is None:
            got = self._drafts[key] = _draft_cells(self, drafting, lane, seg)
        return got

    def steps(self, lane: int, seg: int) -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
        """(space, colour, lane, segments ahead front-most first) for each space ahead."""
        key = (lane, seg)
        got = self._steps.get(key)
        if got is None:
            spaces = self.track.spaces
            got = self._steps[key] = tuple(
                (i, spaces[i].colour, spaces[i].lane, self.segments(lane, seg, i))
                for i in self.ahead(lane, seg))
        return got


_INDEXES: ByIdentity[Track, TrackIndex] = ByIdentity(TrackIndex)


def track_index(track: Track) -> TrackIndex:
    """The one TrackIndex of `track`, shared by its races (its tables depend on the track only)."""
    return _INDEXES.get(track)


_TO_CELLS: Final[dict[str, tuple[int, int]]] = {}  # move option key -> (lane, segment)


def to_cell(key: str) -> tuple[int, int]:
    """(lane, segment) of a move option key `to LANE:SEGMENT`, parsed once per key (the bots
    and the Move frame read the key of every move option offered or chosen)."""
    got = _TO_CELLS.get(key)
    if got is None:
        ln_s = key[3:].split(":")
        got = (int(ln_s[0]), int(ln_s[1]))
        if len(_TO_CELLS) >= 65_536:  # many keys: start over rather than grow
            _TO_CELLS.clear()
        _TO_CELLS[key] = got
    return got


def occupancy(race: RaceState, exclude: int | None = None) -> dict[Cell, int]:
    """Cell → player index of every car except `exclude`."""
    return cells_of(race.players, -1 if exclude is None else exclude)


def cells_of(players: list[PlayerState], exclude: int) -> dict[Cell, int]:
    """`occupancy` of a race's players (a loop: this runs for every cube placed)."""
    out: dict[Cell, int] = {}
    i = 0
    for p in players:
        if i != exclude:
            c = p.car
            out[c.lane, c.segment] = i
        i += 1
    return out


def is_free(ix: TrackIndex, opts: Options, occ: dict[Cell, int], lane: int, seg: int) -> bool:
    """Can a cube or car stop on (lane, seg)? (RULES §8.1, option `occupancy`)."""
    if opts.occupancy == "unlimited":
        return True
    if opts.occupancy == "space":
        sp = ix.track.spaces[ix.track.cells[lane][seg]]
        return not any((lane, s) in occ for s in sp.segments())
    return (lane, seg) not in occ


def step_targets(ix: TrackIndex, opts: Options, occ: dict[Cell, int], lane: int, seg: int,
                 colours: Collection[int] | None) -> list[tuple[int, int, int]]:
    """Legal (space, lane, segment) targets of one step from (lane, seg) (RULES §3.1.2).

    Without weaving each target space offers its front-most free segment ahead of the origin;
    with weaving every free segment ahead of the origin.
    """
    out: list[tuple[int, int, int]] = []
    per_segment = opts.occupancy == "segment"
    weaving = opts.weaving
    if colours is not None and len(colours) == 1:
        # one colour (a gear cube): only the spaces of that colour, no colour left to check
        (colour,) = colours
        steps = ix.steps_of_colour(lane, seg, colour)
        if per_segment and not weaving:  # the rules' defaults, written out
            for sp_idx, _colour, sp_lane, segs in steps:
                for s in segs:
                    if (sp_lane, s) not in occ:
                        out.append((sp_idx, sp_lane, s))
                        break
            return out
        colours = None
    else:
        steps = ix.steps(lane, seg)
    for sp_idx, colour, sp_lane, segs in steps:
        if colours is not None and colour not in colours:
            continue
        for s in segs:
            if ((sp_lane, s) not in occ) if per_segment else is_free(ix, opts, occ, sp_lane, s):
                out.append((sp_idx, sp_lane, s))
                if not weaving:
                    break
    return out


def colour_targets(ix: TrackIndex, opts: Options, players: list[PlayerState], me: int, lane: int,
                   seg: int, colour: int) -> list[tuple[int, int, int]]:
    """`step_targets(ix, opts, occupancy(race, me), lane, seg, (colour,))` of a race's
    `players`: the step of a gear cube. Under the rules' defaults the other cars are looked at
    where they stand (a few compares) rather than through a map of their cells (a tuple made
    and hashed per segment tried)."""
    if opts.occupancy == "segment" and not opts.weaving:
        out: list[tuple[int, int, int]] = []
        for sp_idx, _colour, sp_lane, segs in ix.steps_of_colour(lane, seg, colour):
            for s in segs:
                free = True
                i = 0
                for p in players:
                    if i != me:
                        c = p.car
                        if c.segment == s and c.lane == sp_lane:
                            free = False
                            break
                    i += 1
                if free:
                    out.append((sp_idx, sp_lane, s))
                    break
        return out
    return step_targets(ix, opts, cells_of(players, me), lane, seg, (colour,))


def targets_from(ix: TrackIndex, opts: Options, players: list[PlayerState], me: int, lane: int,
                 seg: int, cols: Collection[int] | None, colour: int) -> list[tuple[int, int, int]]:
    """`step_targets` of a move of player `me` from (lane, seg) onto spaces of `cols` (None:
    any), `colour` its one shade or -1: by `colour_targets` for one shade (a gear cube's), the
    other cars looked at where they stand."""
    if colour >= 0:
        return colour_targets(ix, opts, players, me, lane, seg, colour)
    return step_targets(ix, opts, cells_of(players, me), lane, seg, cols)


def crosses(seg_from: int, seg_to: int) -> bool:
    """A forward step to a lower segment index wrapped past the finish line."""
    return seg_to < seg_from


def distance(ix: TrackIndex, car: Car, opts: Options) -> int:
    if opts.positions_count_laps:
        return car.lap * ix.n + car.segment
    return car.segment


def standings(race: RaceState, ix: TrackIndex, opts: Options) -> list[int]:
    """Player indices, leader first: by distance, ties to the inner lane (RULES §4.1)."""
    n = ix.n if opts.positions_count_laps else 0  # `distance`, written out: it runs several times a turn
    keys: list[tuple[int, int, int]] = []
    i = 0
    for p in race.players:
        c = p.car
        keys.append((-(c.lap * n + c.segment), c.lane, i))  # the index: ties as a stable sort keeps them
        i += 1
    keys.sort()
    return [k[2] for k in keys]


def positions(race: RaceState, ix: TrackIndex, opts: Options) -> dict[int, int]:
    """Player index → position (1 = leader), leader first."""
    # `standings` without its key tuples and sort (a race asks at every turn): each car's place
    # is the number of cars ahead of it by the same order (`position_of`'s count: the keys are
    # all different, so the places are 0 .. m-1 once each); a few compares of native ints
    n = ix.n if opts.positions_count_laps else 0
    players = race.players
    order: list[int] = [0] * len(players)
    for i in range(len(players)):
        order[_cars_ahead(players, n, i)] = i
    out: dict[int, int] = {}
    pos = 1
    for i in order:
        out[i] = pos
        pos += 1
    return out


def position_of(race: RaceState, ix: TrackIndex, opts: Options, player: int) -> int:
    """`positions(race, ix, opts)[player]` without the sort: 1 + the cars ahead of the player's."""
    return 1 + _cars_ahead(race.players, ix.n if opts.positions_count_laps else 0, player)


def _cars_ahead(players: list[PlayerState], n: int, player: int) -> int:
    """The cars ahead of `player`'s in the standings' order: further along (laps counted when
    `n`, the track's segments, is not 0), or level on an inner lane, or level on the same lane
    and earlier in player order."""
    me = players[player].car
    dist, lane = me.lap * n + me.segment, me.lane
    ahead = 0
    i = 0
    for p in players:
        c = p.car
        d = c.lap * n + c.segment
        if d > dist or (d == dist and (c.lane < lane or (c.lane == lane and i < player))):
            ahead += 1
        i += 1
    return ahead


def drafting(race: RaceState, ix: TrackIndex, opts: Options, player: int) -> bool:
    """`drafts(ix, opts, occupancy(race, player), car of player)`, without the occupancy map."""
    players = race.players
    car = players[player].car
    cells = ix.drafting_cells(opts.drafting, car.lane, car.segment)
    if not cells:
        return False
    i = 0
    for p in players:
        if i != player:
            c = p.car
            lane, seg = c.lane, c.segment
            for cl, cs in cells:  # (compared as ints: no cell tuple made and compared)
                if cs == seg and cl == lane:
                    return True
        i += 1
    return False


def drafts(ix: TrackIndex, opts: Options, occ: dict[Cell, int], car: Car) -> bool:
    """Drafting test of RULES §3.5 / DESIGN §5 (option `drafting`); same lane only."""
    lane, s = car.lane, car.segment
    nxt = (s + 1) % ix.n
    if opts.drafting in ("segment_or_space", "segment") and (lane, nxt) in occ:
        return True
    if opts.drafting == "segment":
        return False
    last, next_cells = ix.next_space(lane, s)
    if opts.drafting == "segment_or_space" and s != last:
        return False
    return not occ.keys().isdisjoint(next_cells)


def draft_cells(ix: TrackIndex, opts: Options, lane: int, s: int) -> tuple[Cell, ...]:
    """The cells of which any one, occupied, makes a car at (lane, s) draft: `drafts` is true
    exactly when `occ` holds one of them (for the greedy bot's drafting table)."""
    return _draft_cells(ix, opts.drafting, lane, s)


def _draft_cells(ix: TrackIndex, drafting: str, lane: int, s: int) -> tuple[Cell, ...]:
    out: tuple[Cell, ...] = ()
    if drafting in ("segment_or_space", "segment"):
        out = ((lane, (s + 1) % ix.n),)
    if drafting == "segment":
        return out
    last, next_cells = ix.next_space(lane, s)
    if drafting == "segment_or_space" and s != last:
        return out
    return out + next_cells


def ahead_cells(ix: TrackIndex, lane: int, seg: int) -> set[Cell]:
    """The cells directly ahead of a car at (lane, seg) by the drafting geometry of DESIGN §5:
    the next segment of its lane and, from the last segment of its space, the next space."""
    last, next_cells = ix.next_space(lane, seg)
    out = {(lane, (seg + 1) % ix.n)}
    if seg == last:
        out.update(next_cells)
    return out


def momentum(race: RaceState, ix: TrackIndex, opts: Options) -> list[tuple[int, int, int]]:
    """Slide cars to the front-most free segment of their space, leader first, until stable.

    Returns (player, from segment, to segment) for every slide (RULES §4.1, option `momentum`).
    """
    if opts.momentum != "slide":
        return []
    front = ix.front
    for p in race.players:
        c = p.car
        if front[c.lane][c.segment] != c.segment:
            break
    else:
        return []  # every car on the front-most segment of its space: nothing slides
    players = race.players
    moves: list[tuple[int, int, int]] = []
    changed = True
    while changed:
        changed = False
        for i in standings(race, ix, opts):
            car = players[i].car
            lane, seg = car.lane, car.segment
            last = front[lane][seg]
            if last == seg:
                continue  # already on the front-most segment of its space
            # the segments of the lane with a car (its own is none of those it may slide to)
            taken = [p.car.segment for p in players if p.car.lane == lane]
            for s in range(last, seg, -1):
                if s not in taken:
                    moves.append((i, seg, s))
                    car.segment = s
                    changed = True
                    break
    return moves
