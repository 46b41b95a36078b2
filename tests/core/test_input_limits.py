"""Hostile input of each class that once crashed or took far too long ends in coded diagnostics.

Every case is a small hand-made file; the codes, positions and paths are asserted exactly.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from helpers import CONTENT

from slipstream.engine.core.diagnostics import MAX_MESSAGE_CHARS, shorten
from slipstream.engine.core.schema import MAX_SCHEMA_PROBLEMS
from slipstream.engine.core.yamlsource import MAX_NUMBER_CHARS, load_text
from slipstream.engine.editing.document import TrackDocument
from slipstream.engine.editing.packdoc import PackDocument
from slipstream.engine.packs.validate import validate_paths
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.scenarios import run_file

OVAL = (CONTENT / "base" / "tracks" / "first-oval.yaml").read_text(encoding="utf-8")


def _check(path: Path) -> list[tuple[str, int, int, str]]:
    diags, _ = validate_paths([path], use_cache=False)
    return [(d.code, d.line, d.column, d.path) for d in diags]


def _write(tmp_path: Path, text: str, name: str = "t.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


@pytest.fixture
def pack_copy(tmp_path: Path) -> Path:
    root = tmp_path / "base"
    shutil.copytree(CONTENT / "base", root, ignore=shutil.ignore_patterns("tests"))
    (root / "tests").mkdir()
    return root


# --- mapping keys that YAML reads as numbers -----------------------------------------------

def test_integer_keys_are_unknown_properties_not_a_crash(tmp_path):
    p = _write(tmp_path, OVAL.replace("laps: 3\n", "laps: 3\n1: 7\n7:\n"))
    assert _check(p) == [("S002", 6, 1, "$['1']"), ("S002", 7, 1, "$['7']")]


def test_a_key_keeps_its_own_text():
    data = load_text("1: a\n0x10: b\nyes: c\n~: d\n1.5: e\n", "f").data
    assert data == {"1": "a", "0x10": "b", "yes": "c", "~": "d", "1.5": "e"}


def test_an_integer_key_and_its_quoted_twin_are_duplicates():
    loaded = load_text("a: 1\n1: 2\n'1': 3\n", "f")
    assert [(d.code, d.line, d.column) for d in loaded.diagnostics] == [("Y002", 3, 1)]


def test_an_integer_key_in_a_pack_file_is_reported_in_the_pack(pack_copy):
    cubes = pack_copy / "cubes.yaml"
    cubes.write_text(cubes.read_text(encoding="utf-8") + "1: 7\n", encoding="utf-8")
    line = len(cubes.read_text(encoding="utf-8").splitlines())
    assert _check(pack_copy) == [("S002", line, 1, "$['1']")]


def test_the_track_editor_document_opens_a_file_with_integer_keys(tmp_path):
    p = _write(tmp_path, OVAL.replace("laps: 3\n", "laps: 3\n1: 7\n"))
    doc = TrackDocument.open(p)
    assert [d.code for d in doc.diagnostics] == ["S002"]
    assert doc.state.data is not None and doc.state.data["1"] == 7


def test_the_pack_editor_document_opens_a_pack_with_integer_keys(pack_copy):
    drivers = pack_copy / "drivers.yaml"
    drivers.write_text(drivers.read_text(encoding="utf-8") + "7:\n", encoding="utf-8")
    doc = PackDocument.open(pack_copy)
    try:
        got = [(d.code, d.path) for d in doc.analysis().diagnostics]
    finally:
        doc.close()
    assert got == [("S002", "$['7']")]


def test_a_season_scenario_bag_with_an_integer_key_is_an_unknown_cube_kind(tmp_path):
    src = CONTENT / "base" / "tests" / "seasons" / "sponsor-a1-first.yaml"
    p = _write(tmp_path, src.read_text(encoding="utf-8").replace("    bag: {gear-3: 7}\n", "    bag: {1: 7}\n"))
    result, diags = run_file(p, base_pack())
    assert result is None
    assert [(d.code, d.line, d.path) for d in diags] == [("C103", 17, "$.players[1].bag['1']")]


# --- numbers -------------------------------------------------------------------------------

def test_a_hex_integer_beyond_the_digit_limit_is_refused(tmp_path):
    p = _write(tmp_path, OVAL.replace("laps: 3", "laps: 0x" + "f" * 5000))
    assert _check(p) == [("Y011", 5, 7, "$.laps")]


def test_a_decimal_integer_beyond_the_digit_limit_is_refused(tmp_path):
    p = _write(tmp_path, OVAL.replace("laps: 3", "laps: " + "9" * 5000))
    diags, _ = validate_paths([p], use_cache=False)
    assert [d.code for d in diags] == ["Y011"]
    assert len(diags[0].message) < 100


def test_a_400_digit_coordinate_is_refused(tmp_path):
    p = _write(tmp_path, OVAL.replace("[520, 110]", "[1" + "0" * 400 + ", 110]"))
    assert _check(p) == [("Y011", 21, 8, "$.geometry.centerline[2][0]")]


def test_a_number_at_the_length_limit_is_still_a_number():
    assert load_text("a: " + "1" * MAX_NUMBER_CHARS, "f").data == {"a": int("1" * MAX_NUMBER_CHARS)}
    assert load_text("a: " + "1" * (MAX_NUMBER_CHARS + 1), "f").diagnostics[0].code == "Y011"


@pytest.mark.parametrize("value", [".nan", ".NaN", ".inf", "-.inf", "+.Inf"])
def test_non_finite_coordinates_are_schema_errors(tmp_path, value):
    p = _write(tmp_path, OVAL.replace("[520, 110]", f"[{value}, 110]"))
    assert _check(p) == [("S001", 21, 8, "$.geometry.centerline[2][0]")]


def test_a_nan_lane_width_is_a_schema_error(tmp_path):
    p = _write(tmp_path, OVAL.replace("lane_width: 40", "lane_width: .nan"))
    diags, _ = validate_paths([p], use_cache=False)
    assert [(d.code, d.path) for d in diags] == [("S001", "$.geometry.lane_width")]
    assert "nan is not a number" in diags[0].message


def test_nan_in_extension_data_is_only_data(tmp_path):
    p = _write(tmp_path, OVAL + "x-note: .nan\n")
    assert _check(p) == []


@pytest.mark.parametrize(("old", "new", "path"), [
    ("[520, 110]", "[1.0e+300, 110]", "$.geometry.centerline[2][0]"),
    ("[520, 110]", "[520, -1000001]", "$.geometry.centerline[2][1]"),
    ("lane_width: 40", "lane_width: 1.0e+9", "$.geometry.lane_width"),
])
def test_coordinates_far_beyond_any_drawing_are_schema_errors(tmp_path, old, new, path):
    p = _write(tmp_path, OVAL.replace(old, new))
    assert [(c, pth) for c, _, _, pth in _check(p)] == [("S001", path)]


def test_a_long_sexagesimal_integer_is_refused_at_once():
    text = "a: 1" + ":0" * 400_000  # 800 KB; int() of it took over 10 s
    start = time.perf_counter()
    loaded = load_text(text, "f")
    elapsed = time.perf_counter() - start
    assert [(d.code, d.line, d.column) for d in loaded.diagnostics] == [("Y011", 1, 4)]
    assert elapsed < 2


# --- long lists and big values ---------------------------------------------------------------

def _replacing_pack(tmp_path: Path, refs: list[str]) -> Path:
    root = tmp_path / "mod"
    root.mkdir()
    (root / "pack.yaml").write_text(
        "slipstream: pack/1\nid: mod\nname: Mod\nversion: 0.1.0\nextends: [base]\n"
        f"replaces: [{', '.join(refs)}]\n", encoding="utf-8")
    return root


def test_twenty_thousand_replaces_entries_are_checked_in_linear_time(tmp_path):
    root = _replacing_pack(tmp_path, [f"base:item-{i}" for i in range(20_000)])
    start = time.perf_counter()
    diags, _ = validate_paths([root], use_cache=False)
    assert time.perf_counter() - start < 10  # the pairwise check took two minutes
    assert {d.code for d in diags} == {"P025"} and len(diags) == 20_000


def test_a_duplicate_among_many_replaces_entries_is_found(tmp_path):
    root = _replacing_pack(tmp_path, [f"base:item-{i}" for i in range(5_000)] + ["base:item-7", "3"])
    start = time.perf_counter()
    diags, _ = validate_paths([root], use_cache=False)
    assert time.perf_counter() - start < 10  # jsonschema compared every pair of items
    schema = [d for d in diags if d.code == "S001"]
    assert {d.path for d in schema} == {"$.replaces", "$.replaces[5001]"}
    assert any("non-unique" in d.message for d in schema)


ALIASES = """slipstream: track/1
id: t
lanes: 1
layout: ["3 4x2 5x3 6x4"]
a: &a [x, x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
grid: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
"""


def test_a_small_alias_file_gives_small_diagnostics(tmp_path):
    p = _write(tmp_path, ALIASES)
    diags, _ = validate_paths([p], use_cache=False)
    out = json.dumps([d.to_dict() for d in diags])
    assert len(out) < 20_000  # the values were quoted whole: 5 MB
    grid = [d for d in diags if d.path.startswith("$.grid[")]
    assert len(grid) == 10 and all(d.code == "S001" for d in grid)
    assert all(d.message.endswith("is not of type 'object'") for d in grid)


def test_every_message_is_cut_to_the_limit(tmp_path):
    p = _write(tmp_path, OVAL.replace("id: first-oval", "id: " + "x" * 50_000))
    diags, _ = validate_paths([p], use_cache=False)
    assert [d.code for d in diags] == ["S001"]
    assert len(diags[0].message) <= MAX_MESSAGE_CHARS + 40


def test_shorten_is_bounded_for_any_value():
    assert len(shorten("x" * 10**6)) <= 60
    assert len(shorten([[list(range(1000))] * 1000] * 1000)) <= 60
    assert shorten(10**5000).startswith("<an integer of")


def test_schema_problems_stop_at_the_limit(tmp_path):
    cards = ", ".join(["1"] * 5_000)
    text = f"slipstream: cardsets/1\ncard_sets:\n  - {{id: s, name: S, cards: [{cards}]}}\n"
    p = _write(tmp_path, text, "cardsets.yaml")
    diags, _ = validate_paths([p], use_cache=False)
    assert len(diags) == MAX_SCHEMA_PROBLEMS + 1
    assert diags[0].code == "S004" and diags[0].severity == "warning"


# --- counts in scenarios ---------------------------------------------------------------------

def test_a_billion_cubes_in_a_scenario_bag_is_a_schema_error(tmp_path):
    src = CONTENT / "base" / "tests" / "card-factory-support.yaml"
    p = _write(tmp_path, src.read_text(encoding="utf-8").replace("bag: {gear-6: 1}", "bag: {gear-6: 1000000000}"))
    start = time.perf_counter()
    result, diags = run_file(p, base_pack())
    assert time.perf_counter() - start < 5  # drew a billion cubes one by one
    assert result is None
    assert [(d.code, d.path) for d in diags] == [("S001", "$.players[0].bag.gear-6")]


def test_a_card_drawing_a_billion_cubes_is_a_schema_error(pack_copy):
    garage = pack_copy / "cards" / "garage.yaml"
    text = garage.read_text(encoding="utf-8")
    garage.write_text(text.replace("      - draw: 1\n", "      - draw: 1000000000\n", 1), encoding="utf-8")
    diags, _ = validate_paths([garage], use_cache=False)
    assert {d.code for d in diags} == {"S001"}


def test_an_infinite_rule_constant_is_a_schema_error(pack_copy):
    rules = pack_copy / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("season_races: 3", "season_races: .inf"), encoding="utf-8")
    line = text.splitlines().index("  season_races: 3") + 1
    # not an integer, and above the maximum: two messages at the one place
    assert set(_check(pack_copy)) == {("S001", line, 17, "$.constants.season_races")}
