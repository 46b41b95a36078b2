"""Small command-line promises: bundled pack ids, -k by scenario id, the cache folder help."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner
from helpers import CONTENT

from slipstream.cli.main import main


def test_validate_takes_a_bundled_pack_id_as_cards_does():
    res = CliRunner().invoke(main, ["validate", "base"])
    assert res.exit_code == 0, res.output
    assert "F001" not in res.output
    assert "0 errors" in res.output


def test_validate_help_names_every_cache_folder():
    out = CliRunner().invoke(main, ["validate", "--help"]).output
    assert "$SLIPSTREAM_CACHE_DIR" in out and "$XDG_CACHE_HOME" in out


def test_test_k_selects_by_scenario_id_not_file_name(tmp_path: Path):
    pack = tmp_path / "base"
    shutil.copytree(CONTENT / "base", pack)
    first = sorted((pack / "tests").glob("*.yaml"))[0]
    renamed = first.with_name("zz-renamed.yaml")
    first.rename(renamed)
    text = renamed.read_text()
    sid = next(line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("id:"))
    res = CliRunner().invoke(main, ["test", str(pack), "-k", sid])
    assert res.exit_code == 0, res.output
    assert f"PASS {sid} " in res.output
    assert "1 passed, 0 failed" in res.output
    res = CliRunner().invoke(main, ["test", str(pack), "-k", "zz-renamed"])
    assert "0 passed, 0 failed" in res.output
