#!/usr/bin/env python3
"""Validation speed: growth with track size, and the CLI against check-jsonschema.

Prints time per segment for synthetic tracks of 1k, 10k and 100k segments x 4 lanes (the
growth must be linear: the 10k -> 100k time ratio should be 8-12); the same for track/2 tracks
of 25k and 100k segments x 4 lanes with a corner every 50 segments (2,000 at 100k), a link in
every corner and a pit lane (100k in < 3 s, 25k -> 100k ratio 3-5), and, measured in the same
run, `slipstream validate` on the bundled tracks against `check-jsonschema` doing only the
schema check on the same files with the same schema (ratio <= 1.0 is the target).

    .venv/bin/python bench/validate.py [--repeat 3] [--quick]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from slipstream.engine.core.yamlsource import load_text
from slipstream.engine.tracks.load import check_track_data

ROOT = Path(__file__).resolve().parent.parent
LEN = {3: 1, 4: 2, 5: 3, 6: 4}


def synthetic(segments: int, lanes: int = 4, seed: int = 1) -> str:
    """A valid-shaped track: random colours, lengths 1-4, a short gap now and then."""
    rng = random.Random(seed)
    rows = []
    for lane in range(lanes):
        toks, seg = [], 0
        while seg < segments:
            if lane == lanes - 1 and rng.random() < 0.01 and seg > 0 and segments - seg > 8:
                toks.append("-x3")
                seg += 3
                continue
            c = rng.choice((3, 4, 5, 6))
            k = min(LEN[c], segments - seg)
            toks.append(str(c) if k == 1 else f"{c}x{k}")
            seg += k
        rows.append(" ".join(toks))
    n = segments
    grid = [(0, n - 1), (1, n - 1), (2, n - 1), (0, n - 5), (1, n - 5)]
    text = f"slipstream: track/1\nid: synthetic-{segments}\nlanes: {lanes}\nlayout:\n"
    text += "".join(f'  - "{r}"\n' for r in rows)
    text += "grid:\n" + "".join(f"  - {{lane: {ln}, segment: {s}, money: {10 + i}}}\n" for i, (ln, s) in enumerate(grid))
    return text


def synthetic_v2(segments: int, lanes: int = 4, seed: int = 1, plain_lengths: tuple[int, ...] = (1, 2, 3, 4)) -> str:
    """A track/2 track of plain squares (lengths drawn from `plain_lengths`) for the Formula
    Dé-style ruleset: a corner with stops and speed limits every 50 segments, a link removing a
    lane change inside each corner, and a 20-square pit lane across the finish line."""
    rng = random.Random(seed)
    rows = []
    firsts: list[set[int]] = []
    for _lane in range(lanes):
        toks, seg, starts = [], 0, set()
        while seg < segments:
            k = min(rng.choice(plain_lengths), segments - seg)
            starts.add(seg)
            toks.append("o" if k == 1 else f"ox{k}")
            seg += k
        rows.append(" ".join(toks))
        firsts.append(starts)
    n = segments
    grid = [(ln, s) for s in (n - 1, n - 2, n - 3) for ln in range(min(lanes, 4))][:10]
    text = f"slipstream: track/2\nid: synthetic-v2-{segments}\nrulesets: [formula-de]\nlanes: {lanes}\nlayout:\n"
    text += "".join(f'  - "{r}"\n' for r in rows)
    text += "grid:\n" + "".join(f"  - {{lane: {ln}, segment: {s}}}\n" for ln, s in grid)
    text += "corners:\n"
    links = []
    for k, first in enumerate(range(20, n - 60, 50)):
        text += f"  - {{name: c{k}, from: {first}, to: {first + 9}, stops: {1 + k % 3}, speed: {40 + 10 * (k % 4)}}}\n"
        # remove the diagonal from the lane-0 space starting in the corner to the lane-1 space
        # holding the segment after it (a step the geometry always has)
        s = next(x for x in range(first + 3, first + 9) if x in firsts[0])
        t = max(x for x in range(s - 3, s + 2) if x in firsts[1])
        links.append(f'  - {{remove: ["0:{s}", "1:{t}"]}}\n')
    text += "links:\n" + "".join(links)
    lane = lanes - 1
    entry = max(x for x in firsts[lane] if x < n - 30)
    exit_ = min(x for x in firsts[lane] if x > 10)
    text += (f'pit:\n  layout: "{" ".join(["o"] * 20)}"\n  entries:\n    - {{from: "{lane}:{entry}"}}\n'
             f'  exits:\n    - {{to: "{lane}:{exit_}"}}\n  boxes: [{", ".join(str(b) for b in range(2, 12))}]\n')
    return text


def time_validate(text: str, repeat: int) -> tuple[float, int]:
    best = float("inf")
    diags = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        loaded = load_text(text, "synthetic.yaml")
        _, d = check_track_data(loaded.data, loaded.source)
        best = min(best, time.perf_counter() - t0)
        diags = len(d)
    return best, diags


def wall(cmd: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="skip the 100k track")
    args = ap.parse_args()

    print("== growth with track size (4 lanes, load + schema + model + all checks)")
    sizes = [1_000, 10_000] + ([] if args.quick else [100_000])
    results = {}
    for n in sizes:
        text = synthetic(n)
        t, nd = time_validate(text, args.repeat)
        results[n] = t
        print(f"{n:>7} segments: {t:7.3f} s  {t / n * 1e6:6.2f} us/segment  ({nd} diagnostics)")
    if 100_000 in results:
        ratio = results[100_000] / results[10_000]
        print(f"10k -> 100k time ratio: {ratio:.2f} (linear is 10; target 8-12)  "
              f"{'OK' if 8 <= ratio <= 12 else 'OUT OF RANGE'}")
        print(f"100k x 4 lanes: {results[100_000]:.2f} s (target < 3 s)  "
              f"{'OK' if results[100_000] < 3 else 'TOO SLOW'}")

    print("\n== track/2: corners every 50 segments, links, a pit lane (load + schema + model + all checks)")
    from slipstream.engine.packs.validate import register_all

    register_all()  # the ruleset checks of track/2 (`rulesets: [formula-de]`)
    v2 = {}
    for n in [25_000] + ([] if args.quick else [100_000]):
        text = synthetic_v2(n)
        t, nd = time_validate(text, args.repeat)
        v2[n] = t
        print(f"{n:>7} segments: {t:7.3f} s  {t / n * 1e6:6.2f} us/segment  "
              f"({text.count('{name: c')} corners, {text.count('{remove:')} links, {nd} diagnostics)")
    if 100_000 in v2:
        ratio = v2[100_000] / v2[25_000]
        print(f"25k -> 100k time ratio: {ratio:.2f} (linear is 4; target 3-5)  "
              f"{'OK' if 3 <= ratio <= 5 else 'OUT OF RANGE'}")
        print(f"100k x 4 lanes, track/2: {v2[100_000]:.2f} s (target < 3 s)  "
              f"{'OK' if v2[100_000] < 3 else 'TOO SLOW'}")

    print("\n== slipstream validate vs check-jsonschema on the bundled tracks (wall time, median)")
    bindir = Path(sys.executable).parent
    slip = shutil.which("slipstream", path=str(bindir)) or "slipstream"
    cj = shutil.which("check-jsonschema", path=str(bindir))
    tracks = sorted(str(p) for p in (ROOT / "content" / "base" / "tracks").glob("*.yaml"))
    if not cj:
        print("check-jsonschema is not installed (pip install check-jsonschema); skipped")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        schema = Path(tmp) / "track.schema.json"
        schema.write_text((ROOT / "schemas" / "track.schema.json").read_text())
        ours = wall([slip, "validate", *tracks], args.repeat + 2)
        theirs = wall([cj, "--schemafile", str(schema), *tracks], args.repeat + 2)
    ratio = ours / theirs
    print(f"slipstream validate (schema + model + geometry): {ours:.3f} s")
    print(f"check-jsonschema (schema only):                  {theirs:.3f} s")
    print(f"ratio slipstream / check-jsonschema: {ratio:.2f} (target <= 1.0)  {'OK' if ratio <= 1.0 else 'SLOWER'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
