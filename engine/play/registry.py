"""The registry of rulesets: by id, for a pack, with every protocol part checked.

Rulesets are found through engine/core/plugins.py (the entry point group
`slipstream.rulesets`, plus the bundled ones). Faces call `get`, `for_pack` and `ids`;
none of them imports a ruleset by name.
"""

from __future__ import annotations

import gc
import importlib
import threading
from collections.abc import Mapping
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from slipstream.engine.core import plugins
from slipstream.engine.core.diagnostics import format_text, has_errors
from slipstream.engine.play.protocol import Ruleset, missing_parts

if TYPE_CHECKING:
    from slipstream.engine.play.protocol import SeasonSetting, SetupKey


class RulesetError(LookupError):
    """No usable ruleset for an id or pack (the message says why)."""


def ids() -> list[str]:
    """Every installed ruleset id."""
    return plugins.ruleset_ids()


def get(rid: str) -> Ruleset:
    """The ruleset `rid`; RulesetError if none is installed or it lacks protocol parts."""
    obj = plugins.load(rid)
    if obj is None:
        raise RulesetError(f"no ruleset {rid!r} is installed (installed: {', '.join(ids())})")
    missing = missing_parts(obj)
    if missing:
        raise RulesetError(f"ruleset {rid!r} lacks {', '.join(missing)}")
    return obj


def all_rulesets() -> list[Ruleset]:
    return [get(rid) for rid in ids()]


@cache
def load_pack(path: str) -> Any:
    """A pack folder (\"\" for the bundled `base`), loaded once per process; ValueError with
    the diagnostics when it has errors."""
    from slipstream.engine.packs.loader import bundled_packs
    from slipstream.engine.packs.loader import load_pack as _load

    folder: Any = path or bundled_packs().get("base")
    if folder is None:
        raise ValueError("the bundled base pack is missing")
    pack, diags = _load(folder)
    if pack is None or has_errors(diags):
        raise ValueError("the pack has errors:\n" + format_text([d for d in diags if d.is_error]))
    # The pack stays for the life of the process (this cache): collect the loading's garbage,
    # then move everything alive into the collector's permanent generation, so that the full
    # collections of a batch of races no longer walk the pack's objects (a few % of a race).
    # Only on the main thread: a full collection run from another thread (the editor's race
    # workers load packs) would free the GUI's unreachable Qt objects there, off the thread
    # that owns them, which Qt does not allow (a crash, at random, in the editor's tests).
    if threading.current_thread() is threading.main_thread():
        gc.collect()
        gc.freeze()
    return pack


def for_pack(path: str) -> tuple[Ruleset, Any]:
    """(ruleset, loaded pack) of a pack folder; ValueError / RulesetError when unusable."""
    pack = load_pack(path)
    return get(pack.ruleset), pack


def add(obj: Any) -> None:
    """Register a ruleset object at run time (tests, embedding programs)."""
    missing = missing_parts(obj)
    if missing:
        raise RulesetError(f"ruleset {obj!r} lacks {', '.join(missing)}")
    plugins.add(obj)


def remove(rid: str) -> None:
    plugins.remove(rid)


def setup_keys() -> list[SetupKey]:
    """The setup keys of every installed ruleset that loads, one per name (the first ruleset
    declaring a name gives its flag): the race settings the commands take as flags."""
    out: dict[str, SetupKey] = {}
    for rs in _loadable():
        for key in rs.setup.keys if rs.setup is not None else ():
            out.setdefault(key.name, key)
    return list(out.values())


def _loadable() -> list[Ruleset]:
    out = []
    for rid in ids():
        try:
            out.append(get(rid))
        except (RulesetError, ImportError):
            continue
    return out


def owner_of_setting(name: str) -> Ruleset | None:
    """The first installed ruleset declaring the setup key `name` (for messages)."""
    for rs in _loadable():
        if rs.setup is not None and any(k.name == name for k in rs.setup.keys):
            return rs
    return None


def season_settings() -> list[tuple[SeasonSetting, Ruleset]]:
    """The season settings of every installed ruleset with championships, one per name, each
    with the (first) ruleset declaring it: the season command's flags beyond the shared ones."""
    out: dict[str, tuple[SeasonSetting, Ruleset]] = {}
    for rs in _loadable():
        for setting in rs.seasons.settings if rs.seasons is not None else ():
            out.setdefault(setting.name, (setting, rs))
    return list(out.values())


def season_lengths() -> list[tuple[Ruleset, tuple[int, int]]]:
    """Every installed ruleset with championships and how many races one of its seasons has
    (`Championships.races`): what the season command's help says of `--tracks`."""
    return [(rs, rs.seasons.races) for rs in _loadable() if rs.seasons is not None]


def comparing() -> Ruleset | None:
    """The first installed ruleset whose championships compare two packs (`--against`)."""
    return next((rs for rs in _loadable() if rs.seasons is not None and rs.seasons.compares), None)


def setup_problems(rs: Ruleset, pack: Any, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(flag, message) for each race setting of `setup` that `rs` does not take or `pack`
    cannot give (`Setup.problems`)."""
    flags = {k.name: k.flag for k in setup_keys()}
    own = {k.name for k in rs.setup.keys} if rs.setup is not None else set()
    out = [(flags.get(k, f"--{k}"), f"{rs.name} races take no setting {k!r}") for k in setup if k not in own]
    if rs.setup is not None:
        out += rs.setup.problems(pack, {k: v for k, v in setup.items() if k in own})
    return out


def panels(rs: Ruleset, face: str) -> Any:
    """The ruleset-specific panels of `face` the ruleset registers (`Ruleset.panels`, a
    "module:attribute" string loaded here), or None."""
    target = rs.panels.get(face)
    if not target:
        return None
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    return attrgetter(attr)(obj) if attr else obj
