#!/usr/bin/env python3
"""Validating the whole base pack: wall time from the shell, and against check-jsonschema.

Runs `slipstream validate content/base` (every file of the pack: manifest, cubes, cards,
drivers, sponsors, card sets, rules, tracks with their geometry checks, rule scenarios, plus
the cross-checks) as a fresh process, twice over:

- cold: `--no-cache`, every file parsed and checked (a clean CI checkout, the first run);
- warm: the pack unchanged since the last run, answered from the result cache
  (engine/packs/resultcache.py: reads and hashes every file, parses none);

and in the same run `check-jsonschema` doing only the schema check of the same files with the
same schemas (one process per file kind, summed: it takes one schema per run). Prints the
median wall times, the ratio, whether the 0.5 s target is met, and where the time of one
in-process validation goes. The processes run with a private cache folder and with Python's
bytecode cache allowed (as on a normal install), whatever PYTHONDONTWRITEBYTECODE says.

    .venv/bin/python bench/validate_pack.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "content" / "base"
TARGET = 0.5


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall(cmd: list[str], repeat: int) -> float:
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=ROOT, env=ENV)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=ROOT, env=ENV)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def files_by_kind() -> dict[str, list[str]]:
    from slipstream.engine.core.yamlsource import load_file

    out: dict[str, list[str]] = defaultdict(list)
    for f in sorted(PACK.rglob("*.yaml")):
        data = load_file(f).data
        if isinstance(data, dict) and isinstance(data.get("slipstream"), str):
            out[data["slipstream"].partition("/")[0]].append(str(f))
    return out


def in_process_split() -> None:
    """One warm in-process run, split into YAML reading and everything else."""
    from slipstream.engine.core.yamlsource import load_file
    from slipstream.engine.packs.loader import load_pack

    load_pack(PACK)  # warm the schema compilation
    files = sorted(PACK.rglob("*.yaml"))
    t0 = time.perf_counter()
    for f in files:
        load_file(f)
    t1 = time.perf_counter()
    _, diags = load_pack(PACK)
    t2 = time.perf_counter()
    print(f"in process: load_pack {t2 - t1:.3f} s for {len(files)} files "
          f"(of which reading YAML {t1 - t0:.3f} s), {len(diags)} diagnostics")
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "base"
        shutil.copytree(PACK, copy, ignore=shutil.ignore_patterns("tests"))
        load_pack(copy)
        t3 = time.perf_counter()
        load_pack(copy)
        t4 = time.perf_counter()
    n = len([f for f in files if "tests" not in f.relative_to(PACK).parts])
    print(f"in process: load_pack {t4 - t3:.3f} s without the rule scenarios ({n} files)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    bindir = Path(sys.executable).parent
    slip = shutil.which("slipstream", path=str(bindir)) or "slipstream"
    py = sys.executable

    kinds = files_by_kind()
    total = sum(len(v) for v in kinds.values())
    print(f"== base pack: {total} files ({', '.join(f'{k} {len(v)}' for k, v in sorted(kinds.items()))})")
    cache = tempfile.mkdtemp(prefix="slipstream-bench-cache-")
    ENV["SLIPSTREAM_CACHE_DIR"] = cache
    try:
        bare = wall([py, "-c", "pass"], args.repeat)
        startup = wall([py, "-c", "import slipstream.cli.main"], args.repeat)
        cold = wall([slip, "validate", "--no-cache", "content/base"], args.repeat)
        ours = wall([slip, "validate", "content/base"], args.repeat)  # the first (unmeasured) run fills the cache
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(f"python alone:                                      {bare:.3f} s")
    print(f"python + imports of the CLI:                       {startup:.3f} s")
    print(f"slipstream validate --no-cache content/base (cold): {cold:.3f} s  "
          f"(target < {TARGET} s: {'OK' if cold < TARGET else 'OVER'})")
    print(f"slipstream validate content/base, unchanged (warm): {ours:.3f} s  "
          f"(target < {TARGET} s: {'OK' if ours < TARGET else 'OVER'})")
    ours = cold
    cj = shutil.which("check-jsonschema", path=str(bindir))
    if not cj:
        print("check-jsonschema is not installed (pip install check-jsonschema); no ratio")
    else:
        theirs = 0.0
        for kind, files in sorted(kinds.items()):
            schema = ROOT / "schemas" / f"{kind}.schema.json"
            if not schema.is_file():
                continue
            theirs += wall([cj, "--schemafile", str(schema), "--base-uri", schema.as_uri(), *files],
                           max(1, args.repeat // 2))
        print(f"check-jsonschema, schema only (wall, summed): {theirs:.3f} s")
        print(f"ratio slipstream (cold) / check-jsonschema: {ours / theirs:.2f}")
    in_process_split()
    return 0


if __name__ == "__main__":
    sys.exit(main())
