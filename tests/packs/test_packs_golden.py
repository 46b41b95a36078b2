"""Golden invalid packs: each folder under tests/packs/ breaks one rule of the pack format.

Every case holds a pack in `main/` (sometimes a second pack beside it), a README saying what
is wrong and `expect.yaml` with the code, file, line and column that must be reported. Every
other diagnostic of the case must carry the same code, so a case tests one code only.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from slipstream.engine.core.codes import CODES
from slipstream.engine.packs.loader import load_pack
from slipstream.engine.packs.validate import validate_paths

CASES = Path(__file__).parent
ALL = sorted(p for p in CASES.iterdir() if (p / "expect.yaml").is_file())


def _expect(case: Path) -> dict[str, object]:
    return yaml.safe_load((case / "expect.yaml").read_text())


@pytest.mark.parametrize("case", ALL, ids=[p.name for p in ALL])
def test_golden_case_reports_its_code_at_its_position(case: Path):
    want = _expect(case)
    pack, diags = load_pack(case / "main")
    got = [(d.code, Path(d.file).resolve().relative_to(case.resolve()).as_posix(), d.line, d.column)
           for d in diags]
    assert (want["code"], want["file"], want["line"], want["column"]) in got, got
    assert {d.code for d in diags} == {want["code"]}, got
    assert case.name.startswith(str(want["code"]).lower()), "name cases after their code"


@pytest.mark.parametrize("case", [c for c in ALL if (c / "main" / "pack.yaml").is_file()],
                         ids=lambda p: p.name)
def test_validate_command_reports_the_same(case: Path):
    """`slipstream validate` on the pack folder gives what load_pack gives."""
    want = _expect(case)
    diags, _ = validate_paths([case / "main"])
    assert want["code"] in {d.code for d in diags}


def test_at_least_25_codes_have_a_golden_case():
    codes = {str(_expect(c)["code"]) for c in ALL}
    assert len(codes) == len(ALL), "one case per code"
    assert len(codes) >= 25
    assert codes <= set(CODES)
    pack_codes = {c for c in CODES if c[0] in "PE"}
    assert pack_codes <= codes, f"P/E codes without a golden case: {sorted(pack_codes - codes)}"
