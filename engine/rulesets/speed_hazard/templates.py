"""The starting files of a new speed-and-hazard pack and its starting tracks (the
`authoring.pack_files` and `templates` capabilities; engine/play/protocol.py).

A track holds what the ruleset races on: per-lane speed limits in steps of 10 km/h on every
curve, a 6-slot grid and a pit road with a 30 km/h entry (house values). A pack extending the
bundled pack inherits its cards, decks and car setup; a pack extending nothing starts with
copies of them. Every pack starts with a sample scenario in tests/ that `slipstream test` runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slipstream.engine.play.base import ShapeTemplates
from slipstream.engine.play.protocol import PackFile
from slipstream.engine.rulesets.speed_hazard.content import RULESET_ID
from slipstream.engine.tracks.templates import SHAPE_NAMES, SHAPES, squares_track

SQUARES = 100  # a lap, per lane (house value)
DATA = (("actions.yaml", "action-cards"), ("hazards.yaml", "hazard-deck"), ("nitrous.yaml", "nitrous-deck"),
        ("equipment.yaml", "equipment-deck"), ("car.yaml", "car-setup"))


def track(shape: str) -> dict[str, Any]:
    """A speed-and-hazard track of a shape: tight and fast curves in turn (km/h by lane)."""
    pit = {"layout": " ".join(["o"] * 12), "entries": [{"from": "0:4", "to": 0, "speed": 30}],
           "exits": [{"from": 11, "to": "0:17"}], "lap_counts": True, "can_win": False, "side": "inside"}
    return squares_track(shape, squares=SQUARES, lanes=3, grid=6, laps=3,
                         corner=lambda i: {"lane_speeds": [50 + 10 * (i % 2), 60 + 10 * (i % 2), 70 + 10 * (i % 2)]},
                         pit=pit, rulesets=(RULESET_ID,))


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


def pack_files(pid: str, name: str, extends: Sequence[str]) -> list[PackFile]:
    """A sample scenario; a pack extending nothing also gets the cards, decks and car setup."""
    files = [PackFile(f"tests/sample-{SAMPLE}.yaml", "sh-scenario.schema.json", _sample())]
    if not extends:
        files += [PackFile(rel, f"{kind}.schema.json", _bundled(rel)) for rel, kind in DATA]
    return files


