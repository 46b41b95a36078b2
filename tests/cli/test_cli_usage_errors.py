"""Bad options, bots and player counts are one clear usage error (exit 2) in every command."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main


@pytest.mark.parametrize("args, message", [
    (["race", "--option", "max_rounds=abc"], "max_rounds takes a whole number"),
    (["race", "--option", "weaving=maybe"], "weaving takes true or false"),
    (["race", "--bots", ","], "name at least one bot"),
    (["race", "--players", "9"], "needs 2 to 5 cars, not 9"),
    (["race", "--option", "full_spaces=pass"], "does not implement yet"),
    (["race", "--option", "nonsense=1"], "unknown rule option 'nonsense'"),
    (["race", "--option", "season_grid=reverse"], "season_grid is a season option"),
    (["season", "--option", "full_spaces=pass"], "does not implement yet"),
    (["season", "--option", "max_rounds=abc"], "max_rounds takes a whole number"),
    (["season", "--option", "season_grid=sideways"], "season_grid takes winner_pole, reverse"),
    (["season", "--option", "season_points=1,x"], "season_points takes players_minus_place or points"),
    (["season", "--bots", ","], "name at least one bot"),
])
def test_one_clear_usage_error(args, message):
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert "Traceback" not in res.output
    assert res.output.count("Error:") == 1
