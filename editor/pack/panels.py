"""What a ruleset adds to the pack editor: generic defaults, or the panels a ruleset registers.

The pack view knows a ruleset only through the registry (engine/play/registry.py): `panels_for`
has the registry load the object the ruleset names under `rs.panels["editor-pack"]`
("module:attribute"), or gives these defaults, which add nothing: forms are generated from the
schemas alone and a card face shows its figures (editor/pack/cardfaces.py). A ruleset's own
`PackPanels` may give form fields for parts of its schemas (`fields`, e.g. an effect editor,
which forms.py collects from every installed ruleset) and paint the numbers strip of its card
faces (`strip`). No code here names a ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..forms import FieldHook
from .cardfaces import StripPainter

FACE = "editor-pack"


class PackPanels:
    """The pack-editor panels of a ruleset: form fields for parts of its schemas, and the
    numbers strip of its cards (None: the face's figures). The defaults add nothing."""

    def __init__(self, fields: Sequence[FieldHook] = (), strip: StripPainter | None = None) -> None:
        self.fields = tuple(fields)
        self.strip = strip


GENERIC = PackPanels()


def panels_for(rs: Any) -> PackPanels:
    """The pack-editor panels the ruleset registers (loaded by the registry), or the defaults."""
    from slipstream.engine.play.registry import panels

    found = panels(rs, FACE) if rs is not None else None
    return found if isinstance(found, PackPanels) else GENERIC
