#!/usr/bin/env python3
"""A greedy-ish Automobiles bot: buys the highest gear it can, plays its highest gear first,
takes standard turns, and otherwise the first option the ruleset lists."""

from botlib import best, number, run


def gear(key, verb):
    return number(key, 0) if key.startswith(verb + " gear-") else 0


def choose(state, act):
    opts, kind = act["options"], act["kind"]
    if kind in ("purchase", "buy"):
        i = best(opts, lambda o: gear(o["key"], "buy"))
        if gear(opts[i]["key"], "buy"):
            return i
        return next((j for j, o in enumerate(opts) if o["key"] in ("end", "done")), 0)
    if kind == "action":
        i = best(opts, lambda o: gear(o["key"], "play"))
        if gear(opts[i]["key"], "play"):
            return i
        return next((j for j, o in enumerate(opts) if o["key"] == "end"), 0)
    if kind == "turn":
        return next((j for j, o in enumerate(opts) if o["key"] == "standard"), 0)
    if kind == "move":
        return next((j for j, o in enumerate(opts) if o["key"] != "stop"), 0)
    return 0


if __name__ == "__main__":
    run("python automobiles greedy-ish", choose)
