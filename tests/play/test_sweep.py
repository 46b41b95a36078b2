"""`slipstream sweep`: variants validated first, results in SQLite, resume, Dask = local."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.play.sweeps import SweepError, parse_values, parse_vary

TOY = Path(__file__).resolve().parents[1] / "toy"


def sweep(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["sweep", *args], catch_exceptions=False)
    return res.exit_code, res.output


def report(tmp: Path, *args: str) -> dict:
    code, out = sweep(*args, "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    data.pop("store")
    return data


def test_values_are_lists_or_ranges():
    assert parse_values("2..6", "f") == (2, 3, 4, 5, 6)
    assert parse_values("0..10..5", "f") == (0, 5, 10)
    assert parse_values("true,false", "f") == (True, False)
    assert parse_values("1,2.5,fast", "f") == (1, 2.5, "fast")
    for bad in ("6..2", "", "1,,2", "1,1"):
        with pytest.raises(SweepError):
            parse_values(bad, "f")
    assert parse_vary("card:manager.cost=1..3").values == (1, 2, 3)


@pytest.mark.parametrize("vary, message", [
    ("card:manager.costt=1,2", "card 'manager' (cards/garage.yaml) has no field 'costt'"),
    ("card:nobody.cost=1,2", "no card 'nobody' in the pack"),
    ("widget:x.y=1", "unknown kind 'widget'"),
    ("option:teleport=true", "has no race option 'teleport'"),
    ("option:weaving=maybe,true", "weaving takes true or false"),
    ("card:manager.cost", "write PATH=VALUES"),
    ("card:manager.cost=-5", "variant 1 (card:manager.cost=-5) is not a valid pack"),
])
def test_a_bad_flag_or_variant_is_a_usage_error_naming_it(tmp_path: Path, vary: str, message: str):
    code, out = sweep("--vary", vary, "--races", "2", "--db", str(tmp_path / "s.sqlite"))
    assert code == 2, out
    assert message in out
    assert not (tmp_path / "s.sqlite").exists() or not sqlite3.connect(tmp_path / "s.sqlite").execute(
        "SELECT count(*) FROM race").fetchone()[0]


def test_a_sweep_reports_each_variant_and_a_finished_one_reports_again_without_racing(tmp_path, monkeypatch):
    db = str(tmp_path / "s.sqlite")
    args = ("--vary", "card:manager.cost=1,4", "--races", "6", "--db", db, "--bots", "greedy,greedy")
    first = report(tmp_path, *args)
    assert [v["label"] for v in first["variants"]] == ["card:manager.cost=1", "card:manager.cost=4"]
    assert all(v["races"] == 6 for v in first["variants"])
    assert "card:manager" in first["variants"][0]["users"]
    assert first["variants"][0]["digest"] != first["variants"][1]["digest"]

    import slipstream.engine.play.sweeps as sw

    def no_racing(job):
        raise AssertionError("a finished sweep must not race again")

    monkeypatch.setattr(sw, "run_job", no_racing)
    assert report(tmp_path, *args) == first


def test_another_sweep_in_the_same_store_is_refused(tmp_path):
    db = str(tmp_path / "s.sqlite")
    assert sweep("--vary", "option:weaving=true,false", "--races", "2", "--db", db)[0] == 0
    code, out = sweep("--vary", "option:weaving=true,false", "--races", "3", "--db", db)
    assert code == 2 and "holds another sweep" in out
    assert sweep("--vary", "option:weaving=true,false", "--races", "3", "--db", db, "--fresh")[0] == 0


def test_local_and_dask_localcluster_give_identical_results(tmp_path):
    args = ("--vary", "option:weaving=true,false", "--vary", "card:manager.cost=1,3", "--races", "4",
            "--jobs", "2", "--chunk", "2")
    local = report(tmp_path, *args, "--db", str(tmp_path / "local.sqlite"))
    dask = report(tmp_path, *args, "--db", str(tmp_path / "dask.sqlite"), "--scheduler", "local")
    assert local == dask
    assert len(local["variants"]) == 4


def test_without_dask_the_scheduler_flag_says_how_to_install_it(tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: None if n in ("dask", "distributed") else real(n, *a))
    code, out = sweep("--vary", "option:weaving=true,false", "--races", "2", "--scheduler", "local",
                      "--db", str(tmp_path / "s.sqlite"))
    assert code == 2 and "pip install 'slipstream[dask]'" in out


def test_a_killed_sweep_resumes_to_the_same_results(tmp_path):
    # enough races that polling every 0.2 s finds the sweep mid-way however fast races run (with
    # 12 a race a variant, the compiled engine of issue 20 could store all 24 between two polls)
    races = 150
    args = ["--vary", "card:manager.cost=1,2", "--races", str(races), "--chunk", "1", "--bots", "greedy,greedy"]
    whole = report(tmp_path, *args, "--db", str(tmp_path / "whole.sqlite"))
    db = tmp_path / "killed.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "slipstream", "sweep", *args, "--db", str(db)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    stored = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        try:
            stored = sqlite3.connect(db).execute("SELECT count(*) FROM race").fetchone()[0]
        except sqlite3.Error:
            continue
        if stored >= 5:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=30)
    assert 5 <= stored < 2 * races, "the sweep was killed mid-way"
    assert report(tmp_path, *args, "--db", str(db)) == whole


def test_any_ruleset_sweeps_its_options(tmp_path):
    data = report(tmp_path, str(TOY), "--vary", "option:die=2,12", "--races", "20", "--bots", "random,random",
                  "--db", str(tmp_path / "toy.sqlite"))
    rounds = [v["mean_rounds"] for v in data["variants"]]
    assert rounds[0] > rounds[1]  # a bigger die ends the race sooner


def test_html_and_svg_reports(tmp_path):
    html, svg = tmp_path / "r.html", tmp_path / "p.svg"
    code, out = sweep("--vary", "card:manager.cost=1..3", "--races", "3", "--db", str(tmp_path / "s.sqlite"),
                      "--html", str(html), "--plot", str(svg))
    assert code == 0, out
    page = html.read_text()
    # Altair's charts (the reports extra), scripts inlined: the page opens without a network
    assert "vegaEmbed" in page and 'src="http' not in page and "<polygon" not in page
    for title in ("win rate of players who bought / held the item by card:manager.cost",
                  "band and bars: 95% interval", "Win rate by grid slot (95% interval)",
                  "Win rate by seat and bot (95% interval)", "Race length distribution"):
        assert title in page
    assert "Variant 3: every measure (95% interval)" in page
    assert svg.read_text().startswith("<svg") and svg.read_text().count("<circle") == 3


def test_html_report_without_the_reports_extra_draws_its_plots(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "altair", None)  # as if the reports extra were not installed
    html = tmp_path / "r.html"
    code, out = sweep("--vary", "card:manager.cost=1..3", "--races", "2", "--db", str(tmp_path / "s.sqlite"),
                      "--html", str(html), "--format", "csv")
    assert code == 0, out
    page = html.read_text()
    assert page.count("<svg") == 1 and "<polygon" in page and "vegaEmbed" not in page
    assert out.startswith("variant,label,metric")


def test_formula_de_sweep_html_shows_its_figures_by_corner_as_heat_maps(tmp_path):
    html = tmp_path / "r.html"
    fd = Path(__file__).resolve().parents[2] / "content" / "formula-de"
    code, out = sweep(str(fd), "--vary", "wear.yaml#races[0].tyres=2,4", "--races", "2", "--laps", "1",
                      "--db", str(tmp_path / "s.sqlite"), "--html", str(html), "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert "lengths" not in data  # only the HTML's distribution
    names = {m["name"] for v in data["variants"] for m in v["measures"]}
    corners = {n.split(".", 1)[1] for n in names if n.startswith(("stops_missed.", "overshoots."))}
    assert corners and not any(c.startswith("corner ") or c.isdigit() for c in corners)  # corners by name
    page = html.read_text()
    # several variants: a heat map per group of the ruleset's figures, its legend naming the colour
    assert "stops missed: mean per race, by variant (colour: the estimate)" in page
    assert '"title": "stops missed (mean per race)"' in page and '"type": "rect"' in page
    assert all(c in page for c in corners)


def test_seasons_sweep_a_sponsor_and_count_its_holders(tmp_path):
    data = report(tmp_path, "--seasons", "6", "--vary", "sponsor:e1.brackets.first[0].remove.count=3,6",
                  "--bots", "greedy", "--players", "3", "--laps", "1", "--db", str(tmp_path / "s.sqlite"))
    assert data["unit"] == "seasons"
    assert data["track"] == "first-oval,road-course,first-oval"
    for v in data["variants"]:
        assert v["races"] == 6
        held = v["users"]["sponsor:e1"]["held"]
        assert held["users"]["n"] + held["others"]["n"] == 6 * 3  # every player of every season
    code, out = sweep("--seasons", "2", "--vary", "option:season_grid=reverse,winner_pole", "--players", "2",
                      "--laps", "1", "--db", str(tmp_path / "o.sqlite"))
    assert code == 0, out
    code, out = sweep("--vary", "option:season_grid=reverse,winner_pole", "--db", str(tmp_path / "r.sqlite"))
    assert code == 2 and "has no race option 'season_grid'" in out
