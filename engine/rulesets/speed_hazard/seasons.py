"""Speed-and-hazard championships: several races on the pack's tracks, points by place
(docs/rules/speed-hazard.md, "Championship"; docs/seasons.md).

The machinery (races, points, standings, logs and their replay) is engine/play/seasons.py's;
this module holds what is this ruleset's own: the house values and how a race result names the
wrecked cars.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slipstream.engine.play.seasons import PointsChampionship

# HOUSE VALUES: seed 002 has no championship; these are ours (one number per place of the
# largest field, 6 cars).
HOUSE_POINTS = (10, 6, 4, 3, 2, 1)
HOUSE_RACES = 3


def wrecked(result: Mapping[str, Any]) -> dict[str, str]:
    """The cars a race wrecked, by name (a race result lists them under `wrecks`)."""
    wrecks = result.get("wrecks") or []
    return {str(name): "wreck" for name in wrecks} if isinstance(wrecks, list) else {}


# only the winner crosses the line (the race ends there), so there is no finish rate to give
CHAMPIONSHIP = PointsChampionship(HOUSE_POINTS, HOUSE_RACES, "a wrecked car", wrecked, finishers=False)
