"""JSON with comments (JSONC: ``//`` and ``/* */`` comments, trailing commas), as VS Code and
Gemini CLI read their settings, changed without losing a comment.

:func:`parse` reads the text into plain data and a tree of where each value is;
:func:`patch` writes new data back into the text as splices: a changed value is replaced
where it is, a new key or element is added after the last one, with the file's indentation
and line endings; everything else (comments, spacing, key order) stays byte for byte. A
value that lost keys or elements is replaced whole (comments inside it go with it: it is
tether's own entry). The result is read back and must give the new data, or nothing is written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_LITERALS = {"true": True, "false": False, "null": None}
_TRAILING = re.compile(r"[ \t]*,([ \t]*//[^\r\n]*)?")  # a trailing comma, and a comment on its line


class JsoncError(ValueError):
    def __init__(self, line: int, col: int, msg: str):
        super().__init__(f"{line}:{col}: {msg}")
        self.line, self.col, self.msg = line, col, msg


@dataclass
class Node:
    start: int  # the value's span in the text
    end: int
    value: object
    members: dict[str, Node] = field(default_factory=dict)  # an object's
    items: list[Node] = field(default_factory=list)  # an array's
    lead: int = -1  # where it starts as a member of an object: its key


def parse(text: str) -> tuple[object, Node]:
    """The data in ``text`` and where each part of it is; :class:`JsoncError` says where it is not JSONC."""
    p = _Parser(text)
    node = p.value()
    p.skip()
    if p.i < len(text):
        p.fail("more after the end of the JSON value")
    return node.value, node


def patch(text: str, node: Node, new: object) -> str:
    """``text`` (read as ``node``) holding ``new`` instead, its comments and layout kept."""
    nl = "\r\n" if "\r\n" in text else "\n"
    m = re.search(r"\n([ \t]+)\S", text)
    unit = m.group(1) if m else "  "
    splices: list[tuple[int, int, str]] = []
    _patch(text, node, new, splices, unit)
    out = text
    for start, end, s in sorted(splices, reverse=True):
        out = out[:start] + s.replace("\n", nl) + out[end:]
    if parse(out)[0] != new:  # never write what would not read back as meant
        raise ValueError("the edited text does not read back as the new data")
    return out


def _patch(text: str, node: Node, new, splices: list, unit: str) -> None:
    old = node.value
    if old == new and type(old) is type(new):
        return
    indent = _indent_at(text, node.start)
    if isinstance(old, dict) and isinstance(new, dict) and set(old) <= set(new):
        for key, sub in node.members.items():
            _patch(text, sub, new[key], splices, unit)
        added = [k for k in new if k not in old]
        if added:
            inner = _inner_indent(text, node, indent, unit)
            body = "".join(f",\n{inner}{json.dumps(k, ensure_ascii=False)}: {_dumps(new[k], inner, unit)}"
                           for k in added)
            _append(text, node, list(node.members.values()), body, indent, splices)
    elif isinstance(old, list) and isinstance(new, list) and len(old) <= len(new):
        for sub, value in zip(node.items, new):
            _patch(text, sub, value, splices, unit)
        if len(new) > len(old):
            inner = _inner_indent(text, node, indent, unit)
            body = "".join(f",\n{inner}{_dumps(v, inner, unit)}" for v in new[len(old):])
            _append(text, node, node.items, body, indent, splices)
    else:
        splices.append((node.start, node.end, _dumps(new, indent, unit)))


def _append(text: str, node: Node, children: list[Node], body: str, indent: str, splices: list) -> None:
    """Add ``body`` (",\\n  x,\\n  y") after the last child, or, without its first comma,
    inside an empty object or array."""
    if children:
        trailing = _TRAILING.match(text, children[-1].end)
        if trailing:  # "x, // about x": after the comma and x's comment, keeping the trailing comma
            splices.append((trailing.end(), trailing.end(), body[1:] + ","))
        else:
            splices.append((children[-1].end, children[-1].end, body))
    else:
        splices.append((node.start + 1, node.start + 1, body[1:] + "\n" + indent))


def _dumps(value, indent: str, unit: str) -> str:
    return json.dumps(value, indent=unit, ensure_ascii=False).replace("\n", "\n" + indent)


def _indent_at(text: str, pos: int) -> str:
    line_start = text.rfind("\n", 0, pos) + 1
    return re.match(r"[ \t]*", text[line_start:]).group(0)


def _inner_indent(text: str, node: Node, indent: str, unit: str) -> str:
    children = list(node.members.values()) or node.items
    if children:  # as the ones there are indented, when each starts a line
        first = children[0].lead if node.members else children[0].start
        before = text[text.rfind("\n", 0, first) + 1:first]
        if before.strip() == "":
            return before
    return indent + unit


class _Parser:
    def __init__(self, text: str):
        self.text, self.i = text, 1 if text.startswith("\ufeff") else 0

    def fail(self, msg: str):
        line = self.text.count("\n", 0, self.i) + 1
        raise JsoncError(line, self.i - (self.text.rfind("\n", 0, self.i) + 1) + 1, msg)

    def skip(self) -> None:
        """Whitespace and comments."""
        t = self.text
        while self.i < len(t):
            c = t[self.i]
            if c in " \t\r\n":
                self.i += 1
            elif t.startswith("//", self.i):
                end = t.find("\n", self.i)
                self.i = len(t) if end < 0 else end + 1
            elif t.startswith("/*", self.i):
                end = t.find("*/", self.i + 2)
                if end < 0:
                    self.fail("a /* comment that is never closed")
                self.i = end + 2
            else:
                return

    def value(self) -> Node:
        self.skip()
        t, start = self.text, self.i
        if start >= len(t):
            self.fail("a value expected, found the end")
        c = t[start]
        if c == "{":
            return self.container("}", True)
        if c == "[":
            return self.container("]", False)
        if c == '"':
            m = _STRING.match(t, start)
            if m is None:
                self.fail("a string that is not valid JSON (an unescaped control character, a bad escape, "
                          "or never closed)")
            self.i = m.end()
            return Node(start, m.end(), json.loads(m.group(0)))
        m = _NUMBER.match(t, start)
        if m:
            self.i = m.end()
            return Node(start, m.end(), json.loads(m.group(0)))
        for word, value in _LITERALS.items():
            if t.startswith(word, start):
                self.i = start + len(word)
                return Node(start, self.i, value)
        self.fail(f"unexpected {t[start]!r}")

    def container(self, close: str, is_object: bool) -> Node:
        t, start = self.text, self.i
        self.i += 1
        node = Node(start, start, {} if is_object else [])
        while True:
            self.skip()
            if self.i < len(t) and t[self.i] == close:  # the end (after a trailing comma too)
                self.i += 1
                node.end = self.i
                return node
            if is_object:
                if self.i >= len(t) or t[self.i] != '"':
                    self.fail('a key in double quotes expected')
                lead = self.i
                key = self.value().value
                if key in node.members:
                    self.fail(f'the key "{key}" appears twice in one object')
                self.skip()
                if self.i >= len(t) or t[self.i] != ":":
                    self.fail("':' expected after the key")
                self.i += 1
                sub = self.value()
                sub.lead = lead
                node.members[key] = sub
                node.value[key] = sub.value
            else:
                sub = self.value()
                node.items.append(sub)
                node.value.append(sub.value)
            self.skip()
            if self.i < len(t) and t[self.i] == ",":
                self.i += 1
            elif not (self.i < len(t) and t[self.i] == close):
                self.fail(f"',' or '{close}' expected")
