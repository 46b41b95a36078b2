#!/usr/bin/env python3
"""Test bot: plays the first option and writes, at each decision, the CPUs it may run on
(argv[1]: the file; argv[2] `any`: its ready asks for every core)."""

import json
import os
import sys


def main() -> None:
    out = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115 - written line by line till the end
    ready = {"t": "ready", "name": "cores"}
    if sys.argv[2:] == ["any"]:
        ready["cores"] = "any"
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("t") == "hello":
            reply = ready
        elif msg.get("t") == "act":
            out.write(" ".join(map(str, sorted(os.sched_getaffinity(0)))) + "\n")
            out.flush()
            reply = {"choose": 0}
        else:
            break
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
