"""The pre-commit hooks as a content repository gets them: its .pre-commit-config.yaml names
this repository and a revision, and pre-commit builds the hooks' own environment itself (a
virtualenv with `pip install` of the repository, no dev venv, nothing of the checkout).

The hook repository is a git repository of this checkout's release files as they are on disk
(tests/install/installs.py: `hook_repo`), one per run; pre-commit's cache is shared by the
tests, so the hooks' environment is built once. It is installed with SLIPSTREAM_PURE=1 (the
install-time switch: a pure-Python install, which these tests also check) so that it does not
compile the accelerator a second time; test_installed.py covers the compiled install. The
content repository holds a small pack, a track, a GitHub workflow, an mkdocs.yml and its own
.pre-commit-config.yaml.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .installs import MARKS, ROOT, HookRepo, checked

pytestmark = MARKS

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


def hooks() -> dict[str, dict]:
    data = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return {h["id"]: h for h in data}


@pytest.fixture
def repo(hook_repo: HookRepo, tmp_path: Path) -> Path:
    """A content repository whose config uses both hooks of the hook repository."""
    work = tmp_path / "content-repo"
    work.mkdir()
    for args in (["git", "init", "-q", "-b", "main"], ["git", "config", "user.email", "t@example.invalid"],
                 ["git", "config", "user.name", "Test"], ["git", "config", "commit.gpgsign", "false"]):
        checked(hook_repo.run(args, work))
    # scaffolded by the dev venv's command (what is tested here is the hooks' own install)
    done = subprocess.run([str(Path(sys.executable).parent / "slipstream"), "new", "pack", "my-pack"],
                          cwd=work, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    shutil.rmtree(work / "my-pack" / "schemas")  # JSON, not what the hooks look at
    (work / "tracks").mkdir()
    shutil.copy(TRACK, work / "tracks" / "first-oval.yaml")
    (work / ".github" / "workflows").mkdir(parents=True)
    (work / ".github" / "workflows" / "content.yml").write_text(WORKFLOW, encoding="utf-8")
    (work / "mkdocs.yml").write_text("site_name: x\nmarkdown_extensions:\n  - pymdownx.emoji:\n"
                                     "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
                                     encoding="utf-8")
    config = {"repos": [{"repo": str(hook_repo.path), "rev": hook_repo.rev,
                         "hooks": [{"id": "slipstream-validate"}, {"id": "slipstream-validate-all"}]}]}
    (work / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    checked(hook_repo.run(["git", "add", "-A"], work))
    return work


def test_the_hooks_keep_the_settings_this_test_relies_on() -> None:
    h = hooks()
    assert h["slipstream-validate"]["entry"] == "slipstream validate --skip-untagged"
    assert h["slipstream-validate"]["language"] == "python"
    assert h["slipstream-validate"]["pass_filenames"] is True
    assert h["slipstream-validate"]["files"] == r"\.ya?ml$"
    assert h["slipstream-validate-all"]["pass_filenames"] is False


def test_a_content_repositorys_first_commit_passes_both_hooks(hook_repo: HookRepo, repo: Path) -> None:
    r = hook_repo.pre_commit(["run", "--all-files", "--verbose"], repo)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert out.count("Passed") == 2, out
    # the workflow, the config and mkdocs.yml reached the hook and were skipped, not failed
    for name in (".github/workflows/content.yml", ".pre-commit-config.yaml", "mkdocs.yml"):
        assert f"{name}:1:1: warning F002 skipped" in out, out
    assert "error" not in out.replace("0 errors", "")
    # and a real commit through the installed git hook goes in
    checked(hook_repo.pre_commit(["install"], repo))
    c = hook_repo.run(["git", "commit", "-q", "-m", "first"], repo)
    assert c.returncode == 0, c.stdout + c.stderr


def test_a_broken_track_fails_the_hook_and_the_commit(hook_repo: HookRepo, repo: Path) -> None:
    track = repo / "tracks" / "first-oval.yaml"
    track.write_text(track.read_text(encoding="utf-8").replace("laps: 3", "laps: 0", 1), encoding="utf-8")
    assert "laps: 0" in track.read_text(encoding="utf-8")
    checked(hook_repo.run(["git", "add", "-A"], repo))
    r = hook_repo.pre_commit(["run", "slipstream-validate", "--files", "tracks/first-oval.yaml",
                              ".github/workflows/content.yml"], repo)
    assert r.returncode == 1, r.stdout
    assert "tracks/first-oval.yaml:" in r.stdout and " error " in r.stdout
    assert "Failed" in r.stdout
    checked(hook_repo.pre_commit(["install"], repo))
    c = hook_repo.run(["git", "commit", "-q", "-m", "broken"], repo)
    assert c.returncode == 1, c.stdout + c.stderr
    assert "tracks/first-oval.yaml:" in c.stdout + c.stderr


def test_the_hooks_run_from_their_own_install(hook_repo: HookRepo, repo: Path) -> None:
    """pre-commit's environment holds a plain install of the hook repository (not the checkout,
    not the dev venv), made pure by the install-time switch."""
    checked(hook_repo.pre_commit(["install-hooks"], repo))
    envs = sorted(hook_repo.home.glob("repo*/py_env-*"))
    assert len(envs) == 1, envs
    python = envs[0] / "bin" / "python"
    code = "import slipstream.engine, slipstream.content; print(slipstream.engine.__file__)"
    where = Path(checked(hook_repo.run([python, "-c", code], repo)).strip())
    assert where.is_relative_to(envs[0]) and not where.is_relative_to(ROOT), where
    version = checked(hook_repo.run([envs[0] / "bin" / "slipstream", "--version"], repo,
                                    pure=False)).splitlines()
    assert version[1] == ("compiled accelerator: absent (not compiled at install: SLIPSTREAM_PURE "
                          "was set when it was built); pure Python"), version
