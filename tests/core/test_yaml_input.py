"""Bad input of any kind ends in one clear diagnostic, in bounded time, never a traceback."""

import time
from pathlib import Path

import pytest

from slipstream.engine.core.yamlsource import MAX_BYTES, load_text
from slipstream.engine.packs.validate import validate_file

GOOD = """slipstream: track/1
id: t
lanes: 1
layout: ["3 4x2 5x3 6x4"]
grid: []
"""


def _codes(tmp_path: Path, content: bytes | str, name: str = "t.yaml") -> list[tuple[str, int, int]]:
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode())
    t0 = time.perf_counter()
    diags = validate_file(p)
    assert time.perf_counter() - t0 < 5, "bad input must be rejected quickly"
    return [(d.code, d.line, d.column) for d in diags]


def test_yaml_syntax_error_points_at_the_problem(tmp_path: Path) -> None:
    assert _codes(tmp_path, "slipstream: track/1\nid: [unclosed\nlanes: 1\n") == [("Y001", 3, 6)]


def test_duplicate_key_is_reported_at_the_second_key(tmp_path: Path) -> None:
    text = GOOD + "lanes: 2\n"
    assert _codes(tmp_path, text) == [("Y002", 6, 1)]


def test_python_tags_are_refused(tmp_path: Path) -> None:
    text = "slipstream: track/1\nid: !!python/object/apply:os.system ['echo pwned']\n"
    assert _codes(tmp_path, text) == [("Y003", 2, 5)]


def test_local_tags_are_refused(tmp_path: Path) -> None:
    assert _codes(tmp_path, "slipstream: !custom track/1\n")[0][0] == "Y003"


def test_alias_bomb_stops_within_the_node_limit(tmp_path: Path) -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghij":
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
        prev = name
    codes = _codes(tmp_path, "\n".join(lines) + "\n")
    assert [c[0] for c in codes] == ["Y004"]


def test_file_over_the_size_limit(tmp_path: Path) -> None:
    big = GOOD + "# " + "x" * (MAX_BYTES + 10) + "\n"
    assert _codes(tmp_path, big) == [("Y005", 1, 1)]


def test_deep_nesting(tmp_path: Path) -> None:
    text = "slipstream: track/1\nx: " + "[" * 5000 + "]" * 5000 + "\n"
    assert [c[0] for c in _codes(tmp_path, text)] == ["Y006"]


def test_binary_junk(tmp_path: Path) -> None:
    assert _codes(tmp_path, bytes(range(256)) * 4) == [("Y007", 1, 1)]


def test_invalid_utf8_points_at_the_byte(tmp_path: Path) -> None:
    assert _codes(tmp_path, b"slipstream: track/1\nname: caf\xe9\n") == [("Y007", 2, 10)]


@pytest.mark.parametrize("content", ["", "   \n\n", "# only a comment\n", "---\n...\n"])
def test_empty_file(tmp_path: Path, content: str) -> None:
    assert [c[0] for c in _codes(tmp_path, content)] == ["Y008"]


def test_several_documents(tmp_path: Path) -> None:
    assert _codes(tmp_path, GOOD + "---\n" + GOOD) == [("Y009", 6, 1)]


def test_complex_keys(tmp_path: Path) -> None:
    assert [c[0] for c in _codes(tmp_path, "? [a, b]\n: 1\n")] == ["Y010"]


def test_not_a_mapping_is_a_missing_tag(tmp_path: Path) -> None:
    assert [c[0] for c in _codes(tmp_path, "- 1\n- 2\n")] == ["F003"]


def test_merge_keys_and_anchors_are_plain_data() -> None:
    loaded = load_text("base: &b {money: 10}\nslot: {<<: *b, lane: 1}\n", "m.yaml")
    assert loaded.diagnostics == []
    assert loaded.data["slot"] == {"money": 10, "lane": 1}


def test_positions_are_recorded_for_every_value() -> None:
    loaded = load_text(GOOD, "g.yaml")
    assert loaded.source.value(("layout", 0)).line == 4
    assert loaded.source.key(("grid",)).line == 5


def test_random_bytes_never_raise(tmp_path: Path) -> None:
    import random

    rng = random.Random(5)
    alphabet = b"abc:-[]{}&*!|>'\"#\n \t%@`,?0123456789"
    for i in range(300):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        p = tmp_path / f"r{i}.yaml"
        p.write_bytes(data)
        for d in validate_file(p):
            assert d.code[0] in "FYST" and d.line >= 1 and d.column >= 1


def test_a_text_loaded_again_is_not_parsed_again_and_each_caller_gets_its_own_copy(monkeypatch) -> None:
    import yaml

    from slipstream.engine.core import yamlsource

    yamlsource.clear_cache()
    parsed = []
    real = yaml.parse
    monkeypatch.setattr(yaml, "parse", lambda *a, **k: parsed.append(1) or real(*a, **k))
    text = "slipstream: cubes/1\nkinds:\n  - {id: a, moves: [1, 2]}\n  - id: b\n"
    first = load_text(text, "cubes.yaml")
    first.data["kinds"][0]["moves"].append(99)  # a caller changes what it got
    first.source.values[("kinds",)] = yamlsource.Pos(9, 9)
    second = load_text(text, "cubes.yaml")
    assert parsed == [1]
    assert second.data == {"slipstream": "cubes/1", "kinds": [{"id": "a", "moves": [1, 2]}, {"id": "b"}]}
    assert second.source.value(("kinds",)) == (3, 3, None) and second.source.key(("kinds", 1, "id")).line == 4
    assert second.text == text and second.ok
    # the same text under another name (a copy of the file) is not parsed again, and what it
    # gives names that file; another text is another load
    bad = "a: 1\na: 2\n"
    x = load_text(bad, "x.yaml")
    y = load_text(bad, "y.yaml")
    assert x.file == x.source.file == x.diagnostics[0].file == "x.yaml"
    assert y.file == y.source.file == y.diagnostics[0].file == "y.yaml"
    assert y.diagnostics[0].code == "Y002" and (y.diagnostics[0].line, y.diagnostics[0].column) == (2, 1)
    assert load_text(bad, "x.yaml").diagnostics == x.diagnostics
    copy = load_text(text, "copy/cubes.yaml")
    assert copy.file == copy.source.file == "copy/cubes.yaml" and copy.data == second.data
    assert parsed == [1, 1]


def test_texts_with_aliases_are_parsed_every_time_and_the_cache_is_bounded(monkeypatch) -> None:
    import yaml

    from slipstream.engine.core import yamlsource

    yamlsource.clear_cache()
    parsed = []
    real = yaml.parse
    monkeypatch.setattr(yaml, "parse", lambda *a, **k: parsed.append(1) or real(*a, **k))
    shared = load_text("a: &x [1, 2]\nb: *x\n", "f.yaml")
    assert shared.data["a"] is shared.data["b"]  # what an alias means: the same part
    load_text("a: &x [1, 2]\nb: *x\n", "f.yaml")
    assert parsed == [1, 1]
    monkeypatch.setattr(yamlsource, "CACHE_BYTES", 800)
    for i in range(20):
        load_text(f"n: {i}\n" + "# padding\n" * 9, "g.yaml")
    assert yamlsource._cached_bytes <= 800 and len(yamlsource._cache) < 20
    parsed.clear()
    load_text("n: 19\n" + "# padding\n" * 9, "g.yaml")  # the newest is still kept
    load_text("n: 0\n" + "# padding\n" * 9, "g.yaml")  # the oldest is not
    assert parsed == [1]
    yamlsource.clear_cache()
