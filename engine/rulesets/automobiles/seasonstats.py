"""Statistics over many seasons: season win rates, sponsor pick rates and how their holders do.

All rates come with Wilson 95% intervals (`stats.wilson`). A sponsor's **holders** are the
players who drove a race with it (races 2 and later); its *race win rate* is how often such a
holder won that race, its *season win rate* how often a player who held it at any time won
the season. A sponsor is flagged `strong` when its holders' race-win interval lies wholly
above the rate their grid slots predict (`sponsor_verdict`), `weak` when wholly below; the
interval is widened for the number of sponsors compared (`flag_z_for`).
"""

from __future__ import annotations

import math
from collections import Counter
from statistics import NormalDist
from typing import Any

from slipstream.engine.play.measures import aggregate, batch_measures, format_measures
from slipstream.engine.play.stats import Rate, bots_text, wilson


def summarise_seasons(results: list[Any]) -> dict[str, Any]:
    """Aggregate seasonrun.SeasonResults."""
    bot_w: Counter[str] = Counter()
    bot_n: Counter[str] = Counter()
    slot_w: Counter[int] = Counter()
    slot_n: Counter[int] = Counter()
    offered: Counter[str] = Counter()
    picked: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    race_n: Counter[str] = Counter()
    race_w: Counter[str] = Counter()
    season_n: Counter[str] = Counter()
    season_w: Counter[str] = Counter()
    driver_n: Counter[str] = Counter()
    driver_w: Counter[str] = Counter()
    races = capped = rounds = 0
    players = 0
    # how often each grid slot wins races 2+ with each bot in it: the expectation for a
    # sponsor's holders (matched by bot, so a weak bot in the field does not skew it)
    later_w: Counter[tuple[int, str]] = Counter()
    later_n: Counter[tuple[int, str]] = Counter()
    for r in results:
        for rr in r.races[1:]:
            for slot, p in enumerate(rr.grid):
                later_n[slot, r.bots[p]] += 1
                later_w[slot, r.bots[p]] += rr.finish[0] == p
    expected: dict[str, float] = {}
    uses: Counter[str] = Counter()
    moved_out: Counter[str] = Counter()
    moved_in: Counter[str] = Counter()
    for r in results:
        champ = r.standings[0]
        players = max(players, len(r.bots))
        for p, b in enumerate(r.bots):
            bot_n[b] += 1
            bot_w[b] += p == champ
        for slot, p in enumerate(r.first_grid):
            slot_n[slot] += 1
            slot_w[slot] += p == champ
        for p, d in enumerate(r.drivers):
            if d:
                driver_n[d] += 1
                driver_w[d] += p == champ
        held_by: dict[int, set[str]] = {}
        for rr in r.races:
            races += 1
            rounds += rr.rounds
            capped += rr.capped
            for p, sid in enumerate(rr.sponsors):
                if sid:
                    race_n[sid] += 1
                    race_w[sid] += rr.finish[0] == p
                    cell = (rr.grid.index(p), r.bots[p])
                    expected_w = later_w[cell] / later_n[cell] if later_n[cell] else 0.0
                    expected[sid] = expected.get(sid, 0.0) + expected_w
                    held_by.setdefault(p, set()).add(sid)
        for d in r.drafts:
            for sid in d.pool:
                offered[sid] += 1
            for e in d.events:
                if e["ev"] == "draft_take":
                    picked[e["sponsor"]] += 1
                elif e["ev"] == "draft_keep":
                    kept[e["sponsor"]] += 1
        for _race, _p, sid, removed, gained in getattr(r, "sponsor_changes", ()):
            uses[sid] += 1
            moved_out[sid] += sum(removed.values())
            moved_in[sid] += sum(gained.values())
        for p, sids in held_by.items():
            for sid in sids:
                season_n[sid] += 1
                season_w[sid] += p == champ
    sponsors: list[dict[str, Any]] = []
    for sid in sorted(set(offered) | set(race_n)):
        race_rate = Rate(sid, race_w[sid], race_n[sid]).as_dict()
        grid_rate = expected.get(sid, 0.0) / race_n[sid] if race_n[sid] else 0.0
        sponsors.append({"sponsor": sid, "offered": offered[sid], "picked": picked[sid], "kept": kept[sid],
                         "pick_rate": Rate(sid, picked[sid], offered[sid]).as_dict(),
                         "race_win_rate": race_rate,
                         # wins expected from the holders' grid slots (pole wins more often)
                         "expected_race_wins": round(expected.get(sid, 0.0), 2),
                         "grid_rate": round(grid_rate, 4),
                         # what one application did to the holder's collection, on average
                         "uses": uses[sid],
                         "removed_per_use": round(moved_out[sid] / uses[sid], 2) if uses[sid] else 0.0,
                         "gained_per_use": round(moved_in[sid] / uses[sid], 2) if uses[sid] else 0.0,
                         "season_win_rate": Rate(sid, season_w[sid], season_n[sid]).as_dict()})
    # flags use an interval widened for the number of sponsors compared (Bonferroni), so that
    # the chance of flagging any sponsor of an even pack stays near 5%
    flag_z = flag_z_for(sum(1 for sp in sponsors if sp["race_win_rate"]["n"]))
    for sp in sponsors:
        sp["verdict"] = sponsor_verdict(sp["race_win_rate"], sp["grid_rate"], flag_z)
    fields = list(dict.fromkeys(tuple(r.bots) for r in results))
    return {
        "seasons": len(results),
        # the bots that produced these figures, by seat (one list per distinct field)
        "bots": list(fields[0]) if len(fields) == 1 else [list(f) for f in fields],
        "players": players,
        "races": races,
        "capped": capped,
        "mean_rounds": round(rounds / races, 2) if races else 0.0,
        "win_rate_by_bot": [Rate(b, bot_w[b], bot_n[b]).as_dict() for b in sorted(bot_n)],
        "win_rate_by_first_grid_slot": [Rate(f"slot {s + 1}", slot_w[s], slot_n[s]).as_dict()
                                        for s in sorted(slot_n)],
        "win_rate_by_driver": [Rate(d, driver_w[d], driver_n[d]).as_dict() for d in sorted(driver_n)],
        "sponsors": sponsors,
        "flag_z": round(flag_z, 3),
        # every race of every season: the shared game measures and Automobiles' own
        "measures": batch_measures(*aggregate(ms for r in results for ms in getattr(r, "measures", ()))),
    }


def flag_z_for(compared: int, level: float = 0.05) -> float:
    """z of a two-sided interval at `level` split over `compared` sponsors (Bonferroni)."""
    return NormalDist().inv_cdf(1 - level / (2 * max(compared, 1)))


def sponsor_verdict(race_rate: dict[str, Any], grid_rate: float, z: float = 1.96) -> str:
    """`strong` when the holders' interval of race wins (Wilson, `z`) lies wholly above the
    rate their grid slots predict, `weak` when wholly below, else "" (no clear difference)."""
    if not race_rate["n"]:
        return ""
    _p, low, high = wilson(race_rate["wins"], race_rate["n"], z)
    if low > grid_rate:
        return "strong"
    if high < grid_rate:
        return "weak"
    return ""


def two_proportion_z(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    """z statistic of rate b minus rate a (pooled two-proportion test); 0.0 when undefined."""
    if not n_a or not n_b:
        return 0.0
    pooled = (wins_a + wins_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    return (wins_b / n_b - wins_a / n_a) / se if se else 0.0


def _pct(r: dict[str, Any]) -> str:
    if not r["n"]:
        return "     -                      (0/0)"
    return (f"{100 * r['rate']:5.1f}% [{100 * r['low']:5.1f}%, {100 * r['high']:5.1f}%] "
            f"({r['wins']}/{r['n']})")


def format_season_summary(s: dict[str, Any], sponsor_names: dict[str, str] | None = None) -> str:
    """The text report of `summarise_seasons`; sponsors with their card names when given."""
    names = sponsor_names or {}
    width = max([8, *(len(f"{sp['sponsor']} {names[sp['sponsor']]}") for sp in s["sponsors"]
                      if sp["sponsor"] in names)])

    def label(sid: str) -> str:
        return f"{sid} {names[sid]}" if sid in names else sid

    lines = [f"{s['seasons']} seasons, {s['races']} races, {s['players']} players"
             + (f" ({s['capped']} races ended by the round cap)" if s["capped"] else "")
             + (f", bots by seat: {bots_text(s['bots'])}" if s.get("bots") else ""),
             "season win rate by bot (95% interval):"]
    lines += [f"  {r['label']:<12} {_pct(r)}" for r in s["win_rate_by_bot"]]
    lines.append("season win rate by first-race grid slot (95% interval):")
    lines += [f"  {r['label']:<12} {_pct(r)}" for r in s["win_rate_by_first_grid_slot"]]
    if s["win_rate_by_driver"]:
        lines.append("season win rate by driver (95% interval):")
        lines += [f"  {r['label']:<16} {_pct(r)}" for r in s["win_rate_by_driver"]]
    if s["sponsors"]:
        even = 100 / s["players"] if s["players"] else 0
        lines.append("sponsors: pick rate when offered, and how often a holder won the race driven "
                     f"with it (even chance {even:.0f}%), 95% intervals:")
        lines.append(f"  {'sponsor':<{width}} {'picked/offered':<36} {'holder race wins':<36} {'vs grid':<8} "
                     f"{'flag':<7}{'holder season wins':<36} cubes -/+ per use")
        for sp in s["sponsors"]:
            exp = sp["expected_race_wins"]
            ratio = f"x{sp['race_win_rate']['wins'] / exp:.2f}" if exp else "-"
            flag = {"strong": "STRONG", "weak": "weak"}.get(sp.get("verdict", ""), "")
            lines.append(f"  {label(sp['sponsor']):<{width}} {_pct(sp['pick_rate']):<36} {_pct(sp['race_win_rate']):<36} "
                         f"{ratio:<8} {flag:<7}{_pct(sp['season_win_rate']):<36} "
                         f"-{sp['removed_per_use']:.1f} / +{sp['gained_per_use']:.1f}")
        lines.append("  (vs grid: holder race wins / wins expected from the holders' grid slots and bots in races 2+;")
        lines.append("   STRONG / weak: the holders' race wins lie clearly above / below that expectation;")
        lines.append(f"   the interval is widened to z = {s.get('flag_z', 1.96):.2f} for the {len(s['sponsors'])} "
                     "sponsors compared,")
        lines.append("   so a pack of even sponsors gets a false flag about 1 report in 20)")
        strong = [label(sp["sponsor"]) for sp in s["sponsors"] if sp.get("verdict") == "strong"]
        if strong:
            lines.append(f"over-strong sponsors (holders win clearly more than their grid slots predict): "
                         f"{', '.join(strong)}")
    lines.append(f"mean rounds per race: {s['mean_rounds']}")
    if s.get("measures"):
        lines.append("every race of the seasons, " + format_measures(s["measures"]))
    return "\n".join(lines)


def compare_sponsors(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Holder race-win rates of every sponsor in two reports (the same seeds on two packs).

    `z` is the two-proportion statistic of a's rate minus b's; `clear` marks |z| beyond the
    report's widened interval (`flag_z`), so that one of many sponsors rarely passes by chance.
    """
    rates_b = {sp["sponsor"]: sp["race_win_rate"] for sp in b["sponsors"]}
    limit = max(a.get("flag_z", 1.96), b.get("flag_z", 1.96))
    out = []
    for sp in a["sponsors"]:
        ra, rb = sp["race_win_rate"], rates_b.get(sp["sponsor"])
        if rb is None or not ra["n"] or not rb["n"]:
            continue
        z = two_proportion_z(rb["wins"], rb["n"], ra["wins"], ra["n"])
        out.append({"sponsor": sp["sponsor"], "a": ra, "b": rb, "z": round(z, 2),
                    "clear": "higher" if z > limit else "lower" if z < -limit else ""})
    return out


def format_sponsor_comparison(rows: list[dict[str, Any]], label_a: str, label_b: str) -> str:
    lines = [f"sponsors compared, the same seeds on both packs: holder race wins on {label_a} against "
             f"{label_b} (95% intervals; z of the difference)",
             f"  {'sponsor':<8} {label_a[:36]:<36} {label_b[:36]:<36} {'z':>6}"]
    for r in rows:
        mark = {"higher": "  CLEARLY HIGHER", "lower": "  clearly lower"}.get(r["clear"], "")
        lines.append(f"  {r['sponsor']:<8} {_pct(r['a']):<36} {_pct(r['b']):<36} {r['z']:>6.2f}{mark}")
    differ = [r["sponsor"] for r in rows if r["clear"]]
    lines.append("  clearly different: " + (", ".join(differ) if differ else "none"))
    return "\n".join(lines)
