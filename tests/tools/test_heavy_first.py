"""Every entry of conftest.HEAVY_FIRST names a test that exists (a renamed test would otherwise
silently lose its place at the front of the run)."""

from __future__ import annotations

import re

from conftest import HEAVY_FIRST
from helpers import ROOT


def test_every_heavy_first_entry_names_a_test_function_of_its_file():
    missing = []
    for entry in HEAVY_FIRST:
        path, _, name = entry.partition("::")
        file = ROOT / path
        if not (file.is_file() and re.search(rf"^(async )?def {re.escape(name)}\(", file.read_text(), re.M)):
            missing.append(entry)
    assert missing == []
    assert len(set(HEAVY_FIRST)) == len(HEAVY_FIRST)
