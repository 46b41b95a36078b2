"""Mistakes inside effect lists are reported precisely, at the offending key or value."""

from __future__ import annotations

from helpers import effect_diags

_diags = effect_diags  # a card of a pack on base with this effect: its diagnostics


def test_misspelt_key_of_a_primitive_names_the_right_key(tmp_path):
    got = _diags(tmp_path, "- remove: {from: discard, kind: wear, count: {upto: 2}}")
    assert got == [("S002", 10, 53, "unknown property 'upto' of `remove`", "did you mean 'up_to'?")]


def test_out_of_range_gear_colour_points_at_the_number(tmp_path):
    got = _diags(tmp_path, "- move: {spaces: 1, colours: [7]}")
    assert [(c, line, col) for c, line, col, *_ in got] == [("S001", 10, 37)]
    assert "maximum of 6" in got[0][3]


def test_mistakes_in_nested_lists_are_found_step_by_step(tmp_path):
    got = _diags(tmp_path, """
        - if:
            test: {position: not_first}
            then:
              - move: {spaces: 1, colours: [3], gaer: true}
        - choose_one:
            - label: a
              effect:
                - draw: {count: -1}
            - remove: {from: discard, kind: wear, count: all}
        """)
    assert [(c, line, col) for c, line, col, *_ in got] == [("S002", 13, 47), ("S001", 17, 31)]
    assert got[0][4] == "did you mean 'gear'?"


def test_unknown_zone_and_primitive_replace_the_schema_noise(tmp_path):
    got = _diags(tmp_path, """
        - remove: {from: dicard, count: 1}
        - gain_wer: 1
        """)
    assert [(c, line, col, hint) for c, line, col, _, hint in got] == [
        ("E102", 10, 24, "did you mean 'discard'?"), ("E101", 11, 9, "did you mean 'gain_wear'?")]


def test_selection_and_kind_checks_need_a_schema_valid_card(tmp_path):
    got = _diags(tmp_path, """
        - select: {from: discard, kinds: [gears, oil], count: 1, as: pick}
        - move: {spaces: 1, colours: {one_lower: pik}}
        """)
    assert [(c, line, col) for c, line, col, *_ in got] == [("E103", 10, 48), ("E105", 11, 48)]
