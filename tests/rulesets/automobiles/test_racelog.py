"""Golden race logs replay identically; a changed log reports its first divergence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.rulesets.automobiles.racelog import replay_file, replay_lines

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.jsonl"))
REGEN = ("if the rules or the base pack changed on purpose, regenerate the golden logs with "
         "`slipstream race ... --log DIR` using the header of each file (see docs/engine.md)")


def test_there_are_golden_logs_with_weaving_and_drivers() -> None:
    heads = [json.loads(p.read_text().splitlines()[0]) for p in GOLDEN]
    assert len(heads) >= 5
    assert any(h["options"].get("weaving") for h in heads)
    assert sum(any(s["driver"] for s in h["seats"]) for h in heads) >= 3


def test_a_golden_log_pins_the_look_ahead_bots_choices() -> None:
    # replaying plays the header's bots again: a look-ahead seat (two budgets, with drivers)
    # must choose as when the log was recorded (d3adda9), through every speed change
    heads = [json.loads(p.read_text().splitlines()[0]) for p in GOLDEN]
    look = [h for h in heads if any(s["bot"].startswith("lookahead:") for s in h["seats"])]
    assert look and len({s["bot"] for s in look[0]["seats"]}) == 3


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_log_replays_identically(path: Path) -> None:
    rep = replay_file(path)
    assert rep.identical, f"{rep.message} at line {rep.line}: {REGEN}"


def _with_pit_turn(human: bool) -> tuple[list[str], int]:
    """The first golden log with one `standard` turn changed to `pit` (its seat played by a
    person when `human`), and the index of that line."""
    lines = GOLDEN[0].read_text().splitlines()
    for i, line in enumerate(lines):
        obj = json.loads(line)
        if obj.get("t") == "decision" and obj["kind"] == "turn" and obj["choice"] == "standard":
            obj["choice"] = "pit"
            lines[i] = json.dumps(obj, sort_keys=True, separators=(",", ":"))
            break
    if human:
        head = json.loads(lines[0])
        head["seats"][obj["p"]]["bot"] = "human"
        lines[0] = json.dumps(head, sort_keys=True, separators=(",", ":"))
    return lines, i


def test_a_changed_decision_is_reported_as_the_first_divergence() -> None:
    lines, i = _with_pit_turn(human=True)
    rep = replay_lines(lines)
    assert not rep.identical
    # a person's seat may take any legal option: the changed decision itself replays; the turn
    # event right after it is the first difference
    assert rep.line == i + 2 and '"choice":"pit"' in rep.got


def test_a_bot_seats_changed_decision_is_reported_on_its_own_line() -> None:
    lines, i = _with_pit_turn(human=False)
    rep = replay_lines(lines)
    assert not rep.identical and rep.line == i + 1
    assert "bot 'greedy' chooses ('standard', the log has 'pit')" in rep.message


def test_a_changed_seed_diverges_early() -> None:
    lines = GOLDEN[0].read_text().splitlines()
    head = json.loads(lines[0])
    head["seed"] += 1
    lines[0] = json.dumps(head, sort_keys=True, separators=(",", ":"))
    rep = replay_lines(lines)
    # the seed is an input, not a checked field: the header replays, the first draw-dependent
    # line differs, early in the race
    assert not rep.identical and 2 <= rep.line < len(lines) // 10, (rep.line, len(lines))


def test_cli_race_log_and_replay(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["race", "--seed", "3", "--bots", "greedy,random", "--laps", "1",
                                  "--log", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert "final standings:" in r.output
    log = tmp_path / "race-3.jsonl"
    r2 = CliRunner().invoke(main, ["replay", str(log)])
    assert r2.exit_code == 0 and r2.output.strip() == "identical"
    text = log.read_text().splitlines()
    text = text[:len(text) // 2]
    log.write_text("\n".join(text) + "\n")
    r3 = CliRunner().invoke(main, ["replay", str(log)])
    assert r3.exit_code == 1 and f"race-3.jsonl:{len(text) + 1}:" in r3.output


def test_cli_many_races_print_statistics() -> None:
    r = CliRunner().invoke(main, ["race", "--races", "6", "--bots", "greedy,random", "--laps", "1",
                                  "--format", "json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.output)
    assert s["races"] == 6
    bots = {b["label"]: b for b in s["win_rate_by_bot"]}
    assert bots["greedy"]["wins"] + bots["random"]["wins"] == 6
    assert 0 <= bots["greedy"]["low"] <= bots["greedy"]["rate"] <= bots["greedy"]["high"] <= 1
    assert len(s["win_rate_by_slot"]) == 2 and s["mean_rounds"] > 0 and s["most_bought"]


def test_demo_race_prints_a_readable_race() -> None:
    r = CliRunner().invoke(main, ["race", "--seed", "7"])
    assert r.exit_code == 0, r.output
    out = r.output
    assert out.startswith("Race on first-oval with card set first-race, seed 7")
    assert "\nR1 " in out and "played" in out and "final standings:" in out
    assert out.count("\n  ") >= 4  # four places in the standings


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--track", "nowhere"], "no track 'nowhere'"),
        (["--bots", "clever"], "unknown bot 'clever'"),
        (["--players", "6"], "6"),
        (["--option", "weaving"], "KEY=VALUE"),
        (["--set", "no-such-set"], "no card set"),
    ],
)
def test_race_usage_errors(args: list[str], message: str) -> None:
    r = CliRunner().invoke(main, ["race", *args])
    assert r.exit_code == 2 and message in r.output


def test_a_log_that_differs_from_the_race_in_any_line_never_replays_as_identical() -> None:
    """Replay reads only the choices of decision lines and compares the rest as text: any
    edit that changes a line (a character, a line break moved inside a line, lines swapped,
    dropped or repeated) must be reported, never passed as identical."""
    import random

    lines = GOLDEN[-1].read_text().splitlines()
    assert replay_lines(lines).identical
    rng = random.Random(20)
    decisions = [i for i, s in enumerate(lines) if '"t":"decision"' in s]
    for trial in range(60):
        m = list(lines)
        op = ("char", "split", "swap", "drop", "repeat")[trial % 5]
        i = rng.choice(decisions[1:-1]) if trial % 2 else rng.randrange(1, len(m) - 1)
        if op == "char":
            j = rng.randrange(1, len(m[i]) - 1)
            m[i] = m[i][:j] + ("0" if m[i][j] != "0" else "1") + m[i][j + 1:]
        elif op == "split":  # the line break moves to a comma inside the line: same characters
            j = m[i].index(",")
            m[i:i + 2] = [m[i][:j], m[i][j + 1:] + "," + m[i + 1]]
        elif op == "swap":
            m[i], m[i + 1] = m[i + 1], m[i]
        elif op == "drop":
            del m[i]
        else:
            m.insert(i, m[i])
        if m == lines:
            continue
        rep = replay_lines(m)
        assert not rep.identical, (op, i)
