"""`slipstream import`, run as a user runs it: the report, the file it writes (and only that),
diagnostics without tracebacks, usage errors with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import invoke as run
from tracks.imports import synth


def test_import_guesses_the_format_prints_the_report_and_writes_a_clean_track(tmp_path):
    src = tmp_path / "oval.dat"
    src.write_text(synth.gp_online(synth.oval(3)), encoding="utf-8")
    out = tmp_path / "oval.yaml"
    res = run("import", str(src), "-o", str(out))
    assert res.exit_code == 0, res.output
    for want in ("format: gp-online", "lanes: 3", "corners: 2", "2 stops", "3 stops", "pit lane: 4 spaces",
                 "boxes: 2", "grid: 10 slots", "dropped: 1 BLOCKED", "board image named by the file: board.png",
                 f"ok: wrote {out}, 0 errors, 0 warnings"):
        assert want in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["oval.dat", "oval.yaml"]
    assert out.read_text(encoding="utf-8").startswith("# Imported from oval.dat (gp-online)")
    assert run("validate", str(out)).exit_code == 0


def test_import_with_a_format_and_a_ruleset(tmp_path):
    src = tmp_path / "circuit.json"
    src.write_text(synth.heat(), encoding="utf-8")
    out = tmp_path / "heat.yaml"
    res = run("import", "heat", str(src), "-o", str(out), "--format", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["diagnostics"] == [] and any(line.startswith("corners: 4") for line in doc["report"])
    res = run("import", "heat", str(src), "-o", str(out), "--ruleset", "formula-de")
    # a Heat circuit has speed limits, not stops: the Formula Dé-style checks say so
    assert res.exit_code == 1 and "T151" in res.output and "Traceback" not in res.output


def test_a_broken_file_is_diagnosed_and_nothing_is_written(tmp_path):
    src = tmp_path / "cut.json"
    src.write_text(synth.tts(synth.oval(3))[:500], encoding="utf-8")
    out = tmp_path / "never.yaml"
    res = run("import", str(src), "-o", str(out))
    assert res.exit_code == 1
    assert f"{src}:" in res.output and "error I001" in res.output and "Traceback" not in res.output
    assert "FAILED: nothing written" in res.output
    assert not out.exists()


def test_usage_errors_exit_2(tmp_path):
    src = tmp_path / "mystery.txt"
    src.write_text("hello\n", encoding="utf-8")
    out = str(tmp_path / "x.yaml")
    assert run("import", str(src), "-o", out).exit_code == 2  # the format cannot be guessed
    assert run("import", "nascar", str(src), "-o", out).exit_code == 2
    assert run("import", "heat", str(src), "-o", out, "--ruleset", "nope").exit_code == 2
    assert run("import", "-o", out).exit_code == 2
    assert not Path(out).exists()


def test_a_missing_file_is_f001(tmp_path):
    res = run("import", "heat", str(tmp_path / "none.json"), "-o", str(tmp_path / "x.yaml"))
    assert res.exit_code == 1 and "F001" in res.output


def test_the_board_image_beside_the_source_becomes_the_backdrop(tmp_path):
    (tmp_path / "src").mkdir()
    src = tmp_path / "src" / "oval.dat"
    src.write_text(synth.gp_online(synth.oval(2)), encoding="utf-8")
    out = tmp_path / "oval.yaml"
    res = run("import", str(src), "-o", str(out))
    assert "backdrop: none (board.png is not beside oval.dat)" in res.output
    assert "backdrop:" not in out.read_text(encoding="utf-8")
    (tmp_path / "src" / "board.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    res = run("import", str(src), "-o", str(out))
    assert res.exit_code == 0, res.output
    assert out.read_text(encoding="utf-8").endswith("backdrop: {image: src/board.png}\n")


def test_a_board_image_on_the_web_is_only_named(tmp_path):
    src = tmp_path / "c.heat"
    src.write_text(synth.heat().replace('"synth-heat.jpg"', '"https://example.invalid/c.jpg"'), encoding="utf-8")
    res = run("import", str(src), "-o", str(tmp_path / "c.yaml"))
    assert res.exit_code == 0 and "backdrop: none (the board image is a web address" in res.output
