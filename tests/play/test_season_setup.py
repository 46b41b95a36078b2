"""A points championship (engine/play/seasons.py) races with the ruleset's setup values, as a
single race does: every race gets them, the season log records them and its replay uses them.

The toy ruleset (which has points championships of its own) is given a setup key here, the
faces of its die."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import toyruleset

from slipstream.engine.play.protocol import SeasonPlan, SetupKey

TOY = Path(__file__).resolve().parent.parent / "toy"


class DieSetup:
    keys = (SetupKey("toy_die", "--toy-die", "N", "Faces of the die."),)

    def problems(self, pack: Any, setup: Any) -> list[tuple[str, str]]:
        return [] if int(setup.get("toy_die", 2)) >= 2 else [("--toy-die", "a die has 2 faces or more")]

    def choices(self, pack: Any, key: str) -> list[tuple[str, str]]:
        return []

    def log_header(self, head: dict[str, Any], spec: Any, pack: Any, track: Any) -> dict[str, Any]:
        return head

    def resolved(self, game: Any) -> dict[str, Any]:
        return {"toy_die": game.die}


class SetupToy(toyruleset.Toy):
    def __init__(self) -> None:
        super().__init__()  # its championships (toyruleset.CHAMPIONSHIP: points 3-2-1, 2 races)
        self.setup = DieSetup()

    def new_game(self, pack: Any, track: Any, seats: Any, seed: int, options: Any, laps: Any = None,
                 setup: Any = None, record: bool = True) -> Any:
        game = super().new_game(pack, track, seats, seed, options, laps, setup, record)
        if setup and setup.get("toy_die"):
            game.die = int(setup["toy_die"])
        return game


def plan(setup: tuple[tuple[str, Any], ...]) -> SeasonPlan:
    return SeasonPlan(str(TOY), ("toy-oval", "toy-oval"), 3, ("bold", "bold", "random"), 1, (), setup,
                      (), True, "toy")


def test_every_race_of_a_championship_gets_the_setup_and_its_log_replays_with_it():
    rs = SetupToy()
    assert rs.seasons is not None
    res = rs.seasons.run(plan((("toy_die", 2),)))
    rows = [json.loads(line) for line in res.lines]
    assert rows[0]["t"] == "season" and rows[0]["setup"] == {"toy_die": 2}
    races = [r for r in rows if r.get("t") == "race"]
    assert len(races) == 2 and all(r["setup"] == {"toy_die": 2} for r in races)
    moves = [r["by"] for r in rows if r.get("ev") == "move"]
    assert moves and max(moves) == 2  # bold bots roll every time: a d2, not the pack's d6
    assert rs.seasons.replay(list(res.lines)).identical
    # the replay plays the setup the header gives: another die is found
    head = dict(rows[0], setup={"toy_die": 3})
    changed = [json.dumps(head, sort_keys=True, separators=(",", ":")), *res.lines[1:]]
    report = rs.seasons.replay(changed)
    assert not report.identical and report.line > 1, report


def test_a_championship_without_setup_logs_none():
    rs = SetupToy()
    assert rs.seasons is not None
    res = rs.seasons.run(plan(()))
    head = json.loads(res.lines[0])
    assert "setup" not in head
    assert rs.seasons.replay(list(res.lines)).identical
