"""Statistics over many races: win rates with 95% intervals, turns, wear, pits, drafting, buys."""

from __future__ import annotations

import math
from collections import Counter
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


def summarise(results: list[Any], kind_names: list[str] | None = None) -> dict[str, Any]:
    """Aggregate RaceResults (see runner.RaceResult)."""
    races = len(results)
    slot_w: Counter[int] = Counter()
    slot_n: Counter[int] = Counter()
    bot_w: Counter[str] = Counter()
    bot_n: Counter[str] = Counter()
    rounds = 0
    wear = pits = drafts = moves = player_races = capped = 0
    bought: Counter[str] = Counter()
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
        st = r.stats
        wear += sum(st["wear"])
        pits += sum(st["pits"])
        drafts += sum(st["drafts"])
        moves += sum(st["moves"])
        player_races += len(r.bots)
        names = getattr(r, "kind_ids", None) or kind_names
        for row in st["bought"]:
            for k, n in enumerate(row):
                if n:
                    bought[names[k] if names and k < len(names) else str(k)] += n
    return {
        "races": races,
        "capped": capped,
        "win_rate_by_slot": [Rate(f"slot {s + 1}", slot_w[s], slot_n[s]).as_dict() for s in sorted(slot_n)],
        "win_rate_by_bot": [Rate(b, bot_w[b], bot_n[b]).as_dict() for b in sorted(bot_n)],
        "mean_rounds": round(rounds / races, 2) if races else 0.0,
        "mean_wear_per_player": round(wear / player_races, 2) if player_races else 0.0,
        "pit_stops_per_player": round(pits / player_races, 2) if player_races else 0.0,
        "drafting_rate": round(drafts / moves, 4) if moves else 0.0,
        "most_bought": bought.most_common(5),
    }


def format_summary(s: dict[str, Any]) -> str:
    def rate_line(r: dict[str, Any]) -> str:
        return (f"  {r['label']:<10} {100 * r['rate']:5.1f}%  [{100 * r['low']:5.1f}%, "
                f"{100 * r['high']:5.1f}%]  ({r['wins']}/{r['n']})")

    lines = [f"{s['races']} races" + (f" ({s['capped']} ended by the round cap)" if s["capped"] else ""),
             "win rate by grid slot (95% interval):"]
    lines += [rate_line(r) for r in s["win_rate_by_slot"]]
    lines.append("win rate by bot (95% interval):")
    lines += [rate_line(r) for r in s["win_rate_by_bot"]]
    lines.append(f"mean rounds per race: {s['mean_rounds']}")
    lines.append(f"mean wear gained per player: {s['mean_wear_per_player']}")
    lines.append(f"pit stops per player and race: {s['pit_stops_per_player']}")
    lines.append(f"drafting rate (moves ending in the draft): {100 * s['drafting_rate']:.1f}%")
    lines.append("most bought cubes: " + ", ".join(f"{k} ({n})" for k, n in s["most_bought"]))
    return "\n".join(lines)
