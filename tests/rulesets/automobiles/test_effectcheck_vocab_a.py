"""The static effect check (E105, E106) knows the forms of issue 17 part A: race counters and
flags read but never raised or set, and a move named by `{moved: {of: NAME}}` that no earlier
`move`/`drive` names with `as:`."""

from __future__ import annotations

from pathlib import Path

from helpers import effect_diags

from slipstream.engine.packs.loader import load_pack

ROOT = Path(__file__).resolve().parents[3]


_diags = effect_diags  # a card of a pack on base with this effect: its diagnostics


def test_the_test_pack_of_the_new_forms_is_clean() -> None:
    _, diags = load_pack(ROOT / "tests" / "rulesets" / "automobiles" / "scenarios" / "vocab-a")
    assert not diags


def test_a_race_counter_never_raised_is_reported(tmp_path: Path) -> None:
    got = _diags(tmp_path, """
        - add_counter: {name: heat, by: 1}
        - gain_wear: {race_counter: heat}
        """)
    assert got == [("E106", 11, 35, "race counter 'heat' is never raised by `add_counter` with `lasts: race`",
                    None)]


def test_a_race_counter_raised_is_not_reported_and_a_turn_read_of_it_is(tmp_path: Path) -> None:
    got = _diags(tmp_path, """
        - add_counter: {name: heat, by: 1, lasts: race}
        - gain_wear: {race_counter: heat}
        - gain_wear: {counter: heet}
        """)
    assert [(c, line, msg) for c, line, _col, msg, _h in got] == [
        ("E106", 12, "counter 'heet' is never raised by `add_counter`")]


def test_a_flag_never_set_is_reported_with_the_nearest_name(tmp_path: Path) -> None:
    got = _diags(tmp_path, """
        - set_flag: {name: tuned, lasts: race}
        - if:
            test: {flag: {name: tunned, lasts: race}}
            then: [{gain_wear: 1}]
        - if:
            test: {flag: tuned}
            then: [{gain_wear: 1}]
        """)
    assert [(c, line, msg, hint) for c, line, _col, msg, hint in got] == [
        ("E106", 12, "flag 'tunned' is never set by `set_flag`", "did you mean 'tuned'?")]


def test_a_move_read_by_a_name_no_move_gives_is_reported(tmp_path: Path) -> None:
    got = _diags(tmp_path, """
        - drive: {spaces: {up_to: 3}, colours: any, as: dash}
        - gain_wear: {moved: {what: steps, of: dahs}}
        - gain_wear: {moved: {what: steps, of: dash}}
        - gain_wear: {moved: crossings}
        """)
    assert [(c, line, msg, hint) for c, line, _col, msg, hint in got] == [
        ("E105", 11, "move 'dahs' is not named by an earlier step", "did you mean 'dash'?")]


def test_a_misspelt_new_form_is_a_precise_schema_error(tmp_path: Path) -> None:
    got = _diags(tmp_path, "- once: {key: k, per: lap, effect: [{draw: 1}]}")
    assert [c for c, *_ in got] == ["S001"] and "'lap' is not one of" in got[0][3]
