"""A resident tether for the agents' hooks: ``tether serve`` keeps one workspace open (notes
indexed, trees parsed, the symbol table warm) and answers hook events over a Unix socket, so
a hook — a new process per tool call — costs an interpreter start and one round trip instead
of opening the workspace again. The hook asks first and works alone when no server answers
in time; ``tether hook AGENT --serve`` then starts one for the next call.

The client half of this module imports only the standard library: it runs before anything
else in a hook process. A request is one JSON line ``{"v", "agent", "event"}``; the answer
one JSON line ``{"out"}`` — what the hook would have printed — or ``{"stale": true}`` from a
server of another tether version, which then exits.

Correctness first: the server reads a note file changed on disk (by hand, ``git pull``,
a checkout) in the very request after the change (``FolderChanges``: the kernel queues the
change before the write returns), and reads source files as they are, like a hook alone."""

from __future__ import annotations

import hashlib
import json
import os
import select
import socket
import sys
import time

from .. import __version__

ANSWER_S = 2.0  # a server slower than this (busy distilling, stuck) is not waited for: work alone
IDLE_S = 30 * 60  # a server nobody asked for this long exits
_CHECK_S = 5.0  # how often an idle server looks whether its workspace is still there


def socket_path(root) -> str:
    """Where the server of ``root`` listens: a short per-user path (a Unix socket's path
    is limited to about 100 bytes; a workspace's may be longer)."""
    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    key = hashlib.sha256(os.fsencode(root)).hexdigest()[:20]
    return os.path.join(base, f"tether-{os.getuid()}", f"{key}.sock")


def workspace_root(start: str) -> str | None:
    """The folder holding ``.tether/`` at or above ``start`` (as ``Workspace.find``; no
    pathlib: its import alone costs a hook more than the server's answer)."""
    here = os.path.realpath(start)
    while True:
        if os.path.isdir(os.path.join(here, ".tether")):
            return here
        up = os.path.dirname(here)
        if up == here:
            return None
        here = up


def ask(root: str, agent: str, event: dict, timeout: float = ANSWER_S) -> dict | None:
    """The server's answer (``{"out": …}``), or None: no server, a stale one, no answer in time."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(socket_path(root))
            s.sendall(json.dumps({"v": __version__, "agent": agent, "event": event}).encode() + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(1 << 16)
                if not chunk:
                    return None
                data += chunk
        answer = json.loads(data)
        return answer if isinstance(answer, dict) and "out" in answer else None
    except (OSError, ValueError):
        return None


def start(root: str) -> None:
    """Start ``tether serve`` for ``root`` in the background, detached from the hook."""
    import subprocess
    subprocess.Popen([sys.executable, "-m", "tether", "serve", str(root)], cwd=root, start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def hook_through_server(agent: str, raw: bytes, stdout, serve: bool) -> bool:
    """Answer the hook event ``raw`` through the workspace's server: True when it answered
    (the answer is written); False to work alone (after starting a server when ``serve``)."""
    try:
        event = json.loads(raw)
        cwd = event.get("cwd") if isinstance(event, dict) else None
        root = workspace_root(cwd if isinstance(cwd, str) and cwd else os.getcwd())
    except (ValueError, OSError):
        return False
    if root is None:
        return False
    answer = ask(root, agent, event)
    if answer is None:
        if serve:
            try:
                start(root)
            except OSError:
                pass
        return False
    if answer["out"]:
        stdout.write(answer["out"])
        stdout.flush()
    return True


# -- the server --------------------------------------------------------------------------------

def serve(root, idle: float = IDLE_S) -> int:
    """Answer hook events for the workspace at ``root`` until idle for ``idle`` seconds,
    its ``.tether/`` goes away, or a client of another version asks. 0; 1 when another
    server already answers there."""
    import io

    from ..core.files import FolderChanges
    from ..core.workspace import Workspace
    from . import dialects, hooks

    ws = Workspace.find(root)
    path = socket_path(ws.root)
    listening = _listen(path)
    if listening is None:
        return 1
    sock, ino = listening
    hooks.SERVED[ws.root] = ws
    changes = FolderChanges.open(ws.repo.notes_dir)
    ws.repo.auto_refresh = changes is None  # no exact watch: scan the notes folder on every read
    last = time.monotonic()
    try:
        while True:
            ready, _, _ = select.select([sock], [], [], _CHECK_S)
            if not ready:
                if time.monotonic() - last > idle or not ws.repo.notes_dir.is_dir():
                    return 0
                continue
            conn, _ = sock.accept()
            last = time.monotonic()
            with conn:
                try:
                    request = _read_request(conn)
                except (OSError, ValueError):
                    continue
                if request.get("v") != __version__:
                    conn.sendall(b'{"stale": true}\n')
                    return 0
                if changes is not None and changes.pending():
                    ws.repo.changed()
                out = io.StringIO()
                stdin = io.StringIO(json.dumps(request.get("event")))
                agent = str(request.get("agent"))
                if agent in dialects.DIALECTS:
                    dialects.run(agent, stdin, out, io.StringIO())
                else:
                    hooks.run(agent, stdin, out)
                try:
                    conn.sendall(json.dumps({"out": out.getvalue()}).encode() + b"\n")
                except OSError:
                    pass  # the hook gave up waiting and works alone
    finally:
        hooks.SERVED.pop(ws.root, None)
        sock.close()
        if changes is not None:
            changes.close()
        try:
            if os.stat(path).st_ino == ino:  # ours, not a successor's
                os.unlink(path)
        except OSError:
            pass
        ws.close()


def _listen(path: str) -> tuple[socket.socket, int] | None:
    """A listening socket at ``path`` and its file's inode, or None when a live server
    holds it (a dead one's socket file is replaced)."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.bind(path)
    except OSError:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(path)
                s.close()
                return None  # someone answers there
            except OSError:
                pass
        os.unlink(path)
        s.bind(path)
    os.chmod(path, 0o600)
    s.listen(16)
    return s, os.stat(path).st_ino


def _read_request(conn: socket.socket) -> dict:
    conn.settimeout(ANSWER_S)
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(1 << 16)
        if not chunk:
            break
        data += chunk
    request = json.loads(data)
    if not isinstance(request, dict):
        raise ValueError("not a request")
    return request
