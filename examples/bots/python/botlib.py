"""A few lines that speak Slipstream's bot protocol (docs/bots.md) over stdin and stdout.

`run(name, choose)` answers `hello` with `ready`, every `act` with `{"choose": INDEX}` (the
index `choose(state, act)` returns) and stops at `end` or when its input closes. `state` holds
the hello message (`state["hello"]`) and a random generator seeded by the seat's seed
(`state["rng"]`), so a bot plays the same race the same way. Standard library only.
"""

import json
import random
import sys


def run(name, choose):
    state = {}
    read, loads = sys.stdin.buffer.readline, json.loads
    out = sys.stdout.buffer
    write, flush = out.write, out.flush
    sys.stdout.flush()  # anything printed before (the protocol's lines go straight to the bytes)
    while True:
        line = read()
        if not line:
            return
        msg = loads(line.decode())
        t = msg.get("t")
        if t == "act":
            index = choose(state, msg)
            if type(index) is int:  # the usual reply, written without json
                write(b'{"choose":%d}\n' % index)
                flush()
                continue
            reply = {"choose": index}
        elif t == "hello":
            state["hello"] = msg
            state["rng"] = random.Random(msg.get("seed", 0))
            reply = {"t": "ready", "name": name}
        elif t == "end":
            return
        else:
            continue
        write(json.dumps(reply).encode() + b"\n")
        flush()


def number(text, default=0):
    """The first whole number in a text ("gear 4" -> 4, "to 1:12" -> 1)."""
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        elif digits:
            break
    return int(digits) if digits else default


def best(options, score):
    """The index of the option with the highest score (the first of equals)."""
    return max(range(len(options)), key=lambda i: (score(options[i]), -i))
