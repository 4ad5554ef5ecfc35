"""What the code at a line calls, resolved to definitions in the workspace."""

from __future__ import annotations


def callee_notes(ws, rel: str, line: int, text: str | None = None) -> list:
    return []
