"""Fixtures for the pack editor tests (a copy of the bundled base pack, `base_copy`, is in
tests/conftest.py: the Qt-free pack document tests use it too)."""

from __future__ import annotations

from helpers import CONTENT, ROOT

BASE = CONTENT / "base"
# Screenshots land here (git-ignored) so that a person can look at them after a test run.
SHOTS = ROOT / "out" / "pack-editor"

