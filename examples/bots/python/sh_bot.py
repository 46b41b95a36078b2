#!/usr/bin/env python3
"""A greedy-ish Speed Hazard bot: accelerate as much as allowed, keep what luck gives, brake
as little as it may, and step where the ruleset lists first. It reads the options' values
(`accelerate`, `brake`, `keep`: docs/bots.md), not their keys."""

from botlib import best, run


def choose(state, act):
    values, kind = [o.get("value", {}) for o in act["options"]], act["kind"]
    if kind == "accelerate":  # nitrous (no `accelerate` value) only when nothing else is offered
        return best(values, lambda v: v.get("accelerate", -1))
    if kind == "brake":
        return best(values, lambda v: -v.get("brake", 999))
    if kind == "luck":
        return next((i for i, v in enumerate(values) if v.get("keep")), 0)
    return 0


if __name__ == "__main__":
    run("python sh greedy-ish", choose)
