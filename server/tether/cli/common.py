"""What every command shares: exit codes, usage errors, positions, the workspace, JSON out."""

from __future__ import annotations

import re
import sys
from pathlib import Path


from ..core.text import utf16_len
from ..core.workspace import Workspace, WorkspaceError

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


def out_json(obj) -> None:
    import orjson  # here: a hook process does not pay for it

    data = orjson.dumps(obj, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
    out = getattr(sys.stdout, "buffer", None)
    if out is None:  # a stream of text only (one a test reads)
        sys.stdout.write(data.decode() + "\n")
        return
    sys.stdout.flush()  # what was printed before comes first
    out.write(data)  # as it is: 100,000 notes' JSON is 120 MB, each copy of it as text another
    out.write(b"\n")


def parse_position(spec: str) -> tuple[str, int | None, int | None, int | None]:
    """``path[:line[-end_line][:col]]`` (1-based) -> (path, line, col, end_line), read from
    the right so paths may hold colons."""
    m = re.fullmatch(r"(.+?)(?::(\d+)(?:-(\d+))?(?::(\d+))?)?", spec)
    if not m or not m.group(1):
        raise UsageError(f"'{spec}': expected PATH:LINE[:COL] or PATH:LINE-LINE")
    path, line, end, col = m.group(1), m.group(2), m.group(3), m.group(4)
    line, end, col = (int(x) if x else None for x in (line, end, col))
    if any(x is not None and x < 1 for x in (line, end, col)):
        raise UsageError(f"'{spec}': lines and columns start at 1")
    if end is not None and end < line:
        raise UsageError(f"'{spec}': the end line comes before the start line")
    return path, line, col, end


def workspace() -> Workspace:
    return Workspace.find(Path.cwd())


def note_ref(ref: str) -> str:
    """A note id (or prefix), or a note file path relative to the current folder."""
    return str(Path(ref).resolve()) if ref.endswith(".md") else ref


def lsp_col(ws: Workspace, rel: str, line0: int, col1: int | None) -> int:
    """1-based character column -> 0-based UTF-16 column on that line."""
    if not col1:
        return 0
    try:
        text = ws.read_source(rel).split("\n")
    except WorkspaceError:
        return col1 - 1
    if line0 >= len(text):
        return col1 - 1
    return utf16_len(text[line0][:col1 - 1])
