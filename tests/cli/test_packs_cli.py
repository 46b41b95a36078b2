"""Pack commands and pack-wide guarantees: scaffolding, `slipstream cards`, the card-free engine,
house values that make a hand buy one or two cubes, and the fast schema check."""

from __future__ import annotations

import io
import json
import random
import re
import statistics
import tokenize
from pathlib import Path

import pytest
from helpers import CONTENT, ROOT, subschemas
from helpers import invoke as run

from slipstream.engine.core import schemafast
from slipstream.engine.core.schema import _DESCENDING, reference_validator, registry
from slipstream.engine.core.yamlsource import load_file
from slipstream.engine.rulesets.automobiles.content import base_pack

USER_CARD = """
  - id: tow-truck
    name: Tow Truck
    colour: purple
    cost: 3
    value: 1
    text: Return up to two wear cubes from your discard pile to the stock.
    effect:
      - remove: {from: discard, kind: wear, count: {up_to: 2}}
"""


def test_new_pack_that_overrides_a_cost_and_adds_a_card_validates_and_lists(tmp_path):
    res = run("new", "pack", "House Rules", "--dir", str(tmp_path))
    assert res.exit_code == 0, res.output
    root = tmp_path / "house-rules"
    assert run("validate", str(root)).exit_code == 0
    cards = root / "cards.yaml"
    text = cards.read_text()
    text = text.replace("cards: []\n", "cards:" + USER_CARD)
    text = text.replace("overrides: []\n", "overrides:\n  - id: base:manager\n    cost: 5\n")
    cards.write_text(text)
    res = run("validate", str(root))
    assert res.exit_code == 0, res.output
    assert "0 errors, 0 warnings" in res.output
    listed = json.loads(run("cards", str(root), "--format", "json").output)
    by_id = {c["id"]: c for c in listed}
    assert by_id["house-rules:tow-truck"]["cost"] == 3
    assert by_id["base:manager"]["cost"] == 5
    assert by_id["base:crew-chief"]["cost"] == base_pack().cards["crew-chief"].cost
    table = run("cards", str(root)).output
    assert "Tow Truck" in table and "Return up to two wear cubes" in table
    manager_row = next(line for line in table.splitlines() if "Manager" in line)
    assert re.search(r"Manager \[base\]\s+5\s", manager_row)


def test_scaffolded_files_carry_a_working_schema_line(tmp_path):
    assert run("new", "pack", "Lines", "--dir", str(tmp_path)).exit_code == 0
    root = tmp_path / "lines"
    assert run("new", "track", "Hill Climb", "--dir", str(root)).exit_code == 0
    track = root / "tracks" / "hill-climb.yaml"
    assert run("validate", str(track)).exit_code == 0
    files = sorted(root.rglob("*.yaml"))
    assert track in files and len(files) == 6  # with the sample scenario in tests/
    for f in files:
        first = f.read_text().splitlines()[0]
        m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert m, f
        assert (f.parent / m.group(1)).is_file(), f"{f}: {m.group(1)}"


def test_new_track_outside_a_pack_validates(tmp_path):
    assert run("new", "track", "Lone Oval", "--dir", str(tmp_path)).exit_code == 0
    path = tmp_path / "lone-oval.yaml"
    res = run("validate", str(path))
    assert res.exit_code == 0, res.output
    assert path.read_text().startswith("# yaml-language-server: $schema=")
    assert run("new", "track", "Lone Oval", "--dir", str(tmp_path)).exit_code == 2  # exists


def test_cards_of_a_set_show_gears_wear_and_five_action_cards():
    listed = json.loads(run("cards", "base", "--set", "first-race", "--format", "json").output)
    assert len(listed) == 10
    assert {c["name"] for c in listed if not c["fixed"]} == {
        "Manager", "Suspension", "Crew Chief", "Hybrid Engine", "Gearbox"}
    res = run("cards", "base", "--set", "no-such-set")
    assert res.exit_code == 2 and "first-race" in res.output


def _code_tokens(path: Path) -> list[str]:
    """Names and string literals of a module, without comments and docstrings."""
    out: list[str] = []
    prev = tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type == tokenize.STRING and prev in (tokenize.NEWLINE, tokenize.INDENT,
                                                    tokenize.DEDENT, tokenize.NL):
            prev = tok.type
            continue  # a docstring or a bare string statement
        if tok.type in (tokenize.NAME, tokenize.STRING, tokenize.FSTRING_MIDDLE
                        if hasattr(tokenize, "FSTRING_MIDDLE") else tokenize.STRING):
            out.append(tok.string)
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            prev = tok.type
    return out


# The packs whose names no engine module may write: every bundled pack and the designer pack.
NAMED_PACKS = (CONTENT / "base", ROOT / "tests" / "packs" / "designer-cards", CONTENT / "speed-hazard",
               CONTENT / "formula-de")


def _content_names(pack) -> set[str]:  # type: ignore[no-untyped-def]
    """Ids and names of a pack's content items that are data, not rules: Automobiles' action
    cards, drivers and sponsors (gear and wear cards are named after cube kinds). The decks of
    speed-and-hazard packs are not counted: their ids double as rule words (a hazard `spin`
    card and the `spin:` field, a nitrous `click` card and `click:`, a card called Pop), and
    Formula Dé-style packs have no named items."""
    names: set[str] = set()
    if pack.ruleset == "automobiles":
        for card in pack.cards.values():
            if not card.fixed:
                names |= {card.id, card.name}
        for drv in pack.drivers.values():
            names |= {drv.id, drv.name}
        for sp in pack.sponsors.values():
            names.add(sp.name)
    return names


def _name_patterns(names: set[str]) -> list[re.Pattern[str]]:
    """One pattern matching any of `names` as a whole word, in any case, with any run of
    spaces, `_` or `-` between its parts (one alternation: a token is searched once)."""
    words = (re.sub(r"[\s_-]+", r"[\\s_-]+", re.escape(n).replace(r"\ ", " ").replace(r"\-", "-"))
             for n in sorted(names))
    if not names:
        return []
    return [re.compile(r"(?<![\w-])(?:" + "|".join(words) + r")(?![\w-])", re.I)]


def _names_by_ruleset() -> dict[str, set[str]]:
    from slipstream.engine.packs.loader import load_pack

    out: dict[str, set[str]] = {}
    for root in NAMED_PACKS:
        pack, diags = load_pack(root)
        assert pack is not None and not [d for d in diags if d.is_error], root
        out.setdefault(pack.ruleset, set()).update(_content_names(pack))
    return out


def test_no_engine_module_names_a_card_driver_or_sponsor():
    """A ruleset's modules name nothing of its own ruleset's packs; the shared modules (all of
    engine/ outside engine/rulesets/) nothing of any pack."""
    by_ruleset = _names_by_ruleset()
    assert len(by_ruleset["automobiles"]) >= 160  # base and designer cards, drivers, sponsors
    assert {"crew-chief", "Crew Chief", "warm-tyres", "Warm Tyres"} <= by_ruleset["automobiles"]
    everything = set().union(*by_ruleset.values())
    folders = sorted(p for p in (ROOT / "engine" / "rulesets").iterdir() if (p / "__init__.py").is_file())
    assert {f.name for f in folders} >= {"automobiles", "formula_de", "speed_hazard"}
    in_rulesets = {m for f in folders for m in f.rglob("*.py")}
    scopes = [(sorted(set((ROOT / "engine").rglob("*.py")) - in_rulesets), everything)]
    for folder in folders:
        ruleset = folder.name.replace("_", "-")
        assert ruleset in by_ruleset, f"no pack of ruleset {ruleset} in NAMED_PACKS"
        scopes.append((sorted(folder.rglob("*.py")), by_ruleset[ruleset]))
    hits = []
    checked = 0
    for modules, names in scopes:
        patterns = _name_patterns(names)
        for module in modules:
            checked += 1
            for token in dict.fromkeys(_code_tokens(module)):  # each distinct token once
                for pat in patterns:
                    if pat.search(token):
                        hits.append(f"{module.relative_to(ROOT)}: {token[:60]!r}")
    assert checked == len(list((ROOT / "engine").rglob("*.py")))
    assert hits == []


def test_a_ruleset_may_name_what_only_another_ruleset_calls_a_card(tmp_path):
    """The scopes: Automobiles' Turbo card binds the Automobiles and shared modules only."""
    names = _names_by_ruleset()
    assert "turbo" in names["automobiles"] and "turbo" not in names["speed-hazard"]
    module = tmp_path / "m.py"
    module.write_text('deck = "turbo"\n')
    assert any(p.search(t) for t in _code_tokens(module) for p in _name_patterns(names["automobiles"]))
    assert not any(p.search(t) for t in _code_tokens(module) for p in _name_patterns(names["speed-hazard"]))


def test_the_name_check_would_catch_a_card_name(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('"""Docs may cite Crew Chief."""\nif card.id == "crew-chief":\n    pass\n')
    tokens = _code_tokens(bad)
    assert '"crew-chief"' in tokens and not any("Crew Chief" in t for t in tokens)


def test_house_values_make_a_hand_buy_one_or_two_cubes():
    pack = base_pack()
    rules = pack.rules
    assert rules is not None
    bag = [k for k, n in rules.starting_bag.items() for _ in range(n)]
    value = {c.colour: c.value for c in pack.cards.values() if c.fixed}
    value["yellow"] = statistics.median(c.value for c in pack.cards.values() if c.colour == "yellow")
    gear = {k.id for k in pack.gear_kinds}
    rng = random.Random(7)
    held, kept_all = [], []
    for _ in range(2000):
        hand = rng.sample(bag, rules.hand_size)
        kept_all.append(sum(value[k] for k in hand))
        held.append(sum(value[k] for k in hand if k not in gear))  # gears played to move
    costs = sorted(c.cost for c in pack.cards.values() if c.buyable)
    cheapest, typical = costs[0], statistics.median(costs)
    assert statistics.median(held) >= cheapest  # a usual hand still buys a cube
    assert statistics.median(kept_all) < 3 * typical  # even an unplayed hand buys at most two
    assert statistics.median(kept_all) >= 2 * cheapest
    assert "HOUSE VALUES" in pack.description


def _yaml_documents() -> list[tuple[str, object]]:
    out = []
    for f in sorted([*CONTENT.rglob("*.yaml"), *(ROOT / "tests" / "packs").rglob("*.yaml")]):
        data = load_file(f).data
        if isinstance(data, dict) and isinstance(data.get("slipstream"), str):
            kind = data["slipstream"].partition("/")[0]
            if (ROOT / "schemas" / f"{kind}.schema.json").is_file():
                out.append((kind, data))
    return out


def _mutations(data: object, rng: random.Random) -> tuple[object, list[object]]:
    """Copies of `data` with one leaf or key changed, to probe the fast check; and the JSON copy
    of `data` they are made from. A mutant copies only the lists and maps on the way to its
    leaf and shares the rest with that copy (which nothing changes), so jsonschema, through
    `_Shared`, checks a shared part once."""
    leaves: list[tuple[list[object], object]] = []

    def walk(node: object, path: list[object]) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, [*path, k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, [*path, i])
        else:
            leaves.append((path, node))

    walk(data, [])
    out = []
    base = json.loads(json.dumps(data))
    for path, _ in rng.sample(leaves, min(12, len(leaves))):
        for new in (-1, "x", True, None, 99, [], {"zz": 1}):
            if not path:
                continue
            copy = node = _shallow(base)
            for p in path[:-1]:
                node[p] = node = _shallow(node[p])  # type: ignore[index]
            node[path[-1]] = new  # type: ignore[index]
            out.append(copy)
    return base, out


def _shallow(node: object) -> object:
    return dict(node) if isinstance(node, dict) else list(node)  # type: ignore[call-overload]


class _Shared:
    """jsonschema's own validator of a kind, every keyword remembering that a part of the
    shared copy passed it, so the mutants of a document do not check their shared parts again.

    Exact, not an approximation: a keyword's errors depend only on its schema object (its base
    URI is lexical; the schemas use no `$dynamicRef`) and the instance, which is the same,
    unchanged object (the test checks the copy is unchanged); only a pass is remembered, never
    a failure, so every error is still found by jsonschema itself, and a keyword whose error
    stops the walk remembers nothing."""

    def __init__(self) -> None:
        self.shared: set[int] = set()  # ids of the lists and maps of the shared copy
        self.passed: set[tuple[int, str, int]] = set()
        self.kinds: dict[str, object] = {}

    def share(self, base: object) -> None:
        """Start on a new document's copy (which outlives what is remembered of it)."""
        self.passed.clear()
        self.shared.clear()
        stack = [base]
        while stack:
            node = stack.pop()
            if isinstance(node, (dict, list)):
                self.shared.add(id(node))
                stack.extend(node.values() if isinstance(node, dict) else node)

    def is_valid(self, kind: str, doc: object) -> bool:
        if kind not in self.kinds:
            from jsonschema import validators

            plain = reference_validator(kind)  # no help from the fast check it is held to
            # the keywords that look into parts of the instance: a leaf keyword (type, enum,
            # a bound) costs no more to check again than to look up
            cls = validators.extend(type(plain), {k: self._remembering(k, f)
                                                  for k, f in type(plain).VALIDATORS.items()
                                                  if k in _DESCENDING or k == "$ref"})
            self.kinds[kind] = cls(plain.schema, registry=registry())
        return self.kinds[kind].is_valid(doc)  # type: ignore[attr-defined]

    def _remembering(self, keyword: str, check):  # type: ignore[no-untyped-def]
        def remembering(v, value, instance, schema):  # type: ignore[no-untyped-def]
            key = (id(schema), keyword, id(instance))
            if key in self.passed:
                return
            failed = False
            for error in check(v, value, instance, schema) or ():
                failed = True
                yield error
            if not failed and id(instance) in self.shared:
                self.passed.add(key)

        return remembering


# jsonschema's answer by (kind, repr of the document): the seeds share every original and, for
# a document of at most 12 leaves, every mutation; each is still compared, jsonschema is asked once
_REFERENCE: dict[tuple[str, str], bool] = {}


@pytest.mark.parametrize("seed", [1, 2])
def test_fast_schema_check_agrees_with_jsonschema(seed):
    rng = random.Random(seed)
    docs = _yaml_documents()
    assert len(docs) > 40
    reference = _Shared()
    checked = 0
    for kind, data in docs:
        base, mutants = _mutations(data, rng)
        reference.share(base)
        for variant in [data, *mutants]:
            fast = schemafast.is_valid(kind, variant)
            assert fast is not None, kind
            key = (kind, repr(variant))
            if key not in _REFERENCE:
                _REFERENCE[key] = reference.is_valid(kind, variant)
            assert fast == _REFERENCE[key], (kind, variant)
            checked += 1
        assert base == json.loads(json.dumps(data))  # what jsonschema remembered still holds
    assert checked > 1000


PACK_SCHEMAS = ("pack", "cubes", "cards", "drivers", "sponsors", "cardsets", "rules")


@pytest.mark.parametrize("name", PACK_SCHEMAS)
def test_every_property_of_the_pack_schemas_has_a_description(name):
    schema = json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text())
    assert schema["$id"] == f"https://slipstream.invalid/schemas/{name}.schema.json"
    named = subschemas(schema, ("properties", "patternProperties"), name)
    assert [p for p, sub in named if not (isinstance(sub, dict) and sub.get("description"))] == []


def test_new_pack_refuses_the_id_of_a_pack_it_extends(tmp_path):
    res = run("new", "pack", "Base", "--dir", str(tmp_path))
    assert res.exit_code == 2 and "choose another name" in res.output
    assert not (tmp_path / "base").exists()
