"""File > New offers each ruleset's starting tracks (issue 29, item 1), through its `templates`
capability: a Formula Dé-style track opens with its corners and stops."""

from __future__ import annotations


def test_file_new_offers_the_templates_of_each_ruleset(window):
    w = window
    names = {a.objectName() for a in w.actions()}
    assert {"new-formula-de-oval", "new-speed-hazard-road-course", "new-oval"} <= names
    act = next(a for a in w.actions() if a.objectName() == "new-formula-de-oval")
    act.trigger()
    data = w.doc.data
    assert data["slipstream"] == "track/2" and data["rulesets"] == ["formula-de"]
    assert data["corners"] and all("stops" in c for c in data["corners"])
    assert w.doc.diagnostics == []
