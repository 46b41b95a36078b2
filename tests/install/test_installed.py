"""The built wheel installed in a fresh virtual environment (not editable, no extras), used as
a content repository's CI uses it: every command from an empty folder outside the checkout.
A third-party ruleset (the toy one, as its own distribution with an entry point) is installed
beside it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .installs import MARKS, ROOT, Installed, checked, sh, slipstream_accel

pytestmark = MARKS

PACKS = ("base", "formula-de", "speed-hazard")
# every ruleset's bundled pack, and a golden log of each recorded by the checkout's tests
RULESETS = ROOT / "tests" / "rulesets"
GOLDEN = {"automobiles": RULESETS / "automobiles" / "golden" / "oval-two-greedy.jsonl",
          "formula-de": RULESETS / "formula_de" / "golden-formula-de" / "pit-stops-two-cars-each.jsonl",
          "speed-hazard": RULESETS / "speed_hazard" / "golden-speed-hazard" / "three-laps-default.jsonl"}


def ok(installed: Installed, *args: str | Path, cwd: Path | None = None) -> str:
    return checked(installed.run(*args, cwd=cwd))


def test_it_runs_from_the_install_not_the_checkout(installed: Installed) -> None:
    code = ("import slipstream.engine, slipstream.cli, slipstream.content, slipstream.schemas; "
            "print(slipstream.engine.__file__)")
    where = Path(checked(sh([installed.bin / "python", "-c", code], installed.work)).strip())
    assert where.is_relative_to(installed.venv), where
    assert not where.is_relative_to(ROOT)
    assert installed.package.is_relative_to(installed.venv)
    # no editable install: no path into the checkout anywhere in site-packages
    for pth in installed.package.parent.glob("*.pth"):
        assert str(ROOT) not in pth.read_text(encoding="utf-8"), pth


def test_version_names_the_release_and_the_accelerator_in_use(installed: Installed) -> None:
    out = ok(installed, "--version").splitlines()
    assert out[0] == "slipstream, version 0.1.0"
    if installed.dist.compiled:
        assert out[1].startswith("compiled accelerator: on (22 modules: automobiles 9, formula_de 7, "
                                 "play 1, speed_hazard 5; compiled at install)"), out
    elif slipstream_accel.pure_requested():
        assert out[1] == ("compiled accelerator: absent (not compiled at install: SLIPSTREAM_PURE "
                          "was set when it was built); pure Python"), out
    else:
        assert out[1].startswith("compiled accelerator: absent (not compiled at install: "), out
    # the switch at run time turns an installed build off, whatever it is
    pure = checked(installed.run("--version", env={"SLIPSTREAM_PURE": "1"})).splitlines()
    assert pure[1] == "compiled accelerator: off (SLIPSTREAM_PURE is set); pure Python"


def test_the_compiled_modules_are_loaded_from_the_install(installed: Installed) -> None:
    code = ("import importlib, json; from slipstream.engine.core import accel; "
            "mods = [importlib.import_module(n) for n in accel.status().modules]; "
            "print(json.dumps([accel.status().state, "
            "[[m.__name__, m.__spec__.loader.path, m.__file__] for m in mods]]))")
    state, mods = json.loads(checked(sh([installed.bin / "python", "-c", code], installed.work)))
    if not installed.dist.compiled:
        assert (state, mods) == ("absent", [])
        return
    assert state == "on"
    assert sorted(m[0] for m in mods) == slipstream_accel.module_names()
    for name, library, source in mods:
        assert Path(library).is_relative_to(installed.package / "_accel"), (name, library)
        assert source.endswith(".py") and Path(source).is_relative_to(installed.package), (name, source)


def test_rulesets_lists_the_bundled_ones_and_the_third_party_one(installed: Installed) -> None:
    out = ok(installed, "rulesets")
    ids = [line.split(" ", 1)[0] for line in out.splitlines() if line and not line.startswith(" ")]
    assert ids == ["automobiles", "formula-de", "speed-hazard", "toy"], out
    assert "toy (Toy race): 1-6 cars; bots: random" in out


@pytest.mark.parametrize("pack", [*PACKS, "tracks-v2"])
def test_validate_every_bundled_pack(installed: Installed, pack: str) -> None:
    folder = installed.package / "content" / pack
    assert folder.is_dir()
    out = ok(installed, "validate", folder)
    assert " 0 errors, 0 warnings" in out, out


def test_new_pack_and_new_track_scaffold_what_validates(installed: Installed, tmp_path: Path) -> None:
    out = ok(installed, "new", "pack", "my-pack", cwd=tmp_path)
    assert (tmp_path / "my-pack" / "pack.yaml").is_file(), out
    ok(installed, "new", "track", "my-track", cwd=tmp_path)
    made = sorted(p.name for p in tmp_path.iterdir())
    assert "my-pack" in made and any(n.startswith("my-track") for n in made), made
    out = ok(installed, "validate", ".", cwd=tmp_path)
    assert " 0 errors" in out, out


@pytest.mark.parametrize("pack", PACKS)
def test_one_race_and_its_log_replays(installed: Installed, pack: str, tmp_path: Path) -> None:
    out = ok(installed, "race", installed.package / "content" / pack, "--seed", "7", "--log", tmp_path)
    assert "final standings" in out.lower() or "standings" in out.lower(), out
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 1, logs
    assert ok(installed, "replay", logs[0]).strip() == "identical"


@pytest.mark.parametrize("pack", PACKS)
def test_the_rule_scenarios_of_every_ruleset(installed: Installed, pack: str) -> None:
    out = ok(installed, "test", installed.package / "content" / pack)
    last = out.strip().splitlines()[-1]
    assert last.endswith("0 failed, 0 malformed") and int(last.split()[0]) > 50, last


def test_golden_logs_of_the_checkout_replay_identical_in_the_install(installed: Installed,
                                                                    tmp_path: Path) -> None:
    """Logs recorded by the checkout's tests, replayed by the install (compiled, if it is):
    the same races, byte for byte. Their packs are named by path, as a user's folder has them."""
    shutil.copytree(installed.package / "content", tmp_path / "content")
    for ruleset, log in GOLDEN.items():
        head = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
        assert head["ruleset"] == ruleset
        done = installed.run("replay", log, cwd=tmp_path)
        assert (done.returncode, done.stdout.strip()) == (0, "identical"), (log, done.stdout, done.stderr)


def test_the_third_party_ruleset_races_and_replays(installed: Installed, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "tests" / "toy", tmp_path / "toy")
    assert " 0 errors, 0 warnings" in ok(installed, "validate", "toy", cwd=tmp_path)
    out = ok(installed, "race", "toy", "--bots", "bold,random", "--seed", "4", "--log", "logs", cwd=tmp_path)
    assert "P1 moves" in out and "final standings" in out, out
    log = tmp_path / "logs" / "race-4.jsonl"
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["ruleset"] == "toy"
    assert ok(installed, "replay", log, cwd=tmp_path).strip() == "identical"
    # a race rolling one of the pack's dice (its own data kind, toy-dice/1, read by its content model)
    assert "P1 moves" in ok(installed, "race", "toy", "--bots", "bold", "--die", "d4", cwd=tmp_path)
    # its championship, and its own schemas shipped as package data of its distribution
    assert "championship standings" in ok(installed, "season", "toy", "--bots", "bold,random", cwd=tmp_path)
    ok(installed, "schema", "-o", "schemas", cwd=tmp_path)
    for name in ("toy-scenario.schema.json", "toy-dice.schema.json"):
        assert json.loads((tmp_path / "schemas" / name).read_text(encoding="utf-8")) == \
            json.loads((ROOT / "tests" / "toyschemas" / name).read_text(encoding="utf-8"))
    # found through its entry point: the module is the installed one, not the tests' copy
    where = checked(sh([installed.bin / "python", "-c", "import toyruleset; print(toyruleset.__file__)"],
                       installed.work)).strip()
    assert Path(where).is_relative_to(installed.venv), where


def test_the_work_folder_stays_empty(installed: Installed) -> None:
    """Every command above wrote only where it was told to."""
    assert sorted(p.name for p in installed.work.iterdir()) == []
