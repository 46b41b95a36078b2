"""Issue 31: every bot name a ruleset lists is accepted by `race`, `sweep` and `ladder`, and a
setting a bot does not take (`greedy:3`) is a usage error, never silently dropped."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from helpers import CONTENT

from slipstream.cli.main import main
from slipstream.cli.race import parse_bots
from slipstream.engine.play.registry import get

BUNDLED = ("automobiles", "formula-de", "speed-hazard")


@pytest.mark.parametrize("rid", BUNDLED)
def test_every_listed_bot_is_accepted_and_a_setting_it_does_not_take_is_refused(rid: str):
    rs = get(rid)
    for name in rs.bots:
        assert parse_bots(name, rs) == [name]
        rs.make_bot(name, 1)
    for name in ("greedy:3", "random:1"):
        with pytest.raises(click.BadParameter, match="takes no setting"):
            parse_bots(name, rs)
        with pytest.raises(ValueError):
            rs.make_bot(name, 1)


@pytest.mark.parametrize("bad", ["lookahead:0", "lookahead:x", "lookahead:1001", "lookaheadx"])
def test_speed_hazard_lookahead_takes_a_number_of_rollouts(bad: str):
    rs = get("speed-hazard")
    with pytest.raises(click.BadParameter):
        parse_bots(bad, rs)
    assert parse_bots("lookahead:5,lookahead", rs) == ["lookahead:5", "lookahead"]


def test_speed_hazard_race_and_sweep_take_its_listed_lookahead_bots(tmp_path: Path):
    pack = str(CONTENT / "speed-hazard")
    run = CliRunner().invoke(main, ["race", pack, "--bots", "lookahead:4,greedy", "--laps", "1"],
                             catch_exceptions=False)
    assert run.exit_code == 0, run.output
    run = CliRunner().invoke(main, ["sweep", pack, "--bots", "lookahead:4,greedy", "--laps", "1", "--races", "1",
                                    "--vary", "option:ram_beside=true,false", "--db", str(tmp_path / "s.sqlite")],
                             catch_exceptions=False)
    assert run.exit_code == 0, run.output
    run = CliRunner().invoke(main, ["race", pack, "--bots", "greedy:3,greedy"], catch_exceptions=False)
    assert run.exit_code == 2 and "the greedy bot takes no setting" in run.output


def test_speed_hazard_ladder_takes_its_default_bots(monkeypatch: pytest.MonkeyPatch):
    import slipstream.engine.play.ladder as ladder

    seen = []

    def schedule(ls, *a, **k):  # the bots reached the ladder: stop before racing them all
        seen.append(ls.bots)
        raise SystemExit(0)

    monkeypatch.setattr(ladder, "schedule", schedule)
    run = CliRunner().invoke(main, ["ladder", str(CONTENT / "speed-hazard"), "--races", "1"], catch_exceptions=False)
    assert run.exit_code == 0, run.output
    assert seen == [tuple(get("speed-hazard").bots)]
    run = CliRunner().invoke(main, ["ladder", str(CONTENT / "speed-hazard"), "--bots", "greedy:3,random"],
                             catch_exceptions=False)
    assert run.exit_code == 2 and "takes no setting" in run.output


@pytest.mark.parametrize("bot", ["lookahead:1", "lookahead:5", "lookahead"])
def test_a_log_of_any_bot_race_takes_replays(tmp_path: Path, bot: str):
    """What `race --bots` takes, `replay` takes: speed-hazard lists lookahead:4/8/16 but races
    any lookahead:N, and its log replays (it was refused as an unknown bot)."""
    pack = str(CONTENT / "speed-hazard")
    run = CliRunner().invoke(main, ["race", pack, "--bots", f"{bot},greedy", "--laps", "1", "--seed", "3",
                                    "--log", str(tmp_path)], catch_exceptions=False)
    assert run.exit_code == 0, run.output
    [log] = tmp_path.iterdir()
    run = CliRunner().invoke(main, ["replay", str(log)], catch_exceptions=False)
    assert run.exit_code == 0 and "identical" in run.output, run.output
