"""`slipstream test --format github` prints an annotation for every failing scenario."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from rulesets.automobiles.test_scenarios import GOOD

from slipstream.cli.main import main


def pack_with(tmp_path: Path, scenarios: dict[str, str]) -> Path:
    pack = tmp_path / "my-pack"
    (pack / "tests").mkdir(parents=True)
    (pack / "pack.yaml").write_text("slipstream: pack/1\nid: my-pack\nname: Mine\nversion: 0.1.0\nextends: [base]\n",
                                    encoding="utf-8")
    for name, text in scenarios.items():
        (pack / "tests" / name).write_text(text, encoding="utf-8")
    return pack


def test_a_failing_scenario_is_an_error_annotation_on_its_expect_line(tmp_path: Path) -> None:
    wrong = GOOD.replace('"0:2"', '"0:1"').replace("id: tiny", "id: tiny-wrong")
    pack = pack_with(tmp_path, {"good.yaml": GOOD, "wrong.yaml": wrong})
    r = CliRunner().invoke(main, ["test", str(pack), "--format", "github"])
    assert r.exit_code == 1
    lines = r.output.splitlines()
    errors = [ln for ln in lines if ln.startswith("::error ")]
    expect_line = next(i for i, ln in enumerate(wrong.splitlines(), start=1) if ln.startswith("expect:"))
    assert len(errors) == 1, r.output
    assert f"wrong.yaml,line={expect_line},col=1,title=scenario tiny-wrong::failed: " in errors[0]
    assert "placed: expected ['0:1'], got ['0:2']" in errors[0]
    assert lines[-1] == "::notice title=slipstream test::1 passed, 1 failed, 0 malformed"


def test_passing_scenarios_give_no_error_annotation(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["test", str(pack_with(tmp_path, {"good.yaml": GOOD})), "--format", "github"])
    assert r.exit_code == 0, r.output
    assert "::error" not in r.output and "1 passed, 0 failed" in r.output
