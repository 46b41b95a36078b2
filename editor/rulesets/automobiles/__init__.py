"""The Automobiles panels of the Test race dock, registered by the ruleset (`Ruleset.panels`).

Turn frames with the planned cube route, the player's piles and money, cube chips on the
human seat's buttons, and a batch that counts heat per space for the report's heat maps. The
dock reaches this module only through `racepanels.panels_for` (the registry loads it by the
string the ruleset names); it reaches Automobiles only through the registry too: its race
view, setup and statistics capabilities, whose turn frames, piles, pack options and heat
batch (beyond the protocol) these panels declare below as what they need.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast
from weakref import WeakKeyDictionary

from PySide6.QtGui import QColor

from slipstream.engine.play import watch
from slipstream.engine.play.batch import Pool
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import get, load_pack

from ...race.racepanels import BatchRun, RacePanels

NO_DISPLAY = "#d8d8d8"  # a cube kind whose pack gives it no `display` colour
RULESET = "automobiles"


class TurnView(Protocol):
    """What these panels use of Automobiles' race view beyond the protocol."""

    def frames(self, game: Any) -> Any: ...
    def wear_owned(self, game: Any, seat: int) -> int: ...


class HeatStats(Protocol):
    """What these panels use of Automobiles' statistics beyond the protocol."""

    def heat_batch(self, pool: Any, specs: Sequence[Any], track: Any, progress: Any = None,
                   cancelled: Any = None) -> tuple[list[Any], Any, bool]: ...
    def heat_from_dict(self, d: Any) -> Any: ...


class PackOptions(Protocol):
    def pack_options(self, pack: Any) -> dict[str, Any]: ...


def _view(rs: Any) -> TurnView:
    return cast(TurnView, rs.race_view)


def _stats() -> HeatStats:
    return cast(HeatStats, get(RULESET).stats)


def cube_colours(pack: str) -> dict[str, str]:
    """Kind id -> the `display` colour each cube kind of the pack (folder, "" = base) gives."""
    try:
        kinds = load_pack(pack).cube_kinds
    except (ValueError, RuntimeError, OSError, AttributeError):
        return {}
    return {k.id: k.display for k in kinds.values() if k.display}


def pile_text(d: dict[str, int] | None) -> str:
    if not d:
        return "–"
    return ", ".join(f"{k}×{n}" if n > 1 else k for k, n in sorted(d.items()))


class AutomobilesPanels(RacePanels):
    heat_maps = True

    def __init__(self) -> None:
        super().__init__()
        # the cube colours of each running race's pack, as long as its recorder lives
        self._colours: WeakKeyDictionary[Any, dict[str, str]] = WeakKeyDictionary()

    def start(self, rs: Any, pack: Any, spec: RaceSpec, track: Any,
              humans: frozenset[int] = frozenset()) -> tuple[Any, dict[int, Any]]:
        # the game of the pack folder the spec names (as `slipstream race` plays it)
        game, bots = watch.start(rs, load_pack(spec.pack), spec, track, humans)
        rec = _view(rs).frames(game)
        self._colours[rec] = cube_colours(spec.pack)
        return rec, bots

    def over(self, rec: Any) -> bool:
        return bool(rec.game.over)

    def rounds(self, rec: Any) -> int:
        return int(rec.game.race.round)

    def pack_options(self, rs: Any, path: str) -> dict[str, Any]:
        return cast(PackOptions, rs.setup).pack_options(load_pack(path))

    def frame_html(self, rec: Any, fr: Any, moved: bool, before: list[int], colour: str) -> str:
        p = fr.player
        piles = fr.piles if fr.piles is not None else fr.hand
        cars = fr.cars_after if moved else fr.cars_before
        lane, seg, lap = cars[p]
        pos = (fr.positions if moved else before or fr.positions)[p]
        head = (f"<b style='color:{colour}'>P{p + 1}</b> "
                f"({html.escape(rec.game.seats[p].bot)}) "
                f"{'pit stop' if fr.choice == 'pit' else 'standard turn'}")
        rows = [head,
                f"position {pos}, car at {lane}:{seg}, lap {max(lap, 0)}",
                f"money ${fr.money} to spend, wear taken {fr.wear_taken}"
                + (" (drafting)" if fr.drafting else "") + (f", wear owned {fr.wear_owned}" if moved else ""),
                f"<b>hand</b> (active at the start): {html.escape(pile_text(fr.hand.active if fr.hand else None))}",
                f"<b>active</b>: {html.escape(pile_text(piles.active if piles else None))}",
                f"<b>used</b>: {html.escape(pile_text(piles.used if piles else None))}",
                f"<b>discard</b>: {html.escape(pile_text(piles.discard if piles else None))}"]
        return "<br>".join(rows)

    def seat_html(self, rs: Any, rec: Any, seat: int, colour: str) -> str:
        g = rec.game
        piles = rec.piles(seat)
        pos = g.positions(False)[seat]
        return (f"<b style='color:{colour}'>You: P{seat + 1}</b><br>"
                f"position {pos}, money ${g.money(seat)}, wear owned {_view(rs).wear_owned(g, seat)}<br>"
                f"<b>active</b>: {html.escape(pile_text(piles.active))}<br>"
                f"<b>used</b>: {html.escape(pile_text(piles.used))}"
                f"<br><b>discard</b>: {html.escape(pile_text(piles.discard))}"
                f"<br><b>bag</b>: {html.escape(pile_text(piles.bag))}")

    def option_style(self, key: str, rec: Any = None) -> str:
        if not key.startswith("play "):
            return ""
        kid = key[5:]
        bg = self._colours.get(rec, {}).get(kid, NO_DISPLAY) if rec is not None else NO_DISPLAY
        fg = "#ffffff" if QColor(bg).lightnessF() < 0.5 else "#000000"
        return (f"QPushButton{{background:{bg};color:{fg};border:2px solid #333;"
                f"border-radius:4px;padding:3px 8px}}")

    def run_batch(self, pool: Pool, specs: Sequence[RaceSpec], track: Any,
                  progress: Callable[[int], None] | None = None,
                  cancelled: Callable[[], bool] | None = None) -> BatchRun:
        results, heat, stopped = _stats().heat_batch(pool, specs, track, progress, cancelled)
        return BatchRun(results, heat, stopped)

    def turns(self, result: Any) -> int:
        return int(sum(result.stats["turns"]))

    def heat_from_dict(self, d: Any) -> Any:
        return _stats().heat_from_dict(d)

    def batch_text(self, rs: Any, summary: dict[str, Any]) -> str:
        """None: the report's own tables and heat maps show what `format_summary` prints."""
        return ""

    def batch_note(self, summary: dict[str, Any], heat: Any) -> str:
        m = sum(heat.moves) if heat is not None else 0
        rate = sum(heat.drafts) / m if m else 0.0
        return (f"mean wear per player {summary.get('mean_wear_per_player', 0)}; pit stops per player "
                f"{summary.get('pit_stops_per_player', 0)}; drafting rate {100 * rate:.1f}% of moves"
                + (f"; {summary['capped']} race(s) ended by the round cap" if summary.get("capped") else ""))


PANELS = AutomobilesPanels()
