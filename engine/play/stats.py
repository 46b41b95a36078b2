"""Statistics every ruleset's batch report shares: win rates with Wilson 95% intervals by grid
slot and by bot, race length, and how many races the round cap ended."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """Rate and Wilson 95% interval of wins out of n."""
    if n == 0:
        return 0.0, 0.0, 0.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return p, max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Rate:
    label: str
    wins: int
    n: int

    def as_dict(self) -> dict[str, Any]:
        p, lo, hi = wilson(self.wins, self.n)
        return {"label": self.label, "wins": self.wins, "n": self.n, "rate": round(p, 4),
                "low": round(lo, 4), "high": round(hi, 4)}


def summarise_races(results: Sequence[Any]) -> dict[str, Any]:
    """The shared part of a batch summary (results with standings, grid, bots, rounds, capped)."""
    slot_w: Counter[int] = Counter()
    slot_n: Counter[int] = Counter()
    bot_w: Counter[str] = Counter()
    bot_n: Counter[str] = Counter()
    rounds = capped = 0
    for r in results:
        winner = r.standings[0]
        for slot, p in enumerate(r.grid):
            slot_n[slot] += 1
            slot_w[slot] += p == winner
        for p, b in enumerate(r.bots):
            bot_n[b] += 1
            bot_w[b] += p == winner
        rounds += r.rounds
        capped += r.capped
    races = len(results)
    fields = list(dict.fromkeys(tuple(r.bots) for r in results))
    return {
        "races": races,
        # the bots that produced these figures, by seat (one list per distinct field)
        "bots": list(fields[0]) if len(fields) == 1 else [list(f) for f in fields],
        "capped": capped,
        "win_rate_by_slot": [Rate(f"slot {s + 1}", slot_w[s], slot_n[s]).as_dict() for s in sorted(slot_n)],
        "win_rate_by_bot": [Rate(b, bot_w[b], bot_n[b]).as_dict() for b in sorted(bot_n)],
        "mean_rounds": round(rounds / races, 2) if races else 0.0,
    }


def format_rate_lines(s: dict[str, Any]) -> list[str]:
    """The race count and both win-rate tables of a summary, as text lines."""
    def rate_line(r: dict[str, Any]) -> str:
        return (f"  {r['label']:<10} {100 * r['rate']:5.1f}%  [{100 * r['low']:5.1f}%, "
                f"{100 * r['high']:5.1f}%]  ({r['wins']}/{r['n']})")

    lines = [f"{s['races']} races" + (f" ({s['capped']} ended by the round cap)" if s["capped"] else "")
             + (f", bots by seat: {bots_text(s['bots'])}" if s.get("bots") else ""),
             "win rate by grid slot (95% interval):"]
    lines += [rate_line(r) for r in s["win_rate_by_slot"]]
    lines.append("win rate by bot (95% interval):")
    lines += [rate_line(r) for r in s["win_rate_by_bot"]]
    return lines


def bots_text(bots: list[Any]) -> str:
    """A summary's `bots` as text: one field `a, b, c`, or several fields `a, b | c, d`."""
    if bots and isinstance(bots[0], list):
        return " | ".join(", ".join(f) for f in bots)
    return ", ".join(bots)


def format_races(s: dict[str, Any]) -> str:
    """The shared summary as text (rulesets add their own lines)."""
    return "\n".join([*format_rate_lines(s), f"mean rounds per race: {s['mean_rounds']}"])
