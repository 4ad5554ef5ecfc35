"""Text primitives shared by anchors, notes and the faces: positions, normalized text,
tokens and similarity. Positions are LSP positions: 0-based line, UTF-16 column;
tree-sitter works in bytes, so every conversion lives here, once. And fenced code in
Markdown, as CommonMark sees it outside any container: what is inside a fence is text, never
an instruction to tether (a marker line shown as an example) nor to a renderer (a ``<!--``)."""

from __future__ import annotations

import bisect
import re
import zlib
from collections import Counter, namedtuple
from itertools import accumulate

try:  # hashlib's own BLAKE2; importing hashlib also loads OpenSSL, 3-4 ms of every hook call
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b

_WS = re.compile(r"\s+")
_NWS = re.compile(r" (?=\W)|(?<=\W) ")
_TOK = re.compile(r"\w+|[^\w\s]")


class Range(namedtuple("Range", "sl sc el ec")):  # (not typing.NamedTuple: typing costs a hook ~3 ms)
    """An LSP range: 0-based lines, UTF-16 columns, end exclusive: ``sl``, ``sc``, ``el``, ``ec`` (ints)."""

    __slots__ = ()

    def to_lsp(self) -> dict:
        return {"start": {"line": self.sl, "character": self.sc},
                "end": {"line": self.el, "character": self.ec}}


def normalize(s: str) -> str:
    """Whitespace runs become one space between two word characters and vanish elsewhere,
    so reindenting or reflowing code does not change its identity."""
    return _NWS.sub("", _WS.sub(" ", s.strip()))


def tokens(s: str) -> list[str]:
    return _TOK.findall(s)


_last: tuple[str | None, str] = (None, "")  # the last long text digested, and its digest: one
# tuple, read once, so a thread replacing it never pairs one text with another's digest


def digest(s: str) -> str:
    global _last
    text, h = _last
    if s is text:  # a file's text, keyed on by every layer that keeps something of it (its
        return h  # anchors, arrivals, symbols): digested once (a 5,000-line file: ~0.3 ms each time)
    h = blake2b(s.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    if len(s) >= 4096:
        _last = s, h
    return h


def line_counts(lines) -> Counter:
    """The non-blank lines of a text, stripped, as a multiset (how alike two files are)."""
    return Counter(line.strip() for line in lines if line.strip())


def dice(a: Counter, b: Counter) -> float:
    """Dice coefficient of two token multisets (1.0 = same tokens)."""
    na, nb = sum(a.values()), sum(b.values())
    if not na or not nb:
        return 0.0
    if 2.0 * min(na, nb) / (na + nb) < 0.3:  # cannot reach any threshold we use
        return 0.0
    return 2.0 * sum((a & b).values()) / (na + nb)


# -- the similarity sketch kept in a note file: bottom-k hashes of the token multiset ----

SKETCH_SIZE = 16


def sketch(toks: list[str]) -> list[int]:
    seen: Counter = Counter()
    hashes = set()
    for t in toks:
        seen[t] += 1
        hashes.add(zlib.crc32(f"{t}\x00{seen[t]}".encode("utf-8", "surrogatepass")))
    return sorted(hashes)[:SKETCH_SIZE]


def sketch_similarity(a: list[int], b: list[int]) -> float:
    """Dice estimated from two bottom-k sketches (exact when both sets fit in k)."""
    if not a or not b:
        return 0.0
    union = sorted(set(a) | set(b))[:SKETCH_SIZE]
    sa, sb = set(a), set(b)
    both = sum(1 for h in union if h in sa and h in sb)
    j = both / len(union)
    return 2 * j / (1 + j)


# -- positions ---------------------------------------------------------------------------

def split_lines(text: str) -> list[str]:
    """Lines split on '\\n' only (str.splitlines also splits on U+2028, form feeds, …)."""
    return text.split("\n")


class Positions:
    """Converts between LSP positions, str offsets and UTF-8 byte offsets of one text."""

    __slots__ = ("text", "lines", "_starts", "_b", "_ascii")

    def __init__(self, text: str):
        self.text = text
        self.lines = split_lines(text)
        self._ascii = text.isascii()
        self._starts = [0, *accumulate(len(line) + 1 for line in self.lines[:-1])]
        self._b = None

    @property
    def byte_starts(self) -> list[int]:
        """Byte offset of each line start (computed on first use)."""
        if self._b is None:
            if self._ascii:
                self._b = self._starts
            else:
                self._b = [0, *accumulate(len(line.encode("utf-8", "surrogatepass")) + 1
                                          for line in self.lines[:-1])]
        return self._b

    def edited(self, text: str, a: int, b: int, new: str) -> Positions:
        """The positions of ``text``, which is this text with offsets ``[a, b)`` replaced by
        ``new``: the lines the edit did not touch are kept, those after it shifted, not the
        whole text split again (an edit storm in a 5,000-line file is a thousand of them)."""
        if not (self._ascii and new.isascii()):
            return Positions(text)
        starts = self._starts
        la, lb = bisect.bisect_right(starts, a) - 1, bisect.bisect_right(starts, b) - 1
        delta = len(new) - (b - a)
        end = starts[lb + 1] - 1 if lb + 1 < len(starts) else len(self.text)  # of line lb, before its newline
        mid = text[starts[la]:end + delta].split("\n")  # the edited lines, as they are now
        out = Positions.__new__(Positions)
        out.text, out._ascii, out._b = text, True, None
        out.lines = self.lines[:la] + mid + self.lines[lb + 1:]
        out._starts = starts[:la + 1] + list(accumulate((len(line) + 1 for line in mid[:-1]), initial=starts[la]))[1:] \
            + [s + delta for s in starts[lb + 1:]]
        return out

    def clamp(self, line: int, col: int) -> tuple[int, int]:
        """A position past the end of a line or of the text moves to the nearest valid one
        (LSP clients may send such positions)."""
        if line < 0:
            return 0, 0
        if line >= len(self.lines):
            return len(self.lines) - 1, utf16_len(self.lines[-1])
        return line, max(0, min(col, utf16_len(self.lines[line])))

    def offset(self, line: int, col: int) -> int:
        """str offset of an LSP position (clamped)."""
        line, col = self.clamp(line, col)
        s = self.lines[line]
        return self._starts[line] + (col if self._ascii else _utf16_to_index(s, col))

    def byte(self, line: int, col: int) -> int:
        line, col = self.clamp(line, col)
        if self._ascii:
            return self.byte_starts[line] + col
        s = self.lines[line]
        return self.byte_starts[line] + len(s[:_utf16_to_index(s, col)].encode("utf-8", "surrogatepass"))

    def point_col(self, row: int, bcol: int) -> int:
        """UTF-16 column of a tree-sitter (row, byte column) point."""
        if self._ascii:
            return bcol
        s = self.lines[row]
        if s.isascii():
            return bcol
        return utf16_len(s.encode("utf-8", "surrogatepass")[:bcol].decode("utf-8", "replace"))

    def line_of_byte(self, b: int) -> int:
        return max(0, bisect.bisect_right(self.byte_starts, b) - 1)

    def position(self, offset: int) -> tuple[int, int]:
        """LSP position of a str offset."""
        line = max(0, bisect.bisect_right(self._starts, offset) - 1)
        return line, utf16_len(self.lines[line][:offset - self._starts[line]])


def utf16_len(s: str) -> int:
    if s.isascii():
        return len(s)
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def _utf16_to_index(s: str, col: int) -> int:
    if s.isascii():
        return min(col, len(s))
    units = 0
    for i, ch in enumerate(s):
        if units >= col:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(s)


# -- fenced code in Markdown ---------------------------------------------------------------

_MD_FENCE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")  # indented at most 3 spaces


def md_lines(text: str) -> list[str]:
    """``text``'s lines, as CommonMark ends them (CR LF, LF, or a lone CR)."""
    return re.sub(r"\r\n?", "\n", text).split("\n")


def opens(line: str) -> re.Match | None:
    """The fence ``line`` opens: groups (indentation, fence, info string)."""
    m = _MD_FENCE.fullmatch(line)
    return None if m is None or (m.group(2)[0] == "`" and "`" in m.group(3)) else m  # no backtick after ```


def closes(line: str, fence: str) -> bool:
    """``line`` closes a fence opened by ``fence``: the same character, at least as many."""
    return re.fullmatch(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*", line) is not None


def fenced(text_lines: list[str]) -> list[bool]:
    """For each line: inside fenced code (its fences included)."""
    out, fence = [], None
    for line in text_lines:
        if fence is not None:
            out.append(True)
            fence = None if closes(line, fence) else fence
        elif m := opens(line):
            out.append(True)
            fence = m.group(2)
        else:
            out.append(False)
    return out


def open_fence(text: str, at_line_start: bool = True) -> str | None:
    """The fence ``text`` leaves open at its end, if any (``at_line_start``: its first line
    starts a line; else it follows other text, as a field after ``Rationale: ``)."""
    fence = None
    for k, line in enumerate(md_lines(text)):
        if fence is not None:
            fence = None if closes(line, fence) else fence
        elif (k or at_line_start) and (m := opens(line)):
            fence = m.group(2)
    return fence
