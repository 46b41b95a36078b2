"""The issue-34 forms beyond the designer pack's scenarios: their static checks (E105, E106,
E108, E122-E124 with file, line, column and JSON path), that rules without them record and
check nothing new, and that a game copied mid-race carries armed triggers and race-long
modifiers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from slipstream.engine.core.yamlsource import SourceMap
from slipstream.engine.packs.validate import validate_paths
from slipstream.engine.rulesets.automobiles import effects as fx
from slipstream.engine.rulesets.automobiles.effectcheck import reaction_checks
from slipstream.engine.rulesets.automobiles.game import rules_tables
from slipstream.engine.rulesets.automobiles.rules import basic_ruleset

from .tiny import game, play, track

CARD = """slipstream: cards/1
cards:
  - id: test-card
    name: Test Card
    colour: green
    cost: 3
    value: 1
    text: A test card.
    effect:
{effect}
"""


def _validate(tmp_path: Path, effect: str) -> list[tuple[str, int, int, str]]:
    (tmp_path / "pack.yaml").write_text("slipstream: pack/1\nid: t\nname: T\nversion: 0.1.0\nextends: [base]\n")
    (tmp_path / "cards.yaml").write_text(CARD.format(effect=effect))
    diags, _ = validate_paths([tmp_path])
    return [(d.code, d.line, d.column, d.path) for d in diags]


def test_misused_forms_are_reported_where_they_stand(tmp_path: Path) -> None:
    got = _validate(tmp_path, """      - gain_wear: 1
      - play_if: {car_on: {colours: [6]}}
      - lower_counter: {name: nitro}
      - if:
          test: {compare: {left: {shade: {highest: nowhere}}, op: gt, right: {shade: car}}}
          then:
            - move: {spaces: 1, colours: {higher_than: nothing}}
      - others: {who: mover, mandatory: true, effect: [{gain_wear: 1}]}
      - watch:
          key: w
          when: passed
          colours: [6]
          effect:
            - move: {spaces: 1, colours: any}
            - watch: {key: inner, when: ends_behind, effect: []}""")
    assert sorted(got) == sorted([
        ("E123", 11, 9, "$.cards[0].effect[1].play_if"),
        ("E106", 12, 31, "$.cards[0].effect[2].lower_counter.name"),
        ("E105", 14, 52, "$.cards[0].effect[3].if.test.compare.left.shade.highest"),
        ("E105", 16, 56, "$.cards[0].effect[3].if.then[0].move.colours.higher_than"),
        ("E122", 17, 23, "$.cards[0].effect[4].others.who"),
        ("E108", 23, 15, "$.cards[0].effect[5].watch.effect[0].move"),
        ("E122", 24, 15, "$.cards[0].effect[5].watch.effect[1].watch"),
    ])


def test_the_pack_forms_used_well_give_no_diagnostic(tmp_path: Path) -> None:
    assert _validate(tmp_path, """      - play_if: {last_turn: pit}
      - set_counter: {name: nitro, value: 2, lasts: race}
      - lower_counter: {name: nitro, lasts: race}
      - gain_money: 1
      - take: {who: beside, kinds: gears, count: {up_to: 1}, chosen_by: them}
      - watch:
          key: w
          when: enters
          colours: [6]
          until: race
          effect:
            - others: {who: mover, mandatory: true, effect: [{gain_wear: 1}]}
            - take: {who: mover, count: 1}""") == []


def test_own_turn_forms_between_races_are_reported() -> None:
    src = SourceMap("x.yaml")
    sponsor = [{"gain_money": 1}, {"modify_turn": {"drafting": True, "lasts": "race"}},
               {"if": {"test": {"last_turn": "pit"}, "then": [{"draw": 1}]}},
               {"watch": {"key": "k", "when": "passed", "effect": []}}]
    got = reaction_checks("sponsor s1 (first)", sponsor, ("sponsors", 0), src)
    assert [(d.code, d.path) for d in got] == [
        ("E124", "$.sponsors[0][0].gain_money"), ("E124", "$.sponsors[0][1].modify_turn.lasts"),
        ("E124", "$.sponsors[0][2].if.test.last_turn"), ("E122", "$.sponsors[0][3].watch")]
    # the same steps in a card give nothing (play_if aside, it is not there)
    assert reaction_checks("card c", sponsor, ("cards", 0, "effect"), src) == []


def test_rules_without_the_forms_pay_nothing() -> None:
    rules = basic_ruleset({"green": ([{"move": {"spaces": {"up_to": 2}, "colours": "any"}}], 3, 1)})
    assert rules_tables(rules).watch is False and rules_tables(rules).play_if == {}
    assert not {"watch", "history"} & fx.uses(rules)
    tr = track("3 3 3 3 3 3 3 3 3 3", "3 3 3 3 3 3 3 3 3 3")
    g = game(tr, [{"car": {"lane": 0, "segment": 0}, "active": {"green": 1, "gear-3": 1}},
                  {"car": {"lane": 1, "segment": 5}}], rules=rules, start="turn")
    play(g, "standard", "play gear-3", "to 0:1", "end", "end")
    assert all(p.memory is None for p in g.race.players)  # no trigger, history or modifier kept
    assert g.race.turn is not None and g.race.turn.extra is None


def _reactive_rules() -> Any:
    eff = yaml.safe_load("""
- watch: {key: w, when: passed, until: race, effect: [{gain_wear: 1}]}
- modify_turn: {drafting: true, lasts: race}
""")
    return basic_ruleset({"green": (eff, 3, 1)})


def test_armed_triggers_and_race_long_modifiers_are_copied_with_the_game() -> None:
    rules = _reactive_rules()
    assert rules_tables(rules).watch is True
    tr = track("3 3 3 3 3 3 3 3 3 3", "3 3 3 3 3 3 3 3 3 3", "3 3 3 3 3 3 3 3 3 3")
    g = game(tr, [{"car": {"lane": 0, "segment": 4}, "active": {"green": 1}, "bag": {"gear-3": 7}},
                  {"car": {"lane": 1, "segment": 2}, "active": {"gear-3": 3}, "bag": {"gear-3": 7}}],
             rules=rules)
    play(g, "play green", "end", "end")
    c = g.copy()
    mem, cmem = g.race.players[0].memory, c.race.players[0].memory
    assert mem is not None and cmem is not None and cmem is not mem
    assert [w[0] for w in cmem.watches] == ["w"] and len(cmem.modifiers) == 1
    assert cmem.watches is not mem.watches and cmem.modifiers is not mem.modifiers
    # in the copy P2 passes P1 and the trigger fires there only
    play(c, "standard", "play gear-3", "to 1:3", "play gear-3", "to 1:4", "play gear-3", "to 1:5", "end", "end")
    assert c.race.stats["wear"][0] == 1 and g.race.stats["wear"][0] == 0
    # the race-long drafting applies at P1's next turn in the copy
    play(c, "standard")
    assert c.race.turn is not None and c.race.turn.drafting_flag
