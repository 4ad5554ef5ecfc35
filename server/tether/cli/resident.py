"""A resident tether: ``tether serve`` keeps one workspace open (notes indexed, trees parsed,
the symbol table warm) and runs the commands an agent runs as a new process on every tool
call — ``tether hook AGENT`` and ``tether context`` — for them, over a Unix socket. The
command asks first and works alone when no server answers in time; ``tether hook AGENT
--serve`` then starts one for the next call.

The client half of this module imports only the standard library: it runs before anything
else in such a process. A request is one JSON line ``{"v", "argv", "stdin", "cwd"}``; the
answer one JSON line ``{"out", "err", "exit"}`` — what the command would have printed and
returned — or ``{"stale": true}`` from a server of another tether version, which then exits.

Correctness first: the server reads a note file changed on disk (by hand, ``git pull``, a
checkout) in the very request after the change (``FolderChanges``: the kernel queues the
change before the write returns), and reads source files as they are, like a command alone."""

from __future__ import annotations

import json
import os
import select
import socket
import sys
import time
import zlib

from .. import __version__

SERVED = ("hook", "context")  # what the server runs: read-mostly, asked for on every tool call
ANSWER_S = 2.0  # a server slower than this (busy distilling, stuck) is not waited for: work alone
IDLE_S = 30 * 60  # a server nobody asked for this long exits
_CHECK_S = 5.0  # how often an idle server looks whether its workspace is still there


def socket_path(root) -> str:
    """Where the server of ``root`` listens: a short per-user path (a Unix socket's path
    is limited to about 100 bytes; a workspace's may be longer)."""
    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    raw = os.fsencode(root)  # crc32, not hashlib (3 ms to import): the server checks the root anyway
    key = f"{zlib.crc32(raw):08x}{zlib.crc32(raw[::-1]):08x}"
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


def listening(path: str) -> bool:
    """Something accepts connections at the socket ``path`` (a server, alive)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)
            return True
        except OSError:
            return False


def ask(root: str, request: dict, timeout: float = ANSWER_S) -> dict | None:
    """The server's answer, or None: no server, a stale one, no answer in time."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(socket_path(root))
            s.sendall(json.dumps({"v": __version__, **request}).encode() + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(1 << 16)
                if not chunk:
                    return None
                data += chunk
        answer = json.loads(data)
        return answer if isinstance(answer, dict) and "exit" in answer else None
    except (OSError, ValueError):
        return None


def start(root: str) -> None:
    """Start ``tether serve`` for ``root`` in the background, detached from the command."""
    import subprocess
    subprocess.Popen([sys.executable, "-P", "-m", "tether", "serve", root], cwd=root, start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def through_server(argv: list[str], stdin: bytes, stdout, stderr) -> int | None:
    """Run ``tether ARGV`` in the workspace's server: its exit code once its output is
    written, or None to run it here (after starting a server, for ``hook … --serve``)."""
    cwd = os.getcwd()
    if argv[0] == "hook":
        try:
            event = json.loads(stdin)
            if isinstance(event, dict) and isinstance(event.get("cwd"), str) and event["cwd"]:
                cwd = event["cwd"]
        except ValueError:
            return None  # the command alone says what is wrong with it
    try:
        root = workspace_root(cwd)
    except OSError:
        return None
    if root is None:
        return None
    answer = ask(root, {"argv": argv, "stdin": stdin.decode("utf-8", "surrogateescape"), "cwd": cwd})
    if answer is None:
        if argv[0] == "hook" and "--serve" in argv:
            try:
                start(root)
            except OSError:
                pass
        return None
    stdout.write(answer.get("out") or "")
    stdout.flush()
    stderr.write(answer.get("err") or "")
    return int(answer["exit"])


# -- the server --------------------------------------------------------------------------------

def serve(root, run, idle: float = IDLE_S) -> int:
    """Run commands for the workspace at ``root`` with ``run(argv) -> exit code`` (the CLI's
    main) until idle for ``idle`` seconds, its ``.tether/`` goes away, or a client of another
    version asks. 0; 1 when another server already answers there."""
    from ..core.files import FolderChanges
    from ..core.workspace import Workspace

    ws = Workspace.find(root)
    path = socket_path(ws.root)
    listening = _listen(path)
    if listening is None:
        return 1
    sock, ino = listening
    Workspace.resident[ws.root] = ws  # every command run here finds it open and warm
    ws.repo.watch()  # where it cannot, every read scans the notes folder
    ws.tree.changes = FolderChanges.open(ws.root, tree=True)  # what is known of the sources stays known till they change
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
                try:
                    conn.sendall(json.dumps(_run(run, ws.root, request) or {"elsewhere": True}).encode() + b"\n")
                except OSError:
                    pass  # the client gave up waiting and works alone
    finally:
        Workspace.resident.pop(ws.root, None)
        sock.close()
        if ws.tree.changes is not None:
            ws.tree.changes.close()
        try:
            if os.stat(path).st_ino == ino:  # ours, not a successor's
                os.unlink(path)
        except OSError:
            pass
        ws.close()


def _run(main, root, request: dict) -> dict | None:
    """One command, as ``tether ARGV`` would run it in ``cwd`` with ``stdin``; None when it
    is not this server's to run (another workspace's folder: the client then works alone)."""
    import contextlib
    import io

    argv, cwd = request.get("argv"), request.get("cwd")
    if not (isinstance(cwd, str) and workspace_root(cwd) == str(root)):
        return None
    if not (isinstance(argv, list) and argv and argv[0] in SERVED and all(isinstance(a, str) for a in argv)):
        return {"out": "", "err": "tether: the server runs only: " + ", ".join(SERVED) + "\n", "exit": 2}
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    stdin = sys.stdin
    try:
        os.chdir(cwd)
        sys.stdin = io.StringIO(str(request.get("stdin") or ""))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:  # argparse's own exit on bad arguments
                code = e.code if isinstance(e.code, int) else 2
    except OSError as e:
        return {"out": "", "err": f"tether: {e}\n", "exit": 2}
    finally:
        sys.stdin = stdin
        os.chdir(here)
    return {"out": out.getvalue(), "err": err.getvalue(), "exit": code}


def _listen(path: str) -> tuple[socket.socket, int] | None:
    """A listening socket at ``path`` and its file's inode, or None when a live server
    holds it (a dead one's socket file is replaced)."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.bind(path)
    except OSError:
        if listening(path):
            s.close()
            return None
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
