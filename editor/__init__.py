"""slipstream.editor: the PySide6 track editor (start it with `slipstream editor [FILE]`)."""

from . import qtcompat  # noqa: F401  - must run before any other Qt use (see qtcompat)
