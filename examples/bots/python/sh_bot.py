#!/usr/bin/env python3
"""A greedy-ish Speed Hazard bot: accelerate as much as allowed, keep what luck gives, brake
as little as it may, and step where the ruleset lists first."""

from botlib import best, number, run


def choose(state, act):
    opts, kind = act["options"], act["kind"]
    if kind == "accelerate":
        return best(opts, lambda o: number(o["key"], -1) if o["key"].startswith("accelerate") else -1)
    if kind == "brake":
        return best(opts, lambda o: -number(o["key"], 999))
    if kind == "luck":
        return next((i for i, o in enumerate(opts) if o["key"] == "keep"), 0)
    return 0


if __name__ == "__main__":
    run("python sh greedy-ish", choose)
