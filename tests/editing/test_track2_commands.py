"""The track/2 editor commands without Qt: the Formula Dé-style circuit built through them, the
edits' rules (tag upgrade, canonical order, no empty steps), and 200 random edits undone and
redone exactly."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner
from helpers import ROOT

from slipstream.cli.main import main
from slipstream.engine.editing import commands as c
from slipstream.engine.editing import v2commands as v
from slipstream.engine.editing.commands import CommandStack
from slipstream.engine.editing.document import TrackDocument, state_from_text
from slipstream.engine.tracks import v2edits as v2

TILLEULS = ROOT / "content" / "tracks-v2" / "tilleuls.yaml"
REDLINE = ROOT / "content" / "tracks-v2" / "redline-loop.yaml"


def bare_tilleuls(tmp_path: Path) -> TrackDocument:
    """The circuit's squares, grid and drawing, without its corners, links and pit lane."""
    doc = TrackDocument.open(TILLEULS)
    bare = {k: val for k, val in doc.data.items() if k not in ("corners", "links", "pit")}
    doc.set_state(replace(doc.state, data=bare))
    doc.path = tmp_path / "tilleuls.yaml"
    return doc


def tilleuls_commands() -> list[c.Command]:
    """The edits a person makes to give the bare circuit its corners, links and pit lane."""
    original = TrackDocument.open(TILLEULS).data
    cmds: list[c.Command] = []
    # corners marked out of order on purpose: the file keeps them in lap order
    for corner in sorted(original["corners"], key=lambda x: -x["from"]):
        cmds.append(v.MarkCorner(corner["from"], corner["to"]))
    for i, corner in enumerate(original["corners"]):
        cmds.append(v.SetCorner(i, "name", corner["name"]))
        cmds.append(v.SetCorner(i, "stops", corner["stops"]))
        if corner.get("chicane"):
            cmds.append(v.SetCorner(i, "chicane", True))
    for link in reversed(original["links"]):
        cmds.append(v.ToggleLink(*link["remove"]))
    cmds.append(v.DrawPit("2:114", 14, "2:12"))
    for box in original["pit"]["boxes"]:
        cmds.append(v.ToggleBox(box))
    return cmds


def test_the_formula_de_circuit_built_through_commands_saves_as_the_bundled_file(tmp_path):
    doc = bare_tilleuls(tmp_path)
    stack = CommandStack(doc)
    codes: set[str] = set()
    for cmd in tilleuls_commands():
        assert stack.push(cmd), cmd.text
        codes |= {d.code for d in doc.diagnostics}
    # corners without stops were reported on the way (live validation); at the end nothing is
    assert codes and doc.diagnostics == []
    saved = doc.save()
    assert saved.read_text(encoding="utf-8") == TILLEULS.read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(saved)])
    assert result.exit_code == 0, result.output
    reopened = TrackDocument.open(saved)
    assert reopened.data == doc.data and reopened.text() == doc.text()
    assert reopened.track == doc.track and len(reopened.track.corners) == 8
    # and every step undoes back to the bare circuit
    while stack.can_undo:
        stack.undo()
    assert "corners" not in doc.data and "pit" not in doc.data and "links" not in doc.data


def test_a_v2_feature_makes_a_track1_file_track2_and_plain_paint_too():
    doc = TrackDocument.open(ROOT / "content" / "base" / "tracks" / "first-oval.yaml")
    assert doc.data["slipstream"] == "track/1"
    stack = CommandStack(doc)
    stack.push(v.MarkCorner(3, 5))
    assert doc.data["slipstream"] == "track/2"
    assert doc.data["corners"] == [{"name": "Corner 1", "from": 3, "to": 5}]
    stack.undo()
    assert doc.data["slipstream"] == "track/1"
    stack.push(v.PaintPlain(0, 0))
    assert doc.data["slipstream"] == "track/2" and doc.track.space_at(0, 0).colour == 0


def test_link_kind_follows_the_geometry_and_clicking_again_takes_it_away():
    doc = TrackDocument.open(TILLEULS)
    data = {k: val for k, val in doc.data.items() if k != "links"}
    # 1:10 -> 1:11 is a step of the geometry: the link removes it; 0:10 -> 2:12 is not: it adds
    d1 = v2.toggle_link(data, "1:10", "1:11")
    assert d1["links"] == [{"remove": ["1:10", "1:11"]}]
    d2 = v2.toggle_link(d1, "0:10", "2:12")
    assert d2["links"] == [{"add": ["0:10", "2:12"]}, {"remove": ["1:10", "1:11"]}]
    assert v2.toggle_link(d2, "1:10", "1:11")["links"] == [{"add": ["0:10", "2:12"]}]
    assert v2.toggle_link(data, "1:10", "9:11") is data  # no such space: no edit


def test_speed_limits_per_lane_and_per_space_are_written_and_cleared():
    doc = TrackDocument.open(REDLINE)
    stack = CommandStack(doc)
    stack.push(v.SetLaneSpeed(4, 1, 60))
    assert doc.data["corners"][4]["lane_speeds"] == [None, 60, None]
    stack.push(v.SetLaneSpeed(4, 1, 70))  # typing in the spin box: one step
    assert doc.data["corners"][4]["lane_speeds"] == [None, 70, None] and len(stack.commands) == 1
    stack.seal()
    stack.push(v.SetLaneSpeed(4, 1, None))
    assert "lane_speeds" not in doc.data["corners"][4]
    stack.push(v.SetSpaceSpeed(4, "2:86", 30))
    stack.push(v.SetSpaceSpeed(4, "0:85", 30))
    assert list(doc.data["corners"][4]["space_speeds"]) == ["0:85", "2:86"]
    stack.seal()
    steps = len(stack.commands)
    assert not stack.push(v.SetSpaceSpeed(4, "0:85", 30))  # changes nothing: no step
    assert len(stack.commands) == steps


def test_boxes_outside_a_shortened_pit_lane_go_with_it():
    data = TrackDocument.open(TILLEULS).data
    out = v2.draw_pit(data, "2:114", 6, "2:12")
    assert out["pit"]["boxes"] == [2, 3, 4, 5]
    assert out["pit"]["exits"] == [{"from": 5, "to": "2:12"}]
    assert v2.toggle_box(out, 9) is out  # not a pit square
    assert v2.toggle_box(out, 3)["pit"]["boxes"] == [2, 4, 5]


def test_redrawing_a_pit_lane_keeps_its_entry_speed_and_extra_entries():
    data = TrackDocument.open(REDLINE).data
    out = v2.draw_pit(data, "0:5", 12, "0:18")
    assert out["pit"]["entries"] == [{"from": "0:5", "to": 0, "speed": 30},
                                     {"from": "0:7", "to": 2, "speed": 20, "main": False},
                                     {"from": "0:10", "to": 5, "speed": 20, "main": False}]
    assert out["pit"]["exits"] == [{"from": 11, "to": "0:18"}]
    assert out["pit"]["can_win"] is False and out["pit"]["side"] == "inside"
    short = v2.draw_pit(data, "0:4", 4, "0:17")
    assert [e["from"] for e in short["pit"]["entries"]] == ["0:4", "0:7"]  # 0:10 led to pit:5
    assert v2.draw_pit(data, "0:4", 12, "0:17") is data  # the same lane again: no edit


def test_the_pit_entry_speed_limit_is_set_in_canonical_field_order_and_cleared():
    data = TrackDocument.open(TILLEULS).data
    out = v2.set_entry_speed(data, 0, 20)
    assert out["pit"]["entries"] == [{"from": "2:114", "speed": 20}]
    assert v2.set_entry_speed(out, 0, None)["pit"]["entries"] == [{"from": "2:114"}]
    red = TrackDocument.open(REDLINE).data
    out = v2.set_entry_speed(red, 1, 30)
    assert list(out["pit"]["entries"][1]) == ["from", "to", "speed", "main"]
    assert v2.set_entry_speed(red, 5, 30) is red  # no such entry


def random_v2_command(rng: random.Random, doc: TrackDocument) -> c.Command:
    """One random track/2 edit (or a space edit) that the editor could make on `doc`."""
    data = doc.data
    lanes = len(data["layout"])
    n = v2.te.segment_count(data)
    corners = len(data.get("corners") or [])
    cell = f"{rng.randrange(lanes)}:{rng.randrange(n)}"
    other = f"{rng.randrange(lanes)}:{rng.randrange(n)}"
    k = rng.randrange(14)
    if k == 0:
        a = rng.randrange(n)
        return v.MarkCorner(a, (a + rng.randrange(1, 9)) % n)
    if k == 1 and corners:
        return v.RemoveCorner(rng.randrange(corners))
    if k == 2 and corners:
        key = rng.choice(["stops", "speed", "chicane", "name", "from", "to"])
        value = {"stops": rng.choice([None, 1, 2, 3]), "speed": rng.choice([None, 40, 60]),
                 "chicane": rng.choice([True, False]), "name": f"C{rng.randrange(5)}",
                 "from": rng.randrange(n), "to": rng.randrange(n)}[key]
        return v.SetCorner(rng.randrange(corners), key, value)
    if k == 3 and corners:
        return v.SetLaneSpeed(rng.randrange(corners), rng.randrange(lanes), rng.choice([None, 50, 70]))
    if k == 4 and corners:
        return v.SetSpaceSpeed(rng.randrange(corners), cell, rng.choice([None, 30, 40]))
    if k in (5, 6):
        return v.ToggleLink(cell, other)
    if k == 7:
        return v.DrawPit(cell, rng.randrange(1, 16), other)
    if k == 8:
        return v.ToggleBox(rng.randrange(16))
    if k == 9 and rng.random() < 0.3:
        return v.SetEntrySpeed(rng.randrange(3), rng.choice([None, 20, 30]))
    if k == 9:
        return v.SetPitValue(rng.choice(["lap_counts", "can_win"]), rng.choice([True, False]))
    if k == 10:
        return v.RemovePit() if rng.random() < 0.2 else v.ToggleBox(rng.randrange(16))
    if k == 11:
        return v.PaintPlain(rng.randrange(lanes), rng.randrange(n))
    if k == 12:
        return c.Paint(rng.randrange(lanes), rng.randrange(n), rng.choice([3, 4, 5, 6]))
    return c.SplitSpace(rng.randrange(lanes), rng.randrange(n))


def test_200_random_track2_edits_undo_and_redo_exactly():
    for seed in (1, 2, 3):
        doc = TrackDocument.open(REDLINE)
        stack = CommandStack(doc)
        rng = random.Random(seed)
        states = [doc.state]
        for _ in range(200):
            cmd = random_v2_command(rng, doc)
            if stack.push(cmd):
                stack.seal()  # each edit its own step, so that every state is recorded
                states.append(doc.state)
            assert doc.state == states[-1]
            # every state writes out and reads back as the same data, and checks without raising
            assert state_from_text(doc.text()).data == doc.data
            assert isinstance(doc.diagnostics, list)
        assert len(states) > 120
        for want in reversed(states[:-1]):
            stack.undo()
            assert doc.state == want
        assert not stack.can_undo
        for want in states[1:]:
            stack.redo()
            assert doc.state == want
        assert doc.text() == states[-1].text()

