"""The pack editor reaches a ruleset's own panels only through the registry (issue 28 item 5):
Automobiles registers its effect editor and its cards' cost, value and wear strip under
`panels["editor-pack"]`; no editor file outside editor/rulesets/ names a ruleset, and the
editor's import contract needs no exception for it."""

from __future__ import annotations

import re
import tomllib

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QRectF  # noqa: E402
from PySide6.QtGui import QImage, QPainter  # noqa: E402

from slipstream.editor.forms import ItemForm, schemas  # noqa: E402
from slipstream.editor.pack.cardfaces import card_image, paint_card  # noqa: E402
from slipstream.editor.pack.panels import GENERIC, PackPanels, panels_for  # noqa: E402
from slipstream.engine.core import plugins  # noqa: E402
from slipstream.engine.play.protocol import CardFace  # noqa: E402
from slipstream.engine.play.registry import get, panels  # noqa: E402

from .conftest import ROOT  # noqa: E402

FACE = CardFace(name="Test", colour="blue", colour_hex="#2a62c9", kind_name="Blue (Engine)", cost=4,
                value=2, wear=1, text="Some text.", ident="test")


def test_no_editor_file_outside_editor_rulesets_names_a_ruleset():
    names = set()
    for rid in plugins.ruleset_ids():
        names |= {rid, rid.replace("-", "_")}
    pattern = re.compile("|".join(sorted(re.escape(n) for n in names)), re.IGNORECASE)
    editor = ROOT / "editor"
    found = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in sorted(editor.rglob("*"))
             if p.is_file() and p.suffix in (".py", ".md", ".toml", ".txt")
             and (editor / "rulesets") not in p.parents
             for m in [pattern.search(p.read_text(encoding="utf-8"))] if m]
    assert found == []


def test_the_editor_parts_contract_has_no_exceptions():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contract = next(c for c in data["tool"]["importlinter"]["contracts"] if c["id"] == "editor-parts")
    assert contract.get("ignore_imports", []) == []


def test_the_automobiles_pack_panels_come_through_the_registry(qtbot):
    auto = get("automobiles")
    found = panels(auto, "editor-pack")
    assert isinstance(found, PackPanels) and found is panels_for(auto)
    assert found.strip is not None and len(found.fields) == 1
    assert found.fields[0] in schemas().hooks  # every generated form gets the effect editor
    assert panels_for(get("formula-de")) is GENERIC and panels_for(get("speed-hazard")) is GENERIC
    card = {"id": "x", "name": "X", "colour": "blue", "cost": 3, "value": 1, "text": "t",
            "effect": [{"gain_wear": 1}]}
    form = ItemForm("cards", "card", card)
    qtbot.addWidget(form)
    field = form.root.fields["effect"]  # the registered effect editor, not a generated list
    assert type(field).__module__ == "slipstream.editor.rulesets.automobiles.effecteditor"
    assert form.value() == card


def _pixel(face: CardFace, strip: object, x_mm: float, y_mm: float) -> str:
    img = card_image(face, 630, strip)  # type: ignore[arg-type]
    u = 630 / 63
    return img.pixelColor(round(x_mm * u), round(y_mm * u)).name()


def test_the_automobiles_strip_paints_a_cost_coin_and_a_generic_face_its_figures():
    strip = panels_for(get("automobiles")).strip
    # the coin's centre, 4 mm in and 2.5 mm under the 17 mm band, 10 mm across
    assert _pixel(FACE, strip, 4 + 2, 17 + 2.5 + 1.5) == "#f5d76e"
    assert _pixel(FACE, None, 4 + 2, 17 + 2.5 + 1.5) != "#f5d76e"  # the generic strip: figures, no coin
    img = QImage(630, 880, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    paint_card(p, QRectF(0, 0, 630, 880), CardFace(
        name="Brake", colour="action-cards", colour_hex="#2f6db5", kind_name="Action card", cost=None, value=None,
        wear=None, text="t", figures=(("number", "1"), ("km/h", "10 20 30 40"))))
    p.end()
    assert img.pixelColor(315, 40).name() == "#2f6db5"  # the band
