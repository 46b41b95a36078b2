#!/usr/bin/env python3
"""A greedy-ish Formula De bot: a high gear (a lower one with worn tyres or in a corner),
the stop that goes farthest without braking, and no pit stop."""

import re

from botlib import best, number, run


def squares(label):
    m = re.search(r"\((\d+) squares?\)", label)
    return int(m.group(1)) if m else 0


def choose(state, act):
    opts, view = act["options"], act["view"]
    kind = act["kind"]
    if kind == "gear":
        cornering = view.get("stops in this corner", "-") != "-"
        tyres = number(view.get("tyres", "9"), 9)
        cap = 4 if cornering or tyres <= 1 else 6
        fits = [i for i, o in enumerate(opts) if number(o["key"]) <= cap]
        return max(fits, key=lambda i: number(opts[i]["key"])) if fits else 0
    if kind == "move":
        # farthest first; any brake, wear or leaving the race costs more than a square
        return best(opts, lambda o: squares(o["label"]) - 3 * ("brake" in o["label"])
                    - 10 * ("tyre" in o["label"]) - 100 * ("out" in o["label"]))
    if kind == "pit":
        return next((i for i, o in enumerate(opts) if o["key"] == "stay out"), 0)
    return 0


if __name__ == "__main__":
    run("python fd greedy-ish", choose)
