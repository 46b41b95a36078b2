"""The Automobiles rule options: one spec (engine/play/options.py) for every place they appear.

Each option is one reading of an unclear rule (RULES.md §8), or an engine setting. The spec is
the source of the `options` part of schemas/rules.schema.json (a test keeps the committed
schema equal to `rules_options_schema()`; `python -m slipstream.engine.rulesets.automobiles.options`
prints it), of `--option` parsing in `race`, `season` and `sweep`, of the option checks of
scenarios and of the editor's Test race form. Defaults are the pack-less defaults; a pack's
rules file gives every option a value.
"""

from __future__ import annotations

import json
from typing import Any

from slipstream.engine.play.options import OptionSpec, options_schema

_POINTS_SCHEMA = {"oneOf": [
    {"description": "N - place + 1 for N players.", "const": "players_minus_place"},
    {"description": "Points by place, winner first; places beyond the list score 0.", "type": "array",
     "minItems": 1, "items": {"description": "Points for one place.", "$ref": "pack.schema.json#/$defs/count"}},
]}

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("weaving", "bool", False,
               "Weaving (RULES §5.1): a cube may take any free segment of its space ahead of the origin, not only the front-most one."),
    OptionSpec("momentum", "choice", "slide",
               "After any car moves, cars slide forward to the front-most free segment of their space (`slide`, RULES §4.1, §8.5) or stay put (`none`).",
               choices=("slide", "none")),
    OptionSpec("drivers", "bool", False, "Drivers are used in seasons (RULES §5.2).", scope="season"),
    OptionSpec("drivers_in_single_races", "bool", False,
               "Drivers may also be used in single races (the Italian/English reading, RULES §8.18); false follows the German text."),
    OptionSpec("strict_play", "bool", False,
               "Refuse to play a cube whose dependent step cannot be done (RULES §3.1.1 e); false lets any cube be played."),
    OptionSpec("unlimited_wear", "bool", True,
               "The wear stock never runs out (RULES §1.3); false uses the wear supply of the cube kinds."),
    OptionSpec("wear_card_playable", "bool", True,
               "A wear cube from the active pile may be played to move it to the discard pile (RULES §6.1.5, Italian/English reading)."),
    OptionSpec("sponsor_level_by_draft", "bool", False,
               "Between races only sponsors of level min(draft number, 3) are drafted (RULES §8.19); false drafts from all levels.",
               scope="season"),
    OptionSpec("season_grid", "choice", "winner_pole",
               "Grid of season races 2 and later: the previous winner on pole (`winner_pole`) or the previous last on pole (`reverse`) (RULES §8.20).",
               choices=("winner_pole", "reverse"), scope="season"),
    OptionSpec("season_grid_purchase", "bool", False,
               "Players buy with grid money before season races 2 and later too (RULES §8.8: the German text says no).",
               scope="season"),
    OptionSpec("season_points", "points", "players_minus_place",
               "Season points per race: `players_minus_place` gives N - place + 1 (RULES §5.3), or a list of points by place, winner first.",
               scope="season", schema=_POINTS_SCHEMA),
    OptionSpec("turn_order", "choice", "fixed",
               "Turn order: the fixed grid order (`fixed`, RULES §8.4) or re-sorted by race position every round (`position`).",
               choices=("fixed", "position")),
    OptionSpec("occupancy", "choice", "segment",
               "How many cars a space holds: one per segment (`segment`, RULES §8.1), one per space (`space`), or any number (`unlimited`).",
               choices=("segment", "space", "unlimited")),
    OptionSpec("full_spaces", "choice", "block",
               "Whether a route may enter a space with no free segment: `block` (RULES §8.2) or `pass`.",
               choices=("block", "pass"), supported=("block",)),
    OptionSpec("drafting", "choice", "segment_or_space",
               "When a car drafts: a car on the next segment of its lane, or on the next space when it stands on its space's last segment (`segment_or_space`, RULES §8.3); `segment` only the first test; `space` a car anywhere in the next space of its lane.",
               choices=("segment_or_space", "segment", "space")),
    OptionSpec("placement_chain", "bool", True,
               "Each cube after the first of a turn goes ahead of the last placed cube, never of the car again (RULES §8.9)."),
    OptionSpec("positions_count_laps", "bool", True,
               "A car a lap ahead is ahead of every car on an earlier lap (RULES §8.7)."),
    OptionSpec("refill_on_any_draw", "bool", True,
               "Every draw, at any time, refills an empty bag from the discard pile (RULES §8.23); false only refills for the End-phase draw."),
    OptionSpec("gains_to", "choice", "used",
               "Where cubes gained during a turn go: the used pile (`used`, RULES §8.13) or the discard pile (`discard`).",
               choices=("used", "discard")),
    OptionSpec("max_rounds", "int", 150,
               "Engine safety net: a race still running after this many rounds ends, its standings as they are (reported as ended by the round cap).",
               minimum=1, maximum=100_000, in_rules_file=False),
)

RACE_OPTIONS = tuple(s for s in OPTIONS if s.scope == "race")
SEASON_OPTIONS = tuple(s for s in OPTIONS if s.scope == "season")
DESCRIPTION = "House-rule switches: each is one reading of an unclear rule (RULES.md §8)."


def rules_options_schema() -> dict[str, Any]:
    """The `$defs/options` object of schemas/rules.schema.json, made from the spec."""
    return options_schema(OPTIONS, DESCRIPTION)


if __name__ == "__main__":  # pragma: no cover - a maintainer's tool
    print(json.dumps(rules_options_schema(), indent=2, ensure_ascii=False))
