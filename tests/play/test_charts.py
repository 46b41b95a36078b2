"""The Altair charts of batch measures (engine/play/charts.py)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("altair")

from slipstream.engine.play.charts import batch_charts  # noqa: E402


def _row(name: str, value: float, n: int = 10, kind: str = "mean") -> dict:
    return {"name": name, "label": name, "kind": kind, "unit": "", "value": value, "low": value, "high": value, "n": n}


def _heat_values(charts: list) -> list[dict]:
    for c in charts:
        spec = c.to_dict()
        if any(layer.get("mark", {}).get("type") == "rect" or layer.get("mark") == "rect"
               for layer in spec.get("layer", [])):
            return spec.get("data", {}).get("values") or spec["layer"][0]["data"]["values"]
    raise AssertionError("no heat map: " + json.dumps([c.to_dict() for c in charts])[:500])


def test_a_count_one_variant_never_recorded_is_0_in_the_heat_map_not_blank() -> None:
    a = [_row("rounds", 30), _row("hazards.Bend", 2.5), _row("hazards.Hairpin", 1.0)]
    b = [_row("rounds", 31, n=12), _row("hazards.Bend", 1.5)]  # no race of b met a hazard at the Hairpin
    cells = {(v["item"], v["batch"]): v for v in _heat_values(batch_charts([("a", a), ("b", b)]))}
    assert set(cells) == {(i, v) for i in ("Bend", "Hairpin") for v in ("a", "b")}
    assert cells[("Hairpin", "b")]["value"] == 0.0 and cells[("Hairpin", "b")]["n"] == 12
    assert cells[("Hairpin", "a")]["value"] == 1.0


def test_a_rate_one_variant_never_tried_stays_blank() -> None:
    a = [_row("rounds", 30), _row("finish.Bend", 0.5, kind="rate"), _row("finish.Hairpin", 0.25, kind="rate")]
    b = [_row("rounds", 31), _row("finish.Bend", 0.5, kind="rate")]
    cells = {(v["item"], v["batch"]) for v in _heat_values(batch_charts([("a", a), ("b", b)]))}
    assert ("Hairpin", "b") not in cells  # no trials: no estimate, not 0%
