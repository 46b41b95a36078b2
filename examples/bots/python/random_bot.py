#!/usr/bin/env python3
"""A bot for any ruleset: a random legal option at every decision (seeded by the seat)."""

from botlib import run


def choose(state, act):
    return state["rng"].randrange(len(act["options"]))


if __name__ == "__main__":
    run("python random", choose)
