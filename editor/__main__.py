"""`python -m slipstream.editor [FILE]`: the editor window (what `slipstream editor` starts)."""

from __future__ import annotations

import sys

from .app import run

if __name__ == "__main__":
    sys.exit(run(sys.argv[1] if len(sys.argv) > 1 else None))
