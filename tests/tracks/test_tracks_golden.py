"""Golden track cases: each invalid file lists `# expect: CODE line:col` for every diagnostic."""

import re
from pathlib import Path

import pytest

from slipstream.engine.packs.validate import validate_file

HERE = Path(__file__).parent
EXPECT = re.compile(r"^# expect: ([A-Z]\d{3}) (\d+):(\d+)$", re.M)


def _cases(kind: str) -> list[Path]:
    return sorted((HERE / kind).glob("*.yaml"))


@pytest.mark.parametrize("path", _cases("valid"), ids=lambda p: p.name)
def test_valid_track_has_no_diagnostics(path: Path) -> None:
    assert validate_file(path) == []


@pytest.mark.parametrize("path", _cases("invalid"), ids=lambda p: p.name)
def test_invalid_track_reports_exactly_its_expected_codes(path: Path) -> None:
    expected = sorted((c, int(ln), int(col)) for c, ln, col in EXPECT.findall(path.read_text()))
    assert expected, f"{path.name} lists no expectations"
    got = sorted((d.code, d.line, d.column) for d in validate_file(path))
    assert got == expected


def test_every_track_code_has_a_golden_case() -> None:
    from slipstream.engine.core.codes import CODES

    seen = {c for p in _cases("invalid") for c, _, _ in EXPECT.findall(p.read_text())}
    track_codes = {c for c in CODES if c.startswith("T")}
    assert track_codes <= seen, f"track codes without a golden case: {sorted(track_codes - seen)}"
