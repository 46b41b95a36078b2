"""`slipstream ladder`: a round robin of any ruleset's bots, rated with intervals."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from helpers import run

from slipstream.engine.play.ladder import LadderSpec, bradley_terry, pairwise, schedule

ROOT = Path(__file__).resolve().parent.parent.parent
TOY = ROOT / "tests" / "toy"
FD = ROOT / "content" / "formula-de"


def ladder_json(*args: str) -> dict:
    code, out = run("ladder", *args, "--format", "json")
    assert code == 0, out
    return json.loads(out)


def test_the_schedule_swaps_seats_and_rotates_the_mixed_fields() -> None:
    races = schedule(LadderSpec("p", "t", ("a", "b", "c"), races=4, seed=10, field=4))
    pairs = [r.spec.bots for r in races if r.kind == "1v1"]
    assert len(pairs) == 3 * 4
    assert Counter(pairs) == {(x, y): 2 for x, y in [("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"),
                                                      ("b", "c"), ("c", "b")]}
    fields = [r.spec.bots for r in races if r.kind == "field"]
    assert fields == [("a", "b", "c", "a"), ("b", "c", "a", "b"), ("c", "a", "b", "c"), ("a", "b", "c", "a")]
    assert [r.spec.seed for r in races] == list(range(10, 10 + len(races)))


def test_pairwise_results_count_only_cars_of_different_bots() -> None:
    # standings: car 2 (b) first, then car 0 (a), car 1 (a)
    assert pairwise(["a", "a", "b"], [2, 0, 1]) == [("b", "a"), ("b", "a")]


def test_bradley_terry_ratings() -> None:
    even = bradley_terry(["a", "b"], {("a", "b"): 10, ("b", "a"): 10})
    assert even["a"] == pytest.approx(1500) and even["b"] == pytest.approx(1500)
    # three times the odds: 400 * log10(3) = 191 points apart
    r = bradley_terry(["a", "b"], {("a", "b"): 30, ("b", "a"): 10}, prior=0)
    assert r["a"] - r["b"] == pytest.approx(400 * 0.47712, abs=0.5)
    # a bot that never wins still gets a finite rating, below the others
    r = bradley_terry(["a", "b", "c"], {("a", "b"): 5, ("b", "c"): 5, ("a", "c"): 5})
    assert r["a"] > r["b"] > r["c"] > 0


def test_toy_ladder_shape_and_determinism() -> None:
    args = (str(TOY), "--bots", "random,bold", "--races", "12", "--seed", "3")
    one = ladder_json(*args)
    assert one == ladder_json(*args)
    assert one == ladder_json(*args, "--jobs", "2")
    assert one["ruleset"] == "toy" and one["bots"] == ["random", "bold"]
    assert one["races"] == 12 + 12
    assert [r["bot"] for r in one["ratings"]] == ["bold", "random"]
    for r in one["ratings"]:
        assert r["low"] <= r["rating"] <= r["high"]
    (pair,) = one["pairs"]
    assert (pair["bot"], pair["against"], pair["n"]) == ("bold", "random", 12)  # the stronger first
    assert one["fields"]["races"] == 12 and one["fields"]["cars"] == 4
    assert sum(r["cars"] for r in one["fields"]["win_rate_by_bot"]) == 12 * 4
    assert ladder_json(*args[:-1], "4") != one  # another seed, other races


def test_ladder_text_on_automobiles_with_the_lookahead_bot() -> None:
    code, out = run("ladder", "--bots", "greedy,lookahead:2", "--races", "2", "--laps", "1", "--field", "3")
    assert code == 0, out
    assert "rank  bot" in out and "lookahead:2" in out
    assert re.search(r"(greedy +vs lookahead:2|lookahead:2 +vs greedy) +[\d.]+%", out), out
    assert "mixed fields of 3 cars (2 races)" in out


def test_formula_de_ladder() -> None:
    rep = ladder_json(str(FD), "--bots", "random,greedy", "--races", "2", "--field", "3", "--laps", "1")
    assert rep["ruleset"] == "formula-de"
    assert {r["bot"] for r in rep["ratings"]} == {"random", "greedy"}
    assert rep["races"] == 4
    # every measure of the ladder's races by name, the ruleset's own among them; no seat win
    # rates (the bots rotate through the seats)
    names = {m["name"] for m in rep["measures"]}
    assert {"rounds", "completion", "win.slot1", "finish_rate"} <= names
    assert any(n.startswith("stops_missed.") for n in names) and not any(n.startswith("win.seat") for n in names)
    races = {m["name"]: m for m in rep["measures"]}
    assert races["win.slot1"]["n"] == 4 and races["rounds"]["n"] == 4
    code, out = run("ladder", str(FD), "--bots", "random,greedy", "--races", "2", "--field", "0", "--laps", "1")
    assert code == 0 and "every race of the ladder, measures (95% interval):" in out and "finish_rate" in out


@pytest.mark.parametrize("args, message", [
    (["--bots", "greedy,clever"], "unknown bot 'clever'"),
    (["--bots", "lookahead:many"], "lookahead takes a rollout budget"),
    (["--bots", "greedy", "--field", "0"], "nothing to race"),
])
def test_usage_errors(args: list[str], message: str) -> None:
    code, out = run("ladder", *args)
    assert code == 2, out
    assert message in out
