"""docs/effects.md: the sections of issue 17 part B (lane rules, money, `others` they cannot
decline): every YAML example is valid against the effect schema, names the forms it documents,
and runs in the interpreter without error whatever the choices."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from slipstream.engine.core.schema import registry
from slipstream.engine.core.yamlsource import SourceMap
from slipstream.engine.rulesets.automobiles.content import base_pack
from slipstream.engine.rulesets.automobiles.game import position_game
from slipstream.engine.rulesets.automobiles.rules import ruleset_from_pack
from slipstream.engine.tracks.track import parse_track

ROOT = Path(__file__).resolve().parents[3]
SECTIONS = ("## Lane rules of a move", "## Money", "### `others` they cannot decline")
VALIDATOR = Draft202012Validator(
    {"$ref": "https://slipstream.invalid/schemas/effect.schema.json#/$defs/effect_list"},
    registry=registry())


def _section(text: str, heading: str) -> str:
    level = heading.split(" ")[0]
    start = text.index(heading + "\n")
    rest = text[start + len(heading) + 1:]
    # the section ends at the next heading of the same level or higher
    m = re.search(r"^#{1,%d} " % len(level), rest, flags=re.M)
    return rest[:m.start()] if m else rest


def _examples() -> list[tuple[str, list[object]]]:
    text = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")
    out = []
    for h in SECTIONS:
        for block in re.findall(r"```yaml\n(.*?)```", _section(text, h), flags=re.S):
            doc = yaml.safe_load(block)
            assert isinstance(doc, list), block
            out.append((h, doc))
    return out


EXAMPLES = _examples()


@pytest.mark.parametrize("heading,example", EXAMPLES, ids=[f"{h[3:20]}-{i}" for i, (h, _) in enumerate(EXAMPLES)])
def test_example_is_valid_against_the_schema(heading: str, example: list[object]) -> None:
    errors = [e.message for e in VALIDATOR.iter_errors(example)]
    assert not errors, errors


def test_examples_show_every_form_of_part_b() -> None:
    text = " ".join(yaml.safe_dump(ex) for _, ex in EXAMPLES)
    for form in ("straight: true", "lanes: inside", "- 0\n", "lane_change:", "at_most:", "money: available",
                 "money: spent", "pay:", "prices:", "change: -", "buy_limit:", "mandatory: true",
                 "who: ahead_adjacent"):
        assert form in text, form


def _game(seed: int):  # type: ignore[no-untyped-def]
    pack = base_pack()
    rs = ruleset_from_pack(pack)
    track, diags = parse_track({"id": "t", "laps": 1, "layout": ["3 3 4 4 5 5 6 6 3 3 3 3"] * 3,
                                "grid": [{"lane": 0, "segment": 0, "money": 0}]}, SourceMap("t"))
    assert track is not None, diags
    players = [{"car": {"lane": 1, "segment": 2}, "active": {"gear-5": 2, "gear-3": 1}, "bag": {"gear-4": 5}},
               {"car": {"lane": 1, "segment": 3}, "active": {"gear-3": 2}, "bag": {"gear-3": 5}},
               {"car": {"lane": 0, "segment": 2}, "active": {"gear-4": 1}, "bag": {"gear-3": 5}},
               {"car": {"lane": 1, "segment": 1}, "active": {"wear": 1, "gear-4": 1}, "bag": {"gear-3": 5}}]
    return position_game(rs, track, players, start="action", seed=seed)


@pytest.mark.parametrize("heading,example", EXAMPLES, ids=[f"{h[3:20]}-{i}" for i, (h, _) in enumerate(EXAMPLES)])
def test_example_runs_whatever_the_choices(heading: str, example: list[object]) -> None:
    for seed in range(5):
        g = _game(seed)
        assert g.pending is not None and g.pending.kind == "action"
        g.stack.pop()  # run the example in place of the Action phase's first decision
        g.run_effects(0, example, "docs")
        rng = random.Random(seed)
        for _ in range(200):
            d = g.pending
            if d is None or d.kind == "buy":
                break
            assert g.apply(rng.choice(d.options).key) is None
        # the example ran to its end and the turn went on into the Buy phase
        assert g.pending is not None and g.pending.kind == "buy" and g.pending.player == 0


def _page_effect_lists() -> list[list[object]]:
    """Every effect list of every YAML example of docs/effects.md: the lists themselves, the
    `effect:` of card-like mappings and each hook of a driver's `hooks:`."""
    text = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")
    out: list[list[object]] = []
    for block in re.findall(r"```yaml\n(.*?)```", text, flags=re.S):
        for doc in yaml.safe_load_all(block):
            if isinstance(doc, list):
                out.append(doc)
            elif isinstance(doc, dict) and isinstance(doc.get("effect"), list):
                out.append(doc["effect"])
            elif isinstance(doc, dict) and isinstance(doc.get("hooks"), dict):
                out.extend(v for v in doc["hooks"].values() if isinstance(v, list))
    return out


PAGE = _page_effect_lists()


@pytest.mark.parametrize("example", PAGE, ids=[f"page-{i}" for i in range(len(PAGE))])
def test_every_example_of_the_page_runs_whatever_the_choices(example: list[object]) -> None:
    test_example_runs_whatever_the_choices("page", example)


def test_the_page_has_examples_of_every_section() -> None:
    assert len(PAGE) >= 50  # the extraction finds them (54 today)
