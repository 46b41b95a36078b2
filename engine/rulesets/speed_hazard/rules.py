"""The small rules of the speed-and-hazard ruleset, as pure functions (docs/rules/speed-hazard.md)."""

from __future__ import annotations

from collections.abc import Sequence

SQUARE_KMH = 10  # one square per 10 km/h


def squares(speed: int) -> int:
    """Movement: exactly speed ÷ 10 squares."""
    return max(0, speed) // SQUARE_KMH


def hazards_over(speed: int, limit: int) -> int:
    """Curve entry: one hazard card per 10 km/h (or part of it) over the limit (Readings 1)."""
    over = speed - limit
    return 0 if over <= 0 else -(-over // SQUARE_KMH)


def accel_hazards(speed_after: int, limit: int, added: int, mode: str) -> int:
    """Accelerating on a curve square above its limit: per 10 km/h accelerated (the seed), or
    per 10 km/h over the limit, never more than accelerated (`curve_accel_hazards: over`)."""
    if added <= 0 or speed_after <= limit:
        return 0
    per_added = added // SQUARE_KMH
    return per_added if mode == "accelerated" else min(per_added, hazards_over(speed_after, limit))


def order_key(number: int, speed: int, progress: int, lane: int, pit_seq: int, seat: int) -> tuple[int, ...]:
    """Turn order: card number, then the faster car, then the car further ahead, then the inner
    lane; then the earlier pit entry and the lower seat (Readings 15)."""
    return (number, -speed, -progress, lane, pit_seq, seat)


def damage_points(faces_rolled: Sequence[int], armour: int) -> int:
    """Points of one damage roll, less the armour of the car's equipment."""
    return max(0, sum(faces_rolled) - armour)


def capped_speed(speed: int, maximum: int, nitrous: bool) -> int:
    """Damage: a speed above the maximum drops to it, unless the car is in nitrous mode."""
    return speed if nitrous else min(speed, maximum)


def brake_amounts(amounts: Sequence[int], speed: int) -> list[int]:
    """Brake offers only the amounts the speed allows (Readings 9)."""
    return [a for a in amounts if 0 < a <= speed]


def accelerate_amounts(amounts: Sequence[int], speed: int, maximum: int, in_pit: bool) -> list[int]:
    """Accelerate within the maximum; leaving the pit road needs some speed (Readings 14)."""
    return [a for a in amounts if speed + a <= maximum and not (in_pit and speed + a <= 0)]
