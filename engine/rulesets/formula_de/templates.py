"""The starting files of a new Formula Dé-style pack and its starting tracks (the
`authoring.pack_files` and `templates` capabilities; engine/play/protocol.py).

A track holds what the ruleset races on: corners with 1-3 stops, a 10-slot grid and a pit
lane with 10 boxes (RULES.md A.2). A pack extending the bundled pack inherits its gear dice and
wear table; a pack extending nothing starts with copies of them. Every pack starts with a sample
scenario in tests/ that `slipstream test` runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slipstream.engine.play.base import ShapeTemplates
from slipstream.engine.play.protocol import PackFile
from slipstream.engine.rulesets.formula_de.content import RULESET_ID
from slipstream.engine.tracks.templates import SHAPE_NAMES, SHAPES, squares_track

SQUARES = 100  # a lap, per lane (house value: the bundled circuit has 120)


def track(shape: str) -> dict[str, Any]:
    """A Formula Dé-style track of a shape: stops 1, 2, 3 in turn, pit lane near the line."""
    n = SQUARES
    pit = {"layout": " ".join(["o"] * 14), "entries": [{"from": f"2:{n - 6}"}],
           "exits": [{"from": 13, "to": "2:12"}], "boxes": list(range(2, 12)),
           "lap_counts": True, "can_win": True, "side": "outside"}
    return squares_track(shape, squares=n, lanes=3, grid=10, laps=2,
                         corner=lambda i: {"stops": 1 + i % 3}, pit=pit, rulesets=(RULESET_ID,))


TEMPLATES = ShapeTemplates(track, [(s, SHAPE_NAMES[s]) for s in SHAPES])

SAMPLE = "finish"  # the bundled scenario a new pack starts from, as tests/sample-finish.yaml


def _bundled(rel: str) -> str:
    """A data file of the bundled pack without its schema line (the new pack gets its own)."""
    from slipstream.engine.packs.loader import bundled_packs

    text = (bundled_packs()[RULESET_ID] / rel).read_text(encoding="utf-8")
    return "".join(line for line in text.splitlines(keepends=True) if "yaml-language-server" not in line)


def _sample() -> str:
    """A bundled scenario as the new pack's sample, under an id of its own."""
    text = _bundled(f"tests/{SAMPLE}.yaml")
    return ("# A sample to start from (a copy of a bundled scenario): change the cars, the dice or\n"
            "# decks and the decisions, and say what must follow under `expect`.\n"
            + text.replace(f"id: {SAMPLE}\n", f"id: sample-{SAMPLE}\n", 1))


def printed(name: str) -> str:
    """The printed wear categories (`categories.yaml`) or corner kinds (`corner-kinds.yaml`) as
    data (the ruleset's printed/ folder), without the schema line."""
    from importlib import resources

    text = (resources.files("slipstream.engine.rulesets.formula_de") / "printed" / name).read_text(encoding="utf-8")
    return "".join(line for line in text.splitlines(keepends=True) if "yaml-language-server" not in line)


def pack_files(pid: str, name: str, extends: Sequence[str]) -> list[PackFile]:
    """A sample scenario; a pack extending nothing also gets the gear dice and wear table, and
    the printed wear categories and corner kinds to change or add to."""
    files = [PackFile(f"tests/sample-{SAMPLE}.yaml", "fd-scenario.schema.json", _sample())]
    if not extends:
        files += [PackFile("gears.yaml", "gears.schema.json", _bundled("gears.yaml")),
                  PackFile("wear.yaml", "wear.schema.json", _bundled("wear.yaml")),
                  PackFile("categories.yaml", "wear-categories.schema.json", printed("categories.yaml")),
                  PackFile("corner-kinds.yaml", "corner-kinds.schema.json", printed("corner-kinds.yaml"))]
    return files


