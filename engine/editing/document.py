"""The open track file of the editor, without Qt: data, path, dirty flag, change events, history.

A `TrackDocument` holds one state: the plain YAML data of the track (or, when the file is not
readable YAML, its raw text). Commands (engine/editing/commands.py), pushed on the document's
own undo history (`doc.history`, engine/editing/history.py), are the only writers; views
subscribe to change events and redraw. The file text, the parsed track and the diagnostics
are derived from the state and cached, so several views can ask for them after one edit at no
extra cost.
The diagnostics are the records `slipstream validate` gives for the file as it would be saved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from slipstream.engine.core.diagnostics import Counted, Diagnostic, sort_key
from slipstream.engine.core.files import atomic_write_text
from slipstream.engine.core.yamlsource import load_file, load_text
from slipstream.engine.editing.history import History
from slipstream.engine.packs.validate import register_all, validate_file
from slipstream.engine.tracks import movegraph
from slipstream.engine.tracks.edits import new_track
from slipstream.engine.tracks.load import check_track_data
from slipstream.engine.tracks.track import Track
from slipstream.engine.tracks.writer import dump_track, header_comments


@dataclass(frozen=True, slots=True)
class State:
    """One version of the document: track data, or raw text when the YAML cannot be read."""

    data: dict[str, Any] | None
    raw: str | None = None
    header: str = ""
    # the file text, written once: a state never changes (commands make new ones), and its
    # text is asked for by the analysis, the source view and saving alike
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    def text(self) -> str:
        """The file text of this state, as it would be saved."""
        if self.data is None:
            return self.raw or ""
        if self._text is None:
            object.__setattr__(self, "_text", dump_track(self.data, self.header))
        assert self._text is not None
        return self._text


@dataclass(frozen=True, slots=True)
class Change:
    """What changed: the old and new state (either may share parts with the other)."""

    old: State
    new: State
    reason: str = "edit"  # "edit", "load", "path", "saved"


Listener = Callable[[Change], None]


@dataclass
class Analysis(Counted):
    """Derived facts of one state: the text, the parsed track and the diagnostics."""

    text: str
    track: Track | None
    diagnostics: list[Diagnostic]


def analyse(state: State, file: str) -> Analysis:
    """Check a state exactly as `slipstream validate` checks the saved file."""
    text = state.text()
    loaded = load_text(text, file)
    if loaded.data is None:
        return Analysis(text, None, loaded.diagnostics)
    data = loaded.data
    if not isinstance(data, dict) or str(data.get("slipstream", "")).partition("/")[0] != "track":
        # not a track (or no tag): the validator's own dispatch gives the right record
        return Analysis(text, None, _validate_text(text, file))
    register_all()  # the ruleset checks of track/2 files
    track, diags = check_track_data(data, loaded.source)
    return Analysis(text, track, sorted(diags, key=sort_key))


def _validate_text(text: str, file: str) -> list[Diagnostic]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "track.yaml"
        p.write_text(text, encoding="utf-8")
        diags = validate_file(p)
    return [
        Diagnostic(d.code, d.severity, file, d.line, d.column, d.path, d.message, d.hint, d.spaces)
        for d in diags
    ]


@dataclass
class TrackDocument:
    """An open track: its state, file path and saved state, with change listeners and the
    undo history of its edits."""

    state: State = field(default_factory=lambda: State(new_track()))
    path: Path | None = None
    saved: State | None = None
    _listeners: list[Listener] = field(default_factory=list, repr=False)
    _analysis: tuple[State, str, Analysis] | None = field(default=None, repr=False)
    history: History = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.history = History(self)

    # --- construction ------------------------------------------------------------------
    @classmethod
    def new(cls, data: dict[str, Any] | None = None) -> TrackDocument:
        doc = cls(State(data if data is not None else new_track()))
        doc.saved = doc.state  # a new document is clean until its first edit
        return doc

    @classmethod
    def open(cls, path: str | Path) -> TrackDocument:
        """Open a file. Never refuses: unreadable YAML opens as raw text with diagnostics."""
        doc = cls()
        doc.load(path)
        return doc

    def load(self, path: str | Path) -> None:
        path = Path(path)
        loaded = load_file(path)
        if loaded.data is None and not loaded.text and loaded.diagnostics:
            first = loaded.diagnostics[0]
            if first.code in ("F001", "F004"):
                raise OSError(f"{path}: {first.message}")
        state = state_from_text(loaded.text) if loaded.text else State(None, "")
        old = self.state
        self.state = state
        self.path = path
        self.saved = state
        self.history.clear()  # the steps were edits of what was open before
        self._emit(Change(old, state, "load"))

    # --- listeners ---------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def _emit(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)

    # --- state -------------------------------------------------------------------------
    @property
    def data(self) -> dict[str, Any] | None:
        return self.state.data

    def set_state(self, state: State, reason: str = "edit") -> None:
        """Replace the state (commands call this) and tell the listeners."""
        if state is self.state:
            return
        old = self.state
        self.state = state
        self._emit(Change(old, state, reason))

    @property
    def dirty(self) -> bool:
        return self.saved is None or self.state != self.saved

    @property
    def display_name(self) -> str:
        return self.path.name if self.path else "untitled.yaml"

    @property
    def file_label(self) -> str:
        """The file name diagnostics carry (the path when there is one)."""
        return str(self.path) if self.path else "untitled.yaml"

    def analysis(self) -> Analysis:
        """Text, track and diagnostics of the current state (cached until the next change)."""
        label = self.file_label
        cached = self._analysis
        if cached is None or cached[0] is not self.state or cached[1] != label:
            cached = (self.state, label, analyse(self.state, label))
            self._analysis = cached
            _bound_successor_cache()
        return cached[2]

    @property
    def track(self) -> Track | None:
        return self.analysis().track

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.analysis().diagnostics

    # --- saving ------------------------------------------------------------------------
    def text(self) -> str:
        return self.state.text()

    def save(self, path: str | Path | None = None) -> Path:
        """Write the file atomically (temporary file, then rename) and mark it clean."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("the document has no file name yet")
        atomic_write_text(target, self.text())
        old = self.state
        self.path = target
        self.saved = self.state
        self.history.set_clean()
        self._emit(Change(old, self.state, "saved"))
        return target


def _bound_successor_cache(keep: int = 8) -> None:
    """movegraph caches the move graph of every Track it sees, without a bound; an editing
    session makes a new Track per edit (about 0.6 MB each at 2,000 spaces), so trim it."""
    cached = getattr(movegraph, "_successors_cached", None)
    info = getattr(cached, "cache_info", None)
    if cached is not None and info is not None and info().currsize > keep:
        cached.cache_clear()


def state_from_text(text: str, file: str = "<text>") -> State:
    """The state of file text: data with the header comments, or the raw text if unreadable."""
    loaded = load_text(text, file)
    if isinstance(loaded.data, dict):
        return State(loaded.data, None, header_comments(text))
    return State(None, text)
