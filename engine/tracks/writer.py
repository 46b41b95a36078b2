"""Write track data back as YAML in the canonical style of the bundled tracks.

The writer keeps the leading comment block it was given, writes the known keys in a stable
order (DESIGN §4) followed by any other keys in the order they were read, layout strings in
double quotes, grid slots as one flow mapping per line and centreline points one per line.
A file in this style reads back and writes out byte for byte.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

import yaml

KEY_ORDER = ("slipstream", "id", "name", "laps", "rulesets", "lanes", "layout", "grid",
             "corners", "links", "pit", "features", "geometry", "backdrop")
CORNER_ORDER = ("name", "from", "to", "stops", "kind", "speed", "lane_speeds", "space_speeds", "chicane")
PIT_ORDER = ("layout", "entries", "exits", "boxes", "lap_counts", "can_win", "side")
ENTRY_ORDER = ("from", "to", "speed", "main")
GEOMETRY_ORDER = ("centerline", "lane_width", "smooth")
GRID_ORDER = ("lane", "segment", "money")
BACKDROP_ORDER = ("image", "x", "y", "scale", "rotation", "opacity", "locked")


def header_comments(text: str) -> str:
    """The comment lines (and blank lines) before the first YAML content, as written."""
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("#") or not stripped:
            out.append(line if line.endswith("\n") else line + "\n")
        else:
            break
    # blank lines at the very end of the block belong to the layout, keep one at most
    return "".join(out)


def scalar(value: Any) -> str:
    """One YAML scalar in flow context: plain where YAML reads it back unchanged."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value):
            text = repr(value).lower()
            # YAML 1.1 reads `1e-06` as a string: it wants a dot in the mantissa (as PyYAML writes)
            return text.replace("e", ".0e", 1) if "." not in text and "e" in text else text
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    return _string(str(value))


@lru_cache(maxsize=4096)
def _string(value: str) -> str:
    text = yaml.safe_dump(
        value, default_flow_style=True, width=1 << 30, allow_unicode=True, explicit_end=False
    )
    text = text.rstrip("\n")
    if text.endswith("\n..."):
        text = text[: -len("\n...")]
    return text.rstrip("\n")


@lru_cache(maxsize=1024)
def quoted(text: str) -> str:
    """A double-quoted YAML string (layout strings are always quoted)."""
    return yaml.safe_dump(text, default_style='"', width=1 << 30, allow_unicode=True).rstrip("\n")


_SPACE_NAME = re.compile(r"^([0-9]+|pit):[0-9]+$")


def _flow(value: Any) -> str:
    if isinstance(value, str) and _SPACE_NAME.match(value):
        return quoted(value)  # space names (`1:12`) always in double quotes
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return scalar(value)


def _ordered(mapping: dict[str, Any], order: tuple[str, ...]) -> list[str]:
    keys = [k for k in order if k in mapping]
    return keys + [k for k in mapping if k not in order]


def _block(value: Any) -> str:
    """Any other value, in PyYAML's block style indented by two spaces."""
    text = yaml.safe_dump(value, default_flow_style=False, sort_keys=False, allow_unicode=True,
                          width=100, indent=2)
    if text.endswith("\n...\n"):
        text = text[: -len("...\n")]
    return text


def _entry(key: str, value: Any, indent: str = "") -> list[str]:
    if isinstance(value, dict | list) and value:
        body = _block(value)
        # nest the block under its key, two spaces deeper
        return [f"{indent}{scalar(key)}:\n"] + [
            indent + "  " + ln if ln.strip() else ln for ln in body.splitlines(keepends=True)
        ]
    return [f"{indent}{scalar(key)}: {_flow(value)}\n"]


def dump_track(data: dict[str, Any], header: str = "") -> str:
    """The YAML text of track data in the canonical style (see module docstring)."""
    lines: list[str] = [header] if header else []
    for key in _ordered(data, KEY_ORDER):
        value = data[key]
        if key == "layout" and isinstance(value, list) and all(isinstance(s, str) for s in value):
            lines.append("layout:\n" if value else "layout: []\n")
            lines += [f"  - {quoted(s)}\n" for s in value]
        elif key == "grid" and isinstance(value, list) and all(isinstance(s, dict) for s in value):
            lines.append("grid:\n" if value else "grid: []\n")
            for slot in value:
                keys = _ordered(slot, GRID_ORDER)
                lines.append("  - {" + ", ".join(f"{scalar(k)}: {_flow(slot[k])}" for k in keys) + "}\n")
        elif key == "rulesets" and isinstance(value, list) and all(isinstance(s, str) for s in value):
            lines.append(f"rulesets: {_flow(value)}\n")
        elif key in ("corners", "links", "features") and isinstance(value, list) and all(
            isinstance(s, dict) for s in value
        ):
            # track/2: one flow mapping per line, like the grid
            lines.append(f"{key}:\n" if value else f"{key}: []\n")
            order = CORNER_ORDER if key == "corners" else ()
            lines += [f"  - {_flow({k: item[k] for k in _ordered(item, order)})}\n" for item in value]
        elif key == "pit" and isinstance(value, dict):
            lines.append("pit:\n" if value else "pit: {}\n")
            for pk in _ordered(value, PIT_ORDER):
                pv = value[pk]
                if pk == "layout" and isinstance(pv, str):
                    lines.append(f"  layout: {quoted(pv)}\n")
                elif pk in ("entries", "exits") and isinstance(pv, list) and pv and all(
                    isinstance(e, dict) for e in pv
                ):
                    lines.append(f"  {pk}:\n")
                    lines += [f"    - {_flow({k: e[k] for k in _ordered(e, ENTRY_ORDER)})}\n" for e in pv]
                else:
                    lines.append(f"  {scalar(pk)}: {_flow(pv)}\n")
        elif key == "geometry" and isinstance(value, dict):
            lines.append("geometry:\n" if value else "geometry: {}\n")
            for gk in _ordered(value, GEOMETRY_ORDER):
                gv = value[gk]
                if gk == "centerline" and isinstance(gv, list) and gv:
                    lines.append("  centerline:\n")
                    lines += [f"    - {_flow(p)}\n" for p in gv]
                else:
                    lines += _entry(gk, gv, "  ")
        elif key == "backdrop" and isinstance(value, dict) and value:
            lines.append(f"backdrop: {_flow({k: value[k] for k in _ordered(value, BACKDROP_ORDER)})}\n")
        else:
            lines += _entry(key, value)
    return "".join(lines)
