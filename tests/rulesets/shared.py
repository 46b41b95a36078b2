"""What the Formula Dé-style and speed-and-hazard tests share: each ruleset's folders, pack and
data for the tests parametrised over both (tests/rulesets/test_shared_*.py). The tests of rules
only one of them has stay in tests/rulesets/<ruleset>/."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Ruleset:
    id: str  # the ruleset's id, `formula-de`
    short: str  # the prefix of its scenario kind and folders, `fd`

    @property
    def pack(self) -> Path:
        """Its bundled pack, content/<id>."""
        return ROOT / "content" / self.id

    @property
    def tests(self) -> Path:
        """Its own tests, tests/rulesets/<id with underscores>."""
        return HERE / self.id.replace("-", "_")

    @property
    def golden(self) -> list[Path]:
        """Its golden race logs."""
        return sorted((self.tests / f"golden-{self.id}").glob("*.jsonl"))

    @property
    def golden_season(self) -> Path:
        return self.tests / f"golden-{self.id}-season" / "two-races-one-lap.jsonl"

    @property
    def invalid(self) -> list[Path]:
        """Its malformed scenarios, each named by the code it must give."""
        return sorted((self.tests / f"{self.short}_scenarios_invalid").glob("*.yaml"))

    @property
    def doc(self) -> Path:
        """The scenario format's page, with the rule table and an example."""
        return ROOT / "docs" / f"{self.id}-scenarios.md"


def inline_track(ruleset: str, corners: str = "", lanes: int = 3, segments: int = 40, laps: int = 1,
                 grid_rows: int = 3, extra: str = "") -> tuple[Any, list[Any]]:
    """A track/2 of `lanes` straight lanes of `segments` cells for `ruleset`, its grid the last
    `grid_rows` segments, with `corners` (YAML list items) and `extra` (more top-level keys),
    checked: (the track or None, its diagnostics)."""
    from slipstream.engine.core.yamlsource import load_text
    from slipstream.engine.tracks.load import check_track_data

    text = f"slipstream: track/2\nid: t\nlaps: {laps}\nrulesets: [{ruleset}]\nlanes: {lanes}\nlayout:\n"
    text += "".join(f'  - "{"o " * segments}"\n' for _ in range(lanes))
    text += "grid: [" + ", ".join(f"{{lane: {ln}, segment: {segments - 1 - k}}}"
                                 for k in range(grid_rows) for ln in range(lanes)) + "]\n"
    text += (f"corners:\n{corners}" if corners else "") + extra
    loaded = load_text(text, "t.yaml")
    return check_track_data(loaded.data, loaded.source)


FD = Ruleset("formula-de", "fd")
SH = Ruleset("speed-hazard", "sh")
BOTH = (FD, SH)


# The smallest scenario of each ruleset, which the scenario tests change one value of.
FD_GOOD = """\
slipstream: fd-scenario/1
id: tiny
covers: [rule:brakes]
track: {lanes: 3, squares: 40}
cars: [{at: "1:5", gear: 2}]
dice: {gear-2: [4]}
decisions: [gear 2, "to 1:7"]
expect:
  cars: [{at: "1:7", wear: {brakes: 1}}]
"""

SH_GOOD = """\
slipstream: sh-scenario/1
id: tiny
covers: [rule:damage-dice]
track: {lanes: 1, squares: 40}
cars: [{at: "0:0", speed: 30}]
board: {"0:1": tacks}
dice: [1]
play: [{car: 0, card: card accelerate}]
decisions: [accelerate 0]
expect:
  cars: [{at: "0:3", maximum: 130}]
"""
