"""Issue 31 item 1: `sweep --vary FILE#FIELD` reads and writes only files of its pack lineage,
and a sweep removes its temporary pack copies when it ends (also on error or interrupt)."""

from __future__ import annotations

import hashlib
import multiprocessing.util
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import CONTENT

from slipstream.cli.main import main

BASE = CONTENT / "base"


def snapshot(top: Path) -> dict[str, str]:
    """Every file under `top` (symlinks as their targets) with the digest of its bytes."""
    out = {}
    for p in sorted(top.rglob("*")):
        if p.is_symlink():
            out[p.relative_to(top).as_posix()] = "-> " + str(p.readlink())
        elif p.is_file():
            out[p.relative_to(top).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path/home: a copy of the base pack (p), a sentinel YAML file beside it and an
    outside copy of a card file; tmp_path/tmp: the temporary folder the sweep gets."""
    home = tmp_path / "home"
    shutil.copytree(BASE, home / "p")
    (home / "v.yaml").write_text("x: 1\n", encoding="utf-8")
    (home / "outside").mkdir()
    shutil.copy(BASE / "cards" / "garage.yaml", home / "outside" / "garage.yaml")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    # multiprocessing keeps one temporary folder per process (a forkserver's socket is there):
    # made now, it stays outside tmp, which the worker deletes after this test
    multiprocessing.util.get_temp_dir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.chdir(home)
    return tmp_path


def left(tmp: Path) -> list[str]:
    """What sweeps left in the temporary folder (multiprocessing's own pymp-* folder, removed
    when the interpreter exits, is not theirs)."""
    return sorted(p.name for p in tmp.iterdir() if not p.name.startswith("pymp-"))


def sweep(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["sweep", "p", "--races", "1", "--bots", "greedy,greedy", *args],
                             catch_exceptions=False)
    return res.exit_code, res.output


@pytest.mark.parametrize("given", [
    "{home}/v.yaml",                    # the sentinel by absolute path
    "../v.yaml",                        # the sentinel by a `../` path
    "../outside/garage.yaml",           # a card file outside the pack
    "{home}/outside/garage.yaml",
    "cards/../../v.yaml",
    "tests/card-adrenaline-delayed.yaml",  # a rule scenario: not raced, not copied
    "../../home/p/../v.yaml",
    "../nothing.yaml",
    "cards/garage.yaml/..",
    "/",
])
def test_a_file_outside_the_pack_is_a_usage_error_and_nothing_is_written(world: Path, given: str):
    home = world / "home"
    before = snapshot(world)
    code, out = sweep("--db", "s.sqlite", "--vary", given.format(home=home) + "#x=5,6")
    assert code == 2, out
    assert "--vary" in out and "FILE must be a YAML file of the pack" in out
    after = snapshot(world)
    after.pop("home/s.sqlite", None)  # the store the user asked for
    assert after == before
    assert (home / "v.yaml").read_text() == "x: 1\n"


def test_a_symlink_out_of_the_pack_is_refused(world: Path):
    home = world / "home"
    card = home / "p" / "cards" / "garage.yaml"
    card.unlink()
    card.symlink_to(home / "outside" / "garage.yaml")  # the pack still loads through the link
    (home / "p" / "v-link.yaml").symlink_to(home / "v.yaml")
    before = snapshot(world)
    for given in ("cards/garage.yaml#cards[3].cost=1,2", "v-link.yaml#x=5,6"):
        code, out = sweep("--db", "s.sqlite", "--vary", given)
        assert code == 2, out
        assert "FILE must be a YAML file of the pack" in out
    after = snapshot(world)
    after.pop("home/s.sqlite", None)
    assert after == before


def test_a_file_of_the_pack_or_of_a_pack_it_extends_is_varied_in_the_copies_only(world: Path):
    home = world / "home"
    # p2 extends p (id base, found beside it): a file of p is reached as ../p/...
    (home / "p2").mkdir()
    (home / "p2" / "pack.yaml").write_text(
        "slipstream: pack/1\nid: p2\nname: P2\nversion: 0.1.0\nextends: [base]\n", encoding="utf-8")
    before = snapshot(world)
    code, out = sweep("--db", "a.sqlite", "--vary", "cards/garage.yaml#cards[3].cost=1,2")
    assert code == 0, out
    res = CliRunner().invoke(main, ["sweep", "p2", "--races", "1", "--bots", "greedy,greedy", "--db", "b.sqlite",
                                    "--vary", "../p/cards/garage.yaml#cards[3].cost=1,2"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    after = snapshot(world)
    for db in ("a.sqlite", "b.sqlite"):
        after.pop(f"home/{db}")
    assert after == before  # the pack files themselves are untouched, no folder is left in tmp
    assert left(world / "tmp") == []


def test_sweeps_remove_their_temporary_copies_when_they_end(world: Path, monkeypatch: pytest.MonkeyPatch):
    tmp = world / "tmp"
    # a finished sweep, in one process and in two
    for jobs in ("1", "2"):
        code, out = sweep("--db", f"s{jobs}.sqlite", "--vary", "card:manager.cost=1,2", "--races", "2",
                          "--jobs", jobs, "--chunk", "1")
        assert code == 0, out
        assert left(tmp) == []
    # a variant that is not a valid pack (an error after the copies are written)
    code, out = sweep("--db", "e.sqlite", "--vary", "card:manager.cost=-5")
    assert code == 2 and "is not a valid pack" in out
    assert left(tmp) == []

    # an interrupted sweep (Ctrl-C while racing)
    import slipstream.engine.play.sweeps as sw

    def interrupted(job):
        raise KeyboardInterrupt

    monkeypatch.setattr(sw, "run_job", interrupted)
    code, out = sweep("--db", "i.sqlite", "--vary", "card:manager.cost=1,3")
    assert code == 130, out
    assert left(tmp) == []
