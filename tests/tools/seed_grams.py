#!/usr/bin/env python3
"""Write tests/packs/seed-8grams.bin: every run of 8 words of the seed rule texts, hashed.

    python3 tests/tools/seed_grams.py [SEEDS_DIR]   (default: ../shared/seeds beside the checkout)

The seed texts are not ours to commit; this file holds only a 5-byte BLAKE2b digest of each
8-word run (lower case, words as `[a-z0-9']+`), sorted, so that tests/packs/test_packs.py can
check on any clone that no text of ours repeats 8 words of them. Rerun it when the seeds change.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "packs" / "seed-8grams.bin"
RUN = 8
SIZE = 5  # bytes of digest: with ~23,000 runs, a chance match is about 2e-8 per run looked up


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def digest(run: Iterable[str]) -> bytes:
    return hashlib.blake2b(" ".join(run).encode("utf-8"), digest_size=SIZE).digest()


def runs(text: str) -> list[tuple[str, ...]]:
    w = words(text)
    return [tuple(w[i:i + RUN]) for i in range(len(w) - RUN + 1)]


def seed_digests(seeds: Path) -> bytes:
    text = " ".join(f.read_text(errors="ignore") for f in sorted(seeds.glob("*.txt")))
    return b"".join(sorted({digest(r) for r in runs(text)}))


def load_bytes(data: bytes) -> set[bytes]:
    return {data[i:i + SIZE] for i in range(0, len(data), SIZE)}


def load(path: Path = OUT) -> set[bytes]:
    return load_bytes(path.read_bytes())


def main() -> int:
    seeds = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "seeds"
    if not any(seeds.glob("*.txt")):
        print(f"no seed texts (*.txt) in {seeds}", file=sys.stderr)
        return 2
    OUT.write_bytes(seed_digests(seeds))
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size // SIZE} runs of {RUN} words")
    return 0


if __name__ == "__main__":
    sys.exit(main())
