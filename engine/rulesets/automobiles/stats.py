"""Automobiles statistics over many races: win rates with 95% intervals, turns, wear, pits,
drafting and the cubes bought (the shared rates are engine/play/stats.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from slipstream.engine.play.stats import format_rate_lines, summarise_races
from slipstream.engine.rulesets.automobiles.racesetup import kind_ids


def summarise(results: list[Any], kind_names: list[str] | None = None) -> dict[str, Any]:
    """Aggregate race results (engine/play/races.py `Result`, or stored records): the shared
    rates, then wear, pit stops, drafting and the most bought cubes."""
    out = summarise_races(results)
    wear = pits = drafts = moves = player_races = turns = 0
    bought: Counter[str] = Counter()
    for r in results:
        st = r.stats
        wear += sum(st["wear"])
        pits += sum(st["pits"])
        drafts += sum(st["drafts"])
        moves += sum(st["moves"])
        turns += sum(st.get("turns", ()))
        player_races += len(r.bots)
        names = kind_ids(r) or kind_names
        for row in st["bought"]:
            for k, n in enumerate(row):
                if n:
                    bought[names[k] if names and k < len(names) else str(k)] += n
    out.update({
        "mean_wear_per_player": round(wear / player_races, 2) if player_races else 0.0,
        "pit_stops_per_player": round(pits / player_races, 2) if player_races else 0.0,
        "drafting_rate": round(drafts / moves, 4) if moves else 0.0,
        # standard turns in which the car entered no space ("stayed")
        "still_turn_rate": round((turns - pits - moves) / turns, 4) if turns else 0.0,
        "most_bought": bought.most_common(5),
    })
    return out


def format_summary(s: dict[str, Any]) -> str:
    lines = format_rate_lines(s)
    lines.append(f"mean rounds per race: {s['mean_rounds']}")
    lines.append(f"mean wear gained per player: {s['mean_wear_per_player']}")
    lines.append(f"pit stops per player and race: {s['pit_stops_per_player']}")
    lines.append(f"drafting rate (moves ending in the draft): {100 * s['drafting_rate']:.1f}%")
    if "still_turn_rate" in s:
        lines.append(f"turns standing still (standard turns, no space entered): {100 * s['still_turn_rate']:.1f}%")
    lines.append("most bought cubes: " + ", ".join(f"{k} ({n})" for k, n in s["most_bought"]))
    return "\n".join(lines)


def race_measures(result: Any) -> list[Any]:
    """Wear and pit stops per player, drafting and standing-still rates, and the cubes bought and
    played by kind, of one race (a race result, or a season's race as seasonrun gives it)."""
    from slipstream.engine.play.measures import MEAN, RATE, Measure

    st = result.stats
    players = max(1, len(result.bots))
    turns, pits, moves = sum(st.get("turns", ())), sum(st["pits"]), sum(st["moves"])
    out = [Measure("wear", "wear gained per player", MEAN, sum(st["wear"]) / players, unit="wear"),
           Measure("pit_stops", "pit stops per player", MEAN, pits / players, unit="stops"),
           Measure("drafting", "moves ending in the draft", RATE, float(sum(st["drafts"])), float(moves), "moves")]
    if turns:
        out.append(Measure("standing_still", "standard turns with no space entered", RATE,
                           float(turns - pits - moves), float(turns), "turns"))
    ids = kind_ids(result)
    for key, what in (("bought", "bought"), ("plays", "played")):
        per: dict[str, int] = {}
        for row in st.get(key, ()):
            for k, n in enumerate(row):
                name = ids[k] if k < len(ids) else str(k)
                per[name] = per.get(name, 0) + n
        out += [Measure(f"{what}.{k}", f"{k} cubes {what} per race", MEAN, float(v), unit="cubes")
                for k, v in sorted(per.items())]
    return out
