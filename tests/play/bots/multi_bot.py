"""A bot that plays every seat of its command in one process (`"seats": "many"` in its ready,
unless the second argument is `one`): an option by seat and round. With `sleep` as the
second argument it stops answering at its fifth `act`. At each hello it
appends `PID SEAT` to the file named by its first argument; it exits when its input closes."""

import json
import os
import sys
import time

many = sys.argv[2:] != ["one"]
acts = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["t"] == "hello":
        with open(sys.argv[1], "a") as f:
            f.write(f"{os.getpid()} {m['seat']}\n")
        reply = {"t": "ready", "name": "multi", **({"seats": "many"} if many else {})}
    elif m["t"] == "act":
        acts += 1
        if sys.argv[2:] == ["sleep"] and acts == 5:
            time.sleep(30)
        reply = {"choose": (m["seat"] + m["round"]) % len(m["options"])}
    else:
        if not many:
            break
        continue
    print(json.dumps(reply), flush=True)
