#!/usr/bin/env python3
"""A greedy-ish Formula De bot: the highest gear whose longest roll still stops inside the
next corner (the track comes with the hello), the stop that goes farthest without braking,
and no pit stop."""

import re

from botlib import best, number, run

# the longest roll of each gear's die (the example's own table: the bundled pack's dice)
LONGEST = {1: 2, 2: 4, 3: 8, 4: 12, 5: 20, 6: 30}


def room(track, segment):
    """Squares from `segment` to the last square of the corner it is in, else of the next one."""
    n = track["segments"]
    out = n
    for c in track.get("corners", []):
        first, last = c["first"], c["last"]
        if (segment - first) % n <= (last - first) % n:  # inside this corner
            return (last - segment) % n
        out = min(out, (last - segment) % n)
    return out


def squares(option):
    """Squares a move drives: its structured value, else read from its label."""
    if "value" in option:
        return option["value"]["squares"]
    m = re.search(r"\((\d+) squares?\)", option["label"])
    return int(m.group(1)) if m else 0


def brakes(option):
    return option["value"]["brake"] > 0 if "value" in option else "brake" in option["label"]


def choose(state, act):
    opts, kind = act["options"], act["kind"]
    if kind == "gear":
        car = next((c["cell"] for c in act.get("cars", []) if c["seat"] == act["seat"]), None)
        limit = room(state["hello"]["track"], car[1]) if car else 8
        gears = [(number(o["key"]), "costs" in o["label"], i) for i, o in enumerate(opts)]
        safe = [g for g in gears if LONGEST.get(g[0], 99) <= max(limit, 2)]
        # the highest safe gear, one that costs no wear if there is one; else the lowest gear
        pick = max(safe, key=lambda g: (not g[1], g[0])) if safe else min(gears)
        return pick[2]
    if kind == "move":
        return best(opts, lambda o: squares(o) - 3 * brakes(o))
    if kind == "pit":
        return next((i for i, o in enumerate(opts) if o["key"] == "stay out"), 0)
    return 0


if __name__ == "__main__":
    run("python fd greedy-ish", choose)
