"""A ruleset is cheap (issue 28, item 7, the command line): the toy ruleset of tests/toyruleset.py
(a game, a bot, a race view, a championship of points by place and one file kind of its own)
gets every face of the command line without a line of face code naming it.

Unlike tests/cli/test_parity.py, which lets a command refuse a ruleset that lacks a capability,
nothing may refuse the toy here: it declares every capability these commands need. Each command
runs in-process with the toy registered for the session (tests/conftest.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from helpers import ROOT
from helpers import invoke as run

from slipstream.engine.play import registry

TOY = Path(__file__).resolve().parent.parent / "toy"


def ok(*args: str) -> str:
    res = run(*args)
    assert res.exit_code == 0, f"`slipstream {' '.join(args)}` refused the toy ruleset:\n{res.output}"
    return res.output


def test_no_face_names_the_toy_ruleset() -> None:
    named = [f"{p.relative_to(ROOT)}:{i}" for part in ("cli", "editor") for p in sorted((ROOT / part).rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\btoy\b", line, re.IGNORECASE)]
    assert named == []


def test_no_face_names_any_installed_ruleset() -> None:
    """Faces reach rulesets through the registry only (issue 28): no file of cli/ or editor/,
    editor/rulesets/<id> aside, holds the id of an installed ruleset (in a module name spelt
    with underscores too), not even in a help text."""
    words = {w for rid in registry.ids() for w in (rid, rid.replace("-", "_"))}
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(words))) + r")(?![\w-])")
    named = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}" for part in ("cli", "editor")
             for p in sorted((ROOT / part).rglob("*.py")) if "rulesets" not in p.relative_to(ROOT / part).parts
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert named == []


def test_a_designer_walks_every_face_with_the_toy_ruleset(tmp_path: Path) -> None:
    rs = registry.get("toy")
    assert rs.seasons is not None and rs.files is not None  # it declares a championship and a file kind
    # a new pack and a new track in it, clean
    assert "created pack" in ok("new", "pack", "Dice Derby", "--ruleset", "toy", "--dir", str(tmp_path))
    pack = tmp_path / "dice-derby"
    assert "ruleset: toy" in (pack / "pack.yaml").read_text(encoding="utf-8")
    assert "created track" in ok("new", "track", "Pebble Ring", "--dir", str(pack))
    assert (pack / "tracks" / "pebble-ring.yaml").is_file()
    assert "0 errors, 0 warnings" in ok("validate", str(pack))
    # a race with a log, replayed identical
    logs = tmp_path / "logs"
    raced = ok("race", str(pack), "--track", "pebble-ring", "--bots", "bold,random", "--seed", "5", "--log", str(logs))
    assert "final standings: " in raced and "P1 moves" in raced
    log = logs / "race-5.jsonl"
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["ruleset"] == "toy"
    assert ok("replay", str(log)).strip() == "identical"
    # a championship (the toy's house values: 2 races, 3-2-1 points), logged and replayed
    season = ok("season", str(pack), "--bots", "bold,random", "--seed", "3", "--log", str(tmp_path / "seasons"))
    assert "championship standings" in season and "Race 2: pebble-ring" in season
    assert "Race 3" not in season
    assert re.search(r"1\. P\d \((bold|random)\) \d+ points", season), season
    season_logs = sorted((tmp_path / "seasons").glob("*.jsonl"))
    assert len(season_logs) == 1
    assert ok("replay", str(season_logs[0])).strip() == "identical"
    # the championship's own option comes from the ruleset
    assert "championship standings" in ok("season", str(TOY), "--tracks", "toy-oval", "--option", "season_points=5,1")
    many = json.loads(ok("season", str(TOY), "--seasons", "3", "--format", "json"))
    assert many["seasons"] == 3
    # a ladder of its bots, a sweep of races and one of championships
    ladder = ok("ladder", str(pack), "--track", "pebble-ring", "--races", "4", "--bots", "bold,random")
    assert "bold" in ladder and "random" in ladder
    swept = ok("sweep", str(pack), "--track", "pebble-ring", "--vary", "option:die=4,8", "--races", "6",
               "--db", str(tmp_path / "sweep.db"))
    assert "variant 2: option:die=8" in swept
    swept = ok("sweep", str(pack), "--tracks", "pebble-ring", "--vary", "option:die=4,8", "--seasons", "2",
               "--db", str(tmp_path / "seasons.db"))
    assert "variant 2: option:die=8" in swept and "seasons 2" in swept
    # its own schemas: the file kind it ships and the house rules file generated from its options
    out = tmp_path / "schemas"
    ok("schema", "-o", str(out))
    scenario = json.loads((out / "toy-scenario.schema.json").read_text(encoding="utf-8"))
    assert scenario == json.loads((ROOT / "tests" / "toyschemas" / "toy-scenario.schema.json").read_text(encoding="utf-8"))
    rules = (out / "toy-rules.schema.json").read_text(encoding="utf-8")
    assert '"die"' in rules and '"season_points"' in rules
    # the pack it scaffolded carries them too, for editor completion
    assert (pack / "schemas" / "toy-scenario.schema.json").is_file()
