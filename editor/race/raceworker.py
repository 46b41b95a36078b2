"""Races off the GUI thread: one watched race, or a batch on all cores, with progress and Cancel.

The workers only call the engine, through the ruleset's panels (editor/race/racepanels.py: a
watched race, a batch in engine/play/batch.py's worker processes); results come back to the
GUI thread through queued signals, so the event loop keeps turning throughout.
A small cache keyed by (track content, pack, options, seeds) makes a repeated run instant.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer, Signal, Slot

from slipstream.engine.play.base import stats_of
from slipstream.engine.play.batch import Pool
from slipstream.engine.play.measures import batch_of
from slipstream.engine.play.races import RaceSpec
from slipstream.engine.play.registry import load_pack
from slipstream.engine.tracks.track import Track

from .racepanels import RacePanels, panels_of_id


@dataclass(frozen=True, slots=True)
class RaceSettings:
    """What the dock asks for: everything that decides the races but the track."""

    pack: str = ""
    bots: tuple[str, ...] = ()
    seed: int = 1
    laps: int | None = None
    options: tuple[tuple[str, Any], ...] = ()
    races: int = 100
    setup: tuple[tuple[str, Any], ...] = ()  # the ruleset's race settings, e.g. a card set

    def spec(self, track: Track, seed: int | None = None) -> RaceSpec:
        return RaceSpec(self.pack, track.id, self.seed if seed is None else seed, self.bots,
                        self.laps, self.options, self.setup)

    def with_bots(self, bots: tuple[str, ...]) -> RaceSettings:
        return RaceSettings(self.pack, bots, self.seed, self.laps, self.options, self.races, self.setup)

    def specs(self, track: Track) -> list[RaceSpec]:
        return [self.spec(track, self.seed + i) for i in range(self.races)]


def cache_key(kind: str, track_text: str, s: RaceSettings) -> str:
    """Digest of (track content, pack and its content, options, seats, seeds)."""
    try:
        digest = load_pack(s.pack).digest
    except (ValueError, RuntimeError, OSError):
        digest = ""
    blob = json.dumps({"kind": kind, "track": track_text, "pack": s.pack, "pack_digest": digest,
                       "setup": [list(o) for o in s.setup], "bots": s.bots, "seed": s.seed, "laps": s.laps,
                       "options": [list(o) for o in s.options],
                       "races": s.races if kind == "batch" else 1}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def _where(e: BaseException) -> str:
    """Where an exception was raised, as `engine/...py line N` (a worker process's too)."""
    import re
    import traceback

    import slipstream.engine

    root = Path(slipstream.engine.__file__).resolve().parent.parent
    frames = [(f.filename, f.lineno) for f in traceback.extract_tb(e.__traceback__)]
    # from a worker process the traceback travels as the text of the exception's cause
    frames += [(m[0], int(m[1])) for m in re.findall(r'File "([^"]+)", line (\d+)', str(e.__cause__ or ""))]
    if not frames:
        return ""
    file, line = frames[-1]
    try:
        file = Path(file).resolve().relative_to(root).as_posix()
    except ValueError:
        file = Path(file).name
    return f"{file} line {line}"


def failure_text(e: BaseException, rs: Any, track: Track, text: str = "") -> str:
    """Why a race failed, in words: what the pack's ruleset finds missing in the track (its
    `track_checks`), the track named for other rulesets, else the exception with its type and
    where it was raised. (`str` of a KeyError is only the key: "0" says nothing.)"""
    from slipstream.engine.core.yamlsource import load_text

    from .trackpack import ruleset_name

    needs: list[Any] = []
    if text:
        try:
            loaded = load_text(text, track.id)
            needs = [d for d in rs.track_checks(track, loaded.data, loaded.source) if d.is_error]
        except Exception:  # noqa: BLE001 - the checks only explain; the failure is told anyway
            needs = []
    where = _where(e)
    kind = type(e).__name__
    msg = str(e).strip()
    if needs:
        more = f" (and {len(needs) - 1} more like it)" if len(needs) > 1 else ""
        reason = (f"the track {track.name} lacks what {rs.name} needs: {needs[0].message} "
                  f"[{needs[0].code}]{more}")
    elif isinstance(e, KeyError) and e.args and e.args[0] == track.id:
        reason = f"the track {track.id!r} is not in the pack"
    elif msg and " " in msg and not isinstance(e, KeyError):
        reason = f"{msg} ({kind}{' in ' + where if where else ''})"
    else:
        reason = (f"{rs.name} stopped on an unexpected {kind}"
                  + (f" ({msg})" if msg else "") + (f" in {where}" if where else ""))
    if track.rulesets and rs.id not in track.rulesets:
        names = " or ".join(ruleset_name(r) for r in track.rulesets)
        reason += (f". The track is made for {names}, not {rs.name}: pick a pack of "
                   f"{'that ruleset' if len(track.rulesets) == 1 else 'one of them'} under Pack")
    return reason.rstrip(".") + "."


@dataclass(slots=True)
class BatchReportData:
    """What the batch report shows; plain data, saved as JSON in the cache."""

    settings: dict[str, Any]
    track_id: str
    summary: dict[str, Any]  # the ruleset's `summarise` (the table `slipstream race` prints)
    rounds: list[int]
    turns: list[int]
    heat: Any  # the ruleset panels' heat counts, None when they count none
    seconds: float = 0.0
    cancelled: bool = False
    ruleset: str = ""
    note: str = ""  # the ruleset's own figures in a line (RacePanels.batch_note)
    maps: dict[str, dict[str, float]] = field(default_factory=dict)  # `BatchStats.heat` of the summary
    text: str = ""  # the ruleset's own summary in words (RacePanels.batch_text: `format_summary`)

    def to_dict(self) -> dict[str, Any]:
        return {"settings": self.settings, "track_id": self.track_id, "summary": self.summary,
                "rounds": self.rounds, "turns": self.turns,
                "heat": self.heat.to_dict() if self.heat is not None else None,
                "seconds": self.seconds, "cancelled": self.cancelled, "ruleset": self.ruleset,
                "note": self.note, "maps": self.maps, "text": self.text}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BatchReportData:
        rid = str(d.get("ruleset", ""))
        heat = panels_of_id(rid).heat_from_dict(d["heat"]) if d.get("heat") is not None else None
        return cls(d["settings"], d["track_id"], d["summary"], list(d["rounds"]), list(d["turns"]),
                   heat, float(d.get("seconds", 0.0)), bool(d.get("cancelled")), rid,
                   str(d.get("note", "")),
                   {str(k): {str(a): float(b) for a, b in dict(v).items()} for k, v in dict(d.get("maps") or {}).items()},
                   str(d.get("text", "")))


class ResultCache:
    """Watched races in memory; batch reports in memory and as JSON files in `folder`."""

    def __init__(self, folder: Path | None = None, size: int = 32) -> None:
        self.folder = folder
        self.size = size
        self._mem: OrderedDict[str, Any] = OrderedDict()

    def get(self, key: str) -> Any:
        if key in self._mem:
            self._mem.move_to_end(key)
            return self._mem[key]
        if self.folder is not None:
            p = self.folder / f"{key}.json"
            if p.exists():
                try:
                    data = BatchReportData.from_dict(json.loads(p.read_text(encoding="utf-8")))
                except (ValueError, KeyError, TypeError, OSError):
                    return None
                self._remember(key, data)
                return data
        return None

    def put(self, key: str, value: Any) -> None:
        self._remember(key, value)
        if self.folder is not None and isinstance(value, BatchReportData) and not value.cancelled:
            from slipstream.engine.core.files import atomic_write_text

            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                atomic_write_text(self.folder / f"{key}.json", json.dumps(value.to_dict()))
            except OSError:
                pass  # a cache that cannot be written is only slower

    def _remember(self, key: str, value: Any) -> None:
        self._mem[key] = value
        self._mem.move_to_end(key)
        while len(self._mem) > self.size:
            self._mem.popitem(last=False)


class GuiThreadCollector(QObject):
    """Python's cyclic garbage collector runs on the GUI thread only while a worker runs.

    A collection starts in whichever thread happens to allocate past the threshold; one in a
    worker thread frees unreachable Qt objects (of windows closed earlier) off the thread that
    owns them, and the GUI thread, still using Qt, can then crash. So while any worker runs,
    automatic collection is off and a timer on the GUI thread collects by the same thresholds
    (as pyqtgraph's GarbageCollector does); when the last worker ends, automatic collection is
    back on if it was on before. One per application (`of`)."""

    INTERVAL_MS = 200

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.holds = 0
        self.was_enabled = True
        self.timer = QTimer(self)
        self.timer.setInterval(self.INTERVAL_MS)
        self.timer.timeout.connect(self.collect)

    @staticmethod
    def of() -> GuiThreadCollector:
        app = QCoreApplication.instance()
        found = app.findChild(GuiThreadCollector) if app is not None else None
        return found if isinstance(found, GuiThreadCollector) else GuiThreadCollector(app)

    def hold(self) -> None:
        """A worker is about to start (called on the GUI thread)."""
        if self.holds == 0:
            self.was_enabled = gc.isenabled()
            gc.disable()
            self.timer.start()
        self.holds += 1

    @Slot()
    def release(self) -> None:
        """A worker has ended (its `finished`, delivered on the GUI thread)."""
        if self.holds == 0:
            return
        self.holds -= 1
        if self.holds == 0:
            self.timer.stop()
            if self.was_enabled:
                gc.enable()

    @Slot()
    def collect(self) -> None:
        gc.disable()  # should anything have turned it back on meanwhile
        first, second, third = gc.get_threshold()
        c0, c1, c2 = gc.get_count()
        if c0 > first:
            gc.collect(2 if c2 > third and c1 > second else 1 if c1 > second else 0)


class _Worker(QThread):
    """A worker thread that holds the GUI-thread collector from its start to its end."""

    _collector: GuiThreadCollector | None = None

    def start(self, *args: Any) -> None:
        if self._collector is None:  # one connection, however often the thread is started
            self._collector = GuiThreadCollector.of()
            self.finished.connect(self._collector.release)
        self._collector.hold()
        super().start(*args)


class WatchWorker(_Worker):
    """Play one bots-only race and keep its turn frames."""

    done = Signal()  # the recorder is in `result` (plain Python objects stay off signals)
    failed = Signal(str)

    def __init__(self, panels: RacePanels, rs: Any, pack: Any, spec: RaceSpec, track: Track,
                 text: str = "") -> None:
        super().__init__()
        self.panels, self.rs, self.pack = panels, rs, pack
        self.spec = spec
        self.track = track
        self.text = text  # the track's file text: the ruleset's track checks explain a failure
        self.result: Any = None  # the panels' recorder of the race
        self._stop = False

    def cancel(self) -> None:
        self._stop = True

    def run(self) -> None:
        try:
            rec = self.panels.watch(self.rs, self.pack, self.spec, self.track, stop=lambda: self._stop)
        except Exception as e:  # noqa: BLE001 - shown to the user, the editor keeps running
            self.failed.emit(f"The race could not run: {failure_text(e, self.rs, self.track, self.text)}")
            return
        if not self._stop:
            self.result = rec
            self.done.emit()


class BatchWorker(_Worker):
    """Run many races on all cores (the panels' `run_batch` in a kept Pool) with progress and Cancel."""

    progressed = Signal(int, int)  # races done, races asked
    done = Signal()  # the report data is in `result`
    failed = Signal(str)

    def __init__(self, settings: RaceSettings, track: Track, rs: Any, panels: RacePanels,
                 pool: Pool | None = None, text: str = "") -> None:
        super().__init__()
        self.settings = settings
        self.track = track
        self.text = text
        self.rs, self.panels = rs, panels
        self.pool = pool or Pool(os.cpu_count() or 1)
        self.jobs = self.pool.jobs
        self.result: BatchReportData | None = None
        self._stop = False
        self._count = 0

    def cancel(self) -> None:
        self._stop = True

    def _progress(self, n: int) -> None:
        self._count += n
        self.progressed.emit(self._count, self.settings.races)

    def run(self) -> None:
        import time

        t0 = time.perf_counter()
        try:
            batch = self.panels.run_batch(self.pool, self.settings.specs(self.track), self.track,
                                          progress=self._progress, cancelled=lambda: self._stop)
        except Exception as e:  # noqa: BLE001 - shown to the user
            # the pool ends its workers at the first failure (engine/play/batch.py): none runs on
            self.failed.emit(f"The batch stopped at its first failed race, after {self._count} of "
                             f"{self.settings.races} races: {failure_text(e, self.rs, self.track, self.text)}")
            return
        res = batch.results
        s = self.settings
        setup = dict(s.setup)
        stats = stats_of(self.rs)
        summary = stats.summarise(res) if res else {}
        if res:  # the shared game measures and the ruleset's own, by name (engine/play/measures.py)
            summary["measures"] = batch_of(stats, res)
        # a setting with one value per race (a card set) shows as such; per-seat ones under setup
        chosen = [k.name for k in (self.rs.setup.keys if self.rs.setup is not None else ()) if not k.per_seat]
        self.result = BatchReportData(
            settings={"pack": s.pack or "(bundled)", "ruleset": self.rs.name,
                      **{k: setup.get(k) or "(first)" for k in chosen},
                      "setup": {k: v for k, v in setup.items() if k not in chosen},
                      "bots": list(s.bots), "seed": s.seed, "races": s.races, "laps": s.laps,
                      "options": dict(s.options), "jobs": self.jobs},
            track_id=self.track.id, summary=summary,
            rounds=[r.rounds for r in res], turns=[self.panels.turns(r) for r in res],
            heat=batch.heat, seconds=round(time.perf_counter() - t0, 2), cancelled=batch.cancelled,
            ruleset=self.rs.id, note=self.panels.batch_note(summary, batch.heat) if res else "",
            maps=dict(stats.heat(summary)) if res else {},
            text=self.panels.batch_text(self.rs, summary) if res else "")
        self.done.emit()
