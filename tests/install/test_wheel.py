"""The built wheel holds every package and data file of the source tree, and nothing else.

The wheel is built from the sdist (tests/install/conftest.py), so a file missing from either
fails here: a new ruleset or editor folder, a pack's YAML, a schema.
"""

from __future__ import annotations

import json
import tomllib
from functools import cache
from pathlib import Path

from .installs import MARKS, ROOT, Dist, slipstream_accel, source_files

pytestmark = MARKS


@cache
def mapping() -> dict[str, str]:
    """Source folder -> its path in the wheel (pyproject.toml's package-dir)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {folder: pkg.replace(".", "/") for pkg, folder in config["tool"]["setuptools"]["package-dir"].items()}


@cache
def expected() -> dict[str, str]:
    """Path in the wheel -> source file, for every file git has below a mapped folder."""
    out = {}
    for rel in source_files():
        top, _, rest = rel.partition("/")
        if rest and top in mapping():
            out[f"{mapping()[top]}/{rest}"] = rel
    return out


def packaged(dist: Dist) -> set[str]:
    return {n for n in dist.names() if ".dist-info/" not in n and not n.startswith("slipstream/_accel/")}


def test_every_file_of_every_package_is_in_the_wheel(dist: Dist) -> None:
    have = packaged(dist)
    missing = sorted(src for name, src in expected().items() if name not in have)
    assert missing == [], f"not in the wheel: {missing}"


def test_every_package_below_engine_cli_and_editor_is_in_the_wheel(dist: Dist) -> None:
    names = set(dist.names())
    packages = [p.parent for top in ("engine", "cli", "editor") for p in (ROOT / top).rglob("__init__.py")
                if "__pycache__" not in p.parts]
    assert len(packages) >= 10
    for pkg in packages:
        rel = pkg.relative_to(ROOT)
        inside = f"{mapping()[rel.parts[0]]}/{'/'.join((*rel.parts[1:], '__init__.py'))}"
        assert inside in names, f"package {rel.as_posix()} is not in the wheel"
    # the rulesets' packages by name, the ones a hand-written list once left out among them
    for ruleset in ("automobiles", "formula_de", "speed_hazard"):
        assert f"slipstream/engine/rulesets/{ruleset}/ruleset.py" in names


def test_the_wheel_holds_nothing_but_the_packages(dist: Dist) -> None:
    extra = sorted(packaged(dist) - set(expected()))
    assert extra == [], f"in the wheel but not in the source tree: {extra}"
    for name in dist.names():
        assert "__pycache__" not in name and not name.endswith((".pyc", ".orig", "~")), name
        assert not name.startswith(("tests/", "build_support/", "bench/", "docs/")), name


def test_the_sdist_carries_what_a_wheel_is_built_from(dist: Dist) -> None:
    import tarfile

    with tarfile.open(dist.sdist) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    for need in ("pyproject.toml", "setup.py", "build_support/slipstream_accel.py",
                 "build_support/slipstream_backend.py", "README.md"):
        assert need in names, need
    missing = sorted(src for src in expected().values() if src not in names)
    assert missing == [], f"not in the sdist: {missing}"


def test_the_entry_points_name_the_bundled_rulesets_and_the_command(dist: Dist) -> None:
    info = next(n for n in dist.names() if n.endswith(".dist-info/entry_points.txt"))
    text = dist.read(info)
    assert "slipstream = slipstream.cli.main:main" in text
    for line in ("automobiles = slipstream.engine.rulesets.automobiles.ruleset:RULESET",
                 "formula-de = slipstream.engine.rulesets.formula_de.ruleset:RULESET",
                 "speed-hazard = slipstream.engine.rulesets.speed_hazard.ruleset:RULESET"):
        assert line in text
        module = line.split(" = ")[1].split(":")[0]
        assert module.replace(".", "/") + ".py" in dist.names()


def test_the_wheel_holds_the_compiled_accelerator_when_it_could_be_built(dist: Dist) -> None:
    manifest = json.loads(dist.read("slipstream/_accel/manifest.json"))
    tag = dist.read(next(n for n in dist.names() if n.endswith(".dist-info/WHEEL")))
    can = not slipstream_accel.pure_requested() and slipstream_accel.compiler_missing() is None
    assert dist.compiled == can, dist.log[-3000:]
    if not dist.compiled:  # SLIPSTREAM_PURE in this session, or no C compiler
        assert manifest["modules"] == {} and manifest["skipped"], manifest
        assert "Tag: py3-none-any" in tag and "Root-Is-Purelib: true" in tag
        assert "NOTICE: Slipstream installs without its compiled accelerator" in dist.log
        return
    assert sorted(manifest["modules"]) == slipstream_accel.module_names(), dist.log[-3000:]
    for name, m in manifest["modules"].items():
        assert f"slipstream/_accel/{m['file']}" in dist.names(), name
        # built from the very sources the wheel ships
        src = ROOT / m["source"]
        assert m["sha256"] == slipstream_accel.hashlib.sha256(src.read_bytes()).hexdigest(), name
    assert f"slipstream/_accel/{manifest['group_file']}" in dist.names()
    assert "Root-Is-Purelib: false" in tag and "py3-none-any" not in tag, tag
    assert Path(dist.wheel).name.startswith("slipstream-0.1.0-cp")
