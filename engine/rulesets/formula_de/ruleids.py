"""The stable ids of the Formula Dé-style rules (docs/rules/formula-de.md), for scenarios.

A scenario (`fd-scenario/1`) names the rules it tests in `covers: [rule:ID]`; an id not in this
table is reported (C105), and a test fails while a rule has no scenario. A new rule is one line
here, one row in docs/formula-de-scenarios.md and a scenario in content/formula-de/tests/.
"""

from __future__ import annotations

# id -> (section of docs/rules/formula-de.md, what the rule says)
RULES: dict[str, tuple[str, str]] = {
    "grid-roll": ("Setup", "the lowest black-die roll takes pole, the next slot 2, and so on"),
    "grid-ties": ("Setup", "cars that tie roll again among themselves"),
    "full-wear": ("Setup", "every car starts with the wear points of the race length"),
    "race-order": ("A turn", "the leader moves first, each turn"),
    "start-first-gear": ("A turn", "the first turn is in 1st gear, the start roll on the black die"),
    "start-stall": ("A turn", "a start roll of 1 stalls: no move, 1st gear next turn"),
    "flying-start": ("A turn", "a start roll of 20 moves 4 squares"),
    "start-normal": ("A turn", "any other start roll moves by the 1st-gear die"),
    "gear-up-one": ("A turn", "shift up one gear at most, keep it, or shift down"),
    "downshift-one-free": ("Downshifts", "shifting down one gear is free"),
    "downshift-skip-one": ("Downshifts", "skipping 1 gear costs 1 transmission point"),
    "downshift-skip-two": ("Downshifts", "skipping 2 gears costs 1 transmission and 1 brake point"),
    "downshift-skip-three": ("Downshifts", "skipping 3 gears costs 1 transmission, 1 brake and 1 engine point"),
    "six-to-one-ban": ("Downshifts", "at most 3 gears skipped: 6th to 1st is never allowed"),
    "downshift-no-gearbox": ("Downshifts", "with no transmission point left a car cannot skip gears"),
    "downshift-needs-points": ("Readings", "a skip needing a point the car lacks is refused (option: allowed, out)"),
    "gear-dice": ("The car", "each gear rolls its own die"),
    "exact-movement": ("A turn", "a car moves exactly the rolled squares, forward or diagonally forward"),
    "never-through-a-car": ("A turn", "never onto or through another car"),
    "move-graph-links": ("A turn", "lane changes follow the board's links"),
    "brakes": ("A turn", "stopping short costs 1 brake point a square, only while brake points last"),
    "blocked-lane": ("Blocked lane", "1-3 squares lost cost brakes; 4-7 cost 3 brakes and a tyre point each beyond 3"),
    "blocked-out": ("Blocked lane", "more than 7 squares lost, or a cost it cannot pay, eliminates; the car ahead loses 1 body point"),
    "corner-stops": ("A turn", "ending inside a corner counts one stop for that corner"),
    "overshoot-tyres": ("Overshoot", "1 tyre point for each square driven past the corner's end"),
    "overshoot-split": ("Overshoot", "the loss may be split between tyres and brakes"),
    "stops-missed": ("Overshoot", "out with no stop in a 2-stop corner, none or one in a 3-stop corner"),
    "overshoot-same-lane": ("Overshoot", "the car keeps to the lane it leaves the corner in"),
    "overshoot-next-corner": ("Overshoot", "resting in the next corner does not count as a stop there"),
    "overshoot-blocked-exit": ("Overshoot", "a car on the way out blocks it: the blocked-lane rule applies"),
    "one-lap-tyre-limit": ("Overshoot", "in a 1-lap race, more than 4 tyre points lost in all eliminates"),
    "spin": ("Overshoot", "losing the last tyre point spins the car into 1st gear"),
    "overshoot-beyond-tyres": ("Readings", "squares owed beyond the last tyre point eliminate"),
    "collision-order": ("Collisions", "each neighbour rolls once, then the mover once per neighbour, last"),
    "collision-body": ("Collisions", "a roll of 1 costs a body point; no body point left eliminates"),
    "collision-eliminated-neighbour": ("Collisions", "a neighbour eliminated by its roll costs the mover a body point instead of a roll"),
    "collision-diagonal": ("Readings", "a car diagonally behind counts (option collision_diagonal)"),
    "engine-damage": ("Engine damage", "a top roll in 5th or 6th: every car in 5th or 6th rolls, 1-4 costs an engine point"),
    "engine-out": ("Engine damage", "the last engine point lost eliminates"),
    "finish": ("Finish", "the first car across the line after the last lap wins"),
    "race-end": ("Finish", "the race goes on until every running car has crossed; eliminated cars behind"),
    "basic-wear": ("The car", "the basic game's one pool of wear points (option wear_model)"),
}
