"""Packs that extend each other report the cycle (P021), not only "validate the other first" (P022)."""

from __future__ import annotations

from pathlib import Path

import pytest

from slipstream.engine.packs.loader import load_pack
from slipstream.engine.packs.validate import validate_paths


def make_packs(root: Path, extends: dict[str, list[str]]) -> None:
    for pid, parents in extends.items():
        (root / pid).mkdir()
        (root / pid / "pack.yaml").write_text(
            f"slipstream: pack/1\nid: {pid}\nname: {pid}\nversion: 0.1.0\nextends: [{', '.join(parents)}]\n",
            encoding="utf-8")


def codes(folder: Path) -> list[tuple[str, str]]:
    _, diags = load_pack(folder)
    return [(d.code, d.message) for d in diags]


@pytest.mark.parametrize("start", ["a", "b"])
def test_two_packs_that_extend_each_other_report_the_cycle(tmp_path: Path, start: str) -> None:
    make_packs(tmp_path, {"a": ["b"], "b": ["a"]})
    other = "b" if start == "a" else "a"
    assert codes(tmp_path / start) == [("P021", f"extends forms a cycle ({start} -> {other} -> {start} -> ...)")]


def test_a_cycle_of_three_is_reported_with_its_chain(tmp_path: Path) -> None:
    make_packs(tmp_path, {"c": ["d"], "d": ["e"], "e": ["c"]})
    assert codes(tmp_path / "c") == [("P021", "extends forms a cycle (c -> d -> e -> c -> ...)")]
    diags, _ = validate_paths([tmp_path / "d"], use_cache=False)
    assert [d.code for d in diags] == ["P021"] and "d -> e -> c -> d" in diags[0].message


def test_a_pack_that_extends_a_cycle_it_is_not_part_of_gets_p022(tmp_path: Path) -> None:
    make_packs(tmp_path, {"c": ["d"], "d": ["c"], "f": ["c"]})
    assert [c for c, _ in codes(tmp_path / "f")] == ["P022"]


def test_a_pack_extending_a_sound_pack_twice_over_is_no_cycle(tmp_path: Path) -> None:
    make_packs(tmp_path, {"top": ["mid", "low"], "mid": ["low"], "low": ["base"]})
    assert codes(tmp_path / "top") == []  # a diamond over the bundled base pack
