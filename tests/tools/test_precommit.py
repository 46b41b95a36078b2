"""The pre-commit hooks, run by `pre-commit` itself in a content repository's first commit.

The temporary repository holds a small pack, a track, a GitHub workflow and its own
.pre-commit-config.yaml. The hooks are this repository's `.pre-commit-hooks.yaml` entries,
copied key for key into a `repo: local` config with `language: system` and run with this
checkout's `slipstream` first on PATH, so the test needs no network (a `language: python`
hook would pip-install the package and its dependencies from an index).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
TRACK = ROOT / "content" / "base" / "tracks" / "first-oval.yaml"
WORKFLOW = """\
name: content
on: [push, pull_request]
jobs:
  validate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: slipstream validate --format github .
"""

pytestmark = pytest.mark.skipif(shutil.which("git") is None or not (BIN / "pre-commit").exists(),
                                reason="needs git and pre-commit (the dev extra)")


def hooks() -> dict[str, dict]:
    data = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return {h["id"]: h for h in data}


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    env = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin", "HOME": str(tmp_path),
           "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_NOSYSTEM": "1",
           "SLIPSTREAM_CACHE_DIR": str(tmp_path / "cache"), "LANG": "C.UTF-8"}
    work = tmp_path / "content-repo"
    work.mkdir()
    for args in (["git", "init", "-q", "-b", "main"], ["git", "config", "user.email", "t@example.invalid"],
                 ["git", "config", "user.name", "Test"], ["git", "config", "commit.gpgsign", "false"]):
        assert run(args, work, env).returncode == 0
    assert run([str(BIN / "slipstream"), "new", "pack", "my-pack"], work, env).returncode == 0
    shutil.rmtree(work / "my-pack" / "schemas")  # JSON, not what the hooks look at
    (work / "tracks").mkdir()
    shutil.copy(TRACK, work / "tracks" / "first-oval.yaml")
    (work / ".github" / "workflows").mkdir(parents=True)
    (work / ".github" / "workflows" / "content.yml").write_text(WORKFLOW, encoding="utf-8")
    (work / "mkdocs.yml").write_text("site_name: x\nmarkdown_extensions:\n  - pymdownx.emoji:\n"
                                     "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
                                     encoding="utf-8")
    local = []
    for h in hooks().values():
        local.append({**h, "language": "system"})
    config = {"repos": [{"repo": "local", "hooks": local}]}
    (work / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    assert run(["git", "add", "-A"], work, env).returncode == 0
    return work, env


def test_the_hooks_keep_the_settings_this_test_relies_on() -> None:
    h = hooks()
    assert h["slipstream-validate"]["entry"] == "slipstream validate --skip-untagged"
    assert h["slipstream-validate"]["pass_filenames"] is True
    assert h["slipstream-validate"]["files"] == r"\.ya?ml$"
    assert h["slipstream-validate-all"]["pass_filenames"] is False


def test_a_content_repositorys_first_commit_passes_both_hooks(repo: tuple[Path, dict[str, str]]) -> None:
    work, env = repo
    r = run([str(BIN / "pre-commit"), "run", "--all-files", "--verbose"], work, env)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert out.count("Passed") == 2, out
    # the workflow, the config and mkdocs.yml reached the hook and were skipped, not failed
    for name in (".github/workflows/content.yml", ".pre-commit-config.yaml", "mkdocs.yml"):
        assert f"{name}:1:1: warning F002 skipped" in out, out
    assert "error" not in out.replace("0 errors", "")
    # and a real commit through the installed git hook goes in
    assert run([str(BIN / "pre-commit"), "install"], work, env).returncode == 0
    c = run(["git", "commit", "-q", "-m", "first"], work, env)
    assert c.returncode == 0, c.stdout + c.stderr


def test_a_broken_track_still_fails_the_commit(repo: tuple[Path, dict[str, str]]) -> None:
    work, env = repo
    track = work / "tracks" / "first-oval.yaml"
    track.write_text(track.read_text(encoding="utf-8").replace("laps: 3", "laps: 0", 1), encoding="utf-8")
    assert "laps: 0" in track.read_text(encoding="utf-8")
    assert run(["git", "add", "-A"], work, env).returncode == 0
    r = run([str(BIN / "pre-commit"), "run", "slipstream-validate", "--files", "tracks/first-oval.yaml",
             ".github/workflows/content.yml"], work, env)
    assert r.returncode == 1, r.stdout
    assert "tracks/first-oval.yaml:" in r.stdout and " error " in r.stdout
    assert "Failed" in r.stdout
