"""The canonical writer: whatever a user types reads back as the same data."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from slipstream.engine.core.yamlsource import load_text
from slipstream.engine.tracks import edits as te
from slipstream.engine.tracks.writer import dump_track

TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30)


@settings(max_examples=150, deadline=None)
@given(name=TEXT, extra=st.dictionaries(st.text("abc-", min_size=1, max_size=5).map(lambda k: "x-" + k),
                                        st.one_of(TEXT, st.integers(), st.floats(allow_nan=False),
                                                  st.booleans(), st.none(), st.lists(st.integers(), max_size=3)),
                                        max_size=3))
def test_names_and_extension_keys_read_back_unchanged(name, extra):
    data = {**te.new_track(), "name": name, "layout": ["3 4x2 - 5"], **extra}
    text = dump_track(data)
    loaded = load_text(text, "t.yaml")
    assert loaded.data == data, text
    assert dump_track(loaded.data) == text  # and it writes back byte for byte


@settings(max_examples=60, deadline=None)
@given(ops=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 40), st.integers(3, 6)), max_size=25))
def test_edits_keep_every_lane_the_same_length(ops):
    data = te.set_segment_count(te.set_lane_count(te.new_track(), 3), 12)
    for kind, seg, colour in ops:
        n = te.segment_count(data)
        lane, s = seg % 3, seg % n
        if kind == 0:
            data = te.paint(data, lane, s, colour)
        elif kind == 1:
            data = te.split(data, lane, s)
        elif kind == 2:
            data = te.merge_next(data, lane, s)
        elif kind == 3:
            data = te.set_lane_present(data, lane, s, min(n - 1, s + 2), colour % 2 == 0)
        elif kind == 4:
            data = te.move_finish(data, s)
        elif n > 3:
            data = te.resize(data, s, 1 if colour % 2 else -1)
    lengths = {sum(k for _, k in te.lane_runs(text)) for text in data["layout"]}
    assert len(lengths) == 1
    assert te.to_track(data) is not None
