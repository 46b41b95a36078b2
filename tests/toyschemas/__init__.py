"""The JSON Schemas of the toy ruleset (tests/toyruleset.py): package data of its own package."""
