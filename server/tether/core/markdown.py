"""Fenced code in Markdown, as CommonMark sees it outside any container: where a fence
opens, where it closes. What is inside a fence is text, never an instruction to tether
(a marker line shown as an example) nor to a renderer (a ``<!--`` in code)."""

from __future__ import annotations

import re

_FENCE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")  # indented at most 3 spaces


def lines(text: str) -> list[str]:
    """``text``'s lines, as CommonMark ends them (CR LF, LF, or a lone CR)."""
    return re.sub(r"\r\n?", "\n", text).split("\n")


def opens(line: str) -> re.Match | None:
    """The fence ``line`` opens: groups (indentation, fence, info string)."""
    m = _FENCE.fullmatch(line)
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
    for k, line in enumerate(lines(text)):
        if fence is not None:
            fence = None if closes(line, fence) else fence
        elif (k or at_line_start) and (m := opens(line)):
            fence = m.group(2)
    return fence
