"""Broken and unsupported import files: every problem is a diagnostic at the file's line (or
JSON path) with its code, nothing is built, and nothing raises."""

from __future__ import annotations

import json

import pytest

from slipstream.engine.tracks.imports import import_text

from . import synth


def codes(res) -> list[tuple[str, int, int, str]]:
    return [(d.code, d.line, d.column, d.path) for d in res.diagnostics]


def gp_lines(lanes: int = 2) -> list[str]:
    return synth.gp_online(synth.oval(lanes), blocked=False).splitlines()


def section_start(lines: list[str], n: int) -> int:
    """Index of the first line of section n (0 nodes, 1 edges, 2 attributes, 3 grid)."""
    blanks = [i for i, line in enumerate(lines) if not line.strip()]
    return 1 if n == 0 else blanks[n - 1] + 1


def test_a_dangling_edge_is_reported_at_its_line():
    lines = gp_lines()
    at = section_start(lines, 1)
    lines.insert(at, "0 999")
    res = import_text("gp-online", "\n".join(lines) + "\n", "bad.dat")
    assert res.data is None
    assert codes(res) == [("I003", at + 1, 1, "$")]
    assert "999" in res.diagnostics[0].message


def test_an_unknown_node_type_is_reported_at_its_column():
    lines = gp_lines()
    parts = lines[3].split()
    lines[3] = f"{parts[0]} {parts[1]} {parts[2]} 9"
    res = import_text("gp-online", "\n".join(lines), "bad.dat")
    assert res.data is None
    col = len(" ".join(parts[:3])) + 2
    assert codes(res) == [("I002", 4, col, "$")]


def test_type_unknown_is_a_warning_and_reads_as_a_straight():
    lines = gp_lines()
    parts = lines[3].split()
    lines[3] = f"{parts[0]} {parts[1]} {parts[2]} 0"
    res = import_text("gp-online", "\n".join(lines), "odd.dat")
    assert res.data is not None
    assert [(d.code, d.severity, d.line) for d in res.diagnostics] == [("I002", "warning", 4)]


def test_a_word_where_a_number_belongs_is_a_syntax_diagnostic():
    lines = gp_lines()
    parts = lines[2].split()
    lines[2] = f"{parts[0]} ten {parts[2]} {parts[3]}"
    res = import_text("gp-online", "\n".join(lines), "bad.dat")
    assert codes(res)[0][:3] == ("I001", 3, len(parts[0]) + 2)


def test_a_step_backwards_within_the_lap_is_reported():
    o = synth.oval(2, pit=False)
    late, early = o.lane(0)[20], o.lane(0)[3]
    lines = synth.gp_online(o, blocked=False).splitlines()
    lines.insert(section_start(lines, 1), f"{late.key} {early.key}")
    res = import_text("gp-online", "\n".join(lines), "loop.dat")
    assert res.data is None and [d.code for d in res.diagnostics] == ["I006"]


def test_a_branching_pit_lane_is_reported():
    o = synth.oval(2)
    lines = synth.gp_online(o, blocked=False).splitlines()
    lines.insert(section_start(lines, 1), f"{o.pit[0].key} {o.pit[2].key}")
    res = import_text("gp-online", "\n".join(lines), "pit.dat")
    assert res.data is None and [d.code for d in res.diagnostics] == ["I008"]


def test_a_circuit_without_a_finish_line_is_reported():
    text = "\n".join(line.replace(" F", "") if not line.endswith(" 5") else line[:-2] + " 1"
                     for line in gp_lines())
    res = import_text("gp-online", text, "nofinish.dat")
    assert res.data is None and [d.code for d in res.diagnostics] == ["I005"]


def test_a_heat_cell_in_lane_3_is_reported_at_its_json_path_and_line():
    text = synth.heat()
    doc = json.loads(text)
    doc["cells"]["5"]["lane"] = 3
    text = json.dumps(doc, indent=1)
    res = import_text("heat", text, "bad.heat")
    assert res.data is None
    (code, line, col, path), = codes(res)
    assert (code, path) == ("I004", "$.cells['5'].lane")
    assert text.splitlines()[line - 1].strip() == '"lane": 3,'


@pytest.mark.parametrize("fmt,text", [("heat", synth.heat()), ("tts-fd", synth.tts(synth.oval(3)))])
def test_truncated_json_is_reported_with_its_line(fmt, text):
    cut = text[: len(text) // 2]
    res = import_text(fmt, cut, "cut.json")
    assert res.data is None
    (code, line, _, _), = codes(res)
    assert code == "I001" and line == cut.count("\n") + 1
    assert "truncated" in res.diagnostics[0].message


def test_a_tts_next_naming_no_space_is_reported_at_its_json_path():
    doc = json.loads(synth.tts(synth.oval(3)))
    doc["spaces"][0]["next"].append("x.s9.9")
    res = import_text("tts-fd", json.dumps(doc, indent=1), "bad.json")
    assert res.data is None
    assert [(d.code, d.path) for d in res.diagnostics] == [("I003", f"$.spaces[0].next[{len(doc['spaces'][0]['next']) - 1}]")]


@pytest.mark.parametrize("fmt,text", [
    ("gp-online", synth.gp_online(synth.oval(3))),
    ("tts-fd", synth.tts(synth.oval(3))),
    ("heat", synth.heat()),
])
def test_no_cut_of_a_file_raises(fmt, text):
    for cut in range(0, len(text), max(1, len(text) // 60)):
        res = import_text(fmt, text[:cut], "cut")
        assert res.data is not None or any(d.is_error for d in res.diagnostics)


def test_coordinates_that_are_not_finite_or_too_far_are_reported():
    lines = gp_lines()
    parts = lines[5].split()
    lines[5] = f"{parts[0]} nan {parts[2]} {parts[3]}"
    res = import_text("gp-online", "\n".join(lines), "nan.dat")
    assert res.data is None and [(d.code, d.line) for d in res.diagnostics] == [("I004", 6)]
    doc = json.loads(synth.heat())
    doc["cells"]["3"]["x"] = 1e12
    res = import_text("heat", json.dumps(doc), "far.heat")
    assert res.data is None and [d.code for d in res.diagnostics] == ["I004"]


def test_a_step_from_a_space_to_itself_is_reported():
    lines = gp_lines()
    lines.insert(section_start(lines, 1), "4 4")
    res = import_text("gp-online", "\n".join(lines), "self.dat")
    assert res.data is None and [d.code for d in res.diagnostics] == ["I004"]


def test_a_heat_position_far_beyond_the_others_is_one_diagnostic_not_a_long_wait():
    doc = json.loads(synth.heat())
    doc["cells"]["5"]["position"] = 10**30
    res = import_text("heat", json.dumps(doc), "gap.heat")
    assert res.data is None
    assert [d.code for d in res.diagnostics] == ["I004"] * 3
    assert "have no cells (first: 40, 41" in res.diagnostics[-1].message


@pytest.mark.parametrize("fmt,key", [("tts-fd", "corners"), ("tts-fd", "start"), ("heat", "corners"),
                                     ("heat", "startingCells"), ("heat", "floodedSpaces")])
def test_a_list_field_of_another_type_is_reported(fmt, key):
    doc = json.loads(synth.tts(synth.oval(3)) if fmt == "tts-fd" else synth.heat())
    doc[key] = 3.5
    res = import_text(fmt, json.dumps(doc, indent=1), "odd.json")
    assert (res.diagnostics[0].code, res.diagnostics[0].path) == ("I004", f"$.{key}")


def _mutations(text: str, seed: int, count: int):
    """`count` damaged copies of `text`: cuts, numbers swapped for odd values, lines doubled or
    dropped (a small fuzzer; bench-style runs of thousands found nothing more)."""
    import random
    import re

    rng = random.Random(seed)
    odd = ["NaN", "1e309", "-1", "0", "999999999", '"x"', "null", "[]", "{}", "true", "7", "F", "1.5"]
    for _ in range(count):
        t = text
        for _ in range(rng.randint(1, 3)):
            lines = t.splitlines()
            op = rng.random()
            if op < 0.3:
                at = rng.randrange(len(t))
                t = t[:at] + t[at + rng.randint(1, 20):]
            elif op < 0.6:
                ms = list(re.finditer(r"-?\d+(\.\d+)?|\"[^\"]*\"", t))
                m = rng.choice(ms)
                t = t[:m.start()] + rng.choice(odd) + t[m.end():]
            elif op < 0.8:
                lines.insert(rng.randrange(len(lines)), rng.choice(lines))
                t = "\n".join(lines)
            else:
                del lines[rng.randrange(len(lines))]
                t = "\n".join(lines)
        yield t


@pytest.mark.parametrize("fmt,text", [
    ("gp-online", synth.gp_online(synth.oval(2, straight=5, bends=(3, 3)))),
    ("tts-fd", synth.tts(synth.oval(2, straight=5, bends=(3, 3)))),
    ("heat", synth.heat(16, corners=((4, 4, False), (9, 3, True)))),
])
def test_damaged_files_are_diagnosed_never_raised(fmt, text):
    for t in _mutations(text, 7, 150):
        res = import_text(fmt, t, "damaged")
        assert res.data is not None or any(d.is_error for d in res.diagnostics)
