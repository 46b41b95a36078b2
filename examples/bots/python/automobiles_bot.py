#!/usr/bin/env python3
"""A greedy-ish Automobiles bot: buys the highest gear it can, plays its highest gear first,
takes standard turns, and otherwise the first option the ruleset lists. It reads the options'
values (`buy`, `play`, `gear`, `pit`, `end`: docs/bots.md), not their keys."""

from botlib import best, run


def gear(value, verb):
    """The gear of a cube the option buys or plays (`verb`), else 0."""
    return (value.get("gear") or 0) if verb in value else 0


def choose(state, act):
    values, kind = [o.get("value", {}) for o in act["options"]], act["kind"]
    end = next((i for i, v in enumerate(values) if v.get("end")), 0)
    if kind in ("purchase", "buy", "action"):
        verb = "play" if kind == "action" else "buy"
        i = best(values, lambda v: gear(v, verb))
        return i if gear(values[i], verb) else end
    if kind == "turn":
        return next((i for i, v in enumerate(values) if v.get("pit") is False), 0)
    if kind == "move":
        return next((i for i, v in enumerate(values) if not v.get("end")), 0)
    return 0


if __name__ == "__main__":
    run("python automobiles greedy-ish", choose)
