"""What `slipstream season` uses of Automobiles seasons (drivers, sponsors, drafts, season logs),
in one place: the face reaches it through the registry (`Automobiles.season_kit()`), never by
importing this package (the faces-through-registry contract in pyproject.toml)."""

from __future__ import annotations

from slipstream.engine.rulesets.automobiles.racelog import write_log
from slipstream.engine.rulesets.automobiles.runner import load_pack_cached
from slipstream.engine.rulesets.automobiles.season import season_config
from slipstream.engine.rulesets.automobiles.seasonrun import (
    SeasonSpec,
    resolve_track,
    run_season,
    run_seasons,
)
from slipstream.engine.rulesets.automobiles.seasonstats import (
    compare_sponsors,
    format_season_summary,
    format_sponsor_comparison,
    summarise_seasons,
)

__all__ = ["SeasonSpec", "compare_sponsors", "format_season_summary", "format_sponsor_comparison",
           "load_pack_cached", "resolve_track", "run_season", "run_seasons", "season_config",
           "summarise_seasons", "write_log"]
