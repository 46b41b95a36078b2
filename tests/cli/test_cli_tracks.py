"""The validate, render, schema and codes commands, run as a user runs them."""

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from helpers import CONTENT, ROOT
from helpers import invoke as run

from slipstream.cli.main import main

INVALID = Path(__file__).parents[1] / "tracks" / "invalid"


def test_validate_bundled_tracks_exits_zero():
    res = run("validate", str(CONTENT / "base" / "tracks"))
    assert res.exit_code == 0, res.output
    assert "0 errors" in res.output


def test_validate_reports_errors_and_exits_one():
    res = run("validate", str(INVALID / "bad-token.yaml"))
    assert res.exit_code == 1
    assert "bad-token.yaml:7:16: error T101" in res.output


def test_validate_github_format_prints_annotations():
    res = run("validate", "--format", "github", str(INVALID / "grid-order.yaml"))
    assert res.exit_code == 1
    lines = res.output.splitlines()
    assert any(ln.startswith("::error file=") and ",line=11,col=5," in ln and "T107" in ln for ln in lines)
    assert any(ln.startswith("::warning file=") and "T109" in ln for ln in lines)


def test_validate_json_format_is_machine_readable():
    res = run("validate", "--format", "json", str(INVALID / "unreachable.yaml"))
    data = json.loads(res.output)
    t110 = [d for d in data if d["code"] == "T110"][0]
    assert t110["spaces"] == ["2:5", "2:6", "2:7", "2:8"]
    assert t110["path"] == "$.layout[2]"


def test_validate_missing_path_and_usage_errors():
    assert run("validate", "no/such/file.yaml").exit_code == 1
    assert CliRunner().invoke(main, ["validate"]).exit_code == 2
    assert CliRunner().invoke(main, ["validate", "--format", "xml", "x"]).exit_code == 2


def test_validate_folder_recurses_and_skips_untagged_yaml(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "ci.yml").write_text("jobs: {}\n")
    good = (CONTENT / "base" / "tracks" / "first-oval.yaml").read_text()
    (tmp_path / "sub" / "t.yaml").write_text(good)
    res = run("validate", str(tmp_path))
    assert res.exit_code == 0
    assert "F002" in res.output and "2 files checked" in res.output


def test_render_writes_svg_with_every_space(tmp_path):
    out = tmp_path / "oval.svg"
    res = run("render", str(CONTENT / "base" / "tracks" / "first-oval.yaml"), "-o", str(out))
    assert res.exit_code == 0, res.output
    svg = out.read_text()
    assert svg.startswith("<svg") and svg.count("<polygon points=") >= 87
    assert 'id="finish"' in svg and ">P5</text>" in svg and "$14" in svg


def test_render_refuses_a_broken_track(tmp_path):
    res = run("render", str(INVALID / "lane-length.yaml"), "-o", str(tmp_path / "x.svg"))
    assert res.exit_code == 1 and "T102" in res.output
    assert not (tmp_path / "x.svg").exists()


def test_schema_writes_the_schemas(tmp_path):
    res = run("schema", "-o", str(tmp_path))
    assert res.exit_code == 0
    data = json.loads((tmp_path / "track.schema.json").read_text())
    assert data["$schema"].endswith("2020-12/schema")


def test_diagnostics_doc_is_generated_from_the_code_table():
    from slipstream.engine.core.reference import codes_markdown

    doc = (ROOT / "docs" / "diagnostics.md").read_text()
    assert doc == codes_markdown(), "run: slipstream codes --markdown > docs/diagnostics.md"


def test_python_dash_m_runs_the_cli():
    res = subprocess.run([sys.executable, "-m", "slipstream", "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "validate" in res.stdout


def test_every_track_schema_property_has_a_description():
    from helpers import subschemas

    from slipstream.engine.core.schema import schema_files

    props = subschemas(schema_files()["track.schema.json"], ("properties",))
    assert props and [p for p, sub in props if not (isinstance(sub, dict) and ("description" in sub or "$ref" in sub))] == []


def test_render_draws_a_colour_legend_and_the_direction_of_travel(tmp_path):
    from slipstream.engine.tracks.load import load_track
    from slipstream.engine.tracks.render import track_svg

    svg = track_svg(load_track(ROOT / "content/base/tracks/first-oval.yaml").track)
    legend = svg[svg.index('<g id="legend"'):]
    legend = legend[:legend.index("</g>")]
    for name in ("white (3)", "light grey (4)", "dark grey (5)", "black (6)"):
        assert name in legend
    assert '<g id="direction"' in svg and "direction of travel" in svg
