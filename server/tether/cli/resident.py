"""A resident tether: ``tether serve`` keeps one workspace open (notes indexed, trees parsed,
the symbol table warm) and runs the commands an agent runs as a new process on every tool
call — ``tether hook AGENT`` and ``tether context`` — for them, over a Unix socket. The
command asks first and works alone when no server answers in time; ``tether hook AGENT
--serve`` then starts one for the next call.

The client (``client.py``, built-in modules only, with the wire format) sends the command's
arguments, folder and standard input; the server answers what the command would have printed
and returned.

Correctness first: the server reads a note file changed on disk (by hand, ``git pull``, a
checkout) in the very request after the change (``FolderChanges``: the kernel queues the
change before the write returns), and reads source files as they are, like a command alone."""

from __future__ import annotations

import os
import select
import socket
import sys
import time

from .. import __version__
from .client import ANSWER_S, ELSEWHERE, STALE, answer, event_cwd, parse_request, socket_path, workspace_root

SERVED = ("hook", "context")  # what the server runs: read-mostly, asked for on every tool call
IDLE_S = 30 * 60  # a server nobody asked for this long exits
_CHECK_S = 5.0  # how often an idle server looks whether its workspace is still there


def serve(root, run, idle: float = IDLE_S) -> int:
    """Run commands for the workspace at ``root`` with ``run(argv) -> exit code`` (the CLI's
    main) until idle for ``idle`` seconds, its ``.tether/`` goes away, or a client of another
    version asks. 0; 1 when another server serves it already (or is getting ready to)."""
    from ..context.calls import warm
    from ..core.files import FolderChanges
    from ..core.workspace import Workspace

    ws = Workspace.find(root)
    path = socket_path(ws.root)
    claim = _claim(path)
    if claim is None:
        return 1
    sock = None
    try:
        Workspace.resident[ws.root] = ws  # every command run here finds it open and warm
        ws.repo.watch()  # where it cannot, every read scans the notes folder
        ws.tree.changes = FolderChanges.open(ws.root, tree=True)  # what is known of the sources stays known till they change
        _ready(ws)  # before listening: meanwhile a command works alone, as fast as it would, not waiting here
        sock, ino = _listen(path)
        last = time.monotonic()
        warming = True  # the call graph's symbol table, a batch at a time while nobody asks
        while True:
            ready, _, _ = select.select([sock], [], [], 0 if warming else _CHECK_S)
            if not ready:
                if warming:
                    warming = warm(ws)
                    if not warming:
                        _settled()
                    continue
                if time.monotonic() - last > idle or not ws.repo.notes_dir.is_dir():
                    return 0
                continue
            conn, _ = sock.accept()
            last = time.monotonic()
            with conn:
                try:
                    version, cwd, argv, stdin = parse_request(_read(conn))
                except (OSError, ValueError):
                    continue
                if version != __version__:
                    conn.sendall(answer(STALE))
                    return 0
                try:
                    conn.sendall(_run(run, ws.root, argv, cwd, stdin))
                except OSError:
                    pass  # the client gave up waiting and works alone
    finally:
        Workspace.resident.pop(ws.root, None)
        if sock is not None:
            sock.close()
            try:
                if os.stat(path).st_ino == ino:  # ours, not a successor's
                    os.unlink(path)
            except OSError:
                pass
        if ws.tree.changes is not None:
            ws.tree.changes.close()
        os.close(claim)
        ws.close()


def _run(main, root, argv: list[str], cwd: str, stdin: bytes) -> bytes:
    """One command's answer, as ``tether ARGV`` would run in ``cwd`` (a hook event's own
    ``cwd``) with ``stdin``; ``elsewhere`` when that is not this server's workspace (the
    client then works alone)."""
    import contextlib
    import io

    if argv[:1] == ["hook"]:
        cwd = event_cwd(stdin) or cwd
    if workspace_root(cwd) != str(root):
        return answer(ELSEWHERE)
    if argv[:1] not in ([c] for c in SERVED):
        return answer(2, err=("tether: the server runs only: " + ", ".join(SERVED) + "\n").encode())
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    keep = sys.stdin
    try:
        os.chdir(cwd)
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="surrogateescape")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:  # argparse's own exit on bad arguments
                code = e.code if isinstance(e.code, int) else 2
    except OSError as e:
        return answer(2, err=f"tether: {e}\n".encode())
    finally:
        sys.stdin = keep
        os.chdir(here)
    return answer(code, out.getvalue().encode("utf-8", "surrogateescape"), err.getvalue().encode("utf-8", "surrogateescape"))


def _claim(path: str) -> int | None:
    """The lock that makes this the one server of the socket ``path`` (held while it runs),
    or None when another server holds it, even one still getting ready."""
    import fcntl
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _ready(ws) -> None:
    """What the first request would pay for otherwise (~90 ms at 10,000 notes): the served
    commands' modules, the notes folder read, the source tree walked, the symbols the store
    has loaded."""
    from ..agents import dialects, hooks  # noqa: F401
    from ..context import ranking  # noqa: F401
    from ..context.calls import warm
    ws.refresh()
    warm(ws, 0)
    _settled()


def _settled() -> None:
    """What is loaded now stays: a full collection never walks it again (at 100,000 notes
    one took ~100 ms of a request)."""
    import gc
    gc.collect()
    gc.freeze()


def _listen(path: str) -> tuple[socket.socket, int]:
    """A listening socket at ``path`` and its file's inode (the server holds the claim: a
    socket file there is a dead server's)."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    os.chmod(path, 0o600)
    s.listen(16)
    return s, os.stat(path).st_ino


def _read(conn: socket.socket) -> bytes:
    """A request: everything the client sends before it shuts its side."""
    conn.settimeout(ANSWER_S)
    chunks = []
    while chunk := conn.recv(1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)
