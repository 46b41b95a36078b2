"""Balance sweeps: vary a pack's numbers and race every variant on the same seeds.

A sweep is a grid of variants. Each `--vary PATH=VALUES` names one value of the pack and the
values to try; several make a grid (every combination). PATH is one of:

- `option:NAME`: a rule option of the pack's ruleset (checked against its option spec);
- `KIND:ID.FIELD...`: a value inside an item of the pack or a pack it extends, where KIND is an
  item kind of the ruleset's content model (Automobiles: `card`, `cube`, `driver`, `sponsor`,
  `card_set`), `track` (a track by id) or a whole-file kind (`rules`); FIELD is a dotted path
  with `[N]` for list items, e.g. `card:ID.cost`, `sponsor:ID.brackets.first[0].remove.count`,
  `track:ID.grid[0].money`, `rules:constants.grid_money[0]`, `cube:ID.supply` (docs/sweeps.md);
- `FILE#FIELD`: a value of one YAML file of the pack, for anything else.

Every variant is written out as a copy of the pack (and of the packs it extends, beside it)
with the one value changed by the minimal-splice saver, then validated before any race runs.
Races of every variant use the same seeds, so variants are compared on equal draws. A variant
travels to worker processes or Dask workers as a `Bundle` (its files and pack digest); the
worker writes it into a folder of its own and checks the digest before racing.
"""

from __future__ import annotations

import atexit
import copy
import hashlib
import itertools
import json
import os
import re
import shutil
import socket
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from slipstream.engine.core.diagnostics import format_text
from slipstream.engine.core.filekinds import split_tag
from slipstream.engine.core.yamlsource import load_file
from slipstream.engine.packs.files import MANIFEST, TESTS_DIR, walk_pack

_STEP = re.compile(r"\.?([A-Za-z_][\w-]*)|\[(\d+)\]")
MAX_VARIANTS = 10_000
MAX_VALUES = 1_000


class SweepError(ValueError):
    """A --vary flag or a variant that cannot be raced; the message names the flag."""


@dataclass(frozen=True, slots=True)
class Vary:
    """One `--vary PATH=VALUES` flag."""

    flag: str
    path: str
    values: tuple[Any, ...]

    @property
    def is_option(self) -> bool:
        return self.path.startswith("option:")


def _scalar(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text.strip(), 10)
    except ValueError:
        pass
    try:
        f = float(text.strip())
        if f == f and abs(f) != float("inf"):
            return f
    except ValueError:
        pass
    return text.strip()


def parse_values(text: str, flag: str) -> tuple[Any, ...]:
    """`2..6` (whole numbers, inclusive), `2..10..2` (with a step) or a comma list."""
    m = re.fullmatch(r"\s*(-?\d{1,9})\s*\.\.\s*(-?\d{1,9})\s*(?:\.\.\s*(\d{1,9})\s*)?", text)
    if m:
        lo, hi, step = int(m[1]), int(m[2]), int(m[3] or 1)
        if step < 1 or hi < lo:
            raise SweepError(f"{flag}: a range runs from low to high with a positive step, e.g. 2..6")
        if (hi - lo) // step + 1 > MAX_VALUES:
            raise SweepError(f"{flag}: more than {MAX_VALUES} values")
        return tuple(range(lo, hi + 1, step))
    parts = [p for p in text.split(",")]
    if not text.strip() or any(not p.strip() for p in parts):
        raise SweepError(f"{flag}: give values as a list (a,b,c) or a range (2..6)")
    if len(parts) > MAX_VALUES:
        raise SweepError(f"{flag}: more than {MAX_VALUES} values")
    values = tuple(_scalar(p) for p in parts)
    if len(set(map(repr, values))) != len(values):
        raise SweepError(f"{flag}: a value is given twice")
    return values


def parse_vary(text: str) -> Vary:
    flag = f"--vary {text[:80]}"
    path, sep, values = text.partition("=")
    if not sep or not path.strip():
        raise SweepError(f"{flag}: write PATH=VALUES, e.g. card:ID.cost=2..6 or option:NAME=true,false")
    return Vary(flag, path.strip(), parse_values(values, flag))


def steps_of(field_path: str, flag: str) -> tuple[str | int, ...]:
    """`brackets.first[0].count` -> ("brackets", "first", 0, "count")."""
    out: list[str | int] = []
    pos = 0
    while pos < len(field_path):
        m = _STEP.match(field_path, pos)
        if m is None or m.end() == pos:
            raise SweepError(f"{flag}: cannot read the field path {field_path!r} at {field_path[pos:pos + 20]!r}")
        out.append(m[1] if m[1] is not None else int(m[2]))
        pos = m.end()
    if not out:
        raise SweepError(f"{flag}: name a field, e.g. card:ID.cost")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Target:
    """Where a varied value lives: a file of one pack folder and the JSON path in it."""

    folder: Path
    rel: str
    path: tuple[str | int, ...]
    current: Any


def _get(data: Any, path: Sequence[str | int]) -> Any:
    node = data
    for step in path:
        if isinstance(step, int) and isinstance(node, list) and 0 <= step < len(node):
            node = node[step]
        elif isinstance(step, str) and isinstance(node, dict) and step in node:
            node = node[step]
        else:
            raise KeyError(step)
    return node


def lineage_folders(pack_path: Path) -> list[tuple[str, Path]]:
    """(pack id, folder) of the pack and every pack it extends, the pack first."""
    from slipstream.engine.packs.loader import PackLoader

    loader = PackLoader()
    pack, diags = loader.load(pack_path)
    if pack is None or any(d.is_error for d in diags):
        raise SweepError("the pack has errors; `slipstream validate` it first:\n"
                         + format_text([d for d in diags if d.is_error][:20]))
    by_id = {p.id: folder for folder, (p, _) in loader.cache.items() if p is not None}
    return [(pid, by_id[pid]) for pid in pack.lineage if pid in by_id]


def locate(vary: Vary, folders: Sequence[tuple[str, Path]], content: Any) -> Target:
    """The file and JSON path of a `KIND:ID.FIELD` or `FILE#FIELD` path (nearest pack first)."""
    if "#" in vary.path:
        given, _, fpath = vary.path.partition("#")
        steps = steps_of(fpath.lstrip("$"), vary.flag)
        folder, rel = pack_file(given, folders, vary.flag)
        loaded = load_file(folder / rel)
        if loaded.data is None:
            raise SweepError(f"{vary.flag}: {rel} holds no YAML data")
        try:
            return Target(folder, rel, steps, _get(loaded.data, steps))
        except KeyError as e:
            raise SweepError(f"{vary.flag}: {rel} has no {e.args[0]!r} there") from None
    kind, sep, rest = vary.path.partition(":")
    if not sep:
        raise SweepError(f"{vary.flag}: write KIND:ID.FIELD (e.g. card:ID.cost), option:NAME or FILE#FIELD")
    item_id, _, fpath = rest.partition(".")
    if kind in content.data_kinds and kind not in _item_kinds(content):
        item_id, fpath = "", rest  # a whole-file kind: rules:constants.hand_size
    steps = steps_of(fpath, vary.flag)
    kinds = _item_kinds(content)
    if kind not in kinds and kind != "track" and kind not in content.data_kinds:
        raise SweepError(f"{vary.flag}: unknown kind {kind!r}; kinds: "
                         + ", ".join(sorted({*kinds, "track", *content.data_kinds, "option"})))
    for _pid, folder in folders:
        for rel in walk_pack(folder):
            if rel == MANIFEST or rel.split("/", 1)[0] == "tests":
                continue
            loaded = load_file(folder / rel)
            data = loaded.data
            fkind, _ = split_tag(data)
            hit = _find(kind, item_id, fkind, data, content)
            for base in hit:
                try:
                    return Target(folder, rel, (*base, *steps), _get(data, (*base, *steps)))
                except KeyError as e:
                    if base and base[0] == "overrides":
                        continue  # an override that does not set this field: look further
                    raise SweepError(f"{vary.flag}: {kind} {item_id!r} ({rel}) has no field "
                                     f"{e.args[0]!r} on that path") from None
    raise SweepError(f"{vary.flag}: no {kind} {item_id!r} in the pack or the packs it extends")


def pack_file(given: str, folders: Sequence[tuple[str, Path]], flag: str) -> tuple[Path, str]:
    """(pack folder, posix path in it) of the FILE of a `FILE#FIELD` path: relative to the pack,
    it must resolve (symlinks followed) to a raced YAML file of the pack or of a pack it
    extends. Anything else (a file elsewhere, an absolute path, `../` out of the lineage, a
    symlink pointing out, a rule scenario under tests/) is refused: a sweep writes only its
    own copies and reads only the packs it races."""
    own = folders[0][1]
    try:
        real = (own / given).resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL byte
        real = None
    for _pid, folder in folders:
        top = folder.resolve()
        if real is None or not real.is_relative_to(top):
            continue
        rel = real.relative_to(top).as_posix()
        if rel == MANIFEST or rel.split("/", 1)[0] == TESTS_DIR:
            break  # the manifest and rule scenarios are not raced content
        if real.is_file() and rel in set(walk_pack(top)):
            return top, rel
    raise SweepError(f"{flag}: FILE must be a YAML file of the pack or of a pack it extends, named "
                     f"relative to the pack (e.g. cards/garage.yaml#cards[3].cost); {given!r} is not one")


def _item_kinds(content: Any) -> dict[str, str]:
    """Item kind -> the list key that holds it in its data files."""
    return {il.item: il.key for il in content.item_lists.values()}


def _find(kind: str, item_id: str, fkind: str, data: Any, content: Any) -> list[tuple[str | int, ...]]:
    if not isinstance(data, dict):
        return []
    if kind == "track":
        return [()] if fkind == "track" and data.get("id") == item_id else []
    if not item_id:
        return [()] if fkind == kind else []
    lists = content.item_lists.get(fkind)
    if lists is None or lists.item != kind:
        return []
    out: list[tuple[str | int, ...]] = []
    for key in ("overrides", lists.key):  # a nearer override wins over the item itself
        items = data.get(key)
        for i, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict) and str(item.get("id", "")).rpartition(":")[2] == item_id:
                out.append((key, i))
    return out


# ---------------------------------------------------------------------------------------------
# Variants
# ---------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Variant:
    """One point of the grid: the values it sets, its pack folder, options and digest."""

    index: int
    values: dict[str, Any]  # vary path -> value
    folder: Path
    options: dict[str, Any] = field(default_factory=dict)
    digest: str = ""

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={json.dumps(v)}" for k, v in self.values.items())


@dataclass(frozen=True, slots=True)
class Bundle:
    """A variant's pack files as they travel to a worker: (pack-relative path, bytes), the
    folder of the raced pack among them, and the digest the loaded pack must have."""

    files: tuple[tuple[str, bytes], ...]
    entry: str
    digest: str


def make_variants(pack_path: Path, varies: Sequence[Vary], rs: Any, work: Path,
                  scopes: tuple[str, ...] = ("race",)) -> list[Variant]:
    """Write and validate every variant; SweepError naming the flag when one is not usable."""
    from slipstream.engine.packs.loader import load_pack
    from slipstream.engine.packs.splice import update_text
    from slipstream.engine.play.options import by_name

    folders = lineage_folders(pack_path)
    specs = by_name(rs.options)
    targets: dict[str, Target] = {}
    for v in varies:
        if v.is_option:
            name = v.path.partition(":")[2]
            spec = specs.get(name)
            if spec is None or spec.scope not in scopes:
                known = ", ".join(s.name for s in rs.options if s.scope in scopes)
                what = " or ".join(scopes)
                raise SweepError(f"{v.flag}: {rs.name} has no {what} option {name!r}; options: {known}")
            for value in v.values:
                problem = spec.problem(value)
                if problem:
                    raise SweepError(f"{v.flag}: {problem}")
        else:
            targets[v.path] = locate(v, folders, rs.content)
    paths = [v.path for v in varies]
    if len(set(paths)) != len(paths):
        raise SweepError("the same PATH is varied twice")
    grid = list(itertools.product(*(v.values for v in varies)))
    if len(grid) > MAX_VARIANTS:
        raise SweepError(f"{len(grid)} variants: at most {MAX_VARIANTS}")
    out: list[Variant] = []
    for i, combo in enumerate(grid):
        values = dict(zip(paths, combo, strict=True))
        root = work / f"variant-{i}"
        for _pid, folder in folders:
            # rule scenarios (tests/) are not raced and not part of the pack digest: left out
            shutil.copytree(folder, root / folder.name, ignore=_not_raced(folder))
        edits: dict[tuple[str, str], list[tuple[tuple[str | int, ...], Any]]] = {}
        for path, value in values.items():
            t = targets.get(path)
            if t is not None:
                edits.setdefault((t.folder.name, t.rel), []).append((t.path, value))
        for (fname, rel), changes in edits.items():
            file = root / fname / rel
            if not file.resolve().is_relative_to(root.resolve()):  # never write past the copies
                raise SweepError(f"{rel}: not a file of the variant's copy of the pack")
            text = file.read_text(encoding="utf-8")
            data = copy.deepcopy(load_file(file).data)
            for jpath, value in changes:
                node = data
                for step in jpath[:-1]:
                    node = node[step]
                node[jpath[-1]] = value
            file.write_text(update_text(text, data), encoding="utf-8")
        own = root / folders[0][1].name
        pack, diags = load_pack(own)
        errors = [d for d in diags if d.is_error]
        if pack is None or errors:
            raise SweepError(f"variant {i + 1} ({', '.join(f'{k}={v!r}' for k, v in values.items())}) "
                             "is not a valid pack:\n" + format_text(errors[:10]))
        opts = {v.path.partition(":")[2]: values[v.path] for v in varies if v.is_option}
        out.append(Variant(i, values, own, opts, pack.digest))
    return out


def _not_raced(top: Path) -> Any:
    def ignore(where: str, names: list[str]) -> set[str]:
        skip = {n for n in names if n.startswith(".") or n == "__pycache__"}
        if Path(where) == top and TESTS_DIR in names:
            skip.add(TESTS_DIR)
        return skip

    return ignore


def bundle_of(variant: Variant) -> Bundle:
    root = variant.folder.parent
    files = tuple(sorted((p.relative_to(root).as_posix(), p.read_bytes())
                         for p in root.rglob("*") if p.is_file()))
    return Bundle(files, variant.folder.name, variant.digest)


_WORK_PREFIX = "slipstream-sweep-p"
_WORK_NAME = re.compile(re.escape(_WORK_PREFIX) + r"(\d{1,10})-[\w-]+")
_OWNER = ".owner"


def make_work_folder(tmp: str | None = None) -> Path:
    """A new temporary folder for one sweep's copies, named `slipstream-sweep-pPID-...` with an
    `.owner` file (host and process id), so that a later sweep can tell it was left by a sweep
    that was killed outright (SIGKILL) and remove it."""
    work = Path(tempfile.mkdtemp(prefix=f"{_WORK_PREFIX}{os.getpid()}-", dir=tmp))
    (work / _OWNER).write_text(json.dumps({"host": socket.gethostname(), "pid": os.getpid()}), encoding="utf-8")
    return work


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's process (or a number the system cannot check): left alone
    return True


def remove_stale_work_folders(tmp: str | None = None) -> list[Path]:
    """Remove the work folders of sweeps that no longer run: folders named by `make_work_folder`
    in the temporary folder, owned by this user, whose `.owner` names this host and a process
    that is gone. Anything else (another user's, another machine's, a running sweep's, a
    folder without its `.owner` file) is left alone. Returns the folders removed."""
    top = Path(tmp or tempfile.gettempdir())
    removed: list[Path] = []
    host, uid = socket.gethostname(), os.getuid() if hasattr(os, "getuid") else None
    try:
        entries = list(top.iterdir())
    except OSError:
        return removed
    for p in entries:
        m = _WORK_NAME.fullmatch(p.name)
        if m is None:
            continue
        try:
            st = p.lstat()
            if not p.is_dir() or p.is_symlink() or (uid is not None and st.st_uid != uid):
                continue
            owner = json.loads((p / _OWNER).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(owner, dict) or owner.get("host") != host or owner.get("pid") != int(m[1]):
            continue
        if int(m[1]) == os.getpid() or _alive(int(m[1])):
            continue
        shutil.rmtree(p, ignore_errors=True)
        removed.append(p)
    return removed


@cache
def _materialised(digest: str, key: str, scratch: str) -> str:
    if scratch and Path(scratch).is_dir():
        # the sweep's own work folder (a local worker): removed with it when the sweep ends
        return tempfile.mkdtemp(prefix=f"worker-{digest[:12]}-", dir=scratch)
    # a worker that cannot see that folder (a Dask worker on another machine): its own temporary
    # folder, removed when the worker process exits
    path = tempfile.mkdtemp(prefix=f"slipstream-sweep-{digest[:12]}-")
    atexit.register(shutil.rmtree, path, True)
    return path


def materialise(bundle: Bundle, scratch: str = "") -> str:
    """The bundle written into a folder of this process (once, under `scratch` when that folder
    is here); the pack digest is checked."""
    from slipstream.engine.play.registry import load_pack

    key = hashlib.sha256(b"".join(name.encode() + b"\0" + data for name, data in bundle.files)).hexdigest()
    root = Path(_materialised(bundle.digest, key, scratch))
    entry = root / bundle.entry
    if not (entry / MANIFEST).is_file():
        for name, data in bundle.files:
            dest = root / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
    pack = load_pack(str(entry))
    if pack.digest != bundle.digest:
        raise RuntimeError(f"the variant pack arrived changed (digest {pack.digest[:12]}, "
                           f"expected {bundle.digest[:12]})")
    return str(entry)


# ---------------------------------------------------------------------------------------------
# Racing one chunk (in any process: local worker or Dask worker)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Job:
    """Races of one variant: the pack bundle, the race settings and the seeds."""

    variant: int
    bundle: Bundle
    track: str
    bots: tuple[str, ...]
    laps: int | None
    options: tuple[tuple[str, Any], ...]
    seeds: tuple[int, ...]
    items: tuple[str, ...]  # KIND:ID of the varied items, for who bought / played / held them
    setup: tuple[tuple[str, Any], ...] = ()
    season: tuple[str, ...] = ()  # the tracks of a season: each seed is then a whole season
    scratch: str = ""  # the sweep's work folder, where a worker on this machine writes the bundle


def run_job(job: Job) -> list[dict[str, Any]]:
    """Race the seeds of one job; one plain record per race (what the store keeps)."""
    from slipstream.engine.play.base import stats_of
    from slipstream.engine.play.batch import one_job
    from slipstream.engine.play.protocol import SeasonPlan
    from slipstream.engine.play.races import RaceSpec
    from slipstream.engine.play.registry import for_pack

    path = materialise(job.bundle, job.scratch)
    rs, _ = for_pack(path)
    stats = stats_of(rs)
    out = []
    for seed in job.seeds:
        if job.season:
            if rs.seasons is None:
                raise SweepError(f"{rs.name} has no seasons")
            plan = SeasonPlan(path, job.season, seed, job.bots, job.laps, job.options, job.setup,
                              record=False, ruleset=rs.id)
            res = one_job(rs.seasons.run, plan)
        else:
            res = one_job(rs.run_race, RaceSpec(path, job.track, seed, job.bots, job.laps, job.options,
                                                job.setup, False))
        users = {}
        for item in job.items:
            kind, _, item_id = item.partition(":")
            got = stats.item_users(res, kind, item_id)
            if got:
                users[item] = got
        out.append(record_of(job.variant, seed, res, users, stats.record(res)))
    return out


def item_refs(varies: Sequence[Vary]) -> tuple[str, ...]:
    """`KIND:ID` of every varied item (not options, files or whole-file kinds)."""
    out = []
    for v in varies:
        kind, sep, rest = v.path.partition(":")
        if sep and not v.is_option and "#" not in v.path and "." in rest:
            out.append(f"{kind}:{rest.partition('.')[0]}")
    return tuple(dict.fromkeys(out))


def record_of(variant: int, seed: int, res: Any, users: Mapping[str, Any],
              extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The stored record of one race: the shared fields, then what the ruleset's statistics
    keep of it (`BatchStats.record`: e.g. the cube kinds of its counts)."""
    rec = {"variant": variant, "seed": seed, "names": list(res.names), "bots": list(res.bots),
           "grid": list(res.grid), "standings": list(res.standings), "rounds": int(res.rounds),
           "capped": bool(res.capped), "decisions": int(res.decisions), "stats": res.stats,
           "kind_ids": [], "drivers": [], "users": dict(users),
           "orders": [list(o) for o in getattr(res, "orders", None) or []]}  # lead changes (measures.py)
    rec.update(extra or {})
    return rec


def as_result(rec: Mapping[str, Any]) -> Any:
    """A stored record as an object the ruleset's `summarise` reads like a race result."""
    from types import SimpleNamespace

    return SimpleNamespace(**rec)


def jobs_for(variants: Sequence[Variant], seeds: Sequence[int], track: str, bots: tuple[str, ...],
             laps: int | None, items: tuple[str, ...], chunk: int,
             done: Iterable[tuple[int, int]] = (), setup: tuple[tuple[str, Any], ...] = (),
             season: tuple[str, ...] = (), scratch: str = "") -> list[Job]:
    """Jobs of at most `chunk` races for every (variant, seed) not `done` yet."""
    have = set(done)
    out = []
    for v in variants:
        todo = [s for s in seeds if (v.index, s) not in have]
        if not todo:
            continue
        b = bundle_of(v)
        for i in range(0, len(todo), chunk):
            out.append(Job(v.index, b, track, bots, laps, tuple(sorted(v.options.items())),
                           tuple(todo[i:i + chunk]), items, setup, season, scratch))
    return out


def sweep_key(pack_digest: str, settings: Mapping[str, Any]) -> str:
    """What identifies a sweep in its store: the pack content and every setting."""
    text = json.dumps({"pack": pack_digest, **settings}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()
