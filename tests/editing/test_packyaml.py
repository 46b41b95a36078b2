"""Saving pack files: only the changed item's lines change; new parts get a readable layout."""

from __future__ import annotations

import copy

from helpers import CONTENT

from slipstream.engine.core.yamlsource import load_text
from slipstream.engine.packs.splice import changed_lines, dump_data, update_text

BASE = CONTENT / "base"

ENGINE = (BASE / "cards" / "engine.yaml").read_text()


def _data(text: str):
    loaded = load_text(text, "x.yaml")
    assert loaded.ok, loaded.diagnostics
    return loaded.data


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_unchanged_data_keeps_the_text_byte_for_byte():
    for f in sorted(BASE.rglob("*.yaml")):
        text = f.read_text()
        assert update_text(text, _data(text)) == text, f


def test_changing_a_scalar_rewrites_only_its_line():
    data = _data(ENGINE)
    data["cards"][2]["cost"] = 9
    out = update_text(ENGINE, data)
    assert _data(out) == data
    assert changed_lines(ENGINE, out) == [_line_of(ENGINE, "id: rotary-engine") + 3]


def test_a_changed_effect_stays_inside_its_card():
    data = _data(ENGINE)
    card = data["cards"][0]
    card["effect"][1]["move"]["colours"] = [5, 6]
    card["effect"].append({"draw": {"count": {"up_to": 2}}})
    out = update_text(ENGINE, data)
    assert _data(out) == data
    first = _line_of(ENGINE, "id: diesel-engine")
    nxt = _line_of(ENGINE, "id: hybrid-engine")
    assert changed_lines(ENGINE, out)
    assert all(first <= n < nxt for n in changed_lines(ENGINE, out))
    # the comments at the top are untouched
    assert out.splitlines()[:2] == ENGINE.splitlines()[:2]


def test_items_are_matched_by_id_when_one_is_added_and_one_removed():
    data = _data(ENGINE)
    removed = data["cards"].pop(3)
    data["cards"].insert(1, {"id": "steam-engine", "name": "Steam Engine", "colour": "blue",
                             "cost": 3, "value": 1, "text": "Odd: text, with commas",
                             "effect": [{"gain_wear": 1}, {"move": {"spaces": {"up_to": 2}, "colours": "any"}}]})
    out = update_text(ENGINE, data)
    assert _data(out) == data
    start = _line_of(ENGINE, f"id: {removed['id']}")
    end = _line_of(ENGINE, f"id: {data['cards'][4]['id']}")
    assert set(changed_lines(ENGINE, out)) == set(range(start, end))
    assert "  - id: steam-engine\n    name: Steam Engine\n" in out
    assert "      - move: {spaces: {up_to: 2}, colours: any}\n" in out


def test_flow_items_stay_on_one_line():
    text = (BASE / "cubes.yaml").read_text()
    data = _data(text)
    data["cubes"][1]["supply"] = 29
    out = update_text(text, data)
    assert changed_lines(text, out) == [_line_of(text, "id: gear-4")]
    assert "  - {id: gear-4, name: Light grey (4th gear), role: gear, gear: 4, supply: 29, display: '#b8bcc0'}" in out


def test_an_empty_flow_list_becomes_a_block_and_comments_after_it_stay():
    text = "# head\nslipstream: cards/1\ncards: []\n#  - id: example\noverrides: []\n"
    data = _data(text)
    data["cards"] = [{"id": "a", "name": "A", "colour": "blue", "cost": 1, "value": 0, "text": "t",
                      "effect": [{"gain_wear": 1}]}]
    out = update_text(text, data)
    assert _data(out) == data
    assert out.startswith("# head\nslipstream: cards/1\ncards:\n  - id: a\n")
    assert "#  - id: example\noverrides: []\n" in out


def test_dump_data_reads_back_and_keeps_the_header():
    for f in sorted(BASE.glob("*.yaml")):
        data = _data(f.read_text())
        out = dump_data(data, "# top\n")
        assert out.startswith("# top\n")
        assert _data(out) == data


def test_awkward_strings_round_trip():
    data = {"slipstream": "cards/1", "x": ["yes", "1.0", "a: b", "#c", "multi\nline", "", "- d", "{e}"]}
    assert _data(dump_data(data)) == data
    text = "slipstream: cards/1\nx: [a]\n"
    assert _data(update_text(text, copy.deepcopy(data))) == data


def test_a_new_row_beside_flow_rows_is_one_flow_line_too():
    """A table written a row a line (gear dice, wear rows, a deck) gets a new row the same way,
    even one longer than a flow line normally is; the other lines stay as they were."""
    text = (CONTENT / "formula-de" / "gears.yaml").read_text()
    data = load_text(text, "gears.yaml").data
    new = copy.deepcopy(data)
    new["gears"].append({"gear": 7, "faces": [31] * 36})  # a 150-character row
    out = update_text(text, new)
    assert out.startswith(text) and out[len(text):] == "  - {gear: 7, faces: [" + ", ".join(["31"] * 36) + "]}\n"
    cards = "cards:\n  - {id: a, name: A, count: 1}\n  - {id: b, name: B, count: 2}\n"
    out = update_text(cards, {"cards": [{"id": "a", "name": "A", "count": 1}, {"id": "n", "name": "N", "count": 3},
                                        {"id": "b", "name": "B", "count": 2}]})
    assert out == "cards:\n  - {id: a, name: A, count: 1}\n  - {id: n, name: N, count: 3}\n  - {id: b, name: B, count: 2}\n"
