"""The `automobiles` ruleset as the engine's plug-in protocol sees it (engine/play/protocol.py).

Loading this module must stay cheap: `slipstream validate` loads every ruleset to learn its
file kinds, so the game, bots and scenarios are imported only when a race or test needs them.
"""

from __future__ import annotations

from typing import Any

from slipstream.engine.rulesets.automobiles.contentcheck import CONTENT


def _schema_only(kind: str) -> Any:
    def check(data: Any, src: Any) -> Any:
        """A lone scenario file: the schema only (its references need the pack)."""
        from slipstream.engine.core.schema import schema_diagnostics

        return schema_diagnostics(kind, data, src)

    return check


class Automobiles:
    id = "automobiles"
    name = "Automobiles"
    content = CONTENT
    file_kinds = {
        "scenario": ((1,), _schema_only("scenario")),
        "season-scenario": ((1,), _schema_only("season-scenario")),
    }


RULESET = Automobiles()
