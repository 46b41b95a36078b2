"""Fixtures of the install tests: one build and one install per run (installs.py says how)."""

from __future__ import annotations

import shutil
import sys
import venv
from pathlib import Path

import pytest

from .installs import (
    HERE,
    ROOT,
    Dist,
    HookRepo,
    Installed,
    Locked,
    checked,
    clean_env,
    sh,
    shared_dir,
    slipstream_accel,
    slipstream_release,
)


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    where = shared_dir(tmp_path_factory, "slipstream-dist")
    pure = slipstream_accel.pure_requested()
    env = clean_env(**({slipstream_accel.PURE_ENV: "1"} if pure else {}))
    with Locked(where.with_suffix(".lock")):
        try:  # dev.py build leaves one of the same files in build/dist/: then that one
            sdist, wheel = slipstream_release.build_release(ROOT, where, sys.executable, log=lambda _: None,
                                                            env=env, reuse=ROOT / "build" / "dist")
        except RuntimeError as e:
            pytest.fail(str(e))
    return Dist(sdist, wheel, (wheel.parent / "build.log").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def installed(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    where = shared_dir(tmp_path_factory, "slipstream-installed")
    env = where / "venv"
    with Locked(where.with_suffix(".lock")):
        if not (where / "done").is_file():
            shutil.rmtree(where, ignore_errors=True)
            # no pip of its own: the session's pip installs into it (`--python`), as the
            # venv's own would; ensurepip cost more CPU than the install itself
            venv.EnvBuilder(with_pip=False).create(env)
            pip = [sys.executable, "-m", "pip", "--python", env / "bin" / "python", "install", "-q",
                   "--disable-pip-version-check"]
            checked(sh([*pip, dist.wheel], where))
            # the toy ruleset as another distribution would ship one (an entry point)
            toy = where / "toy-ruleset"
            shutil.copytree(HERE / "toy-ruleset", toy)
            shutil.copy2(ROOT / "tests" / "toyruleset.py", toy / "toyruleset.py")
            shutil.copytree(ROOT / "tests" / "toyschemas", toy / "toyschemas",
                            ignore=shutil.ignore_patterns("__pycache__"))
            checked(sh([*pip, toy], where))
            (where / "work").mkdir()
            (where / "done").write_text("")
    out = checked(sh([env / "bin" / "python", "-c", "import slipstream.cli, pathlib; "
                      "print(pathlib.Path(slipstream.cli.__file__).parent.parent)"], where))
    return Installed(env, where / "work", dist, Path(out.strip()))


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> HookRepo:
    where = shared_dir(tmp_path_factory, "slipstream-hooks")
    with Locked(where.with_suffix(".lock")):
        repo, done = where / "repo", where / "rev"
        if not done.is_file():
            shutil.rmtree(where, ignore_errors=True)
            for rel in slipstream_release.release_files(ROOT):
                (repo / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / rel, repo / rel)
            (where / "gitconfig").write_text("")
            hooks = HookRepo(repo, "", where / "pre-commit-home")
            ident = ["-c", "user.name=Test", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
            for args in (["git", "init", "-q", "-b", "main"], ["git", "add", "-A"],
                         ["git", *ident, "commit", "-q", "-m", "the checkout as a hook repository"]):
                checked(hooks.run(args, repo))
            rev = checked(hooks.run(["git", "rev-parse", "HEAD"], repo)).strip()
            done.write_text(rev)
        return HookRepo(repo, done.read_text().strip(), where / "pre-commit-home")
