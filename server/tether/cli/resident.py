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
change before the write returns), and reads source files as they are, like a command alone.

No request holds up another: each connection is read by a thread of its own within one
deadline for the whole request (``ANSWER_S``, not per ``recv``: a client that sends a byte
now and then is dropped), the commands then run one at a time (they take milliseconds: they
share the working folder and the standard streams), and an event that distils a session
with a long transcript — one may be hundreds of megabytes — is left to the command itself
(``alone``), in its own process, never run here."""

from __future__ import annotations

import os
import select
import socket
import sys
import threading
import time

from .. import __version__
from .client import (ALONE, ANSWER_S, BUILD, ELSEWHERE, PACKAGE, STALE, answer, distrust, parse_request,
                     say_once, socket_path, stranger, workspace_root)

SERVED = ("hook", "context")  # what the server runs: read-mostly, asked for on every tool call
DISTILLING = frozenset(("Stop", "SessionEnd", "PreCompact"))  # the hook's moments that read a whole transcript
SERVED_TRANSCRIPT = 1 << 20  # bytes: a transcript this long distils here in ~0.1 s; a longer one in the hook's process
IDLE_S = 30 * 60  # a server nobody asked for this long exits
FLUSH_S = 0.05  # the index reaches the disk once nobody asked for this long: an agent's next hook
# (the one after its edit, ~15 ms after the one before) does not wait for the disk
MAX_CLIENTS = 32  # connections read at once; more are closed (their commands work alone)
_CHECK_S = 5.0  # how often an idle server looks whether its workspace is still there


class Refused(Exception):
    """The socket's folder or lock cannot be trusted: why (no server is started)."""


def serve(root, run, idle: float = IDLE_S) -> int:
    """Run commands for the workspace at ``root`` with ``run(argv) -> exit code`` (the CLI's
    main) until idle for ``idle`` seconds, its ``.tether/`` goes away, or a client of another
    version asks. 0; 1 when another server serves it already (or is getting ready to).
    :class:`Refused` (said once in ``hooks.log`` too) when the socket's place is not safe."""
    from ..context.calls import warm
    from ..core.files import FolderChanges
    from ..core.workspace import Workspace

    ws = Workspace.find(root)
    path = socket_path(ws.root)
    try:
        claim = _claim(path)
    except Refused as e:
        say_once(str(ws.root), f"{e}: no server is used; hooks answer alone")
        raise
    if claim is None:
        return 1
    sock = None
    state, code = _State(), _Code()
    try:
        Workspace.resident[ws.root] = ws  # every command run here finds it open and warm
        ws.deferred = []  # what an answer does not wait for runs after it (_serve_one)
        ws.store.defer_sync()  # a request's writes reach the disk after its answer, not before
        ws.repo.watch()  # where it cannot, every read scans the notes folder
        ws.tree.changes = FolderChanges.open(ws.root, tree=True)  # what is known of the sources stays known till they change
        _ready(ws)  # before listening: meanwhile a command works alone, as fast as it would, not waiting here
        sock, ino = _listen(path)
        try:
            os.unlink(ws.dir / "cache" / "serve-refused")  # whatever kept hooks alone before is gone
        except OSError:
            pass
        warming = True  # the call graph's symbol table, a batch at a time while nobody asks
        while not state.stop.is_set():
            wait = 0 if warming else FLUSH_S if state.unflushed else _CHECK_S
            ready, _, _ = select.select([sock, state.wake_r], [], [], wait)
            if not ready:
                if state.unflushed and time.monotonic() - state.last >= FLUSH_S:
                    with state.running:  # (after the request still running, if one is)
                        ws.store.flush()
                        state.unflushed = False
                    if code.changed():
                        return 0  # upgraded under it: the next command starts the new code's server
                    continue
                if warming:
                    with state.running:
                        warming = warm(ws)
                    if not warming:
                        ws.store.flush()
                        _settled()
                    continue
                if time.monotonic() - state.last > idle or not ws.repo.notes_dir.is_dir() or code.changed():
                    return 0
                continue
            if sock not in ready:
                os.read(state.wake_r, 64)
                continue
            conn, _ = sock.accept()
            state.last = time.monotonic()
            state.unflushed = True
            if not state.slots.acquire(blocking=False):
                conn.close()  # too many at once: their commands work alone
                continue
            threading.Thread(target=_serve_one, args=(conn, run, ws, state), daemon=True).start()
        return 0
    finally:
        state.stop.set()  # no command starts from here on
        state.running.acquire()  # and one still running keeps the workspace till it is done
        Workspace.resident.pop(ws.root, None)  # (the wake-up pipe is left to the process's end: a late thread may write to it)
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
        ws.store.flush()
        ws.close()


def _same_tether(build: str) -> bool:
    """A request from this very tether: this version, run from this folder (through links);
    one that names no absolute folder cannot be told apart, and is."""
    if build == BUILD:
        return True
    version, _, folder = build.partition(" ")
    return version == __version__ and (not folder.startswith("/") or os.path.realpath(folder) == os.path.realpath(PACKAGE))


class _Code:
    """tether's own files as the server started: a ``pip install -U`` or a ``git pull`` under a
    long-lived server changes them, and the server then makes way for the new code's (looked at
    when a request's writes are flushed, at most once a second, and when idle)."""

    def __init__(self):
        self.folders = [PACKAGE]
        try:
            from ..core.languages import grammars_dir
            self.folders.append(str(grammars_dir()))
        except Exception:  # (no grammars: nothing parses either)
            pass
        self.stamp, self.at = self._stamp(), time.monotonic()

    def _stamp(self) -> tuple[int, int]:
        newest = count = 0
        todo = list(self.folders)
        while todo:
            try:
                with os.scandir(todo.pop()) as entries:
                    for e in entries:
                        if e.is_dir(follow_symlinks=False):
                            if e.name != "__pycache__":
                                todo.append(e.path)
                        elif e.name.endswith((".py", ".scm", ".toml")):
                            count += 1
                            newest = max(newest, e.stat().st_mtime_ns)
            except OSError:
                continue
        return newest, count

    def changed(self) -> bool:
        if time.monotonic() - self.at < 1.0:
            return False
        self.at = time.monotonic()
        return self._stamp() != self.stamp


class _State:
    """What the accepting loop and the connections' threads share."""

    def __init__(self):
        self.running = threading.Lock()  # one command at a time
        self.slots = threading.BoundedSemaphore(MAX_CLIENTS)
        self.stop = threading.Event()  # a client of another version asked: exit
        self.wake_r, self.wake_w = os.pipe()  # wakes the loop up to see ``stop``
        self.last = time.monotonic()
        self.unflushed = False  # a request ran since the index last reached the disk


def _serve_one(conn: socket.socket, run, ws, state: _State) -> None:
    """One connection: its peer checked, its request read within the deadline, run, answered."""
    deadline = time.monotonic() + ANSWER_S
    try:
        with conn:
            why = stranger(conn)
            if why:  # nothing read from it, nothing sent to it
                say_once(str(ws.root), f"the server refused a connection: {why}; nothing was read from it or sent to it")
                return
            try:
                version, cwd, argv, stdin = parse_request(_read(conn, deadline))
            except (OSError, ValueError):
                return
            if not _same_tether(version):
                conn.sendall(answer(STALE))
                state.stop.set()
                os.write(state.wake_w, b"x")
                return
            with state.running:
                if state.stop.is_set():
                    return
                try:
                    reply = _run(run, ws.root, argv, cwd, stdin)
                    conn.settimeout(max(deadline - time.monotonic(), 0.2))
                    conn.sendall(reply)
                    conn.close()  # the client reads to the end: closed, its answer is complete
                finally:  # still one at a time: the next request finds this one's work done (committed:
                    _deferred(ws)  # every process reads it; on disk once nobody asks, FLUSH_S)
                    state.last = time.monotonic()  # (from its end: a hook that ran long is not followed by
                    # the flush just as the agent's next hook, right after it, arrives)
    except OSError:
        pass  # the client gave up waiting and works alone
    finally:
        state.slots.release()


def _run(main, root, argv: list[str], cwd: str, stdin: bytes) -> bytes:
    """One command's answer, as ``tether ARGV`` would run in ``cwd`` (a hook event's own
    ``cwd``) with ``stdin``; ``elsewhere`` when that is not this server's workspace, ``alone``
    for an event that distils a session with a long transcript or a command that failed here
    (the client then works alone)."""
    import contextlib
    import io

    if argv[:1] == ["hook"]:
        event = _event(stdin)
        if _distils(argv, event) and _long_transcript(event):
            return answer(ALONE)
        cwd = event.get("cwd") if isinstance(event.get("cwd"), str) and event["cwd"] else cwd
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
    except Exception:  # noqa: BLE001 — one request never takes the server down: the command works alone
        from ..agents.hooks import _log, _traceback
        _log(None, "serve", {}, _traceback())
        from ..core.workspace import Workspace
        ws = Workspace.resident.get(root)
        if ws is not None and ws.deferred:
            ws.deferred.clear()  # the command does it all again, alone
        return answer(ALONE)
    finally:
        sys.stdin = keep
        os.chdir(here)
    return answer(code, out.getvalue().encode("utf-8", "surrogateescape"), err.getvalue().encode("utf-8", "surrogateescape"))


def _deferred(ws) -> None:
    """What the last request left for after its answer (``Workspace.later``: the session's log,
    the resolutions kept; the memory it let go), each failure logged, never the server's end."""
    from ..core.syntax import release
    todo, ws.deferred = ws.deferred, []
    for fn, args in todo:
        try:
            fn(*args)
        except Exception:  # noqa: BLE001
            from ..agents.hooks import _log, _traceback
            _log(ws, "serve", {}, _traceback())
    release()  # the parse the request pushed out of those kept


def _event(stdin: bytes) -> dict:
    """A hook event's fields ({} when it is not a JSON object, or is nested past orjson's
    limit, which it reports as an error rather than recursing)."""
    import orjson
    try:
        event = orjson.loads(stdin)
    except orjson.JSONDecodeError:
        return {}
    return event if isinstance(event, dict) else {}


def _distils(argv: list[str], event: dict) -> bool:
    """The hook event distils a session (Claude Code's moment, or an agent's event standing for one)."""
    from ..agents.dialects import DIALECTS
    name = event.get("hook_event_name") or event.get("hookEventName")
    if not isinstance(name, str):
        return False
    agent = argv[1] if len(argv) > 1 else ""
    return bool(DISTILLING.intersection(DIALECTS[agent].events.get(name, ()) if agent in DIALECTS else (name,)))


def _long_transcript(event: dict) -> bool:
    """The event names a transcript longer than ``SERVED_TRANSCRIPT`` (a stat: a file that
    would block a read, a pipe or a device, says 0 and is then refused by the reader)."""
    path = event.get("transcript_path") or event.get("transcriptPath")
    try:
        return isinstance(path, str) and bool(path) and os.stat(path).st_size > SERVED_TRANSCRIPT
    except (OSError, ValueError):
        return False


def _claim(path: str) -> int | None:
    """The lock that makes this the one server of the socket ``path`` (held while it runs),
    or None when another server holds it, even one still getting ready. :class:`Refused`
    when the folder is not this user's alone, or the lock is a link."""
    import fcntl
    folder = os.path.dirname(path)
    os.makedirs(os.path.dirname(folder), exist_ok=True)
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    why = distrust(folder)
    if why:
        raise Refused(why)
    try:  # the lock's name is not followed if it is a link: it would create a file wherever it points
        fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    except OSError as e:
        raise Refused(f"{path}.lock: {e.strerror}") from None
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


def _read(conn: socket.socket, deadline: float) -> bytes:
    """A request: everything the client sends before it shuts its side, by ``deadline``
    (TimeoutError after it)."""
    chunks = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took too long to arrive")
        conn.settimeout(left)
        chunk = conn.recv(1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
