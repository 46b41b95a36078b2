"""Property-based tests: random layouts never crash the checks, and reported facts are true."""

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slipstream.engine.core.yamlsource import load_text
from slipstream.engine.tracks.load import check_track_data
from slipstream.engine.tracks.movegraph import move_graph

token = st.one_of(
    st.sampled_from(["3", "4", "5", "6", "-"]),
    st.tuples(st.sampled_from("3456-"), st.integers(1, 4)).map(lambda t: f"{t[0]}x{t[1]}"),
)


def layout_rows(draw, token, lanes: int, n: int) -> list[str]:
    """One layout string per lane, each covering exactly `n` segments with drawn tokens."""
    rows = []
    for _ in range(lanes):
        toks, seg = [], 0
        while seg < n:
            tok = draw(token)
            k = int(tok.partition("x")[2] or 1)
            if seg + k > n:
                tok, k = tok[0], 1
            toks.append(tok)
            seg += k
        rows.append(" ".join(toks))
    return rows


@st.composite
def layouts(draw):
    lanes = draw(st.integers(1, 4))
    n = draw(st.integers(4, 30))
    rows = layout_rows(draw, token, lanes, n)
    slots = draw(st.lists(st.tuples(st.integers(0, lanes), st.integers(0, n)), max_size=6))
    return rows, n, slots


def _doc(rows, slots):
    text = "slipstream: track/1\nid: prop\nlanes: %d\nlayout:\n" % len(rows)
    text += "".join(f'  - "{r}"\n' for r in rows)
    text += "grid:\n" + "".join(
        f"  - {{lane: {ln}, segment: {s}, money: {10 + i}}}\n" for i, (ln, s) in enumerate(slots)
    )
    if not slots:
        text += "  []\n"
    return load_text(text, "prop.yaml")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layouts())
def test_random_layouts_never_crash_and_report_true_unreachability(case):
    rows, n, slots = case
    loaded = _doc(rows, slots)
    assert loaded.data is not None
    track, diags = check_track_data(loaded.data, loaded.source)
    for d in diags:
        assert d.line >= 1 and d.column >= 1 and d.code[0] in "ST"
    if track is None:
        return
    g = move_graph(track)
    starts = {track.cells[s.lane][s.segment] for s in track.grid
              if s.lane < track.lanes and s.segment < track.segments and track.cells[s.lane][s.segment] >= 0}
    reach = set(starts)
    for s in starts:
        reach |= nx.descendants(g, s)
    reported = {name for d in diags if d.code == "T110" for name in d.spaces}
    for name in reported:
        sp = track.space_named(name)
        assert sp is not None and sp.index not in reach, f"{name} reported unreachable but is reachable"
    if starts:
        # and every space that really is unreachable is reported
        assert reported == {sp.name for sp in track.spaces if sp.index not in reach}
    dead = {name for d in diags if d.code == "T112" for name in d.spaces}
    for name in dead:
        sp = track.space_named(name)
        assert g.out_degree(sp.index) == 0
