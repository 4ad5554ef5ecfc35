"""Syntax highlighting of a file's lines as HTML, from the tree-sitter parse the core already
makes. No query per language: what a token is can be read off the tree in any grammar —
anonymous word tokens are keywords, and comments, strings, numbers and types are named so."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from ..core.syntax import SourceFile

_WORD = re.compile(r"[A-Za-z_][A-Za-z_]+\Z")
_NUMBER = ("integer", "float", "number", "int_literal", "integer_literal", "float_literal",
           "floating_point_literal", "imaginary_literal")
_CONSTANT = {"true", "false", "none", "null", "nil", "undefined", "null_literal", "self", "this"}
_DEFINES = re.compile(r"function|method|class|struct|interface|enum|trait|type_spec|impl")


def _kind(node) -> str | None:
    """The CSS class of a node highlighted as a whole, or None to look at its children."""
    t = node.type
    if "comment" in t:
        return "cm"
    if not node.is_named:
        return "kw" if _WORD.match(t) else None
    if "string" in t or t.endswith(("char_literal", "character_literal", "rune_literal", "text_block")):
        return "st"
    if t.endswith(_NUMBER):
        return "nu"
    if t in _CONSTANT:
        return "kw"
    if node.child_count == 0 and (t.endswith("type_identifier") or t.endswith(("primitive_type", "predefined_type"))):
        return "ty"
    if t.endswith("identifier") and node.parent is not None and _DEFINES.search(node.parent.type):
        name = node.parent.child_by_field_name("name")
        if name is not None and name.id == node.id:
            return "fn"
    return None


def _tokens(src: SourceFile, start: int, end: int) -> list[tuple[int, int, str]]:
    """(start byte, end byte, class) of the highlighted nodes overlapping [start, end), in order."""
    out, stack = [], [src.tree.root_node]
    while stack:
        node = stack.pop()
        if node.end_byte <= start or node.start_byte >= end:
            continue
        kind = _kind(node)
        if kind:
            out.append((max(node.start_byte, start), min(node.end_byte, end), kind))
        else:
            stack.extend(reversed(node.children))
    return out


def highlighted(src: SourceFile, first: int, last: int) -> list[Markup]:
    """Lines ``first`` to ``last`` (0-based, inclusive) of a file as HTML, tokens in ``<span class>``."""
    starts = src.pos.byte_starts
    start = starts[first]
    end = starts[last + 1] - 1 if last + 1 < len(starts) else len(src.data)
    pieces, at = [], start
    for s, e, kind in (_tokens(src, start, end) if src.tree is not None else []):
        if s > at:
            pieces.append((at, s, None))
        pieces.append((max(s, at), e, kind))
        at = max(at, e)
    pieces.append((at, end, None))
    lines, cur = [], []
    for s, e, kind in pieces:
        for i, part in enumerate(src.data[s:e].decode("utf-8", "replace").split("\n")):
            if i:
                lines.append(Markup("").join(cur))
                cur = []
            part = part.rstrip("\r")
            if part:
                cur.append(Markup(f'<span class="{kind}">{escape(part)}</span>') if kind else escape(part))
    lines.append(Markup("").join(cur))
    return lines
