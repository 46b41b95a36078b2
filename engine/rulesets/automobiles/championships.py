"""Automobiles seasons as the `seasons` capability of the ruleset protocol
(engine/play/protocol.py `Championships`): drivers, sponsors and drafts between races.

`slipstream season` and season sweeps reach them through `Automobiles.seasons`; the seasons
themselves are played by seasonrun.py (season.py: the rules between races), and their
statistics come from seasonstats.py. Loading this module stays cheap: the heavy modules are
imported when a season runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from slipstream.engine.play.protocol import SeasonPlan, SeasonSetting

SETTINGS = (
    SeasonSetting("drivers", "--drivers/--no-drivers",
                  "Deal drivers for the season (default: the pack's `drivers` option).", type="switch"),
    SeasonSetting("draft", "--draft", "How bots draft sponsors: by a simple evaluation, or at random "
                  "(to measure sponsors).", type="choice", choices=("value", "random"), default="value"),
    SeasonSetting("sponsor_first", "--sponsor-first",
                  "Put these sponsors on top of the deck, so they are in the first pool (to measure them).",
                  metavar="ID,ID", default=""),
)


def _sponsor_names(pack: Any) -> dict[str, str]:
    return {k: v.name for k, v in pack.sponsors.items()}


def default_tracks(pack: Any) -> list[str]:
    """The tracks of a season when none are named: the pack's season length, oval first."""
    ids = sorted(pack.tracks, key=lambda t: (t != "first-oval", t))
    n = pack.rules.season_races if pack.rules is not None else 3
    return [ids[i % len(ids)] for i in range(n)] if ids else []


def _race_and_season_options(options: Sequence[tuple[str, Any]]) -> tuple[tuple[tuple[str, Any], ...],
                                                                         tuple[tuple[str, Any], ...]]:
    from slipstream.engine.rulesets.automobiles.options import OPTIONS

    names = {s.name for s in OPTIONS if s.scope == "season"}
    return (tuple((k, v) for k, v in options if k not in names),
            tuple((k, v) for k, v in options if k in names))


def season_spec(plan: SeasonPlan) -> Any:
    """The season runner's spec of a plan (settings: drivers, draft, sponsors on top)."""
    from slipstream.engine.rulesets.automobiles.seasonrun import SeasonSpec

    race_opts, season_opts = _race_and_season_options(plan.options)
    settings = dict(plan.settings)
    if settings.get("drivers") is not None:
        season_opts = tuple(sorted({**dict(season_opts), "drivers": settings["drivers"]}.items()))
    top = tuple(x.strip() for x in str(settings.get("sponsor_first") or "").split(",") if x.strip())
    return SeasonSpec(plan.pack, tuple(plan.tracks), plan.seed, tuple(plan.bots),
                      dict(plan.setup).get("card_set") or "", plan.laps, race_opts, season_opts, plan.record,
                      draft_policy=str(settings.get("draft") or "value"), deck_top=top)


class AutomobilesSeasons:
    """Seasons of 3 to 5 races: cube collections and the stock carry over, sponsors are
    drafted between races, drivers may be dealt (RULES §5)."""

    noun = "season"
    settings = SETTINGS
    compares = True  # `--against`: every sponsor's holder race wins on two packs
    races = (3, 5)  # RULES §5.3: three or more; five at most (house limit)

    def tracks(self, pack: Any, options: Mapping[str, Any]) -> list[str]:
        return default_tracks(pack)

    def problems(self, pack: Any, plan: SeasonPlan) -> list[tuple[str, str]]:
        from slipstream.engine.play.extbots import is_external
        from slipstream.engine.rulesets.automobiles.season import season_config
        from slipstream.engine.rulesets.automobiles.seasonrun import resolve_track

        if any(is_external(b) for b in plan.bots):  # its seasons deal sponsors to the seats' bots
            return [("--bots", "external bots (cmd:, http://) race single races of Automobiles, not its seasons yet")]
        lo, hi = self.races
        if not lo <= len(plan.tracks) <= hi:
            return [("--tracks", f"a season has {lo} to {hi} races, got {len(plan.tracks)}")]
        for t in plan.tracks:
            try:
                resolve_track(pack, t)
            except ValueError as e:
                return [("--tracks", str(e))]
        spec = season_spec(plan)
        for sid in spec.deck_top:
            if sid not in pack.sponsors:
                return [("--sponsor-first", f"no sponsor {sid!r}; sponsors: {', '.join(sorted(pack.sponsors))}")]
        try:
            season_config(pack, dict(spec.season_options))
        except ValueError as e:
            return [("--option", str(e))]
        return []

    def run(self, plan: SeasonPlan) -> Any:
        from slipstream.engine.rulesets.automobiles.seasonrun import run_season

        return run_season(season_spec(plan))

    def text(self, result: Any, pack: Any) -> str:
        return season_text(result, _sponsor_names(pack))

    def json(self, result: Any) -> dict[str, Any]:
        return season_json(result)

    def summarise(self, results: Sequence[Any]) -> dict[str, Any]:
        from slipstream.engine.rulesets.automobiles.seasonstats import summarise_seasons

        return summarise_seasons(list(results))

    def format_summary(self, summary: Mapping[str, Any], pack: Any) -> str:
        from slipstream.engine.rulesets.automobiles.seasonstats import format_season_summary

        return format_season_summary(dict(summary), _sponsor_names(pack))

    def compare(self, summary: Mapping[str, Any], other: Mapping[str, Any]) -> dict[str, Any]:
        """Every sponsor's holder race wins on both packs (`sponsors`)."""
        from slipstream.engine.rulesets.automobiles.seasonstats import compare_sponsors

        return {"sponsors": compare_sponsors(dict(summary), dict(other))}

    def format_comparison(self, comparison: Any, a: str, b: str) -> str:
        from slipstream.engine.rulesets.automobiles.seasonstats import format_sponsor_comparison

        return format_sponsor_comparison(comparison["sponsors"], a, b)

    def replay(self, lines: list[str], origin: Any = None) -> Any:
        from slipstream.engine.rulesets.automobiles.seasonrun import replay_season_lines

        return replay_season_lines(lines, origin)


def season_json(res: Any) -> dict[str, Any]:
    names = res.names
    return {
        "seed": res.spec.seed, "card_set": res.card_set, "tracks": list(res.spec.tracks),
        "drivers": {names[p]: d for p, d in enumerate(res.drivers)},
        "races": [{"race": i + 1, "track": rr.track, "grid": [names[p] for p in rr.grid],
                   "finish": [names[p] for p in rr.finish], "points": rr.points,
                   "sponsors": {names[p]: s for p, s in enumerate(rr.sponsors)}, "rounds": rr.rounds}
                  for i, rr in enumerate(res.races)],
        "drafts": [{"after_race": d.after_race, "pool": d.pool, "pick_order": [names[p] for p in d.order],
                    "events": d.events, "applied": [{"player": names[p], "sponsor": s, "bracket": b}
                                                     for p, s, b in d.applied]} for d in res.drafts],
        "standings": [{"place": i + 1, "name": names[p], "bot": res.bots[p], "points": res.points[p]}
                      for i, p in enumerate(res.standings)],
        "supply_conserved": all(s == res.supply[0] for s in res.supply),
    }


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if abs(n) == 1 else "s")


def season_text(res: Any, sponsor_names: dict[str, str] | None = None) -> str:
    """One season in words; sponsors by their card name with the id `--sponsor-first` takes."""
    names = res.names
    n = len(names)
    known = sponsor_names or {}

    def sp(sid: str) -> str:
        return f"{known[sid]} ({sid})" if sid in known and known[sid] != sid else str(sid)

    def who(p: int) -> str:
        return f"{names[p]} ({res.bots[p]}" + (f", {res.drivers[p]}" if res.drivers[p] else "") + ")"

    lines = [f"Season of {len(res.races)} races ({', '.join(res.spec.tracks)}), card set {res.card_set}, "
             f"seed {res.spec.seed}"]
    if any(res.drivers):
        lines.append("drivers: " + ", ".join(f"{names[p]} {d}" for p, d in enumerate(res.drivers) if d))
    totals = [0] * n
    drafts = {d.after_race: d for d in res.drafts}
    for i, rr in enumerate(res.races, start=1):
        lines += ["", f"Race {i}: {rr.track} ({rr.rounds} rounds{', round cap' if rr.capped else ''})",
                  "  grid: " + ", ".join(f"{s + 1}. {names[p]}" for s, p in enumerate(rr.grid))]
        if any(rr.sponsors):
            lines.append("  sponsors: " + ", ".join(f"{names[p]} {sp(s)}" for p, s in enumerate(rr.sponsors) if s))
        for place, p in enumerate(rr.finish, start=1):
            totals[p] += rr.points[p]
            lines.append(f"  {place}. {who(p):<28} +{_plural(rr.points[p], 'point')}")
        left = ", ".join(f"{k} {v}" for k, v in rr.stock_left.items() if v)
        lines.append(f"  stock left: {left or 'nothing'}")
        d = drafts.get(i)
        if d is not None:
            lines.append(f"  draft after race {i}: pool {', '.join(map(sp, d.pool)) or '(empty)'}; pick order "
                         + ", ".join(names[p] for p in d.order))
            for e in d.events:
                if e["ev"] == "draft_take":
                    lines.append(f"    {names[e['p']]} takes {sp(e['sponsor'])}"
                                 + (f" (drops {sp(e['replaced'])})" if e["replaced"] else ""))
                elif e["ev"] == "draft_keep":
                    lines.append(f"    {names[e['p']]} keeps {sp(e['sponsor'])}"
                                 + (f", discards {sp(e['discard'])}" if e["discard"] else ""))
                elif e["ev"] == "draft_none":
                    lines.append(f"    {names[e['p']]} gets no sponsor (pool empty)")
                elif e["ev"] == "draft_unpicked":
                    lines.append(f"    left in the pool: {', '.join(map(sp, e['sponsors']))}")
            for p, s, b in d.applied:
                lines.append(f"    {names[p]} applies {sp(s)}, {b} bracket")
        order = sorted(range(n), key=lambda p: (-totals[p], rr.finish.index(p)))
        lines.append("  points: " + ", ".join(f"{names[p]} {totals[p]}" for p in order))
    lines += ["", "season standings (ties: better place in the last race):"]
    for place, p in enumerate(res.standings, start=1):
        lines.append(f"  {place}. {who(p):<28} {_plural(res.points[p], 'point')}")
    ok = all(s == res.supply[0] for s in res.supply)
    lines.append(f"{res.decisions} decisions; cube supply {'conserved' if ok else 'NOT conserved'} across races")
    return "\n".join(lines)


