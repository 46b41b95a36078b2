"""The pit lane as the Formula Dé-style rules see it ("Pit stop" in docs/rules/formula-de.md).

A track/2 pit lane is one lane of its own squares (`pit:K`), entered from a main-track square
and left onto another. The rules use the first main entry and the first main exit, and give
each pit square a race progress between the two, so a car in the pit lane keeps its place in
the race order and its lap counts (the lane is shorter or longer than the track beside it).
"""

from __future__ import annotations

from dataclasses import dataclass

from slipstream.engine.tracks.track import Track

# the exit roll (black die): up to this many the stop was quick and the car leaves at once
QUICK_STOP_MAX = 10
# the gear a car leaves its box in after a quick stop, and the gears it may take next turn
QUICK_STOP_GEAR = 4
QUICK_STOP_NEXT = (3, 4, 5)
# after a slow stop the car drives on next turn in at most this gear
SLOW_STOP_MAX_GEAR = 4


@dataclass(frozen=True, slots=True)
class PitRoute:
    """Where the pit lane leaves and rejoins the track, its squares and boxes."""

    entry: int  # main space index of the entry square
    entry_segment: int
    first: int  # the pit segment the entry leads to
    last: int  # the pit segment the exit leaves from
    exit: int  # main space index of the exit square
    span: int  # segments of the main track from the entry square to the exit square
    boxes: tuple[int, ...]  # pit segments

    @property
    def length(self) -> int:
        """Steps from the entry square through the pit lane to the exit square."""
        return self.last - self.first + 2

    def offset(self, segment: int) -> int:
        """Race progress of pit segment `segment` counted from the entry square."""
        return (segment - self.first + 1) * self.span // self.length


def pit_route(track: Track) -> PitRoute | None:
    """The pit route of `track`, or None when it has no usable pit lane (no main entry or exit,
    or no box between them)."""
    pit = track.pit
    if pit is None:
        return None
    entry = next((e for e in pit.entries if e.main), None)
    ex = next((x for x in pit.exits if x.main), None)
    if entry is None or ex is None:
        return None
    src, dst = track.space_named(entry.cell), track.space_named(ex.cell)
    if src is None or dst is None or src.lane < 0 or dst.lane < 0 or ex.source < entry.to:
        return None
    boxes = tuple(b for b in pit.boxes if entry.to <= b <= ex.source)
    if not boxes:
        return None
    span = (dst.first - src.first) % track.segments
    return PitRoute(src.index, src.first, entry.to, ex.source, dst.index, span, boxes)


def box_for(route: PitRoute, seat: int) -> int:
    """The pit segment of car `seat`'s box: one box per car in seat order, shared when there are
    more cars than boxes (Readings)."""
    return route.boxes[seat % len(route.boxes)]


def pit_exit(roll: int) -> tuple[str, int]:
    """What the exit roll means: (`quick`, squares driven at once: half the roll rounded up) or
    (`slow`, 0: the car waits for its next turn)."""
    if roll <= QUICK_STOP_MAX:
        return "quick", (roll + 1) // 2
    return "slow", 0
