"""Effect forms the schema allows that would validate clean and then do nothing, or never end
(issue 30, item 4): the checker refuses them (E107, E108, E109) or warns (E120), and forms made
to work instead (`distribute` over a `select`) are clean."""

from __future__ import annotations

import textwrap
from pathlib import Path

from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.packs.loader import load_pack

MANIFEST = "slipstream: pack/1\nid: main\nname: M\nversion: 0.1.0\nextends: [base]\n"


def _pack(tmp_path: Path, cards: dict[str, str], drivers: str = "", sponsors: str = "") -> Path:
    root = tmp_path / "main"
    root.mkdir()
    (root / "pack.yaml").write_text(MANIFEST)
    text = "slipstream: cards/1\ncards:\n"
    for i, (cid, effect) in enumerate(cards.items()):
        text += (f"  - id: {cid}\n    name: Card {i}\n    colour: purple\n    cost: 3\n    value: 1\n"
                 "    text: A test card.\n    effect:\n"
                 + textwrap.indent(textwrap.dedent(effect).strip("\n"), "      ") + "\n")
    (root / "cards.yaml").write_text(text)
    if drivers:
        (root / "drivers.yaml").write_text("slipstream: drivers/1\ndrivers:\n" + textwrap.dedent(drivers))
    if sponsors:
        (root / "sponsors.yaml").write_text("slipstream: sponsors/1\nsponsors:\n" + textwrap.dedent(sponsors))
    return root


def _codes(root: Path) -> list[tuple[str, str]]:
    _, diags = load_pack(root)
    return sorted((d.code, d.path) for d in diags)


def test_all_where_spaces_are_counted_is_refused(tmp_path: Path) -> None:
    root = _pack(tmp_path, {
        "c1": "- modify_turn: {gear_spaces: all}",
        "c2": "- move: {spaces: {up_to: all}, colours: any}",
        "c3": "- drive: {spaces: all, colours: any}",
        # cubes are counted here: `all` is fine
        "c4": "- remove: {from: discard, kind: wear, count: all}\n- draw: {count: {up_to: all}}",
    })
    assert _codes(root) == [
        ("E107", "$.cards[0].effect[0].modify_turn.gear_spaces"),
        ("E107", "$.cards[1].effect[0].move.spaces.up_to"),
        ("E107", "$.cards[2].effect[0].drive.spaces"),
    ]


def test_the_played_cube_where_none_is_played_is_refused(tmp_path: Path) -> None:
    root = _pack(tmp_path, {
        "c1": """
            - schedule:
                key: later
                at: after_car_move
                effect:
                  - if:
                      test: {position: last}
                      then: [{move: {spaces: 1, colours: any}}]
            """,
        "c2": """
            - others:
                who: behind
                effect:
                  - remove: {from: played}
                  - drive: {spaces: 1, colours: any}
            """,
        # the played cube is there: at the top, in `once`, `if`, `choose_one` of a card
        "c3": """
            - once: {key: k, effect: [{move: {spaces: 1, colours: any}}]}
            - choose_one:
                - move_cubes: {from: played, to: discard}
                - label: both
                  effect: [{select: {from: played, as: p}}]
            """,
    }, drivers="""
          - id: late-driver
            name: Late Driver
            text: A test driver.
            hooks:
              end_draw:
                - move: {spaces: 1, colours: any}
        """)
    assert _codes(root) == [
        ("E108", "$.cards[0].effect[0].schedule.effect[0].if.then[0].move"),
        ("E108", "$.cards[1].effect[0].others.effect[0].remove.from"),
        ("E108", "$.drivers[0].hooks.end_draw[0].move"),
    ]


def test_distribute_over_cubes_it_cannot_send_is_refused(tmp_path: Path) -> None:
    root = _pack(tmp_path, {
        "c1": "- draw: {count: 2, as: d}\n- distribute: {among: d, to: [stock, bag]}",
        "c2": "- move_cubes: {from: active, to: discard, count: 1, as: m}\n- distribute: {among: m, to: [bag]}",
        # these it sends: cubes drawn at once (revealed), cubes picked by `select`
        "c3": "- draw: {count: {up_to: 2}, at_once: true, as: r}\n- distribute: {among: r, to: [stock, active]}",
        "c4": "- select: {from: discard, count: 1, as: s}\n- distribute: {among: s, to: [stock, active]}",
    })
    assert _codes(root) == [
        ("E109", "$.cards[0].effect[1].distribute.among"),
        ("E109", "$.cards[1].effect[1].distribute.among"),
    ]


def test_buy_modifiers_scheduled_after_the_buy_phase_are_reported(tmp_path: Path) -> None:
    root = _pack(tmp_path, {
        "c1": """
            - schedule:
                key: late-sale
                at: after_car_move
                effect:
                  - modify_turn: {prices: [{kinds: gears, change: -1}]}
            """,
        # the next turn's Buy phase is still to come: fine
        "c2": """
            - schedule:
                key: next-sale
                at: next_turn_start
                effect:
                  - modify_turn: {buy_limit: 1}
            """,
    }, drivers="""
          - id: buyer
            name: Buyer
            text: A test driver.
            hooks:
              buy:
                - schedule: {key: b, at: after_buy, effect: [{modify_turn: {buy_limit: 2}}]}
              decline:
                - schedule: {key: d, at: next_action, effect: [{modify_turn: {buy_limit: 2}}]}
        """)
    assert _codes(root) == [
        ("E120", "$.cards[0].effect[0].schedule.effect[0].modify_turn.prices"),
        ("E120", "$.drivers[0].hooks.buy[0].schedule.effect[0].modify_turn.buy_limit"),
    ]
    _, diags = load_pack(root)
    assert all("scheduled after the Buy phase" in d.message for d in diags)


def test_validate_reports_each_of_the_four_forms(tmp_path: Path) -> None:
    """The acceptance of issue 30: `slipstream validate` on a pack with the forms that used to
    validate clean reports each (distribute over a `select` now works, so it is clean)."""
    root = _pack(tmp_path, {
        "c1": "- move: {spaces: {up_to: all}, colours: any}",
        "c2": "- modify_turn: {gear_spaces: all}",
        "c3": "- select: {from: discard, count: 1, as: s}\n- distribute: {among: s, to: [stock, active]}",
        "c4": "- schedule: {key: k, at: after_end, effect: [{move: {spaces: 1, colours: any}}]}",
        "c5": "- others: {who: all, effect: [{remove: {from: played}}]}",
        "c6": "- schedule: {key: b, at: after_buy, effect: [{modify_turn: {buy_limit: 1}}]}",
    })
    res = CliRunner().invoke(main, ["validate", str(root)])
    assert res.exit_code == 1, res.output
    for code, card in (("E107", "cards[0]"), ("E107", "cards[1]"), ("E108", "cards[3]"), ("E108", "cards[4]"),
                       ("E120", "cards[5]")):
        assert any(code in line and card in line for line in res.output.splitlines()), (code, res.output)
    assert "cards[2]" not in res.output
