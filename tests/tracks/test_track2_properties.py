"""Property-based tests of track/2: random tracks with corners, links and a pit lane never
crash the checks, and every space reported stranded (T134) or unreachable (T110) really is."""

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slipstream.engine.core.yamlsource import load_text
from slipstream.engine.packs.trackrules import ruleset_track_checks
from slipstream.engine.tracks.load import check_track_data
from slipstream.engine.tracks.movegraph import move_graph

from .test_track_properties import layout_rows

token = st.one_of(
    st.sampled_from(["o", "o", "o", "3", "-"]),
    st.tuples(st.sampled_from("o3-"), st.integers(1, 3)).map(lambda t: f"{t[0]}x{t[1]}"),
)
name = st.tuples(st.integers(0, 4), st.integers(0, 24)).map(lambda t: f'"{t[0]}:{t[1]}"')


@st.composite
def tracks(draw):
    lanes = draw(st.integers(1, 4))
    n = draw(st.integers(4, 24))
    rows = layout_rows(draw, token, lanes, n)
    cell = st.tuples(st.integers(0, lanes - 1), st.integers(0, n - 1))
    text = "slipstream: track/2\nid: prop\n"
    text += "rulesets: [%s]\n" % ", ".join(draw(st.lists(
        st.sampled_from(["automobiles", "formula-de", "speed-hazard", "nobody"]), unique=True, max_size=3)))
    text += "lanes: %d\nlayout:\n" % lanes + "".join(f'  - "{r}"\n' for r in rows)
    slots = draw(st.lists(st.one_of(cell, cell, st.tuples(st.integers(0, lanes), st.integers(0, n))), max_size=6))
    text += "grid: [%s]\n" % ", ".join(f"{{lane: {ln}, segment: {s}}}" for ln, s in slots)
    corners = draw(st.lists(st.tuples(st.integers(0, n + 1), st.integers(0, n + 1), st.integers(0, 4),
                                      st.sampled_from([None, 0, 25, 40])), max_size=4))
    if corners:
        text += "corners:\n" + "".join(
            f"  - {{name: c{i}, from: {a}, to: {b}, stops: {s}" + (f", speed: {v}" if v is not None else "") + "}\n"
            for i, (a, b, s, v) in enumerate(corners))
    # links mostly between neighbouring cells, so that many remove real steps and strand spaces
    near = st.tuples(st.sampled_from(["remove", "remove", "add"]), cell, st.integers(-1, 1)).map(
        lambda t: (t[0], f'"{t[1][0]}:{t[1][1]}"', f'"{max(0, t[1][0] + t[2])}:{(t[1][1] + 1) % n}"'))
    links = draw(st.lists(st.one_of(near, near, near, st.tuples(st.sampled_from(["add", "remove"]), name, name)),
                          max_size=12))
    if links:
        text += "links:\n" + "".join(f"  - {{{k}: [{a}, {b}]}}\n" for k, a, b in links)
    if draw(st.booleans()):
        p = draw(st.integers(1, 6))
        text += (f'pit:\n  layout: "{" ".join(["o"] * p)}"\n'
                 f"  entries:\n    - {{from: {draw(name)}, to: {draw(st.integers(0, p))}}}\n"
                 f"  exits:\n    - {{from: {draw(st.integers(0, p))}, to: {draw(name)}}}\n"
                 f"  boxes: [{draw(st.integers(0, p + 1))}]\n")
    if draw(st.booleans()):
        text += f"features:\n  - {{kind: pit-wall, spaces: [{draw(name)}]}}\n"
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tracks())
def test_random_v2_tracks_never_crash_and_stranded_spaces_are_unreachable(text):
    loaded = load_text(text, "prop.yaml")
    assert loaded.data is not None, loaded.diagnostics
    track, diags = check_track_data(loaded.data, loaded.source)
    if track is not None:
        diags += ruleset_track_checks(track, loaded.data, loaded.source)
    for d in diags:
        assert d.line >= 1 and d.column >= 1 and d.code[0] in "ST", d
    if track is None:
        return
    g = move_graph(track)
    starts = {track.cells[s.lane][s.segment] for s in track.grid
              if s.lane < track.lanes and s.segment < track.segments and track.cells[s.lane][s.segment] >= 0}
    main = nx.subgraph(g, range(len(track.spaces)))  # the main-track checks walk the main graph
    reach = set(starts)
    for s in starts:
        reach |= nx.descendants(main, s)
    stranded = {n for d in diags if d.code == "T134" for n in d.spaces}
    unreachable = {n for d in diags if d.code == "T110" for n in d.spaces}
    for n in stranded | unreachable:
        sp = track.space_named(n)
        assert sp is not None and sp.index not in reach, f"{n} reported unreachable but is reachable"
    if starts:
        assert stranded | unreachable == {sp.name for sp in track.spaces if sp.index not in reach}
        assert not stranded & unreachable
