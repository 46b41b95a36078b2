"""`slipstream cards` for every ruleset with cards (issue 29 item 3): a speed-and-hazard pack
lists the cards of its four decks with their numbers and what they do in words, through the
ruleset's `authoring` capability; a ruleset without cards is a usage error."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import CONTENT
from helpers import invoke as run

SH = CONTENT / "speed-hazard"


def test_speed_hazard_cards_list_every_deck_with_numbers_and_words():
    res = run("cards", str(SH))
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == "Speed-and-hazard racing - base pack (speed-hazard 0.1.0)"
    assert lines[1].split() == ["card", "deck", "number", "copies", "price", "does", "(and", "the", "card's", "text)"]
    table = lines[3:lines.index("")]  # the rows, then a blank line and the note on house values
    rows = {line.split("  ")[0].strip(): line for line in table if not line.startswith(" ")}
    words = " ".join(res.output.split())  # the text column wraps with the terminal
    assert rows["Brake"].split()[1:4] == ["action", "1", "1"]  # deck, number, one a car
    assert "Brake action 1 1 - before moving, lower the speed by 10, 20, 30 or 40 km/h" in words
    assert rows["Scrape"].split()[1:5] == ["hazard", "-", "4", "-"]
    assert "Scrape hazard - 4 - roll 1 damage die \u201cRoll 1 damage die.\u201d" in words  # then its own text
    assert "Bang nitrous - 1 - add 40 km/h; roll 2 damage dice" in words
    assert rows["Rocket"].split()[1:5] == ["equipment", "6", "2", "5"]  # plays as card 6, costs 5 pit points
    assert "plays as action card 6: before moving, raise the speed by 30 or 40 km/h" in words
    assert len(rows) == 5 + 11 + 8 + 7
    assert "house values" in lines[-1]


def test_speed_hazard_cards_as_json_and_one_deck():
    listed = json.loads(run("cards", str(SH), "--format", "json").output)
    assert [c["deck"] for c in listed].count("hazard") == 11
    red = next(c for c in listed if c["id"] == "speed-hazard:red-mist")
    assert (red["kind"], red["number"], red["copies"], red["price"]) == ("hazard-deck", None, 1, None)
    assert red["does"] == "no Brake card while held; kept until therapy in the pit road"
    assert red["effect"] == {"insanity": "no-brake", "keep": True}
    nitrous = json.loads(run("cards", str(SH), "--set", "nitrous", "--format", "json").output)
    assert {c["deck"] for c in nitrous} == {"nitrous"} and len(nitrous) == 8
    assert run("cards", str(SH), "--set", "nitrous").output.splitlines()[0].endswith(" - Nitrous deck")
    res = run("cards", str(SH), "--set", "turbo")
    assert res.exit_code == 2 and "hazard-deck" in res.output and "nitrous-deck" in res.output


def test_an_extending_pack_lists_the_inherited_decks_and_its_own(tmp_path: Path):
    root = tmp_path / "sh-house"
    root.mkdir()
    (root / "pack.yaml").write_text("slipstream: pack/1\nid: sh-house\nname: House\nversion: 0.1.0\n"
                                    "ruleset: speed-hazard\nextends: [speed-hazard]\n")
    (root / "nitrous.yaml").write_text("slipstream: nitrous-deck/1\ncards:\n"
                                       "  - {id: whoosh, name: Whoosh, count: 12, adds: 30, text: Add 30 km/h.}\n")
    listed = json.loads(run("cards", str(root), "--format", "json").output)
    assert [c["id"] for c in listed if c["deck"] == "nitrous"] == ["sh-house:whoosh"]
    assert next(c for c in listed if c["name"] == "Brake")["id"] == "speed-hazard:brake"
    table = run("cards", str(root)).output
    assert "Brake [speed-hazard]" in table and "Whoosh " in table and "Whoosh [" not in table


def test_a_ruleset_without_cards_is_a_usage_error():
    res = run("cards", str(CONTENT / "formula-de"))
    assert res.exit_code == 2 and "which has no cards" in res.output
