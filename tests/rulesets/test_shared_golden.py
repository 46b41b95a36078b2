"""Golden race and season logs of the Formula Dé-style and speed-and-hazard rulesets replay
identically, header included, from any working folder; broken season logs end in a report that
names a line, never a traceback. The logs were written by `slipstream race content/<ruleset>
... --log` and `slipstream season ... --log` from the repository root; what each log must show
(pit stops, wrecks, the rule options it covers) is tested in the ruleset's own folder."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from slipstream.engine.play.racelog import replay_file, replay_lines
from slipstream.engine.play.registry import load_pack

from .shared import BOTH, ROOT, Ruleset

LOGS = [(rs, p) for rs in BOTH for p in rs.golden]


def regen(rs: Ruleset) -> str:
    return (f"if the rules or the {rs.id} pack changed on purpose, regenerate the log from the "
            f"repository root with `slipstream race content/{rs.id} --seed S --bots ... --log DIR` "
            "using the header of the file")


@pytest.mark.parametrize("rs", BOTH, ids=lambda rs: rs.id)
def test_there_are_three_golden_logs_of_the_ruleset_one_of_them_of_one_lap(rs: Ruleset) -> None:
    heads = [json.loads(p.read_text().splitlines()[0]) for p in rs.golden]
    assert len(heads) >= 3 and all(h["ruleset"] == rs.id for h in heads)
    assert any(h["laps"] == 1 for h in heads)


@pytest.mark.parametrize("cwd", ["root", "elsewhere"])
@pytest.mark.parametrize("rs, path", LOGS, ids=[f"{rs.id}-{p.stem}" for rs, p in LOGS])
def test_golden_log_replays_identically(rs: Ruleset, path: Path, cwd: str, monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    # the header names the pack from the log's folder (older logs: from the folder they were
    # written in); either way the log replays from any working folder
    monkeypatch.chdir(ROOT if cwd == "root" else tmp_path)
    load_pack.cache_clear()  # packs are cached by the path as given, which names another folder now
    rep = replay_file(path)
    assert rep.identical, f"{rep.message} at line {rep.line}: {regen(rs)}"


@pytest.mark.parametrize("cwd", ["root", "elsewhere"])
@pytest.mark.parametrize("rs", BOTH, ids=lambda rs: rs.id)
def test_the_golden_season_log_replays_identically(rs: Ruleset, monkeypatch, tmp_path, cwd):
    """Written from the repository root by `slipstream season content/<ruleset> --players N
    --bots greedy,random --laps 1 --option season_races=2 --seed S --log DIR` (formula-de: 3
    players, seed 9; speed-hazard: 4 players, seed 111); regenerate it so when the rules or the
    pack change on purpose. Its header names the pack from the folder it was written in (as
    logs did before they named it from their own folder): it replays from any working folder."""
    monkeypatch.chdir(ROOT if cwd == "root" else tmp_path)
    load_pack.cache_clear()  # packs are cached by the path as given, which names another folder now
    lines = rs.golden_season.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["t"] == "season" and head["ruleset"] == rs.id
    rep = replay_file(rs.golden_season)
    assert rep.identical, f"{rep.message} at line {rep.line}"
    if cwd == "root":  # the header names the pack by its path from the repository root
        rep = replay_lines(lines)
        assert rep.identical, f"{rep.message} at line {rep.line}"


def broken_season_logs(lines: list[str], seed: int, n: int) -> list[list[str]]:
    """Seeded mutants of a season log: `n` with lines dropped, cut, repeated or a field changed,
    then one a header field of every type."""
    rng = random.Random(seed)
    values = [None, True, -1, 10**30, "x", [], {}, [1, 2], 1.5, "P1"]
    mutants = []
    for _ in range(n):
        ls = list(lines)
        i = rng.randrange(len(ls))
        how = rng.randrange(4)
        if how == 0:
            del ls[i]
        elif how == 1:
            ls[i] = ls[i][: rng.randrange(len(ls[i]))]
        elif how == 2:
            ls.insert(i, ls[rng.randrange(len(ls))])
        else:
            obj = json.loads(ls[i])
            obj[rng.choice(sorted(obj))] = rng.choice(values)
            ls[i] = json.dumps(obj, sort_keys=True, separators=(",", ":"))
        mutants.append(ls)
    head = json.loads(lines[0])
    for key in ("tracks", "seats", "season_options", "options", "laps", "seed", "digest"):
        mutants.append([json.dumps({**head, key: rng.choice(values)})] + lines[1:])
    return mutants


# the seeds and counts each ruleset's test had before they were merged
BROKEN = {"formula-de": (14, 30), "speed-hazard": (29, 20)}


@pytest.mark.parametrize("rs", BOTH, ids=lambda rs: rs.id)
def test_broken_season_logs_end_in_a_report_never_a_traceback(rs: Ruleset):
    """Seeded mutants of the golden season log (lines dropped, cut, repeated, fields changed
    or removed, header fields of every type): each gives a report naming a line."""
    lines = rs.golden_season.read_text(encoding="utf-8").splitlines()
    for ls in broken_season_logs(lines, *BROKEN[rs.id]):
        rep = replay_lines(ls)
        if ls != lines:
            assert not rep.identical and rep.line >= 1 and rep.message
