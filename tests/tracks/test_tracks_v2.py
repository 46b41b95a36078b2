"""Track format track/2 (DESIGN §4.1): the model, the move graph, the helpers rulesets use,
saving, the ruleset checks and the two bundled circuits."""

from pathlib import Path

import networkx as nx
import pytest

from slipstream.engine.core.yamlsource import load_text
from slipstream.engine.packs.validate import validate_file
from slipstream.engine.tracks.corners import (
    corner_at,
    next_corner,
    pit_entry_limit,
    speed_limit,
    squares_past_exit,
)
from slipstream.engine.tracks.load import check_track_data, load_track
from slipstream.engine.tracks.movegraph import (
    full_successors,
    geometry_successors,
    move_graph,
    pit_node,
    successors,
)
from slipstream.engine.tracks.neighbours import (
    cell_ahead,
    cell_behind,
    cells_beside,
    cells_diagonal,
    counterpart,
)
from slipstream.engine.tracks.render import track_svg
from slipstream.engine.tracks.track import PLAIN

ROOT = Path(__file__).parents[2]
BUNDLED_V2 = sorted((ROOT / "content" / "tracks-v2").glob("*.yaml"))


def v2(extra: str = "", lanes=("o " * 20, "o " * 20), grid: str = "[{lane: 0, segment: 19}]", head: str = ""):
    text = f"slipstream: track/2\nid: t\n{head}lanes: {len(lanes)}\nlayout:\n"
    text += "".join(f'  - "{ln.strip()}"\n' for ln in lanes) + f"grid: {grid}\n" + extra
    loaded = load_text(text, "t.yaml")
    track, diags = check_track_data(loaded.data, loaded.source)
    assert track is not None, diags
    return track, diags


def test_track1_files_keep_version_1_and_no_v2_parts():
    res = load_track(ROOT / "tests" / "tracks" / "valid" / "tiny.yaml")
    t = res.track
    assert t is not None and t.version == 1
    assert (t.corners, t.links, t.pit, t.rulesets, t.features) == ((), (), None, (), ())


def test_plain_squares_are_spaces_without_a_colour():
    t, diags = v2(lanes=("o ox3 " + "o " * 16,))
    assert t.spaces[1].colour == PLAIN and t.spaces[1].length == 3
    assert [d.code for d in diags if d.code in ("T114", "T115")] == []  # colours are not checked


def test_corner_lookups_wrap_past_the_finish_line():
    t, _ = v2("corners:\n  - {name: A, from: 4, to: 6, stops: 2}\n  - {name: Wrap, from: 18, to: 1, stops: 1}\n")
    assert corner_at(t, 5).name == "A"
    assert corner_at(t, 0).name == "Wrap" and corner_at(t, 19).name == "Wrap"
    assert corner_at(t, 10) is None
    assert next_corner(t, 2).name == "A"
    assert next_corner(t, 4).name == "Wrap"  # strictly ahead: the corner after the one entered
    assert next_corner(t, 10).name == "Wrap"
    assert next_corner(t, 19).name == "A"
    a = t.corners[0]
    assert squares_past_exit(t, a, 5) == 0
    assert squares_past_exit(t, a, 9) == 3
    assert squares_past_exit(t, t.corners[1], 3) == 2  # across the finish line


def test_speed_limit_prefers_space_then_lane_then_corner():
    t, _ = v2('corners:\n  - {name: A, from: 4, to: 8, speed: 60, lane_speeds: [40, null], space_speeds: {"0:6": 30}}\n')
    assert speed_limit(t, 0, 5) == 40
    assert speed_limit(t, 0, 6) == 30
    assert speed_limit(t, 1, 5) == 60
    assert speed_limit(t, 1, 12) is None


def test_neighbour_cells_for_collisions_and_u_turns():
    t, _ = v2(lanes=("o " * 20, "o " * 20, "- " + "o " * 19))
    assert cell_ahead(t, 0, 19) == (0, 0)
    assert cell_behind(t, 2, 1) is None  # lane 2 starts at segment 1
    assert cells_beside(t, 1, 5) == [(0, 5), (2, 5)]
    assert cells_diagonal(t, 1, 0, -1) == [(0, 19), (2, 19)]
    assert counterpart(t, 0, 7) == (2, 7)
    assert counterpart(t, 0, 0) is None


def test_links_remove_and_add_move_graph_edges():
    t, diags = v2('links:\n  - {remove: ["0:5", "1:6"]}\n  - {add: ["0:8", "1:10"]}\n')
    i = {sp.name: sp.index for sp in t.spaces}
    assert i["1:6"] in geometry_successors(t)[i["0:5"]]
    assert i["1:6"] not in successors(t)[i["0:5"]]
    assert i["1:10"] in successors(t)[i["0:8"]]
    assert [d.code for d in diags if d.severity == "error"] == []


PIT = 'pit:\n  layout: "o o o o"\n  entries:\n    - {from: "1:3", speed: 30}\n  exits:\n    - {to: "1:9"}\n  boxes: [1, 2]\n'


def test_pit_lane_nodes_and_edges_in_the_move_graph():
    t, diags = v2(PIT)
    assert [d.code for d in diags if d.severity == "error"] == []
    assert t.pit is not None and [sp.name for sp in t.pit.spaces] == ["pit:0", "pit:1", "pit:2", "pit:3"]
    g = move_graph(t)
    entry = t.space_named("1:3").index
    exit_ = t.space_named("1:9").index
    p0, p3 = pit_node(t, 0), pit_node(t, 3)
    assert g.nodes[p0]["name"] == "pit:0" and g.nodes[p0]["pit"]
    assert g.has_edge(entry, p0) and g.has_edge(p3, exit_)
    assert nx.has_path(g, entry, exit_)
    assert nx.number_of_edges(g) == sum(len(s) for s in full_successors(t))
    assert pit_entry_limit(t, 1, 3) == 30


def test_svg_shows_corners_links_and_the_pit_lane():
    t, _ = v2('corners:\n  - {name: Hairpin, from: 4, to: 8, stops: 3, speed: 40}\n'
              'links:\n  - {remove: ["0:5", "1:6"]}\n' + PIT)
    svg = track_svg(t)
    assert '<g id="corners">' in svg and "<title>Hairpin</title>" in svg
    assert ">3</text>" in svg and ">40</text>" in svg  # stop flag and speed roundel
    assert '<g id="links">' in svg and "stroke-dasharray" in svg.split('<g id="links">')[1]
    pit = svg.split('<g id="pit"')[1].split("</g>")[0]
    assert pit.count("<title>pit:") == 4 and pit.count("<circle") >= 2  # squares and boxes


def test_track1_svg_has_no_v2_layers():
    t = load_track(ROOT / "tests" / "tracks" / "valid" / "tiny.yaml").track
    svg = track_svg(t)
    assert '<g id="corners">' not in svg and '<g id="pit"' not in svg


def test_automobiles_track2_needs_gear_colours_and_gets_colour_warnings(tmp_path):
    p = tmp_path / "t.yaml"
    p.write_text('slipstream: track/2\nid: t\nrulesets: [automobiles]\nlanes: 1\nlayout:\n  - "3 4x2 5x3 4x2 3"\n'
                 "grid: [{lane: 0, segment: 8}]\n", encoding="utf-8")
    v2_diags = [(d.code, d.line, d.column) for d in validate_file(p)]
    v1 = tmp_path / "v1.yaml"
    v1.write_text(p.read_text().replace("track/2", "track/1").replace("rulesets: [automobiles]\n", "")
                  .replace("segment: 8}", "segment: 8, money: 10}"), encoding="utf-8")
    v1_codes = sorted(d.code for d in validate_file(v1))
    assert "T114" in v1_codes  # no black
    assert sorted(c for c, _, _ in v2_diags) == v1_codes  # the same colour warnings for Automobiles
    p.write_text(p.read_text().replace("5x3", "ox3"), encoding="utf-8")
    assert "T154" in [d.code for d in validate_file(p)]


def test_a_track2_without_rulesets_runs_no_ruleset_checks(tmp_path):
    p = tmp_path / "t.yaml"
    p.write_text('slipstream: track/2\nid: t\nlanes: 1\nlayout:\n  - "o o o o o o o o o o o o"\n'
                 "corners: [{name: A, from: 1, to: 2}]\n"
                 "grid: [{lane: 0, segment: 11}, {lane: 0, segment: 10}, {lane: 0, segment: 9},"
                 " {lane: 0, segment: 8}, {lane: 0, segment: 7}]\n", encoding="utf-8")
    assert validate_file(p) == []


@pytest.mark.parametrize("path", BUNDLED_V2, ids=lambda p: p.name)
def test_bundled_v2_tracks_are_clean_and_save_back_byte_for_byte(path, tmp_path):
    from slipstream.engine.editing.document import TrackDocument

    assert validate_file(path) == []
    doc = TrackDocument.open(path)
    out = doc.save(tmp_path / path.name)
    assert out.read_bytes() == path.read_bytes()
    assert load_track(out).track.version == 2


def test_formula_de_circuit_has_what_the_issue_asks():
    t = load_track(ROOT / "content" / "tracks-v2" / "tilleuls.yaml").track
    assert len(t.corners) >= 8 and {c.stops for c in t.corners} == {1, 2, 3}
    assert any(c.chicane for c in t.corners)
    assert len(t.pit.boxes) == 10 and len(t.grid) == 10 and t.lanes == 3
    assert t.links and t.geometry is not None


def test_speed_racer_circuit_has_what_the_issue_asks():
    from slipstream.engine.tracks.drawing import TrackDrawing

    t = load_track(ROOT / "content" / "tracks-v2" / "redline-loop.yaml").track
    assert all(c.has_speed_limit() for c in t.corners)
    assert any(len(set(c.lane_speeds)) > 1 for c in t.corners)
    assert [e.main for e in t.pit.entries].count(True) == 1 and len(t.pit.entries) > 1
    assert [x.main for x in t.pit.exits].count(True) == 1
    assert not t.pit.can_win
    # counter-clockwise on screen: SVG y grows downwards, so the shoelace area is negative
    pts = TrackDrawing(t).path
    area = sum(pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1] for i in range(len(pts)))
    assert area < 0


def test_editor_keeps_track1_as_track1_and_track2_as_track2(tmp_path):
    from slipstream.engine.editing import commands as c
    from slipstream.engine.editing.document import TrackDocument

    for src in (ROOT / "tests" / "tracks" / "valid" / "tiny.yaml", BUNDLED_V2[0]):
        doc = TrackDocument.open(src)
        c.CommandStack(doc).push(c.SetProperty("name", "Renamed"))
        out = doc.save(tmp_path / src.name)
        tag = load_text(out.read_text(encoding="utf-8"), "x").data["slipstream"]
        assert tag == load_text(src.read_text(encoding="utf-8"), "x").data["slipstream"]


def test_painting_a_plain_square_keeps_the_token_plain():
    from slipstream.engine.tracks import edits as te

    data = {"slipstream": "track/2", "id": "t", "lanes": 1, "layout": ["o ox2 o"], "grid": []}
    out = te.paint(data, 0, 0, 3)
    assert out["layout"] == ["3 ox2 o"]


def test_a_track2_in_a_pack_gets_the_checks_of_the_packs_ruleset(tmp_path):
    from slipstream.engine.packs.loader import load_pack

    root = tmp_path / "main"
    (root / "tracks").mkdir(parents=True)
    (root / "pack.yaml").write_text("slipstream: pack/1\nid: main\nname: M\nversion: 0.1.0\nextends: [base]\n")
    (root / "tracks" / "plain.yaml").write_text(
        'slipstream: track/2\nid: plain\nlanes: 1\nlayout:\n  - "3 4x2 ox3 6x4 3"\n'
        "grid: [{lane: 0, segment: 10}]\n")
    _, diags = load_pack(root)
    assert [(d.code, d.line) for d in diags if d.is_error] == [("T154", 5)]


def test_every_property_of_the_track2_schema_has_a_description():
    from helpers import subschemas

    from slipstream.engine.core.schema import schema_files

    named = subschemas(schema_files()["track2.schema.json"], ("properties", "$defs"))
    assert [p for p, sub in named if isinstance(sub, dict) and "description" not in sub] == []
