"""A bot that plays every seat of its command in one process (`"seats": "many"` in its ready,
unless the second argument is `one`): the first option of each decision. At each hello it
appends `PID SEAT` to the file named by its first argument; it exits when its input closes."""

import json
import os
import sys

many = sys.argv[2:] != ["one"]
for line in sys.stdin:
    m = json.loads(line)
    if m["t"] == "hello":
        with open(sys.argv[1], "a") as f:
            f.write(f"{os.getpid()} {m['seat']}\n")
        reply = {"t": "ready", "name": "multi", **({"seats": "many"} if many else {})}
    elif m["t"] == "act":
        reply = {"choose": (m["seat"] + m["round"]) % len(m["options"])}
    else:
        if not many:
            break
        continue
    print(json.dumps(reply), flush=True)
