"""Ruleset-specific panels of the editor, loaded through `Ruleset.panels` (editor/race/racepanels.py)."""
