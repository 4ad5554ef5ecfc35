"""Adding text to messages of a request without changing any other byte of it.

A request is spliced, never re-serialised: re-encoding the JSON would change escapes and number
forms of the whole history (what a prompt cache and a byte-for-byte test see). :func:`inject`
is pure — ``(request bytes, {message index: text}) -> request bytes`` — and adds each text as
one trailing block of that message's body, in the form its API's table gives (:class:`Target`).

The scanner reads only as much JSON as it needs: the top-level object's members, the
conversation list's elements, one element's members; strings are skipped by a regular
expression, so a long history costs one pass over its bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import orjson

_WS = re.compile(rb"[ \t\r\n]*")
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_SCALAR = re.compile(rb"[^,\]}\s]+")
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)


class SpliceError(ValueError):
    """The bytes are not the JSON the parsed request said they were."""


def _skip_ws(raw: bytes, i: int) -> int:
    return _WS.match(raw, i).end()


def value_end(raw: bytes, i: int) -> int:
    """The end of the JSON value starting at ``i`` (after any whitespace)."""
    i = _skip_ws(raw, i)
    c = raw[i:i + 1]
    if c == b'"':
        m = _STRING.match(raw, i)
        if m is None:
            raise SpliceError(f"an unterminated string at byte {i}")
        return m.end()
    if c in (b"[", b"{"):
        depth = 0
        for m in _TOKEN.finditer(raw, i):
            t = raw[m.start()]
            if t == 0x22:  # a string
                continue
            depth += 1 if t in (0x5B, 0x7B) else -1
            if depth == 0:
                return m.end()
        raise SpliceError(f"an unclosed {c.decode()} at byte {i}")
    m = _SCALAR.match(raw, i)
    if m is None:
        raise SpliceError(f"no JSON value at byte {i}")
    return m.end()


def members(raw: bytes, start: int) -> Iterator[tuple[str, int, int]]:
    """``(key, value start, value end)`` of the object at ``start``."""
    i = _skip_ws(raw, start)
    if raw[i:i + 1] != b"{":
        raise SpliceError(f"expected an object at byte {i}")
    i = _skip_ws(raw, i + 1)
    if raw[i:i + 1] == b"}":
        return
    while True:
        m = _STRING.match(raw, i)
        if m is None:
            raise SpliceError(f"expected a key at byte {i}")
        key = orjson.loads(m.group())
        i = _skip_ws(raw, m.end())
        if raw[i:i + 1] != b":":
            raise SpliceError(f"expected ':' at byte {i}")
        vs = _skip_ws(raw, i + 1)
        ve = value_end(raw, vs)
        yield key, vs, ve
        i = _skip_ws(raw, ve)
        if raw[i:i + 1] == b"}":
            return
        if raw[i:i + 1] != b",":
            raise SpliceError(f"expected ',' or '}}' at byte {i}")
        i = _skip_ws(raw, i + 1)


def elements(raw: bytes, start: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each element of the array at ``start``."""
    i = _skip_ws(raw, start)
    if raw[i:i + 1] != b"[":
        raise SpliceError(f"expected an array at byte {i}")
    out: list[tuple[int, int]] = []
    i = _skip_ws(raw, i + 1)
    if raw[i:i + 1] == b"]":
        return out
    while True:
        e = value_end(raw, i)
        out.append((i, e))
        i = _skip_ws(raw, e)
        if raw[i:i + 1] == b"]":
            return out
        if raw[i:i + 1] != b",":
            raise SpliceError(f"expected ',' or ']' at byte {i}")
        i = _skip_ws(raw, i + 1)


def member(raw: bytes, start: int, key: str) -> tuple[int, int] | None:
    """The span of ``key``'s value in the object at ``start`` (the last one, as JSON parsers take)."""
    found = None
    for k, vs, ve in members(raw, start):
        if k == key:
            found = (vs, ve)
    return found


# -- the block each API adds ------------------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    """Where a message's body is and what a trailing text block looks like there.

    ``fields``: the message's members that hold its body, first present wins (``content`` of a
    message, ``output`` of a tool's result, ``parts`` of a Gemini content). An array body gets
    ``block`` (a template whose ``TEXT`` is the text) appended; a string body gets the text
    appended after a blank line (``wrap``: or becomes an array of the string and the block,
    where the API takes that and a plain string is the usual prompt)."""

    fields: tuple[str, ...]
    block: dict
    wrap: dict | None = None  # the block a string body becomes; None: append to the string

    def block_bytes(self, text: str) -> bytes:
        return orjson.dumps({k: (text if v == "TEXT" else v) for k, v in self.block.items()})


def inject(raw: bytes, list_key: str, target: Target, texts: dict[int, str]) -> bytes:
    """``raw`` with each ``texts[i]`` added as a trailing block of element ``i`` of the
    top-level ``list_key`` array; every other byte unchanged. Elements without a body that
    takes a block are left alone."""
    if not texts:
        return raw
    span = member(raw, 0, list_key)
    if span is None:
        raise SpliceError(f"the request has no {list_key!r}")
    items = elements(raw, span[0])
    edits: list[tuple[int, int, bytes]] = []  # (start, end, replacement), applied from the end
    for i, text in texts.items():
        if not (0 <= i < len(items)) or not text:
            continue
        edit = _edit(raw, items[i][0], target, text)
        if edit is not None:
            edits.append(edit)
    out = raw
    for s, e, new in sorted(edits, reverse=True):
        out = out[:s] + new + out[e:]
    return out


def _edit(raw: bytes, start: int, target: Target, text: str) -> tuple[int, int, bytes] | None:
    body = None
    for f in target.fields:
        body = member(raw, start, f)
        if body is not None:
            break
    if body is None:
        return None
    vs, ve = body
    kind = raw[vs:vs + 1]
    if kind == b"[":
        inner = _skip_ws(raw, vs + 1)
        sep = b"" if raw[inner:inner + 1] == b"]" else b","
        close = ve - 1  # the "]"
        return close, close, sep + target.block_bytes(text)
    if kind == b'"':
        if target.wrap is not None:
            first = orjson.dumps({k: ("\0" if v == "TEXT" else v) for k, v in target.wrap.items()})
            first = first.replace(b'"\\u0000"', raw[vs:ve])
            return vs, ve, b"[" + first + b"," + target.block_bytes(text) + b"]"
        escaped = orjson.dumps("\n\n" + text)[1:-1]
        return ve - 1, ve - 1, escaped
    return None
