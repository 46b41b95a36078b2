"""The Qt-free document and command stack: edits, undo/redo, merging, saving."""

from __future__ import annotations

import random

import pytest
from helpers import BUNDLED

from slipstream.engine.editing import commands as c
from slipstream.engine.editing.commands import CommandStack
from slipstream.engine.editing.document import TrackDocument
from slipstream.engine.tracks import edits as te
from slipstream.engine.tracks.load import load_track


def tiny(*lanes: str, grid=()) -> dict:
    return {"slipstream": "track/1", "id": "t", "name": "T", "laps": 1, "lanes": len(lanes),
            "layout": list(lanes), "grid": [dict(zip(("lane", "segment", "money"), g, strict=True)) for g in grid]}


def test_paint_recolours_one_space_and_leaves_other_lanes_untouched():
    data = tiny("3 4x2 5", "6x4")
    out = te.paint(data, 0, 2, 6)
    assert out["layout"] == ["3 6x2 5", "6x4"]
    assert out["layout"][1] is data["layout"][1]
    assert data["layout"][0] == "3 4x2 5"  # input unchanged


def test_paint_on_a_gap_creates_a_one_segment_space():
    assert te.paint(tiny("3 -x3"), 0, 2, 5)["layout"] == ["3 - 5 -"]


def test_split_and_merge_are_inverse():
    data = tiny("3 4x3 5")
    split = te.split(data, 0, 2)
    assert split["layout"] == ["3 4 4x2 5"]
    assert te.merge_next(split, 0, 1)["layout"] == ["3 4x3 5"]
    assert te.split(data, 0, 1) is data  # already a boundary


def test_merge_never_crosses_the_finish_line_or_a_gap():
    data = tiny("3 - 4")
    assert te.merge_next(data, 0, 2) is data
    assert te.merge_next(data, 0, 0) is data


def test_narrowing_removes_and_restores_a_lane_stretch():
    data = tiny("4x4 3 3")
    gone = te.set_lane_present(data, 0, 1, 2, False)
    assert gone["layout"] == ["4 -x2 4 3 3"]
    back = te.set_lane_present(gone, 0, 1, 2, True, colour=6)
    assert back["layout"] == ["4 6 6 4 3 3"]


def test_moving_the_finish_line_renumbers_spaces_and_grid():
    data = tiny("3 4x2 5 6", "3x2 4x3", grid=[(0, 4, 10)])
    out = te.move_finish(data, 3)
    assert out["layout"] == ["5 6 3 4x2", "4x2 3x2 4"]  # the straddling 4x3 is cut at the line
    assert out["grid"] == [{"lane": 0, "segment": 1, "money": 10}]


def test_segment_count_and_lane_count_edits():
    data = te.new_track()
    data = te.set_lane_count(data, 3)
    data = te.set_segment_count(data, 8)
    assert data["lanes"] == 3 and data["layout"] == ["3 3 3 3 3 3 3 3"] * 3
    shorter = te.set_segment_count(data, 6)
    assert te.segment_count(shorter) == 6
    assert te.set_lane_count(shorter, 2)["layout"] == ["3 3 3 3 3 3"] * 2


def test_grid_slots_add_reorder_price_remove():
    data = tiny("3 3 3 3")
    data = te.add_slot(data, 0, 3)
    data = te.add_slot(data, 0, 2)
    assert [s["money"] for s in data["grid"]] == [10, 11]
    assert te.add_slot(data, 0, 3) is data  # one slot per cell
    moved = te.move_slot(data, 1, 0)
    assert [(s["segment"], s["money"]) for s in moved["grid"]] == [(2, 10), (3, 11)]
    assert te.set_slot(moved, 1, money=20)["grid"][1]["money"] == 20
    assert te.remove_slot(moved, 0)["grid"] == [{"lane": 0, "segment": 3, "money": 11}]


def test_stack_merges_repeated_edits_and_drops_no_ops():
    doc = TrackDocument.open(BUNDLED[0])
    stack = CommandStack(doc)
    assert not stack.push(c.SetProperty("laps", doc.data["laps"]))  # changes nothing
    assert stack.index == 0 and not doc.dirty
    stack.push(c.MovePoint(1, (10, 10)))
    stack.push(c.MovePoint(1, (20, 30)))
    assert stack.index == 1  # one step for the whole drag
    stack.seal()
    stack.push(c.MovePoint(1, (25, 30)))
    assert stack.index == 2
    stack.push(c.SetProperty("name", "A"))
    stack.push(c.SetProperty("name", "First Oval"))  # typed back: the step disappears
    assert stack.index == 2


def random_command(rng: random.Random, doc: TrackDocument) -> c.Command:
    """A random, applicable edit of the current track (every kind of command appears)."""
    track = te.to_track(doc.data)  # the model only; the full checks run at the end
    assert track is not None
    lanes, n = track.lanes, track.segments
    lane, seg = rng.randrange(lanes), rng.randrange(n)
    kind = rng.randrange(15)
    if kind <= 3:
        return c.Paint(lane, seg, rng.choice((3, 4, 5, 6)))
    if kind == 4:
        return c.SplitSpace(lane, seg)
    if kind == 5:
        return c.MergeSpaces(lane, seg)
    if kind == 6:
        return c.SetLanePresent(lane, seg, min(n - 1, seg + rng.randrange(3)), rng.random() < 0.5)
    if kind == 7:
        return c.MoveFinish(seg)
    if kind == 8:
        return c.AddGridSlot(lane, seg)
    if kind == 9:
        grid = len(track.grid)
        return c.MoveGridSlot(rng.randrange(grid), rng.randrange(grid)) if grid > 1 else c.AddGridSlot(lane, seg)
    if kind == 10:
        return c.SetGridSlot(0, money=rng.randrange(30)) if track.grid else c.AddGridSlot(lane, seg)
    if kind == 11:
        return c.SetProperty("name", rng.choice(("X", "Y"))) if rng.random() < 0.5 else c.SetProperty("laps", rng.randrange(1, 6))
    if kind == 12:
        return c.ResizeAt(seg, rng.choice((1, 2, -1)))
    if kind == 13:
        pts = te.centerline(doc.data)
        return c.MovePoint(rng.randrange(len(pts)), (rng.uniform(-500, 500), rng.uniform(-300, 300)))
    return c.SetLaneCount(rng.choice((2, 3, 4)))


@pytest.mark.parametrize("seed", [1, 2])
def test_long_random_edit_sequence_undoes_and_redoes_exactly(seed):
    doc = TrackDocument.open(BUNDLED[-1])
    original = doc.state
    stack = CommandStack(doc)
    rng = random.Random(seed)
    for _ in range(400):
        stack.push(random_command(rng, doc))
    assert doc.track is not None, [d.message for d in doc.diagnostics if d.is_error]
    final = doc.state
    assert stack.index > 250
    while stack.can_undo:
        stack.undo()
    assert doc.state == original and not doc.dirty
    assert doc.text() == BUNDLED[-1].read_text(encoding="utf-8")
    while stack.can_redo:
        stack.redo()
    assert doc.state == final


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_bundled_track_saves_back_byte_for_byte(path, tmp_path):
    doc = TrackDocument.open(path)
    out = doc.save(tmp_path / path.name)
    assert out.read_bytes() == path.read_bytes()


def test_saving_keeps_unknown_keys_and_writes_a_stable_order(tmp_path):
    src = tmp_path / "t.yaml"
    src.write_text(
        "# notes at the top stay\n"
        "x-designer: {name: Ann, year: 2026}\n"
        "grid: []\nlayout: ['3 4 5 6']\nlanes: 1\nid: t\nslipstream: track/1\n",
        encoding="utf-8",
    )
    doc = TrackDocument.open(src)
    c.CommandStack(doc).push(c.SetProperty("name", "Tee"))
    doc.save()
    text = src.read_text(encoding="utf-8")
    assert text == (
        "# notes at the top stay\n"
        "slipstream: track/1\nid: t\nname: Tee\nlanes: 1\nlayout:\n  - \"3 4 5 6\"\ngrid: []\n"
        "x-designer:\n  name: Ann\n  year: 2026\n"
    )
    assert not list(tmp_path.glob(".*tmp"))  # the temporary file was renamed away
    assert load_track(src).track is not None


def test_unreadable_yaml_opens_as_text_with_its_diagnostics(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("slipstream: track/1\nlayout: [\n", encoding="utf-8")
    doc = TrackDocument.open(bad)
    assert doc.data is None and doc.track is None
    assert [d.code for d in doc.diagnostics] == ["Y001"]
    stack = CommandStack(doc)
    stack.push(c.ReplaceText("slipstream: track/1\nid: t\nlanes: 1\nlayout: ['3 4 5 6']\ngrid: []\n"))
    assert doc.track is not None and doc.dirty
    stack.undo()
    assert doc.data is None


def test_diagnostics_match_the_cli_for_the_saved_file(tmp_path):
    doc = TrackDocument.open(BUNDLED[0])
    stack = CommandStack(doc)
    stack.push(c.SetLanePresent(0, 10, 20, False))
    stack.push(c.SetLanePresent(1, 10, 20, False))
    stack.push(c.SetLanePresent(2, 10, 20, False))
    path = doc.save(tmp_path / "cut.yaml")
    assert doc.diagnostics == load_track(path).diagnostics
    assert any(d.is_error for d in doc.diagnostics)


def test_change_events_reach_listeners():
    doc = TrackDocument.new()
    seen = []
    doc.subscribe(lambda ch: seen.append((ch.reason, ch.new.data["lanes"])))
    stack = CommandStack(doc)
    stack.push(c.SetLaneCount(2))
    stack.undo()
    assert seen == [("edit", 2), ("edit", 1)]


def test_templates_are_clean_tracks():
    from slipstream.engine.tracks.templates import TEMPLATES, template

    for name in TEMPLATES:
        doc = TrackDocument.new(template(name))
        assert doc.track is not None and doc.track.lanes == 3
        assert doc.diagnostics == [], name
