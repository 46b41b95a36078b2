"""Card faces, exports and screenshots (saved to out/pack-editor/ for a person to look at)."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtGui import QImage  # noqa: E402

from slipstream.editor.pack.cardfaces import sheet_image  # noqa: E402
from slipstream.editor.pack.packview import PackWindow  # noqa: E402
from slipstream.engine.editing.packdoc import PackDocument  # noqa: E402
from slipstream.engine.rulesets.automobiles.authoring import face_from_data, wear_of  # noqa: E402

from .conftest import SHOTS  # noqa: E402


@pytest.fixture
def base_window(qtbot, base_copy):
    w = PackWindow(PackDocument.open(base_copy))
    qtbot.addWidget(w, before_close_func=lambda win: setattr(win.doc, "saved", win.doc.state))
    w.show()
    qtbot.waitExposed(w)
    return w


def test_wear_icons_count_the_sure_wear_of_a_card():
    assert wear_of([{"gain_wear": 2}, {"move": {}}]) == 2
    assert wear_of([{"draw": 1}]) == 0
    assert wear_of([{"gain_wear": {"selected": "x"}}]) is None  # depends on the game
    face = face_from_data({"id": "x", "name": "X", "colour": "blue", "cost": 3, "value": 2, "text": "t",
                           "effect": [{"gain_wear": 1}]})
    assert (face.cost, face.value, face.wear, face.colour_hex) == (3, 2, 1, "#2a62c9")


def test_card_png_and_card_sheet_pdf(base_window, tmp_path):
    base_window.select_item("cards", "crate-motor")
    png = base_window.export_card_png(tmp_path / "crate.png")
    img = QImage(str(png))
    assert (img.width(), img.height()) == (630, 880)
    pages = base_window.export_sheet_pdf("first-race", tmp_path / "first-race.pdf")
    data = (tmp_path / "first-race.pdf").read_bytes()
    assert pages == 2  # 5 fixed cards + 5 of the set, 9 to an A4 page
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page\n") + data.count(b"/Type /Page>") + \
        data.count(b"/Type /Page ") >= 2


def test_screenshots_of_the_pack_view_a_card_form_and_the_card_sheet(base_window, qtbot):
    SHOTS.mkdir(parents=True, exist_ok=True)
    base_window.select_item("cards", "diesel-engine")
    qtbot.wait(50)
    view = base_window.grab()
    assert view.save(str(SHOTS / "pack-view.png"))
    form = base_window.form.grab()  # the whole form, not only the visible part
    assert form.save(str(SHOTS / "card-form.png"))
    faces = base_window.sheet_faces("first-race")
    sheet = sheet_image(faces, 0, 110, "First Race — base")
    assert sheet.save(str(SHOTS / "card-sheet.png"))
    # the card face in the sheet's first slot is drawn (its colour band is not paper white)
    mm = 110 / 25.4
    band = sheet.pixelColor(round((210 - 189) / 2 * mm + 10 * mm), round(((297 - 264) / 2 + 3) * mm + 5 * mm))
    assert band.name() != "#ffffff"
