"""Importing synthetic circuits of each foreign format (tests/tracks/imports/synth.py, written
from the format descriptions): the track validates clean, its move graph is the source's
adjacency edge by edge, and a batch of 20 races runs on it in the matching ruleset."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from slipstream.engine.packs.validate import validate_paths
from slipstream.engine.play.base import stats_of
from slipstream.engine.play.batch import run_many
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import get
from slipstream.engine.tracks.imports import import_text
from slipstream.engine.tracks.load import load_track
from slipstream.engine.tracks.movegraph import full_successors, node_space
from slipstream.engine.tracks.writer import dump_track

from . import synth


def write(tmp_path: Path, fmt: str, text: str, name: str):
    res = import_text(fmt, text, name)
    assert res.data is not None, [d.message for d in res.diagnostics]
    out = tmp_path / "imported.yaml"
    out.write_text(dump_track(res.data), encoding="utf-8")
    return res, out


def move_edges(path: Path) -> set[tuple[str, str]]:
    track = load_track(path).track
    assert track is not None
    succ = full_successors(track)
    return {(node_space(track, a).name, node_space(track, b).name) for a, row in enumerate(succ) for b in row}


def assert_clean(path: Path) -> None:
    diags, _ = validate_paths([path], use_cache=False)
    assert diags == [], [f"{d.code} {d.message}" for d in diags]


def assert_lanes_follow_source(o: synth.Oval, names: dict[str, str]) -> None:
    """Every source space is a space of its own lane, in the source's order round the lap."""
    assert len(set(names.values())) == len(names)  # one space per source node
    for lane in range(o.lanes):
        placed = [names[str(s.key)] if str(s.key) in names else names[synth.tts_id(s)] for s in o.lane(lane)]
        assert all(p.startswith(f"{lane}:") for p in placed)
        firsts = [int(p.split(":")[1]) for p in placed]
        assert firsts == sorted(firsts) and firsts[0] == 0


def race_twenty(tmp_path: Path, track_file: Path, ruleset: str, track_id: str) -> dict:
    pack = tmp_path / "pack"
    (pack / "tracks").mkdir(parents=True)
    (pack / "pack.yaml").write_text(f"slipstream: pack/1\nid: imported\nname: Imported (test pack)\nversion: 0.1.0\n"
                                    f"ruleset: {ruleset}\nextends: [{ruleset}]\n", encoding="utf-8")
    shutil.copy(track_file, pack / "tracks" / "imported.yaml")
    rs = get(ruleset)
    bots = tuple(rs.default_bots or list(rs.bots))
    results = run_many([RaceSpec(str(pack), track_id, seed, bots) for seed in range(20)], jobs=1)
    summary = stats_of(rs).summarise(results)
    assert summary["races"] == 20 and summary["capped"] == 0
    return summary


@pytest.mark.parametrize("lanes", [2, 3, 4])
def test_a_gp_online_circuit_imports_clean_keeps_every_edge_and_races(tmp_path, lanes):
    o = synth.oval(lanes, no_change=((0, 3),))
    res, out = write(tmp_path, "gp-online", synth.gp_online(o), f"oval{lanes}.dat")
    assert res.diagnostics == []
    assert_clean(out)
    assert_lanes_follow_source(o, res.names)
    source = {(res.names[str(a)], res.names[str(b)]) for a, b in o.edges}
    assert move_edges(out) == source
    data = res.data
    assert data["lanes"] == lanes and data["rulesets"] == ["formula-de"]
    assert [c["stops"] for c in data["corners"]] == [2, 3]
    assert data["pit"]["boxes"] == [1, 2] and len(data["pit"]["layout"].split()) == len(o.pit)
    assert [(g["lane"], g["segment"]) for g in data["grid"]] == [
        (int(res.names[str(k)].split(":")[0]), int(res.names[str(k)].split(":")[1])) for k in o.grid]
    assert any("BLOCKED" in line for line in res.report)
    summary = race_twenty(tmp_path, out, "formula-de", f"oval{lanes}")
    assert summary["finish_rate"] > 0 and summary["pit_stops_per_race"] > 0


def test_a_tts_track_with_lane_changes_and_a_three_stop_corner_imports_and_races(tmp_path):
    o = synth.oval(3, no_change=((0, 3), (2, 1)), stops=(3, 1))
    res, out = write(tmp_path, "tts-fd", synth.tts(o), "synth.json")
    assert res.diagnostics == []
    assert_clean(out)
    assert_lanes_follow_source(o, res.names)
    ids = {s.key: synth.tts_id(s) for s in o.spaces} | {s.key: f"p.{s.j}" for s in o.pit}
    source = {(res.names[ids[a]], res.names[ids[b]]) for a, b in o.edges}
    assert move_edges(out) == source
    # the `next` lists change lanes: some steps go to another lane
    assert any(a.split(":")[0] != b.split(":")[0] for a, b in source if "pit" not in a + b)
    assert [c["stops"] for c in res.data["corners"]] == [3, 1]
    assert res.data["id"] == "synthoval" and res.data["name"] == "Synthetic Oval" and res.data["laps"] == 2
    race_twenty(tmp_path, out, "formula-de", "synthoval")


def test_a_heat_circuit_with_a_chicane_imports_as_speed_limits_and_races(tmp_path):
    text = synth.heat()
    res, out = write(tmp_path, "heat", text, "synth.heat")
    assert res.diagnostics == []
    assert_clean(out)
    doc = json.loads(text)
    cells = doc["cells"]
    source = set()
    for cid, c in cells.items():
        for other, d in cells.items():
            if d["position"] == (c["position"] + 1) % 40:
                source.add((res.names[cid], res.names[other]))
    assert len(source) == 160
    assert move_edges(out) == source
    assert all(res.names[cid] == f"{c['lane'] - 1}:{c['position']}" for cid, c in cells.items())
    corners = res.data["corners"]
    assert [(c["from"], c["to"], c["speed"]) for c in corners] == [(9, 9, 40), (20, 20, 30), (22, 22, 30), (31, 31, 50)]
    assert [c.get("chicane", False) for c in corners] == [False, True, True, False]
    assert res.data["laps"] == 2 and res.data["rulesets"] == ["speed-hazard"]
    assert [(g["lane"], g["segment"]) for g in res.data["grid"]][:2] == [(0, 39), (1, 39)]
    race_twenty(tmp_path, out, "speed-hazard", "synth-heat")


def test_heat_special_spaces_become_features(tmp_path):
    res, _ = write(tmp_path, "heat", synth.heat(flooded=(3, 4)), "wet.heat")
    assert res.data["features"] == [{"kind": "flooded", "spaces": ["0:3", "0:4"]}]
    assert any(line.startswith("features: flooded (2)") for line in res.report)


def test_the_geometry_follows_the_source_positions(tmp_path):
    o = synth.oval(3)
    res, out = write(tmp_path, "gp-online", synth.gp_online(o), "oval.dat")
    centre = res.data["geometry"]["centerline"]
    xs, ys = [p[0] for p in centre], [p[1] for p in centre]
    # the oval of synth.py: 480 px of straight plus the bends, centred on (600, 400)
    assert 600 - 480 / 2 - 200 < min(xs) < 600 - 480 / 2 - 120 and 600 + 480 / 2 + 120 < max(xs) < 600 + 480 / 2 + 200
    assert min(ys) < 400 - 120 and max(ys) > 400 + 120
    assert 35 <= res.data["geometry"]["lane_width"] <= 45
