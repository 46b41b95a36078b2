"""Every entry of conftest.HEAVY_FIRST is a test file of the suite (a renamed or moved file
would otherwise silently lose its place at the front of the run)."""

from __future__ import annotations

from conftest import HEAVY_FIRST
from helpers import ROOT


def test_every_heavy_first_entry_is_a_test_file():
    assert [f for f in HEAVY_FIRST if not ((ROOT / f).is_file() and f.startswith("tests/")
                                           and f.rsplit("/", 1)[1].startswith("test_"))] == []
    assert len(set(HEAVY_FIRST)) == len(HEAVY_FIRST)
