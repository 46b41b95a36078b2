"""House limits on the size of input: the size of a file read (engine/core/yamlsource.py has
the limits of parsing it) and of what a file describes; the checks refuse more at once, and
docs/diagnostics.md lists them.

A track of more is refused before it is built, so that checking it stays within seconds and a
few hundred MB. Tracks drawn for play have a few hundred cells; a print-and-play track of
20,000 squares is well inside.
"""

from __future__ import annotations

MAX_BYTES = 16 * 1024 * 1024  # bytes of one file read (Y005)
MAX_SEGMENTS = 100_000  # segments one lane of a track (or its pit lane) covers (T117)
MAX_CELLS = 200_000  # lanes x segments of a track (T117)
