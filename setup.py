"""What the package holds, found from the folders, and the compiled accelerator of a wheel.

pyproject.toml maps the top-level folders to subpackages of `slipstream`
([tool.setuptools.package-dir]). Every folder with an `__init__.py` below a mapped folder is
a package and every other file in it, or in a folder below it that is no package, is package
data (schemas, the packs' YAML, whatever a ruleset ships): a new ruleset, editor folder or pack
file ships without editing a list. tests/install/test_wheel.py compares a built wheel with
the files git tracks.

A wheel also gets the race engine's hot modules compiled with mypyc when this machine can
(build_support/slipstream_accel.py), in `slipstream/_accel/`; an editable install does not
(dev.py builds those into build/accel/).
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import tomllib
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "build_support"))
import slipstream_accel  # noqa: E402

# never package data: caches, compiled leftovers of a checkout, editor and patch droppings
JUNK_DIRS = {"__pycache__"}
JUNK_SUFFIXES = (".pyc", ".pyo", ".so", ".pyd", ".dll", ".orig", ".rej", ".swp", "~")


def mapped() -> dict[str, str]:
    """Package name -> folder, as pyproject.toml maps them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(config["tool"]["setuptools"]["package-dir"])


def junk(name: str) -> bool:
    return name.startswith(".") or name.endswith(JUNK_SUFFIXES)


def discover() -> tuple[list[str], dict[str, list[str]]]:
    """Every package below the mapped folders and the data files of each (paths relative to
    its folder)."""
    packages: list[str] = []
    data: dict[str, list[str]] = {}
    for root_pkg, folder in sorted(mapped().items()):
        base = ROOT / folder
        for here, dirs, files in os.walk(base):
            dirs[:] = sorted(d for d in dirs if d not in JUNK_DIRS and not d.startswith("."))
            rel = Path(here).relative_to(base)
            if rel.parts and not (Path(here) / "__init__.py").is_file():
                continue  # data of the package above (collected below), or another mapping's
            name = ".".join((root_pkg, *rel.parts))
            if name != root_pkg and name in mapped():
                continue
            packages.append(name)
            found = [f for f in sorted(files) if not f.endswith(".py") and not junk(f)]
            # folders that are no package hold data of this one, all the way down
            for d in dirs:
                sub = Path(here) / d
                if (sub / "__init__.py").is_file():
                    continue
                for inner, idirs, ifiles in os.walk(sub):
                    idirs[:] = sorted(x for x in idirs if x not in JUNK_DIRS and not x.startswith("."))
                    found += [(Path(inner) / f).relative_to(here).as_posix()
                              for f in sorted(ifiles) if not junk(f)]
            if found:
                data[name] = found
    return packages, data


class BuildPy(build_py):
    """Copies the packages as setuptools does, then (not for an editable install) compiles the
    accelerator into the build as `slipstream/_accel/`, or notes there why it did not."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        out = Path(self.build_lib) / "slipstream" / "_accel"
        reason = slipstream_accel.skip_reason()
        if reason is None:
            engine = ROOT / mapped()["slipstream.engine"]
            if slipstream_accel.compile_modules(engine, out, sys.executable):
                return
            reason = "the compile failed when it was built (its output says why)"
        slipstream_accel.write_skipped(out, reason)
        print(f"\nNOTICE: Slipstream installs without its compiled accelerator, as pure Python "
              f"(slower races, same results): {reason}.\n", file=sys.stderr, flush=True)


class MaybeBinary(Distribution):
    """A wheel that will hold compiled modules is tagged for this Python and platform."""

    def has_ext_modules(self) -> bool:
        return slipstream_accel.skip_reason() is None


def scratch() -> str:
    """A fresh folder for setuptools' build/ and egg-info of this run (removed at its end): a
    build in the checkout never ships a file an earlier build left there, and `pip install .`
    writes nothing into the checkout."""
    path = tempfile.mkdtemp(prefix="slipstream-setup-")
    atexit.register(shutil.rmtree, path, True)
    return path


if __name__ == "__main__":
    PACKAGES, DATA = discover()
    TMP = scratch()
    setup(packages=PACKAGES, package_data=DATA, cmdclass={"build_py": BuildPy},
          distclass=MaybeBinary,
          options={"build": {"build_base": f"{TMP}/build"}, "egg_info": {"egg_base": TMP}})
