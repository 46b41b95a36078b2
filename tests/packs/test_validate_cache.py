"""The result cache of `slipstream validate` for pack folders (engine/packs/resultcache.py).

A second validation of an unchanged pack reuses the stored diagnostics; any change to a file
of the pack, to a pack it extends, to the packs beside it or to the engine's code validates
afresh. A broken or unwritable cache never changes the answer.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.packs import resultcache, validate
from slipstream.engine.packs.validate import validate_paths

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "content" / "base"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("SLIPSTREAM_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Records every pack folder that is really validated (not answered from the cache)."""
    calls: list[Path] = []
    real = validate._validate_pack

    def spy(folder: Path) -> resultcache.PackValidation:
        calls.append(folder)
        return real(folder)

    monkeypatch.setattr(validate, "_validate_pack", spy)
    return calls


def small_pack(parent: Path, pack_id: str = "mini", extends: str = "base") -> Path:
    folder = parent / pack_id
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text(
        f"slipstream: pack/1\nid: {pack_id}\nname: Mini\nversion: 0.1.0\nextends: [{extends}]\n")
    (folder / "cards.yaml").write_text(GOOD)
    return folder


GOOD = "slipstream: cards/1\noverrides:\n  - id: base:manager\n    cost: 4\n"
UNKNOWN = "slipstream: cards/1\noverrides:\n  - id: base:nothing\n    cost: 4\n"


def codes(diags: list) -> list[str]:
    return sorted(d.code for d in diags)


def test_second_run_of_an_unchanged_pack_comes_from_the_cache(cache: Path, counted: list[Path]) -> None:
    first, n1 = validate_paths([BASE])
    second, n2 = validate_paths([BASE])
    assert counted == [BASE]  # validated once, answered from the cache the second time
    assert second == first == [] and n1 == n2
    assert n1 == 1 + sum(1 for _ in BASE.rglob("*.yaml")) - 1  # every YAML file of the pack is counted
    assert len(list((cache / "validate").glob("*.json"))) == 1


def test_editing_a_file_or_adding_one_validates_again(tmp_path: Path, cache: Path,
                                                      counted: list[Path]) -> None:
    pack = small_pack(tmp_path)
    assert validate_paths([pack])[0] == []
    (pack / "cards.yaml").write_text(UNKNOWN)
    broken = validate_paths([pack])[0]
    assert codes(broken) == ["P017"] and broken[0].file.endswith("cards.yaml") and broken[0].line == 3
    assert validate_paths([pack])[0] == broken  # unchanged since: from the cache
    (pack / "cards.yaml").write_text(GOOD)
    assert validate_paths([pack])[0] == []
    (pack / "extra.yaml").write_text("slipstream: cards/1\ncards: [\n")  # a new, broken file
    new = validate_paths([pack])[0]
    assert [d.file for d in new] == [str(pack / "extra.yaml")]
    assert len(counted) == 4  # each change was validated for real; the unchanged repeat was not


def test_a_change_in_the_extended_pack_reaches_the_child(tmp_path: Path, cache: Path,
                                                         counted: list[Path]) -> None:
    parent = small_pack(tmp_path, "parent")
    child = small_pack(tmp_path, "child", extends="parent")
    assert validate_paths([child])[0] == []
    (parent / "cards.yaml").write_text(UNKNOWN)
    assert "P022" in codes(validate_paths([child])[0])  # the parent now has errors
    # a second pack with the parent's id appearing beside them is also noticed
    (parent / "cards.yaml").write_text(GOOD)
    assert validate_paths([child])[0] == []
    shutil.copytree(parent, tmp_path / "a-parent")
    validate_paths([child])
    assert counted == [child, child, child, child]


def test_a_code_change_validates_again(cache: Path, counted: list[Path], monkeypatch: pytest.MonkeyPatch,
                                       tmp_path: Path) -> None:
    pack = small_pack(tmp_path)
    validate_paths([pack])
    validate_paths([pack])
    assert len(counted) == 1
    monkeypatch.setattr(resultcache, "code_digest", lambda: "another version of the engine")
    validate_paths([pack])
    assert len(counted) == 2


def test_code_digest_follows_the_engine_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "engine"
    fake.mkdir()
    (fake / "a.py").write_text("x = 1\n")
    monkeypatch.setattr(resultcache, "_ENGINE", fake)
    before = resultcache.code_digest()
    (fake / "a.py").write_text("x = 22\n")
    assert resultcache.code_digest() != before


def test_a_corrupt_entry_is_ignored_and_replaced(tmp_path: Path, cache: Path, counted: list[Path]) -> None:
    pack = small_pack(tmp_path)
    validate_paths([pack])
    (entry,) = (cache / "validate").glob("*.json")
    entry.write_text("{not json")
    assert validate_paths([pack])[0] == []
    assert json.loads(entry.read_text())["format"] == resultcache.ENTRY_FORMAT
    entry.write_text(json.dumps({**json.loads(entry.read_text()), "diagnostics": [{"code": 1}]}))
    assert validate_paths([pack])[0] == []  # a malformed entry is a miss, never a crash
    assert len(counted) == 3


def test_an_unwritable_cache_folder_is_no_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SLIPSTREAM_CACHE_DIR", str(blocker))
    pack = small_pack(tmp_path)
    assert validate_paths([pack]) == ([], 2)
    (pack / "cards.yaml").write_text(UNKNOWN)
    assert codes(validate_paths([pack])[0]) == ["P017"]


def test_cli_output_is_the_same_from_the_cache_and_no_cache_skips_it(tmp_path: Path, cache: Path) -> None:
    pack = small_pack(tmp_path)
    (pack / "cards.yaml").write_text(UNKNOWN)
    runner = CliRunner()
    runs = [runner.invoke(main, ["validate", "--format", fmt, str(pack)])
            for fmt in ("text", "json", "text", "json")]
    assert runs[0].exit_code == runs[2].exit_code == 1
    assert runs[0].output == runs[2].output and runs[1].output == runs[3].output
    assert "P017" in runs[0].output and "2 files checked" in runs[0].output
    shutil.rmtree(cache)
    fresh = runner.invoke(main, ["validate", "--no-cache", str(pack)])
    assert fresh.output == runs[0].output
    assert not cache.exists()


def test_a_cached_run_imports_neither_yaml_nor_the_pack_checks(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from slipstream.cli.main import main\n"
        "try:\n"
        f"    main(['validate', {str(BASE)!r}])\n"
        "except SystemExit as e:\n"
        "    assert e.code == 0, e.code\n"
        "heavy = sorted(m for m in ('yaml', 'slipstream.engine.packs.loader', 'slipstream.engine.core.schema',\n"
        "                           'slipstream.engine.tracks.checks', 'jsonschema') if m in sys.modules)\n"
        "print('heavy:', heavy)\n"
    )
    env = {**os.environ, "SLIPSTREAM_CACHE_DIR": str(tmp_path / "c")}
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    second = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert "'yaml'" in first.stdout  # the first run parses the files
    assert "heavy: []" in second.stdout, second.stdout


def test_several_files_of_one_pack_load_the_pack_once(tmp_path: Path, cache: Path,
                                                      counted: list[Path]) -> None:
    pack = small_pack(tmp_path)
    (pack / "cards.yaml").write_text(UNKNOWN)
    (pack / "more.yaml").write_text("slipstream: cards/1\noverrides:\n  - id: base:nothing-else\n    cost: 1\n")
    diags, n = validate_paths([pack / "cards.yaml", pack / "more.yaml", pack / "pack.yaml"])
    assert n == 3 and len(counted) == 1  # as a pre-commit hook passes the changed files
    assert [(Path(d.file).name, d.code) for d in diags] == [("cards.yaml", "P017"), ("more.yaml", "P017")]
    validate_paths([pack / "cards.yaml"], use_cache=False)
    validate_paths([pack / "cards.yaml"], use_cache=False)
    assert len(counted) == 3  # --no-cache reaches the per-file path too


def test_a_pack_loaded_again_checks_only_the_files_whose_text_changed(tmp_path, monkeypatch):
    """In one process (the editor, `slipstream test`), a pack loaded again schema-checks only
    the data files whose text changed, with the same diagnostics as the first time (tracks
    are checked by their own loader each time)."""
    from slipstream.engine.core import schemafast
    from slipstream.engine.packs.loader import load_pack

    pack = tmp_path / "base"
    shutil.copytree(ROOT / "content" / "base", pack)
    cubes = pack / "cubes.yaml"
    cubes.write_text(cubes.read_text().replace("cubes:", "cubes:\n  - {id: 7}", 1))
    checked = []
    real = schemafast.is_valid
    # whole files only (a file with errors has its items checked one by one as well)
    monkeypatch.setattr(schemafast, "is_valid",
                        lambda kind, data, *a: (a or checked.append(kind)) and False or real(kind, data, *a))
    first = load_pack(pack)[1]
    assert any(d.file.endswith("cubes.yaml") and d.is_error for d in first)
    assert "cubes" in checked
    checked.clear()
    assert load_pack(pack)[1] == first and set(checked) == {"track"}
    checked.clear()
    (pack / "drivers.yaml").write_text((pack / "drivers.yaml").read_text() + "\n# edited\n")
    assert load_pack(pack)[1] == first and set(checked) == {"track", "drivers"}
