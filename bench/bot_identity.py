#!/usr/bin/env python3
"""One sha256 over the logs of a fixed set of seeded Automobiles races, here and at a revision.

    .venv/bin/python bench/bot_identity.py [--races N] [--seasons S] [--against REV | --no-against]

A speed change to a bot or to the engine must leave every choice and every log line as it was.
This plays N seeded races (default 160): both bundled tracks, 2-5 players, greedy, random and
look-ahead seats mixed, drivers drafted or given, card sets drawn from the seed), then S short
seasons (default 4; sponsors and their decisions between races), and hashes each log's lines
(header and result included) into one digest. With `--against REV`
(default HEAD, i.e. the last commit, so uncommitted work is checked against it) the same races
are played by the engine at REV, checked out into a temporary `git worktree`, and the two
digests are compared: exit 0 when they are the same, 1 when not (the first race that differs
is named, counting races first, then seasons).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# Runs in a fresh process against either checkout (argv: races, seasons).
_WORKER = r"""
import hashlib, json, random, sys
from slipstream.engine.play.racelog import log_lines
from slipstream.engine.rulesets.automobiles.runner import RaceSpec, load_pack_cached, run_race
from slipstream.engine.rulesets.automobiles.seasonrun import SeasonSpec, run_season

races, seasons = int(sys.argv[1]), int(sys.argv[2])
pack = load_pack_cached("")
tracks = sorted(pack.tracks)
drivers = sorted(pack.drivers)
total = hashlib.sha256()
per_race = []
for i in range(races):
    r = random.Random(f"fingerprint-{i}")
    n = 2 + i % 4
    bots = []
    for s in range(n):
        x = r.random()
        bots.append("random" if x < 0.2 else "lookahead:2" if x < 0.26 else "greedy")
    opts = ()
    drv = ()
    if i % 3 == 1:
        opts = (("drivers_in_single_races", True),)
    elif i % 3 == 2 and drivers:
        drv = tuple(r.sample(drivers, n))
    spec = RaceSpec("", tracks[i % len(tracks)], 1000 + i, tuple(bots), card_set="random",
                    options=opts, drivers=drv)
    res = run_race(spec)
    h = hashlib.sha256()
    for line in log_lines(res.header, res.log, res.result):
        h.update(line.encode())
        h.update(b"\n")
    per_race.append(h.hexdigest())
    total.update(h.digest())
for i in range(seasons):
    bots = (("greedy", "greedy", "random"), ("greedy", "lookahead:2", "greedy", "greedy"))[i % 2]
    res = run_season(SeasonSpec("", tuple(tracks), 2000 + i, bots, card_set="random",
                                season_options=(("drivers", True),)))
    h = hashlib.sha256("\n".join(res.lines).encode())
    per_race.append(h.hexdigest())
    total.update(h.digest())
print(json.dumps({"digest": total.hexdigest(), "races": per_race}))
"""


def _shim(root: Path, into: Path) -> Path:
    """A folder whose `slipstream` package maps onto the checkout at `root` (no install)."""
    pkg = into / "slipstream"
    pkg.mkdir(parents=True)
    for part, folder in (("engine", "engine"), ("schemas", "schemas"), ("content", "content")):
        (pkg / part).symlink_to(root / folder, target_is_directory=True)
    return into


def fingerprint(root: Path, races: int, seasons: int, tmp: Path, name: str) -> dict[str, object]:
    """The digest of the races played by the checkout at `root`, in a fresh process."""
    shim = _shim(root, tmp / f"shim-{name}")
    env = {**os.environ, "PYTHONPATH": str(shim), "SLIPSTREAM_CACHE_DIR": tempfile.mkdtemp(dir=tmp)}
    done = subprocess.run([sys.executable, "-c", _WORKER, str(races), str(seasons)], capture_output=True, text=True,
                          env=env, cwd=shim)
    if done.returncode != 0:
        raise SystemExit(f"fingerprint worker ({name}) failed:\n{done.stderr[-2000:]}")
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--races", type=int, default=160, help="races to play (default 160)")
    ap.add_argument("--seasons", type=int, default=4, help="seasons to play after them (default 4)")
    ap.add_argument("--against", metavar="REV", default="HEAD",
                    help="also play them at git revision REV and compare (default HEAD)")
    ap.add_argument("--no-against", action="store_true", help="only this checkout's digest")
    args = ap.parse_args()
    here = Path(__file__).resolve().parent.parent
    tmp = Path(tempfile.mkdtemp(prefix="slipstream-fingerprint-"))
    wt = tmp / "against"
    try:
        mine = fingerprint(here, args.races, args.seasons, tmp, "this")
        print(f"this checkout: {mine['digest']}  ({args.races} races, {args.seasons} seasons)")
        if args.no_against:
            return 0
        subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", "-q", str(wt), args.against],
                       check=True)
        theirs = fingerprint(wt, args.races, args.seasons, tmp, "against")
        print(f"{args.against:<13}: {theirs['digest']}")
        if mine["digest"] == theirs["digest"]:
            print("identical")
            return 0
        a, b = mine["races"], theirs["races"]
        assert isinstance(a, list) and isinstance(b, list)
        first = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
        print(f"DIFFERENT: {sum(x != y for x, y in zip(a, b, strict=True))} races differ, the first is log {first}")
        return 1
    finally:
        subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(wt)], check=False,
                       capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
