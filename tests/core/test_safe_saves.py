"""Saves keep the file's mode, write through symbolic links and refuse read-only files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from slipstream.cli.main import main
from slipstream.engine.core.files import ReadOnlyFile, atomic_write_bytes, atomic_write_text

TRACK = Path(__file__).resolve().parents[2] / "content" / "base" / "tracks" / "first-oval.yaml"


def mode(p: Path) -> int:
    return stat.S_IMODE(os.stat(p).st_mode)


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_a_new_file_gets_0666_less_the_umask(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        atomic_write_text(tmp_path / "new.yaml", "a: 1\n")
    finally:
        os.umask(old)
    assert mode(tmp_path / "new.yaml") == 0o666 & ~umask
    assert os.umask(old) == old  # the umask is left as it was
    os.umask(old)


@pytest.mark.parametrize("before", [0o644, 0o664, 0o600, 0o755])
def test_an_existing_file_keeps_its_mode(tmp_path: Path, before: int) -> None:
    p = tmp_path / "track.yaml"
    p.write_text("old\n")
    p.chmod(before)
    atomic_write_text(p, "new\n")
    assert p.read_text() == "new\n" and mode(p) == before


def test_a_save_writes_through_a_symlink_and_the_link_stays(tmp_path: Path) -> None:
    real = tmp_path / "real" / "track.yaml"
    real.parent.mkdir()
    real.write_text("old\n")
    real.chmod(0o664)
    link = tmp_path / "link.yaml"
    link.symlink_to(os.path.relpath(real, tmp_path))
    atomic_write_bytes(link, b"new\n")
    assert link.is_symlink() and os.readlink(link) == os.path.relpath(real, tmp_path)
    assert real.read_bytes() == b"new\n" and mode(real) == 0o664
    assert not list(tmp_path.glob(".*.tmp")) and not list(real.parent.glob(".*.tmp"))


def test_a_chain_of_links_and_a_dangling_link_reach_the_final_target(tmp_path: Path) -> None:
    target = tmp_path / "made-by-save.yaml"
    (tmp_path / "b.yaml").symlink_to(target)
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    atomic_write_text(tmp_path / "a.yaml", "x: 1\n")
    assert (tmp_path / "a.yaml").is_symlink() and (tmp_path / "b.yaml").is_symlink()
    assert target.read_text() == "x: 1\n" and not target.is_symlink()


def test_a_read_only_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    p = tmp_path / "locked.yaml"
    p.write_text("keep me\n")
    p.chmod(0o444)
    with pytest.raises(ReadOnlyFile) as err:
        atomic_write_text(p, "overwritten\n")
    assert isinstance(err.value, PermissionError)  # callers that catch OSError show it
    assert "locked.yaml is read-only" in str(err.value)
    assert p.read_text() == "keep me\n" and mode(p) == 0o444
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_read_only_target_behind_a_link_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text("keep\n")
    real.chmod(0o400)
    (tmp_path / "link.yaml").symlink_to(real)
    with pytest.raises(ReadOnlyFile):
        atomic_write_text(tmp_path / "link.yaml", "no\n")
    assert real.read_text() == "keep\n"


def test_the_cli_reports_a_read_only_output_without_a_traceback(tmp_path: Path) -> None:
    out = tmp_path / "oval.svg"
    out.write_text("old")
    out.chmod(0o444)
    r = CliRunner().invoke(main, ["render", str(TRACK), "-o", str(out)])
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit)
    assert "oval.svg is read-only" in r.output and out.read_text() == "old"


def test_render_to_pdf_writes_a_real_pdf(tmp_path: Path) -> None:
    pytest.importorskip("PySide6")
    out = tmp_path / "oval.pdf"
    r = CliRunner().invoke(main, ["render", str(TRACK), "-o", str(out)])
    assert r.exit_code == 0, r.output
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and b"<svg" not in data and b"/Type /Page" in data
    assert mode(out) == 0o666 & ~_current_umask()


def test_render_to_pdf_without_the_gui_extra_is_a_usage_error(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import slipstream.cli.main as cli_main

    monkeypatch.setattr(cli_main, "_gui_missing", lambda: True)  # as without PySide6 installed
    out = tmp_path / "oval.pdf"
    r = CliRunner().invoke(main, ["render", str(TRACK), "-o", str(out)])
    assert r.exit_code == 2 and "needs the gui extra" in r.output
    assert not out.exists()


def test_render_refuses_a_suffix_it_cannot_write(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["render", str(TRACK), "-o", str(tmp_path / "oval.jpg")])
    assert r.exit_code == 2 and "write .svg, .png or .pdf" in r.output
    assert not (tmp_path / "oval.jpg").exists()


def _current_umask() -> int:
    old = os.umask(0o022)
    os.umask(old)
    return old


def test_every_command_turns_a_read_only_output_into_a_message(tmp_path: Path) -> None:
    locked = tmp_path / "track.schema.json"
    locked.write_text("{}")
    locked.chmod(0o444)
    r = CliRunner().invoke(main, ["schema", "-o", str(tmp_path)])
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit)
    assert "track.schema.json is read-only" in r.output and locked.read_text() == "{}"
