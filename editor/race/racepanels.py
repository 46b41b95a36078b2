"""What the Test race dock shows of a ruleset: generic panels, or the ones a ruleset registers.

The dock knows a ruleset only through the registry (engine/play/registry.py) and one
`RacePanels` object: `panels_for(rs)` has the registry load the object the ruleset names under
`rs.panels["editor"]` ("module:attribute"), or gives these generic panels, which need nothing
but the protocol: a frame per decision (engine/play/watch.py), the seat's `view` as the
player panel, the pending decision's options as plain buttons, and a batch report of win
rates and race length without heat maps. No code here names a ruleset.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from slipstream.engine.play import watch
from slipstream.engine.play.batch import Pool
from slipstream.engine.play.races import RaceSpec

FACE = "editor"


@dataclass(slots=True)
class BatchRun:
    """What a batch gave the report: results in spec order, heat counts (or None), cancelled."""

    results: list[Any]
    heat: Any = None
    cancelled: bool = False


class RacePanels:
    """The generic panels; a ruleset's own panels subclass it and override what they show."""

    heat_maps = False  # whether `run_batch` counts heat (the report then draws heat maps)

    # ------------------------------------------------------------------ races
    def start(self, rs: Any, pack: Any, spec: RaceSpec, track: Any,
              humans: frozenset[int] = frozenset()) -> tuple[Any, dict[int, Any]]:
        """A recorder of the race of `spec` on `track` and the bots of its bot seats."""
        game, bots = watch.start(rs, pack, spec, track, humans)
        return watch.Recorder(rs, game, [s.name for s in watch.seats(spec, humans)]), bots

    def watch(self, rs: Any, pack: Any, spec: RaceSpec, track: Any,
              stop: Callable[[], bool] | None = None) -> Any:
        rec, bots = self.start(rs, pack, spec, track)
        try:
            rec.play_bots(bots, stop)
        finally:
            watch.finish(bots, rec.game)  # external bots' processes end with the race
        return rec

    def over(self, rec: Any) -> bool:
        return rec.game.pending is None

    def rounds(self, rec: Any) -> int:
        return int(rec.game.result().get("rounds", 0)) if self.over(rec) else 0

    def pack_options(self, rs: Any, path: str) -> dict[str, Any]:
        """The value of each race option in the pack (the form shows these; only changes
        from them go into a race's options): the pack's house rules, else the spec's default."""
        from slipstream.engine.packs.trackpack import house_options
        from slipstream.engine.play.registry import load_pack

        try:
            house = house_options(load_pack(path))
        except (ValueError, RuntimeError, OSError):
            house = {}
        return {s.name: house.get(s.name, s.default) for s in rs.options}

    # ------------------------------------------------------------------ panels
    def frame_html(self, rec: Any, fr: Any, moved: bool, before: list[int], colour: str) -> str:
        """The player panel under the slider for frame `fr`."""
        p = fr.player
        pos = (fr.positions if moved else before or fr.positions)[p]
        rows = [f"<b style='color:{colour}'>P{p + 1}</b> {html.escape(fr.choice)}", f"position {pos}"]
        rows += [f"{html.escape(k)}: {html.escape(v)}" for k, v in (fr.view if moved else [])]
        return "<br>".join(rows[:2]) + field_html(fr.briefs) + "<br>".join(["", *rows[2:]])

    def seat_html(self, rs: Any, rec: Any, seat: int, colour: str) -> str:
        """The human seat's panel while the race is played."""
        rows = [f"<b style='color:{colour}'>You: P{seat + 1}</b>",
                f"position {watch.positions_of(rec.game)[seat]}"]
        rows += [f"{html.escape(k)}: {html.escape(v)}" for k, v in rs.view(rec.game, seat)]
        return "<br>".join(rows[:2]) + field_html(rec.briefs()) + "<br>".join(["", *rows[2:]])

    def option_style(self, key: str, rec: Any = None) -> str:
        """A style sheet for the button of option `key` in the race of recorder `rec` ("": a
        plain button on a whole row)."""
        return ""

    # ------------------------------------------------------------------ batches
    def run_batch(self, pool: Pool, specs: Sequence[RaceSpec], track: Any,
                  progress: Callable[[int], None] | None = None,
                  cancelled: Callable[[], bool] | None = None) -> BatchRun:
        """Race every spec on `track` in the pool's worker processes; results in spec order."""
        out = pool.map(watch.run_on_track, [(s, track) for s in specs], progress=progress,
                       cancelled=cancelled)
        return BatchRun(out.results, None, out.cancelled)

    def turns(self, result: Any) -> int:
        """Turns of one race for the report's race length (here: its decisions)."""
        return int(result.decisions)

    def heat_from_dict(self, d: Any) -> Any:
        return None

    def batch_note(self, summary: dict[str, Any], heat: Any) -> str:
        """One line of the ruleset's own figures under the race length."""
        return f"{summary['capped']} race(s) ended by the round cap" if summary.get("capped") else ""

    def batch_text(self, rs: Any, summary: dict[str, Any]) -> str:
        """The ruleset's own summary of the batch in words (`BatchStats.format_summary`, the text
        `slipstream race --races N` prints) less the shared win rates the report's tables
        already show ("": nothing of its own)."""
        from slipstream.engine.play.base import stats_of
        from slipstream.engine.play.stats import format_races

        try:
            text = str(stats_of(rs).format_summary(summary))
            shared = format_races(dict(summary))
        except (KeyError, TypeError, ValueError):  # a summary without the figures it reads
            return ""
        return text[len(shared):].strip("\n") if text.startswith(shared) else text


def field_html(briefs: Sequence[str]) -> str:
    """Every car's `RaceView.brief` (gear and last roll, ...) in its player colour ("" without)."""
    if not briefs:
        return ""
    from .raceview import player_colour

    rows = [f"<span style='color:{player_colour(p).name()}'><b>P{p + 1}</b></span> {html.escape(b)}"
            for p, b in enumerate(briefs)]
    return "<br><b>The field</b><br>" + "<br>".join(rows) + "<br>"


GENERIC = RacePanels()


def panels_for(rs: Any) -> RacePanels:
    """The editor panels the ruleset registers (loaded by the registry), or the generic ones."""
    from slipstream.engine.play.registry import panels

    found = panels(rs, FACE)
    return found if found is not None else GENERIC


def panels_of_id(rid: str) -> RacePanels:
    """The panels of the installed ruleset `rid` (generic when it is not installed)."""
    from slipstream.engine.play.registry import RulesetError, get

    try:
        return panels_for(get(rid))
    except RulesetError:
        return GENERIC

