"""A save that changes a row of a list without ids and adds another in the same list (an
override changed and another added in one save) splices both: the changed row's line is
rewritten, the new one added after the last, every other line kept (engine/packs/splice.py)."""

from __future__ import annotations

from slipstream.engine.core.yamlsource import load_text
from slipstream.engine.packs.splice import changed_lines, update_text

TEXT = """# the house wear rows
slipstream: wear/1
overrides:                     # categories of inherited rows that change
  - {laps: 1, tyres: 6}
races:                         # rows added to the inherited ones
  - {laps: 3, tyres: 7, brakes: 6, transmission: 5, body: 4, engine: 4}
"""


def test_a_changed_row_and_an_added_row_in_one_save():
    new = load_text(TEXT, "wear.yaml").data
    new["overrides"] = [{"laps": 1, "tyres": 5}, {"laps": 2, "brakes": 6}]
    out = update_text(TEXT, new)
    assert load_text(out, "wear.yaml").data == new
    assert changed_lines(TEXT, out) == [4]  # only the changed row; the comments stay
    assert out.splitlines()[3:5] == ["  - {laps: 1, tyres: 5}", "  - {laps: 2, brakes: 6}"]


def test_rows_shifted_by_one_at_the_front_still_keep_the_rest_of_the_file():
    text = "slipstream: wear/1\nraces:   # rows\n  - {laps: 1, tyres: 4}\n  - {laps: 2, tyres: 5}\nbasic_pool: 18  # house\n"
    new = load_text(text, "wear.yaml").data
    new["races"] = [{"laps": 0, "tyres": 3}, *new["races"]]
    out = update_text(text, new)
    assert load_text(out, "wear.yaml").data == new
    assert "races:   # rows" in out and "basic_pool: 18  # house" in out
