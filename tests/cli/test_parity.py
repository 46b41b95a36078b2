"""Every face serves every ruleset it can (issue 29, item 9): for each registered ruleset (the toy
one of tests/toyruleset.py included, registered for the test session by tests/conftest.py) a
designer's walk through the command line - a new pack and track, validate, test, a batch of
races, cards, a season, a ladder, a sweep, a replay and the schemas - succeeds.

A command may refuse a ruleset only when the ruleset lacks the capability it needs, and then
with a usage error (exit 2) that says so; `REFUSALS` names which, read from the registry, so the
test follows a ruleset that gains a capability (e.g. championships) without being edited.
"""

from __future__ import annotations

import pytest
from helpers import invoke as run

from slipstream.cli.race import parse_bots
from slipstream.engine.play import registry

RACES = "20"


def _refusals(rs) -> dict[str, str]:
    """Command -> why it may refuse this ruleset (the capability it lacks)."""
    out = {}
    if rs.authoring is None or not rs.authoring.card_kinds:
        out["cards"] = "no cards"
    if rs.seasons is None:
        out["season"] = out["sweep --seasons"] = "season"  # "has no seasons / championships"
    return out


def _check(name: str, res, refusals: dict[str, str], rid: str) -> None:
    if name in refusals:
        assert res.exit_code in (0, 2), f"{rid}: {name} crashed or failed:\n{res.output}"
        if res.exit_code == 2:
            assert "Error:" in res.output and refusals[name] in res.output, \
                f"{rid}: {name} refused without saying why:\n{res.output}"
        return
    assert res.exit_code == 0, f"{rid}: `slipstream {name}` refused a ruleset it can serve:\n{res.output}"


@pytest.mark.parametrize("rid", registry.ids())
def test_every_command_serves_every_ruleset(tmp_path, rid):
    rs = registry.get(rid)
    refusals = _refusals(rs)
    pack = tmp_path / "parity"

    def step(name, *args):
        res = run(*args)
        _check(name, res, refusals, rid)
        return res

    step("new pack", "new", "pack", "Parity", "--ruleset", rid, "--dir", str(tmp_path))
    step("new track", "new", "track", "Ring", "--ruleset", rid, "--dir", str(pack))
    done = step("validate", "validate", str(pack))
    assert "0 errors, 0 warnings" in done.output, done.output
    step("test", "test", str(pack))
    raced = step("race", "race", str(pack), "--track", "ring", "--races", RACES, "--laps", "1", "--format", "json")
    assert '"races": 20' in raced.output, raced.output
    step("race --log", "race", str(pack), "--track", "ring", "--laps", "1", "--log", str(tmp_path / "logs"))
    logs = sorted((tmp_path / "logs").glob("*.jsonl"))
    assert logs, f"{rid}: race --log wrote no log"
    assert "identical" in step("replay", "replay", str(logs[0])).output
    step("cards", "cards", str(pack))
    step("season", "season", str(pack), "--tracks", "ring,ring,ring", "--laps", "1")
    bots = ",".join(dict.fromkeys(rs.default_bots or rs.bots))  # its usual field, each bot once
    step("ladder", "ladder", str(pack), "--track", "ring", "--races", "2", "--laps", "1", "--bots", bots)
    # every bot a ruleset lists is taken by name (speed-hazard's `lookahead:4` was refused)
    assert parse_bots(",".join(rs.bots), rs) == list(rs.bots)
    step("sweep", "sweep", str(pack), "--track", "ring", "--vary", "track:ring.laps=1,2", "--races", "4",
         "--db", str(tmp_path / "sweep.db"))
    step("sweep --seasons", "sweep", str(pack), "--tracks", "ring,ring,ring", "--vary", "track:ring.laps=1,2",
         "--seasons", "2", "--db", str(tmp_path / "seasons.db"))
    out = tmp_path / "schemas"
    step("schema", "schema", "-o", str(out))
    kinds = set(rs.files.kinds) if rs.files is not None else set()
    for kind in kinds:
        assert (out / f"{kind}.schema.json").is_file(), f"{rid}: no schema for its file kind {kind}"
