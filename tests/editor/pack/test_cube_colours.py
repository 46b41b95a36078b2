"""Cube colours in the editor come from each kind's `display` in the pack, never from a table
of the base pack's colours: card faces, their wear cubes and the human seat's cube chips."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from slipstream.engine.packs.loader import PackLoader  # noqa: E402
from slipstream.engine.rulesets.automobiles.authoring import face_from_card, face_from_data  # noqa: E402

RECOLOURED = {"yellow": "#00ffaa", "wear": "#123456", "gear-6": "#ff00ff"}


def _recolour(pack: Path) -> Path:
    cubes = pack / "cubes.yaml"
    text = cubes.read_text()
    for kid, (old, new) in {"yellow": ("#f2c21b", RECOLOURED["yellow"]), "wear": ("#7a4a26", RECOLOURED["wear"]),
                            "gear-6": ("#1b1b1b", RECOLOURED["gear-6"])}.items():
        assert text.count(f'display: "{old}"') == 1, kid
        text = text.replace(f'display: "{old}"', f'display: "{new}"')
    cubes.write_text(text)
    return pack


def test_card_faces_take_the_packs_display_colours(base_copy: Path) -> None:
    pack, diags = PackLoader().load(_recolour(base_copy))
    assert pack is not None and not [d for d in diags if d.is_error]
    kinds = dict(pack.cube_kinds)
    card = next(c for c in pack.cards.values() if c.colour == "yellow")
    face = face_from_card(card, kinds)
    assert (face.colour_hex, face.wear_hex) == ("#00ffaa", "#123456")
    # a card of a kind the pack gives no colour is neutral, not a guess from the base pack
    plain = face_from_data({"id": "x", "name": "X", "colour": "teal"}, kinds)
    assert plain.colour_hex == "#9a9a9a"


def test_the_human_seats_cube_chips_take_the_packs_display_colours(base_copy: Path) -> None:
    from slipstream.editor.rulesets.automobiles import PANELS
    from slipstream.engine.play.races import RaceSpec
    from slipstream.engine.play.registry import get

    folder = _recolour(base_copy)
    pack, _ = PackLoader().load(folder)
    track = pack.tracks["first-oval"]
    rec, _bots = PANELS.start(get("automobiles"), None, RaceSpec(str(folder), "first-oval", 1, ("greedy", "greedy")),
                              track, frozenset({0}))
    assert "background:#00ffaa" in PANELS.option_style("play yellow", rec)
    assert "background:#ff00ff" in PANELS.option_style("play gear-6", rec)
    base, _ = PANELS.start(get("automobiles"), None, RaceSpec("", "first-oval", 1, ("greedy", "greedy")),
                           track, frozenset({0}))
    assert "background:#f2c21b" in PANELS.option_style("play yellow", base)  # the base pack's own
    assert PANELS.option_style("end", rec) == ""
