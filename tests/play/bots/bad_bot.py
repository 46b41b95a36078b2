"""A bot that misbehaves on purpose at its AFTER-th decision (tests/play/test_extbots.py).

    bad_bot.py MODE AFTER [PIDFILE]

MODE: garbage (a line that is not JSON), range (an index past the options), sleep (no reply
for a minute), die (exits), flood (a 10 MB line), mute (never answers hello), hang (writes its
pid to PIDFILE at hello, then never answers), slow (answers each decision in two pieces, 5 ms
apart, within the limit: no fault). Before its AFTER-th decision it plays option 0.
"""

import json
import sys
import time

mode, after = sys.argv[1], int(sys.argv[2])
seen = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["t"] == "hello":
        if mode == "mute":
            time.sleep(60)
        if mode == "hang":
            with open(sys.argv[3], "w") as f:
                f.write(str(__import__("os").getpid()))
            time.sleep(600)
        reply = {"t": "ready", "name": "bad " + mode}
    elif msg["t"] == "act":
        seen += 1
        reply = {"choose": 0}
        if seen >= after:
            if mode == "garbage":
                sys.stdout.write("this is not json\n")
                sys.stdout.flush()
                continue
            if mode == "range":
                reply = {"choose": len(msg["options"]) + 5}
            elif mode == "sleep":
                time.sleep(60)
            elif mode == "die":
                sys.exit(3)
            elif mode == "slow":
                sys.stdout.write('{"choose"')
                sys.stdout.flush()
                time.sleep(0.005)
            elif mode == "flood":
                sys.stdout.write("x" * (10 * 1024 * 1024) + "\n")
                sys.stdout.flush()
                continue
    else:
        break
    text = json.dumps(reply)
    sys.stdout.write((text[len('{"choose"'):] if mode == "slow" and seen >= after else text) + "\n")
    sys.stdout.flush()
