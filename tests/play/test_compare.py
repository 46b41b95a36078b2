"""`slipstream compare` and engine/play/measures.py: the same seeds on two packs, every measure
side by side, clear changes after Holm's correction, and the exit status that gates CI."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.play.measures import (
    MEAN,
    RATE,
    Measure,
    aggregate,
    compare,
    holm,
    t_two_sided,
    two_proportions,
    welch,
)

CONTENT = Path(__file__).resolve().parents[2] / "content"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["compare", *args], catch_exceptions=False, env=env)
    return res.exit_code, res.output


def fd_copy(tmp: Path, tyres_less: int = 0) -> Path:
    """A copy of the bundled Formula Dé pack, with `tyres_less` fewer tyre points in every row."""
    dst = tmp / f"fd-{tyres_less}"
    shutil.copytree(CONTENT / "formula-de", dst, ignore=shutil.ignore_patterns("tests"))
    wear = dst / "wear.yaml"
    text = wear.read_text(encoding="utf-8")
    text = re.sub(r"tyres: (\d+)", lambda m: f"tyres: {int(m.group(1)) - tyres_less}", text)
    wear.write_text(text, encoding="utf-8")
    return dst


def test_tests_give_known_p_values():
    assert t_two_sided(2.0, 10) == pytest.approx(0.07339, abs=1e-4)  # Student's t table
    assert t_two_sided(0.0, 5) == pytest.approx(1.0)
    assert two_proportions(50, 100, 50, 100) == pytest.approx(1.0)
    assert two_proportions(30, 100, 50, 100) == pytest.approx(0.00386, abs=1e-4)  # z = 2.887
    assert welch(1.0, 1.0, 30, 1.0, 4.0, 30) == pytest.approx(1.0)
    adjusted, clear = holm([0.01, 0.04, 0.03, 0.5])
    assert adjusted == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert clear == [True, False, False, False]


def test_compare_marks_only_what_moved():
    same = [[Measure("x", "x", MEAN, v), Measure("r", "r", RATE, 1.0 if v > 1 else 0.0)] for v in (1, 2, 3) * 20]
    moved = [[Measure("x", "x", MEAN, v + 5), Measure("r", "r", RATE, 1.0 if v > 1 else 0.0)] for v in (1, 2, 3) * 20]
    rows = {r["name"]: r for r in compare(aggregate(same), aggregate(moved))}
    assert rows["x"]["clear"] and rows["x"]["change"] == pytest.approx(5.0)
    assert not rows["r"]["clear"] and rows["r"]["change"] == 0


def test_identical_packs_show_no_clear_change(tmp_path):
    code, out = run(str(CONTENT / "formula-de"), str(fd_copy(tmp_path)), "--races", "12",
                    "--fail-on-clear-change", "all", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["clear"] == [] and data["failing"] == []
    rows = {r["name"]: r for r in data["measures"]}
    for name in ("rounds", "completion", "win.slot1", "win.seat1", "lead_changes", "last_round_overtakes",
                 "finish_rate", "pit_stops"):
        assert rows[name]["a"] == rows[name]["b"], name  # the same seeds: the very same races
    assert any(n.startswith("stops_missed.") for n in rows)  # corners by name
    assert "stops_missed.0" not in rows


def test_fewer_tyre_points_is_a_clear_change_and_fails_the_gate(tmp_path):
    # Two tyre points fewer: cars that overshoot lose their last point sooner. With the usual
    # field that moves the cause of elimination (overshoot up, stops missed down: the random
    # cars go out either way, the greedy ones rarely spend their tyres), not the finish rate
    # (docs/reports.md, "Example: two tyre points fewer": flat at 400 races). 150 races a pack
    # keep the gated change clear of the edge (p_gate about 0.005 on these seeds).
    b = fd_copy(tmp_path, 2)
    code, out = run(str(CONTENT / "formula-de"), str(b), "--races", "150", "--jobs", "2",
                    "--fail-on-clear-change", "eliminations,finish_rate", "--format", "json")
    assert code == 1, out
    data = json.loads(out)
    rows = {r["name"]: r for r in data["measures"]}
    assert "eliminations.overshoot" in data["failing"] and "finish_rate" not in data["failing"]
    overshoot = rows["eliminations.overshoot"]
    assert overshoot["b"]["value"] > overshoot["a"]["value"] and overshoot["p_gate"] < 0.01
    missed = rows["eliminations.stops missed"]  # the competing risk: fewer cars reach that end
    assert missed["b"]["value"] < missed["a"]["value"]
    assert not rows["finish_rate"]["clear"] and rows["finish_rate"]["p_gate"] > 0.05
    assert not rows["rounds"]["clear"] and "p_gate" not in rows["rounds"]


def test_github_summary_and_annotations(tmp_path):
    summary = tmp_path / "summary.md"
    code, out = run(str(CONTENT / "formula-de"), str(fd_copy(tmp_path)), "--races", "4", "--format", "github",
                    env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert code == 0, out
    md = summary.read_text(encoding="utf-8")
    assert md.startswith("## Balance:") and "| finish rate (cars that finish) (`finish_rate`) |" in md
    assert "**Clear changes:** none" in md


def test_usage_errors(tmp_path):
    code, out = run(str(CONTENT / "formula-de"), str(CONTENT / "speed-hazard"), "--races", "2")
    assert code == 2 and "compare two versions of one ruleset's pack" in out
    code, out = run(str(CONTENT / "formula-de"), str(fd_copy(tmp_path)), "--races", "2",
                    "--fail-on-clear-change", "no_such_measure")
    assert code == 2 and "no measure 'no_such_measure'" in out


@pytest.mark.parametrize("pack, names", [
    ("speed-hazard", ("wrecks", "hazards", "damage", "luck_spent", "finished")),
    ("base", ("wear", "pit_stops", "drafting", "standing_still")),
])
def test_every_ruleset_gives_its_own_measures(pack, names):
    code, out = run(pack, pack, "--races", "3", "--format", "json")
    assert code == 0, out
    got = {r["name"] for r in json.loads(out)["measures"]}
    assert {"rounds", "completion", "win.slot1", "win.seat1", "lead_changes"} <= got
    assert set(names) <= got, sorted(got)
    if pack == "speed-hazard":
        assert any(n.startswith("hazard_cards.") for n in got)  # hazard cards by name
    else:
        assert any(n.startswith("bought.") for n in got)  # cubes by kind


def test_charts_offline_html_and_static_files(tmp_path):
    import altair  # noqa: F401 - the reports extra, which the dev extra installs: never skipped
    import vl_convert  # noqa: F401
    page, svg = tmp_path / "r.html", tmp_path / "r.svg"
    code, out = run("speed-hazard", "speed-hazard", "--races", "3", "--html", str(page), "--chart", str(svg))
    assert code == 0, out
    text = page.read_text(encoding="utf-8")
    assert "vegaEmbed(" in text and "cdn.jsdelivr.net" not in text  # scripts inlined: opens offline
    assert "Win rate by grid slot" in text and "hazard cards" in text and "<h2>Every measure</h2>" in text
    assert svg.read_text(encoding="utf-8").lstrip().startswith("<svg")


def test_charts_without_the_extra_are_a_usage_error(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "altair", None)  # as if the reports extra were not installed
    code, out = run("speed-hazard", "speed-hazard", "--races", "2", "--html", str(tmp_path / "r.html"))
    assert code == 2 and "pip install 'slipstream[reports]'" in out
    assert not (tmp_path / "r.html").exists()
    code, out = run("speed-hazard", "speed-hazard", "--races", "2", "--format", "json")
    assert code == 0 and json.loads(out)["measures"]  # the JSON report needs nothing


def test_the_same_report_in_one_or_two_processes():
    one = run("base", "base", "--races", "4", "--format", "json", "--jobs", "1")
    two = run("base", "base", "--races", "4", "--format", "json", "--jobs", "2")
    assert one[0] == two[0] == 0
    assert json.loads(one[1]) == json.loads(two[1])


def test_the_same_report_in_one_or_two_processes_and_on_a_dask_cluster(tmp_path):
    b = fd_copy(tmp_path, 2)
    args = (str(CONTENT / "formula-de"), str(b), "--races", "3", "--laps", "1", "--skill", "2",
            "--skill-pairs", "greedy:random", "--format", "json")
    reports = [run(*args, *extra) for extra in (("--jobs", "1"), ("--jobs", "2"),
                                                 ("--scheduler", "local", "--jobs", "2"))]
    assert [code for code, _ in reports] == [0, 0, 0], reports
    one, two, dask = (json.loads(out) for _, out in reports)
    assert one == two == dask
    assert one["races"] == 3 and any(r["a"] != r["b"] for r in one["measures"])  # two packs that differ


def test_skill_gap_from_head_to_head_races():
    code, out = run("formula-de", "formula-de", "--races", "2", "--skill", "6", "--skill-pairs", "greedy:random",
                    "--format", "json")
    assert code == 0, out
    rows = {r["name"]: r for r in json.loads(out)["measures"]}
    gap = rows["skill.greedy_vs_random"]
    assert gap["kind"] == "rate" and gap["a"]["n"] == 6 and gap["a"] == gap["b"]
    assert gap["a"]["value"] > 0.5  # the greedy bot beats the random one on these seeds
    code, out = run("formula-de", "formula-de", "--races", "2", "--skill", "2", "--skill-pairs", "greedy")
    assert code == 2 and "STRONGER:WEAKER" in out
