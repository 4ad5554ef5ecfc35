"""The ``tether`` command. A hook event is first offered to the workspace's resident server
(``tether serve``) before anything else is imported: an agent runs a hook as a new process
on every tool call, and the imports alone cost more than the server's answer."""

from __future__ import annotations

import io
import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) >= 2 and argv[0] == "hook" and set(argv[2:]) <= {"--serve"}:
        from ..agents.resident import hook_through_server  # the standard library only
        raw = sys.stdin.buffer.read()
        if hook_through_server(argv[1], raw, sys.stdout, serve="--serve" in argv):
            return 0
        sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="surrogateescape")
    from .main import main as run
    return run(argv)
