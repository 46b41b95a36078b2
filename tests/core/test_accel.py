"""The compiled accelerator (engine/core/accel.py): used only while it matches the sources, and
the same bytes as pure Python."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from slipstream.engine.core import accel

# Seeded races through the runner, as the CLI plays them: both tracks, greedy and random bots,
# drivers dealt, rule options, every card set in turn; then a season (sponsors between races).
# Prints the accelerator's state, then one sha256 per log.
_PLAY = r"""
import hashlib, sys
from slipstream.engine.core.accel import status
from slipstream.engine.play.racelog import dumps
from slipstream.engine.play.races import RaceSpec, run_race
from slipstream.engine.rulesets.automobiles.racesetup import load_pack_cached
from slipstream.engine.rulesets.automobiles.seasonrun import SeasonSpec, run_season
print(status().state)
sets = sorted(load_pack_cached("").card_sets)
seats = (("greedy",) * 4, ("greedy", "random", "greedy"), ("random", "greedy"), ("greedy",) * 5)
opts = ((), (("drivers_in_single_races", True),), (("weaving", True), ("momentum", "none")),
        (("turn_order", "position"),))
for seed in range(8):
    spec = RaceSpec("", ("first-oval", "road-course")[seed % 2], seed, seats[seed % 4],
                    options=opts[seed % 4], setup=(("card_set", sets[seed % len(sets)]),))
    r = run_race(spec)
    text = "\n".join([dumps(r.header), *(dumps(x) for x in r.log), dumps(r.result)])
    print(hashlib.sha256(text.encode()).hexdigest())
s = run_season(SeasonSpec("", ("first-oval", "road-course"), 3, ("greedy", "greedy", "random")))
print(hashlib.sha256("\n".join(s.lines).encode()).hexdigest())
"""


def play(script: str, pure: bool) -> list[str]:
    """What `script` prints, split into words, run in a fresh process compiled or pure."""
    env = {k: v for k, v in os.environ.items() if k != accel.PURE_ENV}
    if pure:
        env[accel.PURE_ENV] = "1"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split()


def test_compiled_and_pure_python_give_the_same_bytes() -> None:
    """With a build in place (`python3 dev.py test` makes one), the compiled modules play the
    same races and season as the .py files, byte for byte."""
    pure, fast = play(_PLAY, pure=True), play(_PLAY, pure=False)
    assert pure[0] == "off"
    if (accel.BUILD / "manifest.json").is_file():
        assert fast[0] == "on", "a build is there but was not used: python3 dev.py build"
    assert len(pure) == 10
    assert fast[1:] == pure[1:]


def test_the_modules_of_a_current_build_are_the_compiled_ones() -> None:
    st = accel.status()
    if st.state != "on":
        assert st.modules == ()
        return
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in st.modules:
        mod = __import__(name, fromlist=["_"])
        loader = mod.__spec__.loader
        assert isinstance(loader, importlib.machinery.ExtensionFileLoader), name
        assert loader.path.endswith(suffix), name
        # its __file__ is its source, as its frames in tracebacks say
        assert str(mod.__file__).endswith(".py") and Path(str(mod.__file__)).is_file(), name
    assert "on (" in st.line()


def _fake_build(tmp: Path) -> tuple[Path, Path]:
    """An engine folder with one module and a build of it (empty stand-ins for the libraries)."""
    engine = tmp / "engine"
    (engine / "rulesets").mkdir(parents=True)
    src = engine / "rulesets" / "fast.py"
    src.write_text("X = 1\n")
    build = tmp / "build"
    (build / "pkg").mkdir(parents=True)
    (build / "g__mypyc.so").write_bytes(b"")
    (build / "pkg" / "fast.so").write_bytes(b"")
    manifest = {"format": accel.FORMAT, "python": accel.python_tag(), "group": "g__mypyc",
                "group_file": "g__mypyc.so",
                "modules": {"pkg.fast": {"source": "engine/rulesets/fast.py", "file": "pkg/fast.so",
                                         "sha256": hashlib.sha256(src.read_bytes()).hexdigest()}}}
    (build / "manifest.json").write_text(json.dumps(manifest))
    return build, engine


def test_a_build_is_used_only_while_it_matches_the_sources(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(accel.PURE_ENV, raising=False)
    build, engine = _fake_build(tmp_path)
    st, files, sources = accel.read(build, engine)
    assert (st.state, st.modules) == ("on", ("pkg.fast",))
    assert files == {"g__mypyc": build / "g__mypyc.so", "pkg.fast": build / "pkg" / "fast.so"}
    assert sources == {"pkg.fast": engine / "rulesets" / "fast.py"}
    assert st.line() == "compiled accelerator: on (1 module: pkg 1)"

    monkeypatch.setenv(accel.PURE_ENV, "1")
    assert accel.read(build, engine)[0].state == "off"
    monkeypatch.setenv(accel.PURE_ENV, "0")  # "0" does not turn it off
    assert accel.read(build, engine)[0].state == "on"
    monkeypatch.delenv(accel.PURE_ENV)

    (engine / "rulesets" / "fast.py").write_text("X = 2\n")  # an edit after the build
    st, files, _ = accel.read(build, engine)
    assert (st.state, files) == ("stale", {})
    assert "engine/rulesets/fast.py changed" in st.detail and "pure Python" in st.line()


def test_a_build_for_another_python_or_a_broken_one_is_not_used(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(accel.PURE_ENV, raising=False)
    build, engine = _fake_build(tmp_path)
    manifest = build / "manifest.json"
    data = json.loads(manifest.read_text())

    manifest.write_text(json.dumps({**data, "python": "cpython-39 .so"}))
    st, files, _ = accel.read(build, engine)
    assert (st.state, files) == ("stale", {}) and "cpython-39" in st.detail

    (build / "pkg" / "fast.so").unlink()
    manifest.write_text(json.dumps(data))
    st, files, _ = accel.read(build, engine)
    assert (st.state, files) == ("broken", {}) and "fast.so" in st.detail

    for text in ("{not json", json.dumps({"format": accel.FORMAT}), json.dumps([1, 2])):
        manifest.write_text(text)
        st, files, _ = accel.read(build, engine)
        assert (st.state, files) == ("broken", {}), text

    manifest.unlink()
    assert accel.read(build, engine)[0].state == "absent"


def test_version_says_whether_the_accelerator_is_in_use() -> None:
    from click.testing import CliRunner

    from slipstream.cli.main import main

    out = CliRunner().invoke(main, ["--version"])
    assert out.exit_code == 0
    assert out.output.splitlines()[1] == accel.status().line()
    assert out.output.splitlines()[1].startswith("compiled accelerator: ")


def test_an_install_that_compiled_nothing_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wheel built without the compiler (or with SLIPSTREAM_PURE at install) carries a manifest
    of no modules with the reason; `--version` repeats it."""
    monkeypatch.delenv(accel.PURE_ENV, raising=False)
    build, engine = _fake_build(tmp_path)
    (build / "manifest.json").write_text(json.dumps(
        {"format": accel.FORMAT, "skipped": "no C compiler found ('cc' is not on PATH)", "modules": {}}))
    st, files, _ = accel.read(build, engine)
    assert (st.state, files) == ("absent", {})
    assert st.line() == ("compiled accelerator: absent (not compiled at install: no C compiler found "
                         "('cc' is not on PATH)); pure Python")


def test_the_installed_build_comes_first_and_says_where_it_is_from(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(accel.PURE_ENV, raising=False)
    build, engine = _fake_build(tmp_path)
    other = tmp_path / "checkout-build"
    monkeypatch.setattr(accel, "INSTALLED", build)
    monkeypatch.setattr(accel, "BUILD", other)
    st, files, _ = accel.read(engine=engine)
    assert files["pkg.fast"] == build / "pkg" / "fast.so"
    assert st.line() == "compiled accelerator: on (1 module: pkg 1; compiled at install)"
    (engine / "rulesets" / "fast.py").write_text("X = 3\n")
    assert accel.read(engine=engine)[0].detail.endswith("changed since the build: reinstall Slipstream")
    # no installed build: the checkout's
    monkeypatch.setattr(accel, "INSTALLED", tmp_path / "nowhere")
    monkeypatch.setattr(accel, "BUILD", build)
    (engine / "rulesets" / "fast.py").write_text("X = 1\n")
    st = accel.read(engine=engine)[0]
    assert st.line() == "compiled accelerator: on (1 module: pkg 1; build/accel/ of this checkout)"


def test_the_build_writes_what_the_loader_reads() -> None:
    """build_support/slipstream_accel.py (setup.py and dev.py) and this loader agree on the
    format, the switch and the interpreter tag."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "build_support"))
    import slipstream_accel

    assert slipstream_accel.FORMAT == accel.FORMAT
    assert slipstream_accel.PURE_ENV == accel.PURE_ENV
    assert slipstream_accel.python_tag(sys.executable) == accel.python_tag()
    names = slipstream_accel.module_names()
    assert len(names) == len(slipstream_accel.ACCEL) == 22
    for name in names:  # every listed module exists as a source file
        assert (Path(__file__).resolve().parents[2] / Path(*name.split(".")[1:])).with_suffix(".py").is_file()


def test_decisions_are_built_by_their_own_init_and_races_play_out_is_the_compiled_one() -> None:
    """mypyc leaves the __init__ a dataclass generates interpreted (slower than pure Python's):
    compiled, Option and Decision are built by the native __init__ of their class bodies; pure,
    by the slot-setting functions of engine/play/decisions.py. The race loop is decisions.py's."""
    from types import FunctionType

    from slipstream.engine.play import decisions, races

    compiled = "slipstream.engine.play.decisions" in accel.status().modules
    for cls in (decisions.Option, decisions.Decision):
        assert isinstance(cls.__init__, FunctionType) is not compiled, cls
    d = decisions.Decision(1, "action", (decisions.opt("end"),), "text")
    assert (d.player, d.kind, d.keys(), d.text) == (1, "action", ["end"], "text")
    with pytest.raises(AttributeError):  # still frozen (dataclasses.FrozenInstanceError)
        d.player = 2  # type: ignore[misc]
    assert races.play_out is decisions.play_out
