"""Broken packs end in diagnostics, never in a traceback: the base pack mutated at random."""

from __future__ import annotations

import random
import shutil

import pytest
from helpers import CONTENT

from slipstream.engine.core.diagnostics import Diagnostic
from slipstream.engine.packs.loader import load_pack

JUNK = ["-1", "x", "true", "null", "[]", "{}", "99999", '"gear-9"', "base:nothing", "owned", "7",
        "{up_to: x}", "[1, 2]", ": :", "&a [*a]", "{from: nowhere}"]


def _mutate(root, rng: random.Random) -> None:
    files = sorted(p for p in root.rglob("*.yaml"))
    for _ in range(rng.randint(1, 3)):
        f = rng.choice(files)
        lines = f.read_text().splitlines()
        i = rng.randrange(len(lines))
        op = rng.random()
        if op < 0.3:
            del lines[i]
        elif op < 0.8 and ":" in lines[i]:
            lines[i] = lines[i].partition(":")[0] + ": " + rng.choice(JUNK)
        else:
            toks = lines[i].split()
            if toks:
                toks[rng.randrange(len(toks))] = rng.choice(JUNK)
                lines[i] = " " * (len(lines[i]) - len(lines[i].lstrip())) + " ".join(toks)
        f.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("seed", range(4))
def test_randomly_broken_base_packs_give_diagnostics_not_tracebacks(tmp_path, seed):
    rng = random.Random(seed)
    broken = 0
    for i in range(15):
        root = tmp_path / f"v{i}"
        shutil.copytree(CONTENT / "base", root, ignore=shutil.ignore_patterns("tests"))
        _mutate(root, rng)
        pack, diags = load_pack(root)  # must not raise
        assert all(isinstance(d, Diagnostic) and d.line >= 1 and d.column >= 1 for d in diags)
        broken += any(d.is_error for d in diags)
    assert broken >= 5  # the mutations really break packs
