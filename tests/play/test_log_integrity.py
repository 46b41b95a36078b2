"""Formula Dé and speed-hazard logs are verified as Automobiles logs are (issue 31, item 3).

The header is checked field by field (rule options against the ruleset's option spec, seats
and their bots), so an edited header gives a one-line report, never a traceback and never
`identical`; the seats' bots are re-run beside the replay, so a seat's bot edited into
another known bot is caught too. A log names its pack from its own folder, so it replays
from any working folder, and after a move when the pack is found above it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.play.logcheck import dumps
from slipstream.engine.play.racelog import replay_file

ROOT = Path(__file__).resolve().parents[2]
RACES = {
    "formula-de": ["--bots", "greedy,random", "--seed", "2", "--laps", "1"],
    "speed-hazard": ["--bots", "greedy,random", "--seed", "2", "--laps", "1"],
}


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One short race log of each ruleset, written from the repository root into a folder
    elsewhere (the pack named by its path from the root, as users write it)."""
    out = {}
    mp = pytest.MonkeyPatch()
    mp.chdir(ROOT)
    try:
        for rid, args in RACES.items():
            folder = tmp_path_factory.mktemp(rid)
            r = CliRunner().invoke(main, ["race", f"content/{rid}", *args, "--log", str(folder)])
            assert r.exit_code == 0, r.output
            out[rid] = folder / "race-2.jsonl"
    finally:
        mp.undo()
    return out


def edited(log: Path, change: Callable[[dict], None], to: Path) -> Path:
    lines = log.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    change(head)
    lines[0] = dumps(head)
    to.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return to


def option(k: str, v: object) -> Callable[[dict], None]:
    return lambda h: h["options"].__setitem__(k, v)


def bot(i: int, name: str) -> Callable[[dict], None]:
    return lambda h: h["seats"][i].__setitem__("bot", name)


# (ruleset, edit, report kind, a piece of the one-line message)
CASES = [
    ("formula-de", option("cars_per_player", "x"), "malformed", "cars_per_player must be int, not a string"),
    ("formula-de", option("cars_per_player", 1.0), "malformed", "cars_per_player must be int, not a number"),
    ("formula-de", option("cars_per_player", 99), "malformed", "cars_per_player must be 1 to 5"),
    ("formula-de", option("wear_model", "plenty"), "malformed", "wear_model='plenty'"),
    ("formula-de", option("season_points", "players_minus_place"), "malformed", "unknown rule option 'season_points'"),
    ("formula-de", option("teleport", True), "malformed", "unknown rule option 'teleport'"),
    ("formula-de", bot(1, "sloth"), "header", "seat 2: Formula Dé-style racing has no bot 'sloth'"),
    ("formula-de", bot(1, "greedy:3"), "header", "seat 2: the greedy bot takes no setting"),
    ("formula-de", bot(1, "greedy"), "diverges", "seat 2's bot 'greedy' chooses"),
    ("formula-de", bot(0, "random"), "diverges", "seat 1's bot 'random' chooses"),
    ("formula-de", lambda h: h.__setitem__("setup", {"card_set": "x"}), "header", "take no setting 'card_set'"),
    ("formula-de", lambda h: h.__setitem__("setup", []), "malformed", "'setup' must be an object"),
    ("formula-de", lambda h: h.__setitem__("laps", 1.0), "malformed", "'laps' must be an integer"),
    ("formula-de", lambda h: h.__setitem__("track", 7), "malformed", "'track' must be a string"),
    ("formula-de", lambda h: h.__setitem__("seats", h["seats"] * 6), "malformed", "1 to 10 seats"),
    ("speed-hazard", option("u_turn", "yes"), "malformed", "u_turn must be bool, not a string"),
    ("speed-hazard", option("nitrous_until", "forever"), "malformed", "nitrous_until='forever'"),
    ("speed-hazard", option("cars_per_player", 2), "malformed", "unknown rule option 'cars_per_player'"),
    ("speed-hazard", bot(1, "sloth"), "header", "seat 2: Speed-and-hazard racing has no bot 'sloth'"),
    ("speed-hazard", bot(1, "greedy"), "diverges", "seat 2's bot 'greedy' chooses"),
    ("speed-hazard", lambda h: h.__setitem__("seats", h["seats"] * 4), "malformed", "1 to 6 seats"),
]


@pytest.mark.parametrize(("rid", "change", "kind", "piece"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_an_edited_header_is_reported_in_one_line(logs: dict[str, Path], tmp_path: Path, rid: str,
                                                  change: Callable[[dict], None], kind: str, piece: str) -> None:
    log = edited(logs[rid], change, tmp_path / "race.jsonl")
    rep = replay_file(log)
    assert (rep.kind, piece in rep.message) == (kind, True), rep.message
    r = CliRunner().invoke(main, ["replay", str(log)])
    assert r.exit_code == 1 and (r.exception is None or isinstance(r.exception, SystemExit)), r.output
    first = r.output.splitlines()[0]
    assert first.startswith(f"{log}:{rep.line}: ") and piece in first
    if kind != "diverges":
        assert len(r.output.splitlines()) == 1


@pytest.mark.parametrize("rid", sorted(RACES))
def test_a_log_replays_from_any_working_folder_and_after_a_move(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               rid: str) -> None:
    project = tmp_path / "project"
    shutil.copytree(ROOT / "content" / rid, project / "content" / rid, ignore=shutil.ignore_patterns("tests"))
    monkeypatch.chdir(project)
    r = CliRunner().invoke(main, ["race", f"content/{rid}", *RACES[rid], "--log", "logs"])
    assert r.exit_code == 0, r.output
    log = project / "logs" / "race-2.jsonl"
    # the pack is named from the log's folder, not from the folder the race was run in
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["pack_path"] == f"../content/{rid}"
    monkeypatch.chdir(tmp_path)
    assert replay_file(log).identical
    # moved deeper into the project: the pack is found in a folder above it, the digest deciding
    moved = project / "a" / "b" / "race.jsonl"
    moved.parent.mkdir(parents=True)
    log.rename(moved)
    assert replay_file(moved).identical


def test_a_pack_found_with_other_content_is_reported_as_a_digest_difference(logs: dict[str, Path],
                                                                             tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(ROOT / "content" / "formula-de", pack, ignore=shutil.ignore_patterns("tests"))
    wear = pack / "wear.yaml"
    wear.write_text(wear.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    log = edited(logs["formula-de"], lambda h: h.__setitem__("pack_path", "pack"), tmp_path / "race.jsonl")
    rep = replay_file(log)
    assert rep.kind == "header" and "pack digest" in rep.message, rep.message


def test_an_automobiles_race_log_replays_from_any_working_folder(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    shutil.copytree(ROOT / "content" / "base", project / "content" / "base", ignore=shutil.ignore_patterns("tests"))
    monkeypatch.chdir(project)
    r = CliRunner().invoke(main, ["race", "content/base", "--bots", "greedy,random", "--seed", "2", "--laps", "1",
                                  "--log", "logs"])
    assert r.exit_code == 0, r.output
    log = project / "logs" / "race-2.jsonl"
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["pack_path"] == "../content/base"
    monkeypatch.chdir(tmp_path)
    assert replay_file(log).identical


@pytest.mark.parametrize(("pack", "track", "races"), [
    ("formula-de", "tracks/tilleuls.yaml", 1),
    ("base", "tracks/first-oval.yaml", 3),
])
def test_a_season_log_naming_track_files_replays_from_any_working_folder(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                         pack: str, track: str, races: int) -> None:
    """`season --tracks FILE` records each track file from the log's folder, as it records the
    pack, in the header and in every season-race line (it was recorded from the working folder,
    so the log replayed only from there)."""
    project = tmp_path / "project"
    # a folder name no other test uses: packs are cached by the path given, in this process
    folder = f"season-files-{pack}"
    shutil.copytree(ROOT / "content" / pack, project / folder, ignore=shutil.ignore_patterns("tests"))
    shutil.copy(project / folder / track, project / "mine.yaml")
    monkeypatch.chdir(project)
    r = CliRunner().invoke(main, ["season", folder, "--tracks", ",".join(["mine.yaml"] * races), "--laps", "1",
                                  "--bots", "greedy,greedy", "--log", "logs"])
    assert r.exit_code == 0, r.output
    log = project / "logs" / "season-1.jsonl"
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["tracks"] == ["../mine.yaml"] * races
    monkeypatch.chdir(tmp_path)
    rep = replay_file(log)
    assert rep.identical, rep.message
    r = CliRunner().invoke(main, ["replay", str(log)])
    assert r.exit_code == 0 and r.output.strip() == "identical", r.output
