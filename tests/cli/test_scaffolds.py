"""Scaffolds per ruleset (issue 29, item 1): `new pack --ruleset`, `new track --ruleset`, and
warning T157 for a track without what its ruleset's races read, in validate and before a race."""

from __future__ import annotations

import pytest
from helpers import invoke as run

from slipstream.engine.core.yamlsource import load_file

RULESETS = ("automobiles", "formula-de", "speed-hazard")


@pytest.mark.parametrize("rid", RULESETS)
def test_new_pack_of_a_ruleset_validates_clean_and_its_sample_scenario_passes(tmp_path, rid):
    res = run("new", "pack", "Mine", "--ruleset", rid, "--dir", str(tmp_path))
    assert res.exit_code == 0, res.output
    root = tmp_path / "mine"
    manifest = load_file(root / "pack.yaml").data
    assert manifest.get("ruleset", "automobiles") == rid
    assert manifest["extends"] == [{"automobiles": "base"}.get(rid, rid)]
    for f in root.rglob("*.yaml"):
        assert f.read_text().startswith("# yaml-language-server: $schema="), f
    done = run("validate", str(root))
    assert done.exit_code == 0 and "0 errors, 0 warnings" in done.output, done.output
    tested = run("test", str(root))
    assert tested.exit_code == 0, tested.output
    assert "PASS sample-" in tested.output and "1 passed" in tested.output


@pytest.mark.parametrize("rid", ["formula-de", "speed-hazard"])
def test_extends_names_the_ruleset_and_a_standalone_pack_gets_the_tables(tmp_path, rid):
    res = run("new", "pack", "Inferred", "--extends", rid, "--dir", str(tmp_path))
    assert res.exit_code == 0, res.output
    assert load_file(tmp_path / "inferred" / "pack.yaml").data["ruleset"] == rid
    assert "0 errors, 0 warnings" in run("validate", str(tmp_path / "inferred")).output
    alone = run("new", "pack", "Alone", "--ruleset", rid, "--extends", "", "--dir", str(tmp_path))
    assert alone.exit_code == 0, alone.output
    assert len(list((tmp_path / "alone").glob("*.yaml"))) > 2  # the manifest and the data files
    done = run("validate", str(tmp_path / "alone"))
    assert "0 errors, 0 warnings" in done.output, done.output
    assert run("test", str(tmp_path / "alone")).exit_code == 0


def test_extends_of_another_ruleset_is_a_usage_error(tmp_path):
    res = run("new", "pack", "Mixed", "--ruleset", "formula-de", "--extends", "speed-hazard", "--dir", str(tmp_path))
    assert res.exit_code == 2 and "speed-hazard packs" in res.output
    assert not (tmp_path / "mixed").exists()


@pytest.mark.parametrize("template", ["oval", "road-course"])
@pytest.mark.parametrize("rid", ["formula-de", "speed-hazard"])
def test_new_track_of_a_ruleset_has_what_it_races_on_and_validates_clean(tmp_path, rid, template):
    res = run("new", "track", "Ring", "--ruleset", rid, "--template", template, "--dir", str(tmp_path))
    assert res.exit_code == 0, res.output
    data = load_file(tmp_path / "ring.yaml").data
    assert data["slipstream"] == "track/2" and data["rulesets"] == [rid] and "pit" in data
    if rid == "formula-de":
        assert all(c["stops"] in (1, 2, 3) for c in data["corners"]) and len(data["grid"]) >= 10
    else:
        assert all(all(v % 10 == 0 for v in c["lane_speeds"]) for c in data["corners"])
    done = run("validate", str(tmp_path / "ring.yaml"))
    assert "0 errors, 0 warnings" in done.output, done.output


def test_new_track_in_a_pack_takes_the_packs_ruleset_and_races(tmp_path):
    assert run("new", "pack", "Dice", "--ruleset", "formula-de", "--dir", str(tmp_path)).exit_code == 0
    assert run("new", "track", "Loop", "--dir", str(tmp_path / "dice")).exit_code == 0
    assert load_file(tmp_path / "dice" / "tracks" / "loop.yaml").data["rulesets"] == ["formula-de"]
    res = run("race", str(tmp_path / "dice"), "--track", "loop", "--laps", "1")
    assert res.exit_code == 0 and "T157" not in res.output, res.output


def test_unknown_template_for_a_ruleset_is_a_usage_error(tmp_path):
    res = run("new", "track", "Eight", "--ruleset", "formula-de", "--template", "figure-eight", "--dir", str(tmp_path))
    assert res.exit_code == 2 and "oval, road-course" in res.output


def test_a_track_without_corners_warns_in_validate_and_before_a_race(tmp_path):
    assert run("new", "pack", "Flat", "--ruleset", "formula-de", "--dir", str(tmp_path)).exit_code == 0
    pack = tmp_path / "flat"
    # a colour track (the shared shapes, no corners) in a Formula Dé-style pack
    assert run("new", "track", "Dash", "--ruleset", "automobiles", "--dir", str(pack)).exit_code == 0
    done = run("validate", str(pack))
    assert done.exit_code == 0 and "warning T157" in done.output and "dash.yaml" in done.output, done.output
    raced = run("race", str(pack), "--track", "dash", "--laps", "1")
    assert raced.exit_code == 0 and "warning T157" in raced.output, raced.output


def test_a_speed_hazard_track2_without_corners_warns(tmp_path):
    assert run("new", "track", "Bare", "--ruleset", "speed-hazard", "--dir", str(tmp_path)).exit_code == 0
    path = tmp_path / "bare.yaml"
    text = path.read_text()
    start = text.index("corners:")
    end = text.index("pit:")
    path.write_text(text[:start] + text[end:])
    done = run("validate", str(path))
    assert "warning T157" in done.output and "speed limits" in done.output, done.output
