"""bench/fingerprint.py and bench/bots.py play every bundled ruleset through the generic API:
their worker side (what each checkout runs in its own process) on a few races."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[2] / "bench"


def run(script: str, *argv: str, pure: bool = True) -> subprocess.CompletedProcess[str]:
    """The script in a fresh process: pure Python, or (`pure=False`) as this session runs
    (the compiled accelerator when it is built)."""
    env = {**os.environ, "SLIPSTREAM_PURE": "1"} if pure else dict(os.environ)
    return subprocess.run([sys.executable, str(BENCH / script), *argv], capture_output=True, text=True,
                          env=env, timeout=600)


def worker(script: str, *argv: str, pure: bool = True) -> Any:
    done = run(script, "--worker", *argv, pure=pure)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_fingerprint_hashes_every_ruleset_the_same_twice_and_replays() -> None:
    argv = ("--races", "1", "--mixed", "1", "--searched", "1", "--seasons", "0", "--hands", "0", "--other-races", "4",
            "--other-searched", "1", "--other-seasons", "1", "--ruleset", "automobiles,formula-de,speed-hazard",
            "--replay")
    # twice, in two processes: once pure, once as the session runs (the same bytes either way,
    # tests/core/test_accel.py; the compiled run costs about 60% of the pure one)
    a, b = worker("fingerprint.py", *argv), worker("fingerprint.py", *argv, pure=False)
    assert a == b
    assert a["replay_failure"] is None
    # race 3 of each other ruleset has a look-ahead seat (one race in eight); "searched 1" one of
    # the ruleset's full budget
    assert a["labels"] == ["race 1", "mixed 0", "searched 0"] + [f"formula-de {i}" for i in (1, 2, 3, 4)] + \
        ["formula-de searched 1", "formula-de season 1"] + [f"speed-hazard {i}" for i in (1, 2, 3, 4)] + \
        ["speed-hazard searched 1", "speed-hazard season 1"]
    assert len(set(a["digests"])) == len(a["digests"])


def test_fingerprint_keeps_the_rulesets_asked_for() -> None:
    out = worker("fingerprint.py", "--other-races", "2", "--other-searched", "1", "--other-seasons", "0",
                 "--ruleset", "speed-hazard")
    assert out["labels"] == ["speed-hazard 1", "speed-hazard 2", "speed-hazard searched 1"]
    done = run("fingerprint.py", "--ruleset", "automobiles,nope")
    assert done.returncode == 2 and "unknown nope" in done.stderr
    for count in ("--searched", "--other-searched"):
        done = run("fingerprint.py", count, "-1")
        assert done.returncode == 2 and "counts must be >= 0" in done.stderr, count


def test_bots_bench_measures_greedy_lookahead_and_copies_of_every_ruleset() -> None:
    out = worker("bots.py", "--races", "1", "--look-races", "1", "--budget", "1", "--seats", "2",
                 "--ruleset", "automobiles,formula-de,speed-hazard")
    assert set(out["rulesets"]) == {"automobiles", "formula-de", "speed-hazard"}
    for rid, got in out["rulesets"].items():
        assert got["fields"] == {"greedy": "2 greedy", "lookahead": "lookahead:1 + 1 greedy"}, rid
        for part in ("greedy", "lookahead"):
            assert got[part]["races"] > 0 and got[part]["us"] > 0 and got[part]["decisions"] > 0, (rid, part)
        assert got["copy"]["us"] > 0 and got["copy"]["positions"] > 0, rid
