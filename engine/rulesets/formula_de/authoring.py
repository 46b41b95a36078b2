"""Formula Dé-style packs as the `authoring` capability of the ruleset protocol
(engine/play/protocol.py): what the pack editor adds and edits as tables. The ruleset has no
cards, so `slipstream cards` and the card sheets leave it out.

Sections: the pack editor's item kinds and tables; new packs (`pack_files`, the scaffolds).
"""

from __future__ import annotations

from collections.abc import Sequence

from slipstream.engine.play.base import BaseAuthoring
from slipstream.engine.play.protocol import DataTable, ItemKind, PackFile
from slipstream.engine.rulesets.formula_de import templates
from slipstream.engine.rulesets.formula_de.content import CATEGORIES

# ---------------------------------------------------------------------------------------------
# The pack editor: one item per gear die and per wear row, and both files as tables
# ---------------------------------------------------------------------------------------------

ITEM_KINDS = (ItemKind("gears", "gear die", "Gear dice", ("gears",)),
              ItemKind("wear", "wear row", "Wear table", ("races",)))
TABLES = (DataTable("gears", ("gears",), "Gear dice", columns=("gear",), spread="faces"),
          DataTable("wear", ("races",), "Wear table", columns=("laps", *CATEGORIES)))


class FormulaDeAuthoring(BaseAuthoring):
    """Gear dice and wear rows for the pack editor; no cards."""

    item_kinds = ITEM_KINDS
    tables = TABLES

    # -----------------------------------------------------------------------------------------
    # New packs (`slipstream new pack`): the starting files besides the manifest
    # -----------------------------------------------------------------------------------------

    def pack_files(self, pid: str, name: str, extends: Sequence[str]) -> list[PackFile]:
        return templates.pack_files(pid, name, extends)  # templates.py: the scaffold's files


AUTHORING = FormulaDeAuthoring()
