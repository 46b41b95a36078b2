"""Saving pack files so that a hand-written file changes only where its data changed.

`update_text(text, new)` takes the text of a YAML file as it is on disk and the data it should
hold now, and rewrites only the lines of what changed: a changed scalar is replaced in place,
a changed list item (a card, a driver ...) is re-written on its own lines, a new item is
inserted after its neighbour (on one line, however long, when that neighbour is one flow line:
a table's row), a removed one loses its lines. Everything else - comments, key order, flow or
block style, quoting, blank lines - stays byte for byte as it was. Items are
matched by their `id` so a card keeps its lines when another card is added or removed; items
without ids (a table's rows) by their place, so rows changed and rows added at the end in one
save are both spliced.

New and rewritten parts get one stable, readable layout (`dump_data`): block mappings, short
scalar mappings and lists in flow style (`{up_to: 2}`, `[3, 4]`), two-space indents, lists of
mappings always in block style.

Positions come from PyYAML's composer (nodes only, nothing is constructed), run on text that
has already loaded cleanly through `yamlsource`; the result is loaded back and compared with
the wanted data, and any mismatch falls back to a full `dump_data` rewrite, so a save never
writes data other than the data it was given.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

from slipstream.engine.core.yamlsource import load_text

try:  # same parser as yamlsource: libyaml when available
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

INDENT = 2
FLOW_WIDTH = 72  # longest flow collection written on one line
ITEM_FLOW_WIDTH = 110  # a list item that was one flow line stays one line up to this width

_FLOW_UNSAFE = re.compile(r"[,\[\]{}#]|: |^[\s&*!|>'\"%@`?-]|\s$")


# ---------------------------------------------------------------------------------------------
# The readable layout
# ---------------------------------------------------------------------------------------------


def scalar(value: Any, *, flow: bool = False) -> str:
    """One scalar as YAML text on one line; quoted only where YAML would read it differently."""
    if isinstance(value, str) and ("\n" in value or "\r" in value or "\t" in value):
        return json.dumps(value, ensure_ascii=False)  # JSON strings are YAML double-quoted
    text = yaml.safe_dump(value, default_flow_style=True, width=10**9, allow_unicode=True)
    text = text.rstrip("\n")
    if text.endswith("\n..."):
        text = text[: -len("\n...")]
    elif text.endswith("..."):
        text = text[:-3].rstrip()
    if flow and isinstance(value, str) and not text.startswith(("'", '"')) and _FLOW_UNSAFE.search(text):
        return json.dumps(value, ensure_ascii=False)
    return text


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, dict | list | tuple)


def flow(value: Any) -> str:
    """A value in flow style on one line: `{spaces: {up_to: 2}, colours: [5]}`."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k, flow=True)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value, flow=True)


def _has_mapping_list(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_has_mapping_list(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(isinstance(v, dict) or _has_mapping_list(v) for v in value)
    return False


def _inline(value: Any, width: int = FLOW_WIDTH) -> str | None:
    """The one-line form of a value when it reads well on one line, else None."""
    if _is_scalar(value):
        return scalar(value)
    if not value:
        return "{}" if isinstance(value, dict) else "[]"
    if _has_mapping_list(value):
        return None
    text = flow(value)
    return text if len(text) <= width else None


def block_lines(value: Any, indent: int) -> list[str]:
    """A mapping or list in block style, every line indented by `indent` spaces."""
    pad = " " * indent
    out: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            key = scalar(k)
            one = _inline(v)
            if one is not None:
                out.append(f"{pad}{key}: {one}")
            else:
                out.append(f"{pad}{key}:")
                out += block_lines(v, indent + INDENT)
        return out
    for item in value:
        out += _item_lines(item, indent)
    return out


def _item_lines(item: Any, indent: int, *, flow_item: bool = False, width: int = ITEM_FLOW_WIDTH) -> list[str]:
    """One list item: `- scalar`, `- {flow}` or a block mapping opened on the dash line; a
    `flow_item` stays one line up to `width` characters."""
    pad = " " * indent
    if flow_item or not isinstance(item, dict):
        one = _inline(item, width if flow_item else FLOW_WIDTH)
        if one is not None:
            return [f"{pad}- {one}"]
    if isinstance(item, dict) and item:
        lines = block_lines(item, indent + INDENT)
        lines[0] = f"{pad}- {lines[0].lstrip()}"
        return lines
    if isinstance(item, list | tuple) and item:
        lines = block_lines(item, indent + INDENT)
        lines[0] = f"{pad}- {lines[0].lstrip()}"
        return lines
    return [f"{pad}- {flow(item)}"]


def dump_data(data: Any, header: str = "") -> str:
    """A whole file in the readable layout, after `header` (comment lines kept as written)."""
    if isinstance(data, dict) and data:
        body = block_lines(data, 0)
    elif isinstance(data, list) and data:
        body = block_lines(data, 0)
    else:
        body = [flow(data)]
    return header + "\n".join(body) + "\n"


def header_comments(text: str) -> str:
    """The comment and blank lines before the first YAML content, as written."""
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.strip().startswith("#") or not line.strip():
            out.append(line if line.endswith("\n") else line + "\n")
        else:
            break
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Splicing: rewrite only what changed
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace text[start:end] by `text`."""

    start: int
    end: int
    text: str


class _Fallback(Exception):
    """The change cannot be spliced in place; the caller rewrites a larger part."""


class _Splicer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.edits: list[Edit] = []

    # -- positions ---------------------------------------------------------------------------
    def end(self, node: Node) -> int:
        """Index just after the last character of a node's own text."""
        if isinstance(node, MappingNode) and not node.flow_style and node.value:
            return self.end(node.value[-1][1])
        if isinstance(node, SequenceNode) and not node.flow_style and node.value:
            return self.end(node.value[-1])
        e = node.end_mark.index
        while e > node.start_mark.index and self.text[e - 1] in " \t\r\n":
            e -= 1
        return e

    def line_start(self, index: int) -> int:
        return self.text.rfind("\n", 0, index) + 1

    def line_end(self, index: int) -> int:
        """Index just after the newline ending the line that holds `index`."""
        nl = self.text.find("\n", index)
        return len(self.text) if nl < 0 else nl + 1

    def first_on_line(self, index: int) -> bool:
        return self.text[self.line_start(index):index].strip() == ""

    def column(self, index: int) -> int:
        return index - self.line_start(index)

    def dash(self, item: Node) -> int:
        """Index of the `-` introducing a block sequence item."""
        i = item.start_mark.index - 1
        while i >= 0 and self.text[i] in " \t":
            i -= 1
        if i < 0 or self.text[i] != "-":
            raise _Fallback
        return i

    # -- edits -------------------------------------------------------------------------------
    def value(self, key: Node, node: Node, old: Any, new: Any) -> None:
        """The value of mapping key `key` changed."""
        if old == new:
            return
        if self._nested(node, old, new):
            return
        key_col = self.column(key.start_mark.index)
        start = key.end_mark.index
        colon = self.text.find(":", start)
        if colon < 0 or colon >= node.start_mark.index:
            raise _Fallback
        if _is_scalar(new) or not new:
            one: str | None = _inline(new)
        elif _block(node):
            one = None  # a block stays a block
        else:
            one = _inline(new, ITEM_FLOW_WIDTH)  # a flow value stays on its line if it fits
        if one is not None:
            self.edits.append(Edit(colon + 1, self.end(node), " " + one))
        else:
            lines = block_lines(new, key_col + INDENT)
            self.edits.append(Edit(colon + 1, self.end(node), "\n" + "\n".join(lines)))

    def item(self, node: Node, old: Any, new: Any) -> None:
        """A block sequence item changed."""
        if old == new:
            return
        if self._nested(node, old, new):
            return
        d = self.dash(node)
        was_flow = isinstance(node, MappingNode | SequenceNode) and bool(node.flow_style)
        lines = _item_lines(new, self.column(d), flow_item=was_flow)
        self.edits.append(Edit(d, self.end(node), "\n".join(lines).lstrip(" ")))

    def _nested(self, node: Node, old: Any, new: Any) -> bool:
        """Splice inside a block collection when the shapes allow; False when they do not."""
        try:
            if isinstance(node, MappingNode) and not node.flow_style and isinstance(old, dict) \
                    and isinstance(new, dict) and old and new:
                mark = len(self.edits)
                try:
                    self.mapping(node, old, new)
                except _Fallback:
                    del self.edits[mark:]
                    return False
                return True
            if isinstance(node, SequenceNode) and not node.flow_style and isinstance(old, list) \
                    and isinstance(new, list) and old and new:
                mark = len(self.edits)
                try:
                    self.sequence(node, old, new)
                except _Fallback:
                    del self.edits[mark:]
                    return False
                return True
        except _Fallback:
            return False
        return False

    def mapping(self, node: MappingNode, old: dict[Any, Any], new: dict[Any, Any]) -> None:
        pairs = {k: (kn, vn) for (kn, vn), k in zip(node.value, old, strict=True)}
        kept_old = [k for k in old if k in new]
        kept_new = [k for k in new if k in old]
        if kept_old != kept_new or not kept_old:
            raise _Fallback
        for k in old:
            kn, vn = pairs[k]
            if k not in new:
                if not self.first_on_line(kn.start_mark.index):
                    raise _Fallback
                s = self.line_start(kn.start_mark.index)
                self.edits.append(Edit(s, self.line_end(self.end(vn)), ""))
            else:
                self.value(kn, vn, old[k], new[k])
        # new keys go after the key that precedes them in the new order
        keys = list(new)
        col = self.column(node.value[0][0].start_mark.index)
        prev: Any = None
        pending: dict[Any, list[str]] = {}
        for k in keys:
            if k in old:
                prev = k
                continue
            if prev is None:
                raise _Fallback
            pending.setdefault(prev, []).extend(block_lines({k: new[k]}, col))
        for k, lines in pending.items():
            at = self.line_end(self.end(pairs[k][1]))
            self.edits.append(Edit(at, at, _lines_at(self.text, at, lines)))

    def sequence(self, node: SequenceNode, old: list[Any], new: list[Any]) -> None:
        items = node.value
        col = self.column(self.dash(items[0]))
        old_ids = _ids(old)
        new_ids = _ids(new)
        if old_ids is not None and new_ids is not None:
            kept_old = [i for i in old_ids if i in new_ids]
            kept_new = [i for i in new_ids if i in old_ids]
            if kept_old != kept_new:
                raise _Fallback
            by_id = {i: (n, o) for i, n, o in zip(old_ids, items, old, strict=True)}
            for i, n, o in zip(old_ids, items, old, strict=True):
                if i not in new_ids:
                    self.remove_item(n)
                else:
                    self.item(n, o, new[new_ids.index(i)])
            self._insert_new(col, [(i, v) for i, v in zip(new_ids, new, strict=True)],
                             set(old_ids), lambda i: by_id[i][0], items[0])
            return
        if len(old) == len(new):
            for n, o, v in zip(items, old, new, strict=True):
                self.item(n, o, v)
            return
        if len(new) > len(old):  # items changed in place (matched by position), more appended
            for n, o, v in zip(items, old, new, strict=False):
                self.item(n, o, v)
            at = self.line_end(self.end(items[-1]))
            lines: list[str] = []
            for v in new[len(old):]:
                lines += self._new_item_lines(v, col, items[-1])
            self.edits.append(Edit(at, at, _lines_at(self.text, at, lines)))
            return
        if len(new) < len(old) and old[: len(new)] == new:
            for n in items[len(new):]:
                self.remove_item(n)
            return
        raise _Fallback

    def _insert_new(self, col: int, new: list[tuple[str, Any]], old_ids: set[str],
                    node_of: Any, first: Node) -> None:
        prev: str | None = None
        before_first: list[str] = []
        after: dict[str, list[str]] = {}
        for i, v in new:
            if i in old_ids:
                prev = i
                continue
            lines = self._new_item_lines(v, col, first if prev is None else node_of(prev))
            if prev is None:
                before_first += lines
            else:
                after.setdefault(prev, []).extend(lines)
        if before_first:
            d = self.dash(first)
            if not self.first_on_line(d):
                raise _Fallback
            at = self.line_start(d)
            self.edits.append(Edit(at, at, "\n".join(before_first) + "\n"))
        for i, lines in after.items():
            at = self.line_end(self.end(node_of(i)))
            self.edits.append(Edit(at, at, _lines_at(self.text, at, lines)))

    def _new_item_lines(self, value: Any, col: int, beside: Node) -> list[str]:
        """A new list item, written on one line like its neighbour `beside` when that is one
        flow line (a row of a table: `- {gear: 7, faces: [...]}`), however long."""
        if isinstance(beside, MappingNode | SequenceNode) and beside.flow_style:
            return _item_lines(value, col, flow_item=True, width=10**9)
        return _item_lines(value, col)

    def remove_item(self, node: Node) -> None:
        d = self.dash(node)
        if not self.first_on_line(d):
            raise _Fallback
        self.edits.append(Edit(self.line_start(d), self.line_end(self.end(node)), ""))


def _block(node: Node) -> bool:
    return isinstance(node, MappingNode | SequenceNode) and not node.flow_style


def _lines_at(text: str, at: int, lines: list[str]) -> str:
    """Lines inserted at a line start; a file without a final newline gets one first."""
    lead = "\n" if at == len(text) and text and not text.endswith("\n") else ""
    return lead + "\n".join(lines) + "\n"


def _ids(items: list[Any]) -> list[str] | None:
    """The `id`s of a list of mappings when every item has a distinct string id."""
    ids = [it.get("id") if isinstance(it, dict) else None for it in items]
    if not ids or not all(isinstance(i, str) for i in ids) or len(set(ids)) != len(ids):
        return None
    return ids  # type: ignore[return-value]


def _apply(text: str, edits: list[Edit]) -> str:
    out: list[str] = []
    pos = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start < pos:
            raise _Fallback  # overlapping edits: rewrite the whole file instead
        out.append(text[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def update_text(text: str, new: Any) -> str:
    """The file text holding `new`, changed from `text` only where the data differs."""
    old_loaded = load_text(text, "<file>") if text else None
    if old_loaded is not None and old_loaded.data is not None and old_loaded.ok:
        old = old_loaded.data
        if old == new:
            return text
        try:
            root = yaml.compose(text, Loader=_Loader)
            if isinstance(root, MappingNode) and not root.flow_style and isinstance(old, dict) \
                    and isinstance(new, dict) and old and new:
                sp = _Splicer(text)
                sp.mapping(root, old, new)
                out = _apply(text, sp.edits)
                if load_text(out, "<file>").data == new:
                    return out
        except (_Fallback, yaml.YAMLError, ValueError):
            pass
    out = dump_data(new, header_comments(text) if text else "")
    back = load_text(out, "<file>").data
    if back != new:  # a bug in this module, never a user error
        raise ValueError("the YAML writer could not write this data faithfully")
    return out


def changed_lines(old_text: str, new_text: str) -> list[int]:
    """1-based numbers of the lines of `old_text` that a save removed or replaced."""
    import difflib

    a = old_text.splitlines()
    b = new_text.splitlines()
    out: list[int] = []
    for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            out += range(i1 + 1, i2 + 1)
    return out

