"""The rules of docs/rules/formula-de.md as small functions over plain numbers.

Each function is one rule, named as the rule is; the game (game.py) calls them and turns what
they return into wear, eliminations and events. Nothing here draws a die: the rolls are
arguments, so every rule can be tested alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

# how many gears a downshift may skip at most (so 6th -> 1st is never allowed)
MAX_SKIP: Final = 3
# a blocked car absorbing more squares than this is eliminated
MAX_ABSORB: Final = 7
# the black-die rolls that cost an engine point when the engine is strained
ENGINE_DAMAGE_MAX: Final = 4
# in a 1-lap race, losing more tyre points than this in all eliminates the car
ONE_LAP_TYRE_LIMIT: Final = 4


def downshift_cost(old: int, new: int) -> dict[str, int] | None:
    """Wear a shift from gear `old` to `new` costs ({} for a free shift), or None when it
    skips more than MAX_SKIP gears ("Downshifts")."""
    skip = old - new - 1
    if skip <= 0:
        return {}
    if skip > MAX_SKIP:
        return None
    cost = {"transmission": 1}
    if skip >= 2:
        cost["brakes"] = 1
    if skip >= 3:
        cost["engine"] = 1
    return cost


def blocked_cost(absorbed: int) -> dict[str, int] | None:
    """Wear for `absorbed` squares a blocked car could not drive ("Blocked lane"): 1-3 cost
    that many brake points, 4-7 cost 3 brake points and a tyre point per square beyond 3;
    None when the car is eliminated (more than MAX_ABSORB)."""
    if absorbed <= 0:
        return {}
    if absorbed > MAX_ABSORB:
        return None
    if absorbed <= 3:
        return {"brakes": absorbed}
    return {"brakes": 3, "tyres": absorbed - 3}


def overshoot_eliminates(required: int, made: int) -> bool:
    """True when leaving a corner with `made` of `required` stops eliminates the car: no stop
    in a 2-stop corner, no stop or one in a 3-stop corner."""
    return (required == 2 and made == 0) or (required >= 3 and made <= 1)


def tyre_loss(tyres: int, owed: int) -> tuple[int, str]:
    """Apply `owed` tyre points of an overshoot to `tyres` left: (tyres after, outcome) with
    outcome `ok`, `spin` (the last tyre point went, or a car on no tyres overshot by 1) or
    `out` (squares still owed beyond the last tyre point; see Readings)."""
    if owed <= 0:
        return tyres, "ok"
    if tyres == 0:
        return 0, "spin" if owed == 1 else "out"
    if owed < tyres:
        return tyres - owed, "ok"
    if owed == tyres:
        return 0, "spin"
    return 0, "out"


def engine_strained(gear: int, roll: int, faces: Sequence[int]) -> bool:
    """True when a roll in 5th or 6th gear shows the die's highest face ("Engine damage")."""
    return gear >= 5 and roll == max(faces)


def engine_damage(roll: int) -> bool:
    """True when a black-die roll of a car in 5th or 6th gear costs it an engine point."""
    return roll <= ENGINE_DAMAGE_MAX


def collision_hit(roll: int) -> bool:
    """True when a collision roll of the black die costs a body point (a 1)."""
    return roll == 1


def start_roll(roll: int, black_die: int) -> str:
    """What the black-die start roll means: `stall` (1), `flying` (the top face) or `normal`."""
    if roll == 1:
        return "stall"
    return "flying" if roll == black_die else "normal"


FLYING_START_SQUARES: Final = 4
# how many lanes from its start lane a flying start may take the car, in all (the seed's
# "1 or 2 lanes"; option `flying_start_swerve`)
SWERVE_LANES: Final = 2


def grid_order(cars: Sequence[int], roll: Callable[[], int]) -> tuple[list[int], list[dict[str, object]]]:
    """The grid by black-die rolls, lowest first; tied cars roll again among themselves until the
    order is clear. Returns the order and one record per round of rolls."""
    records: list[dict[str, object]] = []
    return _roll_order(list(cars), roll, records), records


def _roll_order(group: Sequence[int], roll: Callable[[], int], records: list[dict[str, object]]) -> list[int]:
    """`grid_order` of one group of cars, its rounds of rolls added to `records` (a function of
    its own, not a closure calling itself: that would be a cycle for the cyclic collector)."""
    rolls = {c: roll() for c in group}
    records.append({"cars": list(group), "rolls": [rolls[c] for c in group]})
    out: list[int] = []
    for value in sorted(set(rolls.values())):
        tied = [c for c in group if rolls[c] == value]
        out += tied if len(tied) == 1 else _roll_order(tied, roll, records)
    return out


def can_pay(wear: Mapping[str, int], cost: Mapping[str, int], pool: bool) -> bool:
    """True when `wear` holds every point of `cost` (one pool: the sum)."""
    if pool:
        return sum(cost.values()) <= wear["pool"]
    return all(wear[k] >= v for k, v in cost.items())
