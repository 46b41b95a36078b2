"""The stable ids of the speed-and-hazard rules (docs/rules/speed-hazard.md), for scenarios.

A scenario (`sh-scenario/1`) names what it tests in `covers:`: `rule:ID` with an id of this
table, or a card of the pack by its id (`card:` an action card, `hazard:`, `nitrous:`,
`equipment:` a card of those decks). An unknown id is reported (C105), and a test fails while
a rule or a card of the bundled pack has no scenario. A new rule is one line here, one row in
docs/speed-hazard-scenarios.md and a scenario in content/speed-hazard/tests/.
"""

from __future__ import annotations

from typing import Any

# id -> (section of docs/rules/speed-hazard.md, what the rule says)
RULES: dict[str, tuple[str, str]] = {
    "grid-by-lot": ("Setup", "the grid order is drawn by lot from the race's generator"),
    "car-start": ("The car", "cars start at their starting speed and maximum with their tokens and luck"),
    "secret-choice": ("A round", "every car chooses a card in secret; the cards are revealed together"),
    "card-performable": ("A round", "only a card with an action the car can perform now may be chosen"),
    "turn-order": ("A round", "cars take their turns by card number, lowest first"),
    "order-ties": ("A round", "ties: the faster car, then the car further ahead, then the inner lane"),
    "exact-movement": ("Movement", "a car moves exactly speed / 10 squares, ahead or diagonally ahead"),
    "no-occupied-square": ("Movement", "a car never enters a square holding a car or a wreck"),
    "forced-rear-end": ("Movement", "blocked with squares to go: bump a car ahead, 2 damage dice each, the turn ends"),
    "speed-drop-mid-move": ("Movement", "a speed drop in mid-move finishes the turn as if begun at the new speed"),
    "curve-entry": ("Curves", "entering a curve draws one hazard card per 10 km/h over its limit"),
    "curve-free-passage": ("Curves", "the rest of the curve and a directly following curve are free"),
    "curve-after-straight": ("Curves", "a curve after a straight is checked again"),
    "curve-accelerate": ("Curves", "accelerating on a curve square above its limit draws per 10 km/h accelerated"),
    "curve-inner-lane": ("Curves", "moving to an inner lane over its limit in a curve draws one card"),
    "check-leaving-curve": ("Readings", "with check_leaving_curve, stepping off a curve draws as on entry"),
    "damage-dice": ("Damage", "each damage point lowers the maximum by 10 km/h; a faster speed drops to it"),
    "wreck": ("Damage", "maximum 0 makes a wreck: out of the race, a permanent obstacle"),
    "brake": ("Action cards", "Brake lowers the speed by 10 to 40 km/h before moving, never below 0"),
    "accelerate": ("Action cards", "Accelerate adds 0, 10 or 20 km/h within the maximum"),
    "nitrous-boost": ("Action cards", "a nitrous card that adds km/h lets the speed pass the maximum"),
    "nitrous-explosion": ("Action cards", "a nitrous explosion adds its km/h and rolls its damage dice"),
    "nitrous-click": ("Action cards", "a click adds nothing and shuffles every nitrous card into a new deck"),
    "nitrous-turn-end": ("Action cards", "at the end of the turn a nitrous car drops to its maximum"),
    "nitrous-until-curve": ("Readings", "with nitrous_until: curve, the nitrous lasts until the car leaves a curve"),
    "ram-side": ("Action cards", "a side ram (diagonally ahead): 1 die and 2 dice, the rammer drives on"),
    "ram-rear": ("Action cards", "a rear ram (directly ahead): 1 die and 2 dice, the rammer's turn ends"),
    "ram-head-on": ("Action cards", "a head-on ram against the direction: 3 and 4 dice, both speeds 0, the turn ends"),
    "ram-not-behind": ("Action cards", "never ram a car behind or level beside (level only with ram_beside)"),
    "ram-needs-target": ("Action cards", "Ram can be chosen only when a target can be reached this turn"),
    "ram-after-move": ("Action cards", "a Ram may come right after the move; a target gone is a missed ram"),
    "pit-wall": ("Readings", "a car side-rammed beside the pit road hits the pit wall: 3 dice"),
    "sabotage-drop": ("Action cards", "Sabotage drops 1 or 2 tokens of one kind on squares passed, not the last"),
    "sabotage-needs-token": ("Action cards", "Sabotage needs at least one token"),
    "sabotage-start-square": ("Readings", "the starting square counts as passed (option sabotage_start_square)"),
    "token-effects": ("Action cards", "tacks roll 1 damage die, oil draws 1 hazard card, glue costs 20 km/h"),
    "token-removed": ("Action cards", "a token hit is removed from the board"),
    "u-turn": ("Action cards", "the U-turn card: across the road (10 km/h curve, then 10) or a skid (40, then 0)"),
    "u-turn-lanes": ("Action cards", "the U-turn card only from the inner or outer lane (option u_turn_lanes)"),
    "u-turn-blocked": ("Action cards", "a U-turn blocked by cars may be chosen; blocked at its turn, the car drives on normally"),
    "u-turn-tokens": ("Action cards", "tokens on every square a U-turn crosses act on its last square"),
    "reverse-laps": ("Readings", "crossing the line backwards counts a lap down (option reverse_laps)"),
    "hazard-reshuffle": ("Hazards and luck", "the used hazard cards become a new deck when it runs out"),
    "spin": ("Hazards and luck", "a spin sets the speed to 0 and ends the turn"),
    "insanity-kept": ("Hazards and luck", "insanity cards are kept and act while held"),
    "luck-redraw": ("Hazards and luck", "a luck token cancels a drawn card for another"),
    "pit-entry": ("The pit road", "entering the pit road is checked against its entry limit and ends the move"),
    "pit-shopping": ("The pit road", "15 points: equipment 5, repair 1 per 10 km/h up to 140, tokens 1 up to 8, therapy 2"),
    "pit-speed-zero": ("The pit road", "after shopping the speed is 0; points left are lost"),
    "equipment-hold": ("The pit road", "equipment: draw 2 keep 1; a fourth card held goes back"),
    "pit-leave": ("The pit road", "a car leaves with Accelerate onto the exit square and drives on"),
    "pit-fifo": ("The pit road", "cars leave the pit road in the order they came in; a blocked exit waits"),
    "pit-exit-choice": ("The pit road", "with several free exit squares the player chooses the one to leave onto"),
    "pit-safe": ("The pit road", "a car in the pit road cannot be rammed"),
    "pit-closed-entries": ("Readings", "only the main entry is open (option all_pit_entries)"),
    "finish": ("Winning", "the first car over the line after the last lap wins at once"),
    "pit-extra-lap": ("Winning", "a pit visit carrying a car over the line means one more lap"),
    "standings": ("Winning", "the others by how far they got; wrecks last, the latest wreck first"),
}

PREFIXES = ("rule", "card", "hazard", "nitrous", "equipment")


def cover_ids(decks: Any) -> set[str]:
    """Every id a scenario may cover: the rules and the cards of the pack's decks."""
    out = {f"rule:{r}" for r in RULES}
    out |= {f"card:{a.id}" for a in decks.actions}
    out |= {f"hazard:{c.id}" for c in decks.hazards}
    out |= {f"nitrous:{c.id}" for c in decks.nitrous}
    out |= {f"equipment:{c.id}" for c in decks.equipment}
    return out
