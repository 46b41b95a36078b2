"""The optional `backdrop:` of track/2: a reference to an image beside the file, checked by the
schema, written in the canonical style, drawn by `render --backdrop` only when asked."""

from __future__ import annotations

import struct
import zlib

from helpers import invoke

from slipstream.engine.core.yamlsource import load_text
from slipstream.engine.tracks.backdrop import Backdrop, backdrop_of, image_size, set_backdrop
from slipstream.engine.tracks.load import check_track_data
from slipstream.engine.tracks.writer import dump_track

TRACK = """slipstream: track/2
id: t
lanes: 1
layout:
  - "%s"
grid:
  - {lane: 0, segment: 39}
  - {lane: 0, segment: 38}
  - {lane: 0, segment: 37}
  - {lane: 0, segment: 36}
  - {lane: 0, segment: 35}
""" % " ".join("o" * 40)


def png(w: int, h: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    raw = b"".join(b"\x00" + b"\x80\x80\x80" * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def codes(text: str) -> list[str]:
    loaded = load_text(text, "t.yaml")
    return [d.code for d in check_track_data(loaded.data, loaded.source)[1]]


def test_a_backdrop_is_optional_and_checked_by_the_schema():
    assert codes(TRACK) == []
    assert codes(TRACK + "backdrop: {image: scans/board.png, x: -20, scale: 0.5, rotation: 90, opacity: 0.3, locked: true}\n") == []
    for bad in ("{image: /home/me/board.png}", "{image: board.png, opacity: 2}", "{image: board.png, scale: 0}",
                "{x: 3}", "{image: board.png, tint: red}"):
        assert codes(TRACK + f"backdrop: {bad}\n") != [], bad
    assert "S002" in codes(TRACK.replace("track/2", "track/1") + "backdrop: {image: board.png}\n")


def test_set_backdrop_keeps_only_what_differs_from_the_defaults_and_round_trips():
    data = load_text(TRACK, "t.yaml").data
    data = set_backdrop(data, {"image": "board.png"})
    assert data["backdrop"] == {"image": "board.png"}
    data = set_backdrop(data, {"x": 12.5, "rotation": 90.0, "locked": True})
    text = dump_track(data)
    assert "backdrop: {image: board.png, x: 12.5, rotation: 90, locked: true}\n" in text
    assert dump_track(load_text(text, "t.yaml").data) == text
    assert backdrop_of(load_text(text, "t.yaml").data) == Backdrop("board.png", x=12.5, rotation=90, locked=True)
    assert "backdrop" not in set_backdrop(data, None)


def test_the_transform_maps_image_pixels_to_drawing_coordinates():
    a, b, c, d, e, f = Backdrop("i.png", x=100, y=50, scale=2, rotation=90).transform()
    px, py = 10, 0
    assert (round(a * px + c * py + e, 6), round(b * px + d * py + f, 6)) == (100, 70)


def test_image_size_reads_png_headers(tmp_path):
    (tmp_path / "a.png").write_bytes(png(30, 20))
    (tmp_path / "b.png").write_bytes(b"not an image")
    assert image_size(tmp_path / "a.png") == (30, 20)
    assert image_size(tmp_path / "b.png") is None and image_size(tmp_path / "none.png") is None


def test_render_draws_the_backdrop_only_when_asked(tmp_path):
    (tmp_path / "scans").mkdir()
    (tmp_path / "scans" / "board.png").write_bytes(png(40, 30))
    track = tmp_path / "t.yaml"
    track.write_text(TRACK + "backdrop: {image: scans/board.png, opacity: 0.25}\n", encoding="utf-8")
    (tmp_path / "out").mkdir()
    plain, drawn = tmp_path / "out" / "plain.svg", tmp_path / "out" / "drawn.svg"
    assert invoke("render", str(track), "-o", str(plain)).exit_code == 0
    assert "<image" not in plain.read_text(encoding="utf-8")
    res = invoke("render", str(track), "-o", str(drawn), "--backdrop")
    assert res.exit_code == 0, res.output
    svg = drawn.read_text(encoding="utf-8")
    assert '<image href="../scans/board.png" x="0" y="0" width="40" height="30" opacity="0.25"' in svg
    assert svg.index("<image") < svg.index("<polygon")  # under the spaces
    assert invoke("render", str(track), "-o", str(tmp_path / "x.png"), "--backdrop").exit_code == 2
    (tmp_path / "scans" / "board.png").unlink()
    res = invoke("render", str(track), "-o", str(drawn), "--backdrop")
    assert res.exit_code == 0 and "missing" in res.output
