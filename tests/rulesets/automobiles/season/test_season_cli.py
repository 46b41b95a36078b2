"""`slipstream season` and `slipstream replay` on season logs."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import invoke as run


def test_one_season_prints_races_drafts_and_points(tmp_path: Path) -> None:
    r = run("season", "--tracks", "first-oval,road-course,first-oval", "--players", "4", "--bots", "greedy",
            "--seed", "4", "--laps", "1", "--drivers", "--log", str(tmp_path))
    assert r.exit_code == 0, r.output
    out = r.output
    for text in ("Race 1: first-oval", "Race 2: road-course", "Race 3: first-oval", "draft after race 1",
                 "draft after race 2", "applies", "points:", "season standings (ties: better place in the last race)",
                 "drivers:", "cube supply conserved"):
        assert text in out, text
    assert "draft after race 3" not in out
    log = tmp_path / "season-4.jsonl"
    assert json.loads(log.read_text().splitlines()[0])["format"] == "seasonlog/1"
    rep = run("replay", str(log))
    assert rep.exit_code == 0 and rep.output.strip() == "identical"
    lines = log.read_text().splitlines()
    i = next(i for i, ln in enumerate(lines) if '"t":"result"' in ln)
    lines[i] = lines[i].replace('"rounds":', '"rounds":1', 1)
    log.write_text("\n".join(lines) + "\n")
    rep = run("replay", str(log))
    assert rep.exit_code == 1 and f":{i + 1}:" in rep.output


def test_json_output_and_options() -> None:
    r = run("season", "--players", "3", "--bots", "greedy", "--seed", "2", "--laps", "1", "--format", "json",
            "--option", "season_points=10,6,4", "--option", "season_grid=reverse", "--no-drivers")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert len(data["races"]) == 3 and len(data["drafts"]) == 2
    assert sorted(rr["points"][p] for rr in data["races"][:1] for p in range(3)) == [4, 6, 10]
    assert data["races"][1]["grid"] == list(reversed(data["races"][0]["finish"]))
    assert data["supply_conserved"] is True
    assert set(data["drivers"].values()) == {None}


def test_many_seasons_print_statistics() -> None:
    r = run("season", "--players", "3", "--bots", "greedy,random", "--seed", "1", "--laps", "1",
            "--seasons", "3", "--jobs", "2", "--draft", "random", "--sponsor-first", "b2")
    assert r.exit_code == 0, r.output
    for text in ("3 seasons, 9 races, 3 players", "season win rate by bot", "season win rate by first-race grid slot",
                 "picked/offered", "holder race wins", "seasons/s", "  b2 "):
        assert text in r.output, text


STRONG_F3 = str(Path(__file__).resolve().parent / "packs" / "strong-f3")


def test_against_compares_every_sponsor_between_two_packs() -> None:
    args = ("season", STRONG_F3, "--players", "4", "--bots", "greedy", "--seed", "400", "--laps", "1",
            "--seasons", "4", "--jobs", "1", "--draft", "random", "--sponsor-first", "f3", "--against", "base")
    r = run(*args)
    assert r.exit_code == 0, r.output
    assert "sponsors compared, the same seeds on both packs" in r.output and "clearly different:" in r.output
    assert "8 seasons in" in r.output  # 4 on each pack
    section = r.output.split("sponsors compared", 1)[1]
    row = next(ln for ln in section.splitlines() if ln.startswith("  f3 "))
    assert row.count("%") == 6  # rate and interval on both packs
    data = json.loads(run(*args, "--format", "json").output)
    f3 = next(c for c in data["against"]["sponsors"] if c["sponsor"] == "f3")
    assert data["against"]["pack"] == "base" and f3["a"]["n"] > 0 and f3["b"]["n"] > 0
    assert isinstance(f3["z"], float) and f3["clear"] in ("", "higher", "lower")


def test_compare_sponsors_marks_only_differences_beyond_the_widened_interval() -> None:
    from slipstream.engine.play.stats import Rate
    from slipstream.engine.rulesets.automobiles.seasonstats import compare_sponsors

    def rep(**wins: tuple[int, int]) -> dict:
        return {"flag_z": 2.99, "sponsors": [{"sponsor": s, "race_win_rate": Rate(s, w, n).as_dict()}
                                             for s, (w, n) in wins.items()]}

    rows = compare_sponsors(rep(f3=(113, 196), a1=(30, 100), b1=(5, 100)), rep(f3=(57, 210), a1=(25, 100), b1=(30, 100)))
    assert {r["sponsor"]: r["clear"] for r in rows} == {"f3": "higher", "a1": "", "b1": "lower"}
    assert rows[0]["z"] > 6


def test_usage_errors() -> None:
    assert run("season", "--against", "base").exit_code == 2  # one season: nothing to compare
    assert run("season", "--seasons", "2", "--against", "no-such-pack-folder").exit_code == 2
    assert run("season", "--tracks", "first-oval,road-course").exit_code == 2
    assert run("season", "--tracks", "first-oval,nowhere,first-oval").exit_code == 2
    assert run("season", "--bots", "clever").exit_code == 2
    assert run("season", "--option", "season_grid=sideways").exit_code == 2
    assert run("season", "--option", "nonsense=1").exit_code == 2
    assert run("season", "--sponsor-first", "zz9").exit_code == 2


def test_tracks_can_be_files(tmp_path: Path) -> None:
    from slipstream.engine.rulesets.automobiles.content import base_pack

    src = Path(base_pack().root) / "tracks" / "first-oval.yaml"
    copy = tmp_path / "my-oval.yaml"
    copy.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    r = run("season", "--tracks", f"{copy},road-course,{copy}", "--players", "2", "--bots", "greedy",
            "--laps", "1", "--format", "json", "--log", str(tmp_path))
    assert r.exit_code == 0, r.output
    assert run("replay", str(tmp_path / "season-1.jsonl")).output.strip() == "identical"


def test_one_season_says_one_point_and_names_sponsors_by_their_card() -> None:
    r = run("season", "--players", "4", "--bots", "greedy,random", "--seed", "3", "--laps", "1")
    assert r.exit_code == 0, r.output
    out = r.output
    assert "+1 points" not in out and " 1 points" not in out
    assert "+1 point\n" in out and "+2 points" in out
    placed = [ln for ln in out.splitlines() if ln.startswith("  ") and " point" in ln and ". P" in ln]
    assert placed and all(ln.rstrip().endswith(("point", "points")) for ln in placed)
    assert "Apex Bank" in out or "Bolt Brothers" in out or "Clearwater Oils" in out
    applies = [ln for ln in out.splitlines() if " applies " in ln]
    assert applies
    import re

    for ln in applies:  # a name, then the id that --sponsor-first takes
        assert re.search(r" applies [A-Z][\w ]+ \([a-f][1-3]\), (first|middle|last) bracket$", ln), ln


def test_season_statistics_name_sponsors_by_their_card() -> None:
    import re

    r = run("season", "--players", "3", "--bots", "greedy", "--seasons", "2", "--laps", "1")
    assert r.exit_code == 0, r.output
    rows = [ln for ln in r.output.splitlines() if re.match(r"  [a-f][1-3] ", ln)]
    assert rows and all(re.match(r"  [a-f][1-3] [A-Z][\w ]+ I{1,3} +\d", ln) for ln in rows), rows


def test_many_seasons_show_the_shared_measures_and_automobiles_own() -> None:
    """Every race of the seasons is measured as `race --races` measures a race alone."""
    args = ("season", "--players", "3", "--bots", "greedy,random", "--seed", "2", "--laps", "1", "--seasons", "3")
    r = run(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    m = {row["name"]: row for row in data["measures"]}
    for name in ("rounds", "completion", "lead_changes", "last_round_overtakes", "win.slot1", "win.seat3",
                 "wear", "pit_stops", "drafting", "standing_still"):
        assert name in m, name
    assert any(n.startswith("played.") for n in m) and any(n.startswith("bought.") for n in m)
    assert m["rounds"]["n"] == data["races"] == 9
    assert round(m["rounds"]["value"], 2) == data["mean_rounds"]
    assert m["completion"]["n"] == 9
    # one winner a race: the win rates by grid slot add up to the races
    assert sum(row["successes"] for n, row in m.items() if n.startswith("win.slot")) == 9
    text = run(*args)
    assert text.exit_code == 0, text.output
    assert "every race of the seasons, measures" in text.output and "wear gained per player" in text.output


def test_a_season_race_keeps_its_order_after_every_round() -> None:
    from slipstream.engine.rulesets.automobiles.seasonrun import SeasonSpec, run_season

    res = run_season(SeasonSpec("", ("first-oval", "first-oval"), 5, ("greedy",) * 3, laps=1))
    for rr in res.races:
        # as `races.play_out` gives them: the order at the end of every round but the last, then the finish
        assert rr.orders[-1] == rr.finish
        assert len(rr.orders) == rr.rounds
        assert sum(rr.stats["moves"]) > 0
    assert len(res.measures) == len(res.races)
