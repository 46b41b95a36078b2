"""Formula Dé-style championships: several races on the pack's circuits, points by place, no
sponsors (docs/rules/formula-de.md §"Championship", docs/seasons.md).

The machinery (races, points, standings, logs and their replay) is engine/play/seasons.py's;
this module holds what is this ruleset's own: the house values and how a race result names the
cars eliminated from it.
"""

from __future__ import annotations

from slipstream.engine.play.seasons import PointsChampionship

# HOUSE VALUES: no source gives a championship for this game; these are ours.
HOUSE_POINTS = (10, 8, 6, 5, 4, 3, 2, 1)
HOUSE_RACES = 3

# a race result's `out` names the eliminated cars with their cause
CHAMPIONSHIP = PointsChampionship(HOUSE_POINTS, HOUSE_RACES, "an eliminated car")
SEASON_OPTIONS = CHAMPIONSHIP.options
SEASON_NAMES = CHAMPIONSHIP.names
