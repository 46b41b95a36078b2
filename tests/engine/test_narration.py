"""Automobiles races told once (narration.py): every event kind in words, cube kinds by their card,
the same sentences for the CLI, the editor's turn frames and the ruleset's `describe`."""

from __future__ import annotations

from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.play.registry import get
from slipstream.engine.rulesets.automobiles.narration import Narrator, describe, narrator_of
from slipstream.engine.rulesets.automobiles.raceframes import watch_race
from slipstream.engine.rulesets.automobiles.runner import RaceSpec, load_pack_cached, run_race

BOTS = ("greedy", "greedy", "random", "random")


def races():
    # every card set of the base pack, so that every action cube and its effects show up
    for i, cs in enumerate(sorted(load_pack_cached("").card_sets)):
        yield run_race(RaceSpec("", "first-oval", 20 + i, BOTS, cs))


def test_every_event_kind_of_a_race_is_told_in_words():
    seen: dict[str, str] = {}
    for res in races():
        tell = narrator_of(res)
        for e in res.log:
            if e.get("t") != "event":
                continue
            text = tell(e)
            if e["ev"] == "gain" and e.get("why") == "decline":
                assert text is None  # the decline entry says it
                continue
            assert text, e
            assert "=" not in text, (e, text)  # not the fallback listing of fields
            seen.setdefault(e["ev"], text)
    assert {"turn", "play", "place", "car", "decline", "gain", "move", "remove", "refill",
            "pit", "start", "final_round", "race_over"} <= set(seen)


def test_cube_kinds_are_named_by_their_card():
    res = run_race(RaceSpec("", "first-oval", 3, BOTS))
    tell = narrator_of(res)
    assert tell.kind("yellow") == "yellow (Manager)"
    assert tell.kind("gear-3") == "gear-3" and tell.kind("wear") == "wear"
    play = next(e for e in res.log if e.get("ev") == "play" and e["kind"] == "yellow")
    assert tell(play) == f"{res.names[play['p']]} plays yellow (Manager)"
    # without a context the sentence still reads, with the kind's id
    assert describe(play) == f"P{play['p'] + 1} plays yellow"


def test_the_ruleset_describe_the_cli_and_the_turn_frames_tell_the_same():
    spec = RaceSpec("", "first-oval", 3, BOTS)
    res = run_race(spec)
    rs = get("automobiles")
    rec = watch_race(spec, load_pack_cached("").tracks["first-oval"])
    framed = [t for f in rec.frames for t in f.events]
    told = [t for t in (rs.describe(e, res) for e in res.log) if t]
    assert framed == told
    assert [rs.describe(e, rec.game) for e in res.log] == [rs.describe(e, res) for e in res.log]

    out = CliRunner().invoke(main, ["race", "--seed", "3"])
    assert out.exit_code == 0, out.output
    played = [ln for ln in out.output.splitlines() if ln.startswith("R") and "played" in ln]
    assert played and any("yellow (Manager)" in ln for ln in played)
    bare = [ln for ln in played if "yellow" in ln.replace("yellow (Manager)", "")]
    assert bare == []


def test_a_narrator_of_a_log_header_alone_names_kinds_and_seats():
    res = run_race(RaceSpec("", "first-oval", 3, BOTS))
    tell = narrator_of(res.header)
    assert isinstance(tell, Narrator)
    assert tell.names == tuple(res.names) and tell.kind("red") == "red (Suspension)"
    # a header of a pack that is not at hand: ids, never an error
    lost = narrator_of({**res.header, "pack_path": "/nowhere/at/all"})
    assert lost.kind("red") == "red"
