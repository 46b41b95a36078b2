"""The Formula Dé-style designer forms (docs/rules/formula-de.md, "Designing new content"): wear
categories, corner kinds and weather as pack data. The designer packs (tests/packs/designer-
formula-de and its -deck child) validate clean and their scenarios pass; a plausible wrong
version of each item fails one of the item's scenarios; misuse is reported with code, file,
line, column and JSON path; the printed data files equal the rules the engine plays without
them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from slipstream.engine.core.yamlsource import load_file
from slipstream.engine.packs.loader import load_pack
from slipstream.engine.rulesets.formula_de.designdata import (
    PRINTED_DESIGN,
    Design,
    category,
    corner_kind,
)
from slipstream.engine.rulesets.formula_de.ruleset import RULESET
from slipstream.engine.rulesets.formula_de.scenarios import run_pack_scenarios

PACKS = Path(__file__).resolve().parents[2] / "packs"
MAIN, DECK = "designer-formula-de", "designer-formula-de-deck"
PRINTED = Path(__file__).resolve().parents[3] / "engine" / "rulesets" / "formula_de" / "printed"

# every designer item, as scenarios name it in `covers:`
ITEMS = ("category:fuel", "category:suspension", "category:nerves", "corner-kind:hairpin",
         "corner-kind:tight-chicane", "corner-kind:fast-kink", "corner-kind:esses", "corner-kind:gravel-turn",
         "weather:drizzle", "weather:rain", "weather:storm", "weather:schedule", "weather:deck")

# Plausible wrong ways of writing each item: (pack, file, text, replacement). Each must make at
# least one scenario covering the item fail while the packs still load clean.
MUTANTS: dict[str, list[tuple[str, str, str, str]]] = {
    "category:fuel": [(MAIN, "categories.yaml", "turn: [0, 0, 0, 1, 1, 2]", "turn: [0, 0, 0, 0, 1, 2]"),
                      (MAIN, "categories.yaml", "limp_gear: 3", "limp_gear: 4"),
                      (MAIN, "categories.yaml", "box: true", "box: false")],
    "category:suspension": [(MAIN, "categories.yaml", "costs: {overshoot: 1, collision: 1}", "costs: {collision: 1}"),
                            (MAIN, "categories.yaml", "empty: out\n    cause: suspension", "empty: none")],
    "category:nerves": [(MAIN, "categories.yaml", "blocked: [1, 1, 1, 1, 1, 1, 1]", "blocked: [1]"),
                        (MAIN, "categories.yaml", "limp_gear: 5", "limp_gear: 6")],
    "corner-kind:hairpin": [(MAIN, "corner-kinds.yaml", "stops: 4\n    least_stops: 2", "stops: 4\n    least_stops: 1"),
                            (MAIN, "corner-kinds.yaml", "stops: 4\n    least_stops: 2", "stops: 3\n    least_stops: 2")],
    "corner-kind:tight-chicane": [(MAIN, "corner-kinds.yaml", "max_gear: 3\n    too_fast: {tyres: 1}",
                                   "max_gear: 2\n    too_fast: {tyres: 1}"),
                                  (MAIN, "corner-kinds.yaml", "too_fast: {tyres: 1}", "too_fast: {brakes: 1}")],
    "corner-kind:fast-kink": [(MAIN, "corner-kinds.yaml", "max_gear: 5", "max_gear: 6")],
    "corner-kind:esses": [(MAIN, "corner-kinds.yaml", "stops: 2\n    least_stops: 0", "stops: 2\n    least_stops: 1")],
    "corner-kind:gravel-turn": [(MAIN, "corner-kinds.yaml", "too_fast: {body: 1}", "too_fast: {tyres: 1}"),
                                (MAIN, "corner-kinds.yaml", "stops: 3\n    least_stops: 1", "stops: 3\n    least_stops: 2")],
    "weather:drizzle": [(MAIN, "weather.yaml", "collision_hits: 2", "collision_hits: 1")],
    "weather:rain": [(MAIN, "weather.yaml", "max_gear: 4", "max_gear: 5"),
                     (MAIN, "weather.yaml", "turn: {tyres: [0, 0, 0, 1]}", "turn: {tyres: [0, 0, 0, 0]}")],
    "weather:storm": [(MAIN, "weather.yaml", "max_gear: 3", "max_gear: 4"),
                      (MAIN, "weather.yaml", "turn: {brakes: [0, 0, 1]}", "turn: {brakes: [0, 0, 0]}")],
    "weather:schedule": [(MAIN, "weather.yaml", "{round: 4, weather: drizzle}", "{round: 5, weather: drizzle}"),
                         (MAIN, "weather.yaml", "{lap: 2, weather: rain}", "{lap: 3, weather: rain}")],
    "weather:deck": [(DECK, "weather.yaml", "every: 3", "every: 2"),
                     (DECK, "weather.yaml", "{weather: storm}", "{weather: drizzle}")],
}


def _covering(root: Path, item: str) -> list[str]:
    return [str(f) for pack in (MAIN, DECK) for f in sorted((root / pack / "tests").glob("*.yaml"))
            if item in load_file(f).data["covers"]]


def _run(root: Path) -> dict[str, bool]:
    """Scenario id -> passed, over both designer packs at `root`."""
    out: dict[str, bool] = {}
    for pack in (MAIN, DECK):
        rep = run_pack_scenarios(str(root / pack), RULESET)
        assert not rep.diagnostics, rep.diagnostics
        out.update({r.id: r.ok for r in rep.results})
    return out


def test_the_designer_packs_validate_clean() -> None:
    for pack in (MAIN, DECK):
        loaded, diags = load_pack(PACKS / pack)
        assert loaded is not None and diags == [], diags


def test_thirteen_items_of_the_new_forms_each_with_a_scenario_and_wrong_versions() -> None:
    design = load_pack(PACKS / DECK)[0].tables.design  # type: ignore[union-attr]
    assert len(ITEMS) >= 12 and sorted(MUTANTS) == sorted(ITEMS)
    assert {"fuel", "suspension", "nerves"} <= set(design.names)
    assert {"hairpin", "tight-chicane", "fast-kink", "esses", "gravel-turn"} <= {k.id for k in design.kinds}
    for item in ITEMS:
        assert _covering(PACKS, item), f"no scenario covers {item}"


def test_every_designer_scenario_passes() -> None:
    results = _run(PACKS)
    assert len(results) == 16 and all(results.values()), results


@pytest.mark.parametrize("item", ITEMS)
def test_each_wrong_version_of_an_item_fails_one_of_its_scenarios(item: str, tmp_path: Path) -> None:
    for pack in (MAIN, DECK):
        shutil.copytree(PACKS / pack, tmp_path / pack)
    ids = [load_file(f).data["id"] for f in map(Path, _covering(tmp_path, item))]
    for pack, name, old, new in MUTANTS[item]:
        path = tmp_path / pack / name
        text = (PACKS / pack / name).read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{item}: {old!r} is not once in {pack}/{name}"
        path.write_text(text.replace(old, new), encoding="utf-8")
        try:
            for p in (MAIN, DECK):
                assert load_pack(tmp_path / p)[1] == [], f"{item}: the wrong version {new!r} does not load clean"
            results = _run(tmp_path)
            assert not all(results[i] for i in ids), f"{item}: no scenario notices {old!r} -> {new!r}"
        finally:
            path.write_text(text, encoding="utf-8")


def test_the_printed_data_files_are_the_rules_the_engine_plays_without_them() -> None:
    cats = load_file(PRINTED / "categories.yaml").data
    kinds = load_file(PRINTED / "corner-kinds.yaml").data
    design = Design(tuple(category(c) for c in cats["categories"]), tuple(corner_kind(k) for k in kinds["kinds"]))
    assert design == PRINTED_DESIGN


def test_a_pack_declaring_the_printed_files_plays_the_same_race(tmp_path: Path) -> None:
    """Free when unused: the printed categories and kinds written out play byte for byte as
    the rules in code (the same tables object, so the same decisions and log)."""
    from slipstream.engine.play.racelog import log_lines
    from slipstream.engine.play.races import RaceSpec

    bundled = Path(__file__).resolve().parents[3] / "content" / "formula-de"
    shutil.copytree(bundled, tmp_path / "p", ignore=shutil.ignore_patterns("tests"))
    (tmp_path / "p" / "pack.yaml").write_text("slipstream: pack/1\nid: printed-copy\nname: Printed copy\nversion: 0.1.0\n"
                                              "ruleset: formula-de\nextends: []\n", encoding="utf-8")
    for name in ("categories.yaml", "corner-kinds.yaml"):
        shutil.copy(PRINTED / name, tmp_path / "p" / name)
    loaded, diags = load_pack(tmp_path / "p")
    assert diags == [] and loaded is not None and loaded.tables.design is PRINTED_DESIGN  # type: ignore[attr-defined]
    logs = []
    for pack in ("content/formula-de", str(tmp_path / "p")):
        spec = RaceSpec(pack=str(Path(__file__).resolve().parents[3] / pack) if pack.startswith("content") else pack,
                        track="tilleuls", seed=11, bots=("greedy", "random", "greedy"), laps=2)
        r = RULESET.run_race(spec)
        logs.append(log_lines(r.header, r.log, r.result)[1:])  # the header names the pack
    assert logs[0] == logs[1]


# --- static checks ------------------------------------------------------------------------

def _diags(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str, int, int, str]]:
    shutil.copytree(PACKS / MAIN, tmp_path / MAIN)
    for name, text in files.items():
        (tmp_path / MAIN / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / MAIN / name).write_text(text, encoding="utf-8")
    _, diags = load_pack(tmp_path / MAIN)
    return [(d.code, Path(d.file).name, d.line, d.column, d.path) for d in diags]


def test_an_unknown_category_in_a_wear_row_is_p050_at_its_key(tmp_path: Path) -> None:
    got = _diags(tmp_path, {"wear.yaml": "slipstream: wear/1\noverrides:\n"
                            "  - {laps: 1, fuel: 6, suspension: 3, nerves: 2, feul: 1}\n"
                            "  - {laps: 2, fuel: 10, suspension: 4, nerves: 3}\n"})
    assert ("P050", "wear.yaml", 3, 50, "$.overrides[0].feul") in got


def test_a_category_without_points_in_a_row_and_a_printed_one_removed_are_p050(tmp_path: Path) -> None:
    text = (PACKS / MAIN / "categories.yaml").read_text(encoding="utf-8") + "removes: [body]\n"
    got = _diags(tmp_path, {"wear.yaml": "slipstream: wear/1\noverrides:\n  - {laps: 1, fuel: 6, suspension: 3, nerves: 2}\n",
                            "categories.yaml": text})
    assert ("P050", "categories.yaml", 6, 9, "$.categories[0].id") in got  # fuel: no points in the 2-lap row
    messages = [d.message for d in load_pack(tmp_path / MAIN)[1]]
    assert "the wear row for 2 laps gives no points of 'fuel'" in messages
    assert "the printed category 'body' is missing: its rules need it" in messages
    assert "wear row for 1 laps: no category 'body'" in messages


def test_corner_kind_misuse_is_p051(tmp_path: Path) -> None:
    kinds = (PACKS / MAIN / "corner-kinds.yaml").read_text(encoding="utf-8")
    kinds = kinds.replace("stops: 4\n    least_stops: 2", "stops: 4\n    least_stops: 4")
    kinds = kinds.replace("too_fast: {body: 1}", "too_fast: {bodywork: 1}")
    got = _diags(tmp_path, {"corner-kinds.yaml": kinds})
    paths = {(c, f, p) for c, f, _l, _c, p in got}
    assert ("P051", "corner-kinds.yaml", "$.kinds[0].least_stops") in paths
    assert ("P050", "corner-kinds.yaml", "$.kinds[4].too_fast.bodywork") in paths


def test_a_track_corner_naming_no_kind_of_the_pack_is_p051_at_its_kind(tmp_path: Path) -> None:
    track = (PACKS / MAIN / "tracks" / "designer-ring.yaml").read_text(encoding="utf-8").replace(
        "kind: esses", "kind: essses").replace("kind: hairpin", "kind: hairpin, stops: 2")
    got = _diags(tmp_path, {"tracks/designer-ring.yaml": track})
    paths = {(c, f, p) for c, f, _l, _c, p in got}
    assert paths == {("P051", "designer-ring.yaml", "$.corners[2].kind"), ("P051", "designer-ring.yaml", "$.corners[1].stops")}
    line = next(ln for c, f, ln, _c, p in got if p == "$.corners[2].kind")
    assert "essses" in track.splitlines()[line - 1]


def test_weather_misuse_is_p052(tmp_path: Path) -> None:
    text = (PACKS / MAIN / "weather.yaml").read_text(encoding="utf-8")
    text = text.replace("{lap: 2, weather: rain}", "{lap: 2, weather: rian}")
    text += "deck: {every: 2, cards: [{weather: dry}]}\n"
    got = _diags(tmp_path, {"weather.yaml": text})
    paths = {(c, f, p) for c, f, _l, _c, p in got}
    assert ("P052", "weather.yaml", "$.schedule[1].weather") in paths
    assert ("P052", "weather.yaml", "$.deck") in paths


def test_unused_designer_forms_leave_the_bundled_pack_as_printed() -> None:
    loaded, _ = load_pack(Path(__file__).resolve().parents[3] / "content" / "formula-de")
    assert loaded is not None and loaded.tables.design is PRINTED_DESIGN  # type: ignore[attr-defined]


def test_every_designer_item_comes_into_play_in_a_few_bot_races() -> None:
    """bench/designer_cards.py --ruleset formula-de plays 1,000s of these; CI a few dozen, one
    in five played twice (the same bytes) and replayed."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from collections import Counter

    from fd_designer_races import ITEMS, checked_race, field
    from fd_designer_races import PACKS as RACE_PACKS

    seen: Counter[str] = Counter()
    for kind, count in (("random", 16), ("greedy", 8)):
        for seed in range(count):
            _res, n = checked_race(RACE_PACKS[seed % 2], seed, field(kind, seed), replay=seed % 5 == 0)
            seen.update(n)
    assert [it for it in ITEMS if not seen[it]] == []


def test_a_pack_extending_the_bundled_one_changes_a_printed_cost_by_override(tmp_path: Path) -> None:
    """The printed categories are inherited as rows: braking at 2 brake points a square halves
    how far a car with 3 brake points may brake (1 square)."""
    from slipstream.engine.rulesets.formula_de.game import FormulaDeGame

    root = tmp_path / "p"
    (root / "tracks").mkdir(parents=True)
    (root / "pack.yaml").write_text("slipstream: pack/1\nid: hard-brakes\nname: Hard brakes\nversion: 0.1.0\n"
                                    "ruleset: formula-de\nextends: [formula-de]\n", encoding="utf-8")
    (root / "categories.yaml").write_text(
        "slipstream: wear-categories/1\noverrides:\n"
        "  - {id: brakes, costs: {brake: 2, downshift: [0, 1, 1], blocked: [1, 2, 3, 3, 3, 3, 3]}}\n", encoding="utf-8")
    pack, diags = load_pack(root)
    assert diags == [] and pack is not None
    design = pack.tables.design  # type: ignore[attr-defined]
    assert design.brake_per == 2 and design.names[:5] == ("tyres", "brakes", "transmission", "body", "engine")
    g = FormulaDeGame(pack.tracks["tilleuls"], pack.tables, ["A"], 1, 1, {})  # type: ignore[attr-defined]
    car = g.cars[0]
    car.started, car.gear, car.node = True, 3, g.track.space_at(1, 2).index  # type: ignore[union-attr]
    steps = sorted({t.steps for t in g.targets(car, 6).values()})
    assert steps == [5, 6]  # 3 brake points pay for one square at 2 a square
