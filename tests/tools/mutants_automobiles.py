"""The mutants of the Automobiles rule options (tests/tools/mutate.py automobiles): for every
option and each of its values, the code that reads the option reads the value as another one, or,
where a value is not a switch (season points, the round cap), the branch's arithmetic is off.
The tests that own rule options must fail (about a minute in all on one core).
"""

from __future__ import annotations

from collections.abc import Sequence

from mutate import ROOT, Mutant, Table

# Tests that own rule options: the rule tests, the base pack's scenarios (`slipstream test`),
# the property races and the season tests (season options, the wear stock between races).
# The long season batches run last, so a caught mutant stops early.
TESTS = ["tests/rulesets/automobiles/test_options.py", "tests/rulesets/automobiles/test_movement_rules.py",
         "tests/rulesets/automobiles/test_scenarios.py", "tests/rulesets/automobiles/test_properties.py",
         *sorted((str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "rulesets" / "automobiles" / "season").glob("test_*.py")),
                 key=lambda p: ("acceptance" in p or "strong" in p, p))]


def switch(option: str, sites: dict[str, list[str]], values: Sequence[object]) -> list[Mutant]:
    """For each value and each other value, per module: read the value as the other one."""
    out = []
    for v in values:
        for w in values:
            if w == v:
                continue
            for module, reads in sites.items():
                edits = tuple((r, f"({w!r} if ({r}) == {v!r} else ({r}))") for r in reads)
                where = f" ({module.rpartition('.')[2]})" if len(sites) > 1 else ""
                out.append(Mutant(module, edits, True, option, repr(v), f"read as {w!r}{where}"))
    return out


def broken(option: str, value: str, as_: str, module: str, edits: tuple[tuple[str, str], ...]) -> Mutant:
    """A mutant of `option` that breaks the branch of `value` otherwise than by a switch."""
    return Mutant(module, edits, True, option, value, as_)


E = "slipstream.engine.rulesets.automobiles."
MOVE, GAME, PHASES, EFFECTS, SEASON, OPTIONS = (E + m for m in
                                                ("movement", "game", "phases", "effects", "season", "options"))
B = [True, False]

MUTANTS: list[Mutant] = [
    *switch("weaving", {MOVE: ["opts.weaving"]}, B),
    *switch("momentum", {MOVE: ["opts.momentum"]}, ["slide", "none"]),
    *switch("drivers_in_single_races", {GAME: ["rules.options.drivers_in_single_races"]}, B),
    *switch("strict_play", {PHASES: ["rs.options.strict_play"]}, B),
    *switch("unlimited_wear", {GAME: ["rules.options.unlimited_wear"],
                               SEASON: ["rules.options.unlimited_wear",
                                        "self.rules.options.unlimited_wear"]}, B),
    *switch("wear_card_playable", {PHASES: ["rs.options.wear_card_playable"]}, B),
    *switch("turn_order", {GAME: ["self.rules.options.turn_order"]}, ["fixed", "position"]),
    *switch("occupancy", {MOVE: ["opts.occupancy"]}, ["segment", "space", "unlimited"]),
    *switch("drafting", {MOVE: ["opts.drafting"]}, ["segment_or_space", "segment", "space"]),
    *switch("placement_chain", {EFFECTS: ["opts.placement_chain", "g.rules.options.placement_chain"]}, B),
    *switch("positions_count_laps", {MOVE: ["opts.positions_count_laps"]}, B),
    *switch("refill_on_any_draw", {GAME: ["self.rules.options.refill_on_any_draw"]}, B),
    # gains_to is compared, not read: flip the comparison's result
    broken("gains_to", "'discard'", "read as 'used'", GAME,
           (('self.rules.options.gains_to == "discard"', "False"),)),
    broken("gains_to", "'used'", "read as 'discard'", GAME,
           (('self.rules.options.gains_to == "discard"', "True"),)),
    # full_spaces has one implemented value; other values must be refused, not run
    broken("full_spaces", "'block'", "other values accepted", OPTIONS,
           (('choices=("block", "pass"), supported=("block",)', 'choices=("block", "pass")'),)),
    broken("max_rounds", "N", "cap one round later", GAME,
           (("race.round >= self.rules.options.max_rounds", "race.round > self.rules.options.max_rounds"),)),
    *switch("drivers (season)", {SEASON: ["self.config.drivers"]}, B),
    broken("season_grid", "'winner_pole'", "read as 'reverse'", SEASON,
           (('list(finish) if mode == "winner_pole"', 'list(finish) if mode == "never"'),)),
    broken("season_grid", "'reverse'", "read as 'winner_pole'", SEASON,
           (('list(finish) if mode == "winner_pole"', "list(finish) if True"),)),
    *switch("season_grid_purchase", {SEASON: ["self.config.grid_purchase"]}, B),
    broken("season_points", "'players_minus_place'", "one point less", SEASON,
           (("return players - place + 1", "return players - place"),)),
    broken("season_points", "[list]", "read one place off", SEASON,
           (("return self.points[place - 1] if place <= len(self.points)",
             "return self.points[place % len(self.points)] if place <= len(self.points)"),)),
    *switch("sponsor_level_by_draft", {SEASON: ["self.config.level_by_draft"]}, B),
]

TABLE = Table("automobiles", "the Automobiles rule options", MUTANTS, tests=tuple(TESTS))
