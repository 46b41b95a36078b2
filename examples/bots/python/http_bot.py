#!/usr/bin/env python3
"""The example bots behind an HTTP address (docs/bots.md, `--bots http://HOST:PORT`).

    http_bot.py [--port PORT] [--random]

Serves POST /start (hello: answers ready), /move (act: answers {"choose": INDEX}) and /end,
one game per `game` id of the messages, several at a time. Each game plays the greedy-ish
example bot of its ruleset (fd_bot, sh_bot, automobiles_bot; random_bot for another ruleset),
or random_bot with --random. Prints `listening on http://HOST:PORT` when ready (port 0: any
free port). Standard library only.
"""

import argparse
import json
import random
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import automobiles_bot
import fd_bot
import random_bot
import sh_bot

BY_RULESET = {"formula-de": fd_bot.choose, "speed-hazard": sh_bot.choose, "automobiles": automobiles_bot.choose}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep the connection between moves
    # the head and the body of a reply are two writes: with Nagle's algorithm on, the body waits
    # for the engine to acknowledge the head, which it delays (about 40 ms on Linux) every move
    disable_nagle_algorithm = True
    games = {}
    lock = threading.Lock()
    only_random = False

    def log_message(self, *args):  # quiet
        pass

    def do_POST(self):
        msg = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        game = msg.get("game", "")
        reply = {}
        if self.path.endswith("/start"):
            logic = random_bot.choose if self.only_random else BY_RULESET.get(msg.get("ruleset"), random_bot.choose)
            with self.lock:
                self.games[game] = ({"hello": msg, "rng": random.Random(msg.get("seed", 0))}, logic)
            reply = {"t": "ready", "name": "python http " + logic.__module__}
        elif self.path.endswith("/move"):
            state, logic = self.games[game]
            reply = {"choose": logic(state, msg)}
        elif self.path.endswith("/end"):
            with self.lock:
                self.games.pop(game, None)
        body = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--random", action="store_true", help="play random_bot whatever the ruleset")
    args = ap.parse_args()
    Handler.only_random = args.random
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    print(f"listening on http://{args.host}:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
