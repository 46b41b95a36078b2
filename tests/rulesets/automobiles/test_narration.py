"""Automobiles races told once (narration.py): every event kind in words, cube kinds by their card,
the same sentences for the CLI, the editor's turn frames and the ruleset's `describe`."""

from __future__ import annotations

from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.play.registry import get
from slipstream.engine.rulesets.automobiles.narration import Narrator, describe, narrator_of
from slipstream.engine.rulesets.automobiles.raceframes import watch_race
from slipstream.engine.rulesets.automobiles.racesetup import load_pack_cached

BOTS = ("greedy", "greedy", "random", "random")


def races():
    # every card set of the base pack, so that every action cube and its effects show up
    for i, cs in enumerate(sorted(load_pack_cached("").card_sets)):
        yield run_race(RaceSpec("", "first-oval", 20 + i, BOTS, setup=(("card_set", cs),)))


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


def _positions_told(text: str, names: list[str]) -> list[tuple[str, str, str]]:
    """(seat, from, to) for every car move the turn-by-turn summary shows, in order."""
    import re

    shown: list[tuple[str, str, str]] = []
    for line in text.splitlines():
        m = re.match(r"R\d+\s+(\S+)\s+(.*)$", line)
        if not m:
            continue
        seat, rest = m.groups()
        moved = re.search(r"moved ([\d:]+(?: -> [\d:]+)+)", rest)
        if moved:
            cells = moved.group(1).split(" -> ")
            shown.append((seat, cells[0], cells[-1]))
        for who, a, b in re.findall(r"(?:; |\()(?:(\S+) )?slid ([\d:]+) -> ([\d:]+)", rest):
            shown.append((who or seat, a, b))
        for who, b in re.findall(r"(\S+) driven on to ([\d:]+)", rest):
            shown.append((who, "", b))
    return shown


def test_the_race_summary_shows_momentum_slides_so_no_car_jumps_between_turns():
    from slipstream.engine.rulesets.automobiles.narration import race_text

    slides = 0
    for res in [*races(), run_race(RaceSpec("", "first-oval", 7, BOTS[:2] * 2))]:
        text = race_text(res)
        slides += sum(1 for e in res.log if e.get("ev") == "momentum")
        assert text.count(" slid ") == sum(1 for e in res.log if e.get("ev") == "momentum")
        where: dict[str, str] = {}
        for seat, a, b in _positions_told(text, res.names):
            if a and seat in where:
                assert where[seat] == a, (seat, a, where[seat])  # each move starts where the last ended
            where[seat] = b
    assert slides > 0  # the races above do slide


def test_a_slide_is_told_with_its_lane_on_the_movers_turn():
    out = CliRunner().invoke(main, ["race", "--seed", "7"])
    assert out.exit_code == 0, out.output
    line = next(ln for ln in out.output.splitlines() if ln.startswith("R33  P2"))
    assert line.endswith("(+4 wear; P3 slid 0:60 -> 0:61)")
    after = next(ln for ln in out.output.splitlines() if ln.startswith("R") and " P3 " in ln[:10]
                 and "moved 0:61 ->" in ln)
    assert after


def test_the_events_of_the_reacting_forms_are_told_in_words():
    """Triggers armed and fired, money gained and cubes taken (issue 34), in races of the second
    designer pack."""
    from pathlib import Path

    pack = str(Path(__file__).resolve().parents[2] / "packs" / "designer-cards-2")
    seen: dict[str, str] = {}
    for cs in ("eyes-in-the-mirror", "cash-and-carry", "long-run"):
        for seed in range(3):
            res = run_race(RaceSpec(pack, "first-oval", 40 + seed, ("random",) * 4, setup=(("card_set", cs),)))
            tell = narrator_of(res)
            for e in res.log:
                if e.get("t") == "event" and e["ev"] in ("watch", "trigger", "take", "gain_money"):
                    text = tell(e)
                    assert text and "=" not in text, (e, text)
                    seen.setdefault(e["ev"], text)
    assert set(seen) == {"watch", "trigger", "take", "gain_money"}, seen
    assert " fires (" in seen["trigger"] and " takes " in seen["take"]
