"""The client of the resident server (``tether serve``): what ``tether hook`` and ``tether
context`` run before anything else, in a process an agent starts on every tool call.

It imports only modules built into the interpreter (``posix``, ``_socket``; ``stat``):
``socket.py``, ``json`` and the ``re`` they pull in cost a new process more (~9 ms here) than
the server takes to answer; and a hook command starts the interpreter without ``site``
(agents/setup.py), so not even ``os`` is loaded: its import, the collections ABCs of its
``environ`` with it, is ~1.5 ms of a served hook, and ``zlib`` a shared library to load. So
the request and the answer are NUL-separated fields, not JSON:

    request  BUILD \\0 CWD \\0 N \\0 ARG_1 \\0 … ARG_N \\0 STDIN      (then the client shuts its side)
    answer   EXIT \\0 LEN(OUT) \\0 OUT ERR

A path or an argument cannot hold a NUL, so the split is exact; EXIT is the command's exit
code, or ``stale`` (a server of another tether — version or install — which then exits), ``elsewhere``
(the folder is not this server's workspace) or ``alone`` (a request the server leaves to the
command: one that distils a session with a long transcript, or one it failed to run): then the
command works alone.

Trust: a request carries what an agent is doing (prompts, files being written) and the answer
is shown to the agent as tether's, so both ends make sure the other is the same user before
anything is sent or believed. The socket lives in a folder of this user's that nobody else can
enter (mode 0700: one that is another user's, or open to others, is not used); and each end
asks the kernel who the other is (``SO_PEERCRED``), which a socket put in its place by another
user cannot fake. When that cannot be had, the command works alone and says why once in
``.tether/cache/hooks.log``."""

import posix
import stat
import sys
import time

import _socket

from .. import __version__

HOOK_AGENTS = ("claude-code", "copilot", "cursor", "gemini")  # tether hook AGENT
# which tether asks: its version and the folder it runs from — two installs of one version (a
# checkout and a venv) are two tethers, and a server answers only the one it is
PACKAGE = __file__.rpartition("/cli/")[0]
BUILD = f"{__version__} {PACKAGE}"

ANSWER_S = 2.0  # a server slower than this (busy distilling, stuck) is not waited for: work alone
STALE, ELSEWHERE, ALONE = b"stale", b"elsewhere", b"alone"
MAX_PATH = 103  # bytes of a Unix socket's path: 107 on Linux, 103 on macOS (the kernel's buffer, less its NUL)
FALLBACK = "/tmp"  # where the socket goes when the usual folder's path is too long for one


def fsencode(name: str) -> bytes:
    """``os.fsencode`` (this module does without ``os``)."""
    return name.encode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())


def fsdecode(name: bytes) -> str:
    return name.decode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())


def getenv(name: str) -> str | None:
    """``os.environ.get(name)``: where ``os`` is loaded its ``environ`` (a long-lived process
    may have changed it); else the environment the process started with, which then no one
    has changed."""
    os = sys.modules.get("os")
    if os is not None:
        return os.environ.get(name)
    value = posix.environ.get(fsencode(name))
    return None if value is None else fsdecode(value)


def fnv1a(data: bytes) -> int:
    """The 64-bit FNV-1a hash of ``data`` (hashlib costs 3 ms to import, zlib a library to load;
    the server checks the root anyway)."""
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xffffffffffffffff
    return h


def socket_path(root) -> str:
    """Where the server of ``root`` listens: a per-user folder in ``$XDG_RUNTIME_DIR``, else
    ``$TMPDIR``, else ``/tmp``; in ``/tmp`` when that path would be too long for a socket (a
    workspace's own path may be any length: the name is a hash of it)."""
    name = f"tether-{posix.getuid()}/{fnv1a(fsencode(str(root))):016x}.sock"
    path = f"{(getenv('XDG_RUNTIME_DIR') or getenv('TMPDIR') or FALLBACK).rstrip('/')}/{name}"
    return path if len(fsencode(path)) <= MAX_PATH else f"{FALLBACK}/{name}"


def distrust(folder: str) -> str | None:
    """Why the socket folder ``folder`` is not to be used (None: it is, or it is not there
    yet): it must be a real folder of this user's that nobody else can enter."""
    try:
        st = posix.lstat(folder)
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"{folder}: {e.strerror}"
    if not stat.S_ISDIR(st.st_mode):
        return f"{folder} is not a folder (a link or a file is there)"
    if st.st_uid != posix.getuid():
        return f"{folder} belongs to another user (uid {st.st_uid}), who could read or answer the requests"
    if st.st_mode & 0o077:
        return f"{folder} has mode {stat.S_IMODE(st.st_mode):04o}: others can reach the socket (0700 is needed)"
    return None


def peer_uid(s) -> int | None:
    """The user id of the process at the other end of the Unix socket ``s``, as the kernel
    says (None where it cannot say)."""
    option = getattr(_socket, "SO_PEERCRED", None)  # Linux: struct ucred {pid, uid, gid}
    if option is None:
        return None
    return int.from_bytes(s.getsockopt(_socket.SOL_SOCKET, option, 12)[4:8], sys.byteorder)


def stranger(s) -> str | None:
    """Why the process at the other end of ``s`` is not to be trusted (None: it is this user's)."""
    uid = peer_uid(s)
    if uid is None:
        return "this system does not say who is at the other end of a Unix socket (no SO_PEERCRED)"
    return None if uid == posix.getuid() else f"the process at the other end runs as another user (uid {uid})"


def say_once(root: str, what: str) -> None:
    """Write ``what`` (why hooks answer alone, or what the server refused) in the workspace's
    ``.tether/cache/hooks.log`` — once, not at every tool call (``serve-refused`` there keeps
    the last thing said; a server that starts listening removes it)."""
    import os
    cache = os.path.join(root, ".tether", "cache")
    mark = os.path.join(cache, "serve-refused")
    try:
        with open(mark, "rb") as f:
            if f.read() == what.encode("utf-8", "surrogateescape"):
                return
    except OSError:
        pass
    try:
        os.makedirs(cache, exist_ok=True)
        with open(os.path.join(cache, "hooks.log"), "a", encoding="utf-8", errors="surrogateescape") as f:
            f.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} serve\n{what}\n")
        with open(mark, "wb") as f:
            f.write(what.encode("utf-8", "surrogateescape"))
    except OSError:
        pass


def workspace_root(start: str) -> str | None:
    """The folder holding ``.tether/`` at or above ``start`` (as ``Workspace.find``)."""
    import os
    return root_above(os.path.realpath(start))


def root_above(here: str) -> str | None:
    """The folder holding ``.tether/`` at or above the absolute path ``here``, which has no
    links or ``..`` in it (as ``os.getcwd()`` gives; no pathlib: its import alone costs a hook
    more than the server's answer)."""
    while True:
        try:
            if stat.S_ISDIR(posix.stat(f"{here.rstrip('/')}/.tether").st_mode):
                return here
        except (OSError, ValueError):
            pass
        if here == "/":
            return None
        here = here.rstrip("/").rpartition("/")[0] or "/"


def connect(path: str, timeout: float = ANSWER_S):
    """A socket connected to the server listening at ``path``; OSError when none is."""
    s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        s.settimeout(timeout)
        s.connect(path)
    except BaseException:
        s.close()
        raise
    return s


def listening(path: str) -> bool:
    """Something accepts connections at the socket ``path`` (a server, alive)."""
    try:
        connect(path).close()
        return True
    except OSError:
        return False


def request(argv: list[str], cwd: str, stdin: bytes, version: str = BUILD) -> bytes:
    fields = [version, cwd, str(len(argv)), *argv]
    return b"\0".join(fsencode(f) for f in fields) + b"\0" + stdin


def parse_request(data: bytes) -> tuple[str, str, list[str], bytes]:
    """(build, cwd, argv, stdin) of a request; ValueError when it is not one."""
    version, cwd, n, rest = data.split(b"\0", 3)
    parts = rest.split(b"\0", int(n))
    if len(parts) != int(n) + 1:
        raise ValueError("a request cut short")
    return fsdecode(version), fsdecode(cwd), [fsdecode(a) for a in parts[:-1]], parts[-1]


def answer(exit: int | bytes, out: bytes = b"", err: bytes = b"") -> bytes:
    code = exit if isinstance(exit, bytes) else str(exit).encode()
    return code + b"\0" + str(len(out)).encode() + b"\0" + out + err


class Distrusted(Exception):
    """The socket, its folder or the process listening is not this user's: why."""


def ask(root: str, argv: list[str], cwd: str, stdin: bytes, timeout: float = ANSWER_S,
        version: str = BUILD) -> tuple[bytes, bytes, bytes] | None:
    """(exit, out, err) as the server answers, or None: no server, no answer in time, or
    an answer cut short. :class:`Distrusted` when the socket is not this user's: nothing
    was sent."""
    path = socket_path(root)
    why = distrust(path.rpartition("/")[0])
    if why:
        raise Distrusted(why)
    try:
        s = connect(path, timeout)
        try:
            why = stranger(s)
            if why:
                raise Distrusted(f"{path}: {why}")
            s.sendall(request(argv, cwd, stdin, version))
            s.shutdown(_socket.SHUT_WR)
            chunks = []
            while chunk := s.recv(1 << 16):
                chunks.append(chunk)
        finally:
            s.close()
        code, n, body = b"".join(chunks).split(b"\0", 2)
        n = int(n)
    except (OSError, ValueError):
        return None
    return (code, body[:n], body[n:]) if len(body) >= n else None


def start(root: str) -> None:
    """Start ``tether serve`` for ``root`` in the background, detached from the command: this
    very tether (its ``__main__.py`` by path, as the hook command runs it; ``-m tether`` could
    find another one first), with site."""
    import os
    import subprocess
    main = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "__main__.py")
    subprocess.Popen([sys.executable, "-P", main, "serve", root], cwd=root, start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def through_server(argv: list[str], stdin: bytes) -> int | None:
    """Run ``tether ARGV`` in the workspace's server: its exit code once its output is
    written, or None to run it here (after starting a server, for ``hook … --serve``).

    The workspace is the one of this process's folder (where agents run hooks); the server
    runs a hook event in the event's own ``cwd`` and answers ``elsewhere`` when that is not
    its workspace. Only when this folder is in no workspace is the event read here (its
    JSON parser costs a few ms)."""
    try:
        cwd = posix.getcwd()  # (gone, when the folder was deleted: then alone says so)
        root = root_above(cwd)
        if root is None and argv[0] == "hook":
            cwd = event_cwd(stdin) or cwd
            root = workspace_root(cwd)
    except OSError:
        return None
    if root is None:
        return None
    try:
        got = ask(root, argv, cwd, stdin)
    except Distrusted as e:
        say_once(root, f"{e}: no server is used; hooks answer alone")
        return None
    if got is None or not got[0].isdigit():
        if (got is None or got[0] == STALE) and argv[0] == "hook" and "--serve" in argv:
            try:
                start(root)
            except OSError:
                pass
        return None
    code, out, err = got
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
    sys.stderr.buffer.write(err)
    sys.stderr.flush()
    return int(code)


def event_cwd(stdin: bytes) -> str | None:
    """The folder a hook event says its session is in (None: none said, or not an event)."""
    import json
    try:
        event = json.loads(stdin)
    except (ValueError, RecursionError):  # an event nested deeper than the parser goes is no event
        return None
    cwd = event.get("cwd") if isinstance(event, dict) else None
    return cwd if isinstance(cwd, str) and cwd else None
