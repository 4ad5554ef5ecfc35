"""The workspace's files: paths kept inside it, source texts read safely, note files written
all or nothing, path patterns.

Every path a face hands in goes through :meth:`SourceTree.rel` (a link or ``..`` leading out
is refused), and every source text through :meth:`SourceTree.read` (a FIFO, a binary or a
huge file, invalid UTF-8: a :class:`WorkspaceError` that says why, never a hang or a crash).
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path, PurePosixPath
TYPE_CHECKING = False  # (not typing's: importing it costs every hook call ~3 ms)
if TYPE_CHECKING:
    import subprocess

TETHER_DIR = ".tether"
MAX_SOURCE_BYTES = 32 * 1024 * 1024  # larger files are not read at all (file/glob anchors only)
READ_ONCE_BYTES = 64 * 1024 * 1024  # what one search over many files keeps of them
CHANGES_KEPT = 4096  # changed files a watched tree remembers, one by one


class WorkspaceError(Exception):
    """A request that cannot be done, with the reason (exit code 2 in the CLI)."""


class WriteError(WorkspaceError):
    """A file that could not be written (a full disk, a folder that cannot be written) and is
    as it was: its path (relative to the current folder when under it) and the reason."""

    def __init__(self, target: Path | str, error: OSError):
        self.target, self.strerror = Path(target), error.strerror or str(error)
        shown = os.path.relpath(target) if Path(target).is_relative_to(Path.cwd()) else str(target)
        super().__init__(f"{shown}: cannot write ({self.strerror}); "
                         + ("it is as it was" if os.path.lexists(target) else "nothing was written"))


class SourceTree:
    """The files under one workspace root."""

    def __init__(self, root: Path):
        self.root = root
        self.root_str = str(root)
        self.changes: FolderChanges | None = None  # a watch of the whole tree (a resident process's)
        self._last_change = 0.0
        self._log: list[tuple[float, str | None]] = []  # (when, file) it saw change; None: anything may have
        self._log_floor = 0.0  # what changed before this is no longer known file by file
        self.read_once: dict | None = None  # while set: (rel, stamp) -> bytes mentions() read (reading())
        self._dirs: dict[str, str] | None = None  # ... and folder -> its real path, for read()
        self._kept = 0  # ... their size

    def unchanged_since(self, t: float, assume: float = 1.0) -> bool:
        """No file changed since ``t`` (``time.monotonic``): known exactly under a watch of the
        whole tree; without one assumed for ``assume`` seconds (then the caller looks again)."""
        if self.changes is None:
            return time.monotonic() - t <= assume
        self._drain()
        return self.changes.watching and self._last_change < t

    def changed_since(self, t: float) -> set[str] | None:
        """The files that changed since ``t`` (added, written, removed, moved), known exactly
        under a watch of the whole tree; None when not known: no watch, a folder came or
        went, or more changes than are kept (then look at every file)."""
        if self.changes is None or not self.changes.watching:
            return None
        self._drain()
        if t < self._log_floor:
            return None
        out: set[str] = set()
        for when, rel in reversed(self._log):
            if when < t:
                break
            if rel is None:
                return None
            out.add(rel)
        return out

    def _drain(self) -> None:
        if not self.changes.pending():
            return
        now = self._last_change = time.monotonic()
        paths, at = self.changes.take_paths(), len(self.root_str) + 1
        self._log += [(now, None)] if paths is None else [(now, p[at:]) for p in paths]
        if len(self._log) > CHANGES_KEPT:
            self._log_floor = self._log[-CHANGES_KEPT // 2][0]
            del self._log[:-CHANGES_KEPT // 2]

    def stamp(self, rel: str) -> os.stat_result | None:
        """A workspace file's ``stat`` as :meth:`walk` lists it; None when it is not listed
        (gone, not a file, a link out of the workspace)."""
        path = os.path.join(self.root_str, rel)
        try:
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                return os.stat(path) if inside(Path(path).resolve(), self.root) and os.path.isfile(path) else None
        except OSError:
            return None
        return st if stat.S_ISREG(st.st_mode) else None

    def rel(self, path: str | Path, base: Path | None = None) -> str:
        """Workspace-relative POSIX path of ``path`` (relative to ``base``, by default the
        workspace root); paths outside the workspace, or that no file system can hold, are refused."""
        if "\0" in str(path):
            raise WorkspaceError(f"{str(path)!r}: a path with a NUL byte names no file")
        p = Path(path)
        if not p.is_absolute():
            p = (base or self.root) / p
        real = Path(os.path.normpath(p)).resolve()  # symlinks followed: a link out is outside
        try:
            rel = real.relative_to(self.root)
        except ValueError:
            raise WorkspaceError(f"{path}: outside the workspace {self.root}") from None
        if rel.parts and rel.parts[0] == TETHER_DIR and (len(rel.parts) < 2 or rel.parts[1] != "notes"):
            raise WorkspaceError(f"{path}: inside {TETHER_DIR}/, which holds tether's own files")
        return rel.as_posix()

    def real(self, rel: str) -> str:
        """The real path of ``rel``, refused when it leads outside (symlinks followed)."""
        if "\0" in rel:
            raise WorkspaceError(f"{rel!r}: a path with a NUL byte names no file")
        real = os.path.realpath(os.path.join(self.root, rel))
        if not inside(real, self.root):
            raise WorkspaceError(f"{rel}: outside the workspace {self.root}")
        return real

    def read(self, rel: str) -> str:
        """The text of a source file, or a WorkspaceError that says why it has none."""
        try:  # without blocking: a FIFO is refused below, not waited on
            fd = self._open(rel)
        except FileNotFoundError:
            raise WorkspaceError(f"{rel}: no such file") from None
        except IsADirectoryError:
            raise WorkspaceError(f"{rel}: not a regular file") from None
        except OSError as e:
            raise WorkspaceError(f"{rel}: cannot read ({e.strerror})") from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise WorkspaceError(f"{rel}: not a regular file")
            if st.st_size > MAX_SOURCE_BYTES:
                raise WorkspaceError(f"{rel}: {st.st_size / 1e6:.1f} MB is too large to anchor inside; "
                                     f"anchor the whole file (--file)")
            with open(fd, "rb", closefd=False) as f:
                data = f.read()
        finally:
            os.close(fd)
        return decode_source(data, rel)

    def _open(self, rel: str) -> int:
        """``rel`` opened for reading, refused when it leads outside. Within :meth:`reading`,
        each folder's real path is found once and the file opened without following a link
        (resolving every path was most of reading a whole workspace); a link is resolved as always."""
        path = self._in_real_folder(rel)
        if path is not None:
            try:
                return os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
            except OSError as e:
                if e.errno != errno.ELOOP:
                    raise
        return os.open(self.real(rel), os.O_RDONLY | os.O_NONBLOCK)

    def _in_real_folder(self, rel: str) -> str | None:
        """``rel``'s name in the real path of its folder (found once within :meth:`reading`),
        None outside :meth:`reading` or where the folder leads outside."""
        if self._dirs is None or "\0" in rel:
            return None
        head, name = os.path.split(rel)
        real = self._dirs.get(head)
        if real is None:
            real = self._dirs[head] = os.path.realpath(os.path.join(self.root, head))
        return os.path.join(real, name) if name not in ("", ".", "..") and inside(real, self.root) else None

    def content_stamp(self, rel: str) -> list[int] | None:
        """[mtime, ctime, size, inode] of the regular file ``rel``, what changes whenever its
        bytes may have (None for anything else: a link, no file), within :meth:`reading`."""
        path = self._in_real_folder(rel)
        try:
            st = os.stat(path, follow_symlinks=False) if path is not None else None
        except OSError:
            return None
        return [st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino] if st and stat.S_ISREG(st.st_mode) else None

    def exists(self, rel: str) -> bool:
        return os.path.exists(self.real(rel))

    def stamps(self) -> list[tuple[str, int]]:
        """Every workspace file with when it was last written, created or moved here (ns)."""
        return [(rel, max(st.st_mtime_ns, st.st_ctime_ns)) for rel, st in self.walk()]

    def changed_at(self, rel: str) -> int:
        """When the file was last written, created or moved here (ns; 0: it is not there): a
        move keeps the mtime, not the ctime."""
        try:
            st = os.stat(os.path.join(self.root, rel))
        except OSError:
            return 0
        return max(st.st_mtime_ns, st.st_ctime_ns)

    def mentions(self, rel: str, words: set[str], stamp: int = 0) -> bool:
        """The file's bytes hold one of ``words`` (a cheap filter before a parse); within
        :meth:`reading`, each file at ``stamp`` is read once."""
        data = self.read_once.get((rel, stamp)) if self.read_once is not None else None
        if data is None:
            try:  # a path from files(): inside the workspace already
                with open(os.path.join(self.root, rel), "rb") as f:
                    data = f.read(MAX_SOURCE_BYTES)
            except OSError:
                return False
            if self.read_once is not None and self._kept + len(data) <= READ_ONCE_BYTES:
                self._kept += len(data)
                self.read_once[(rel, stamp)] = data
        return any(w.encode() in data for w in words if w)

    @contextmanager
    def reading(self):
        """Many searches of the same files, each file read once (up to READ_ONCE_BYTES in all):
        300 deleted files searched for in 10,000 others read 3 million files."""
        if self.read_once is not None:  # within another: that one's
            yield
            return
        self.read_once, self._kept, self._dirs = {}, 0, {}
        try:
            yield
        finally:
            self.read_once, self._kept, self._dirs = None, 0, None

    def files(self) -> list[str]:
        """Workspace files (hidden folders, .tether and dependency folders skipped)."""
        return [rel for rel, _ in self.walk()]

    def walk(self) -> list[tuple[str, os.stat_result]]:
        """Workspace files with their ``stat``, in one pass over the folders (a hook at 2,000
        files cannot afford a path resolution per file); a link out of the workspace is left out."""
        out: list[tuple[str, os.stat_result]] = []

        def visit(path: str, prefix: str) -> None:
            for name in self._scan(path, prefix, out):  # a folder's files, then its sub-folders
                visit(os.path.join(path, name), f"{prefix}{name}/")
        visit(self.root_str, "")
        return out

    def listing(self, folder: str) -> tuple[list[tuple[str, os.stat_result]], list[str]]:
        """One folder (workspace-relative, "" the root) as :meth:`walk` sees it: its files
        with their ``stat`` and the sub-folders it goes into, by name."""
        files: list[tuple[str, os.stat_result]] = []
        folders = self._scan(os.path.join(self.root_str, folder) if folder else self.root_str, "", files)
        return files, folders

    def _scan(self, path: str, prefix: str, files: list[tuple[str, os.stat_result]]) -> list[str]:
        """Add the files of the folder at ``path`` to ``files`` (their names after ``prefix``);
        return its sub-folders' names, sorted."""
        try:
            with os.scandir(path) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            return []
        folders = []
        for e in entries:
            try:
                if e.is_dir(follow_symlinks=False):
                    if not _skipped(e.name):
                        folders.append(e.name)
                elif e.is_symlink():
                    if inside(Path(e.path).resolve(), self.root) and os.path.isfile(e.path):
                        files.append((prefix + e.name, os.stat(e.path)))
                elif e.is_file(follow_symlinks=False):
                    files.append((prefix + e.name, e.stat(follow_symlinks=False)))
            except OSError:
                continue  # gone while listed
        return folders


def decode_source(data: bytes, rel: str) -> str:
    if b"\0" in data[:8192]:
        raise WorkspaceError(f"{rel}: a binary file; only the whole file can be anchored (--file)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise WorkspaceError(f"{rel}:{line}: not valid UTF-8 (byte 0x{data[e.start]:02x}); "
                             f"only the whole file can be anchored (--file)") from None


def atomic_write(target: Path, text: str, newline: str = "\n") -> None:
    """Write ``text`` to ``target`` all or nothing (temp file, fsync, rename), keeping the
    replaced file's permissions. ``newline=""`` writes line endings as they are in ``text``.
    A failure (a full disk) is a :class:`WriteError` naming ``target``, which is as it was."""
    tmp = staged(target, text, newline)
    try:
        os.replace(tmp, target)
    except OSError as e:
        _unlink(tmp)
        raise WriteError(target, e) from None
    sync_folder(target.parent)


def staged(target: Path, text: str, newline: str = "\n") -> str:
    """A temp file beside ``target`` holding ``text``, on disk (fsync), with the permissions
    ``target`` has (or a new file would get): renamed over ``target``, it replaces it whole.
    A failure is a :class:`WriteError` naming ``target``, and leaves no temp file."""
    import tempfile  # here: a hook call that writes nothing does not pay for it
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:  # mkstemp makes the file 0600; a note file is shared like any file of the repository
            mode = os.stat(target).st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        return tmp
    except BaseException as e:
        if tmp is not None:
            _unlink(tmp)
        if isinstance(e, OSError):
            raise WriteError(target, e) from None
        raise


def sync_folder(folder: Path) -> None:
    """What was renamed in ``folder`` is on disk."""
    dfd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def is_under(path: str, rel: str) -> bool:
    """``path`` is ``rel`` or inside the folder ``rel`` ("" or "." is the whole workspace)."""
    return rel in ("", ".") or path == rel or path.startswith(rel.rstrip("/") + "/")


def inside(p: Path | str, root: Path) -> bool:
    s, r = str(p), str(root)
    return s == r or s.startswith(r if r.endswith(os.sep) else r + os.sep)


def git(root: Path, *args: str) -> subprocess.CompletedProcess:
    """Run git in ``root`` (revisions a user gave come after ``--end-of-options`` in ``args``,
    so one that starts with ``-`` is never read as an option)."""
    import subprocess  # here: most commands never run git, and its import costs each 2 ms
    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:  # no git here, or it hung
        return subprocess.CompletedProcess(["git", *args], 1, "", str(e))


def changed_lines(root: Path, ref: str) -> dict[str, list[tuple[int, int]] | None]:
    """What changed between ``ref`` and the working tree, file by file: the line ranges of the
    file's current text that the change wrote (0-based, end exclusive; lines deleted leave an
    empty range where they were), or None for a file added, deleted or not tracked yet (the
    whole of it; a binary file too). A file renamed without an edit changed no line."""
    r = git(root, "diff", "-U0", "--relative", "--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/",
            "--end-of-options", ref, "--")
    if r.returncode != 0:
        err = r.stderr.strip().splitlines()
        raise WorkspaceError(f"--changed-since {ref}: {err[-1] if err else 'git failed'}")
    out: dict[str, list[tuple[int, int]] | None] = {}
    old = rel = None
    for line in r.stdout.splitlines():
        if line.startswith("--- "):
            old = _diff_path(line[4:], "a/")
        elif line.startswith("+++ "):
            new = _diff_path(line[4:], "b/")
            rel = new or old
            out[rel] = [] if new and old else None
        elif line.startswith("rename to "):  # a rename without an edit has no ---/+++ lines
            out.setdefault(_diff_path(line[len("rename to "):], ""), [])
        elif line.startswith("Binary files ") and (m := re.match(r"Binary files (.+) and (.+) differ$", line)):
            old, new = _diff_path(m.group(1), "a/"), _diff_path(m.group(2), "b/")
            out[new or old] = None  # no lines to name: the whole file
        elif line.startswith("@@ ") and out.get(rel) is not None:
            m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            start, count = int(m.group(1)), int(m.group(2) or 1)
            first = start - 1 if count else start  # a deletion's hunk names the line before it
            out[rel].append((first, first + count))
    for rel in git(root, "ls-files", "-z", "--others", "--exclude-standard").stdout.split("\0"):
        if rel:
            out.setdefault(rel, None)
    return out


def _diff_path(name: str, prefix: str) -> str | None:
    """A file name of a ``---`` / ``+++`` line (git quotes unusual ones C-style), or None for /dev/null."""
    name = name.rstrip("\t")
    if name.startswith('"'):
        name = name[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape") \
            .encode("latin-1").decode("utf-8", "replace")
    return name.removeprefix(prefix) if name != "/dev/null" else None


def git_toplevel(start: Path) -> Path | None:
    r = git(start, "rev-parse", "--show-toplevel")
    return Path(r.stdout.strip()) if r.returncode == 0 and r.stdout.strip() else None


# -- path patterns (glob anchors) ------------------------------------------------------------

def normalize_glob(pattern: str) -> str:
    p = pattern.strip().replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    if not p or p.startswith("/") or ".." in PurePosixPath(p).parts:
        raise WorkspaceError(f"glob '{pattern}': give a pattern relative to the workspace, such as src/auth/**")
    return p


@lru_cache(maxsize=1024)
def _glob_re(pattern: str) -> re.Pattern:
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        out.append("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c))
        i += 1
    rx = "".join(out)
    if pattern.endswith("/"):
        rx += ".*"
    return re.compile(rx + r"\Z")


def glob_match(pattern: str, rel: str) -> bool:
    """gitignore-like: ``**`` spans directories, ``*`` and ``?`` stay inside one; a pattern
    naming a directory covers everything below it."""
    rx = _glob_re(pattern)
    if rx.match(rel):
        return True
    parts = rel.split("/")
    return any(rx.match("/".join(parts[:k])) for k in range(1, len(parts)))


def glob_reaches(pattern: str, folder: str) -> bool:
    """Some path inside the folder ``folder`` may match ``pattern`` (``billing/**`` and
    ``**/*.py`` reach ``billing``; ``src/*.py`` does not reach ``src/sub``)."""
    if folder in ("", "."):
        return True
    segments = pattern.rstrip("/").split("/")
    for i, name in enumerate(folder.rstrip("/").split("/")):
        if i >= len(segments) or "**" in segments[i]:
            return True  # the pattern names a folder above, or spans folders from here
        if not _glob_re(segments[i]).match(name):
            return False
    return True


class FolderChanges:
    """Whether anything in a folder (``tree``: and below it, skipping what :meth:`SourceTree.walk`
    skips) changed since the last ask — exactly, not after a debounce: Linux queues an inotify
    event before the write that made it returns, so a file saved just before a request is seen
    by that request. ``open`` gives None where there is no inotify (then the caller looks at
    the files every time)."""

    _MASK = 0x2 | 0x4 | 0x8 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800  # writes, moves, creations, deletions
    _SELF_GONE, _OVERFLOW, _DIR, _NEW = 0x400 | 0x800 | 0x8000, 0x4000, 0x40000000, 0x100 | 0x80

    def __init__(self, folder: Path, libc, fd: int, tree: bool):
        self.folder, self.libc, self.fd, self.tree = str(folder), libc, fd, tree
        self.folders: dict[int, str] = {}  # watch descriptor -> folder
        self.watching = False  # the folder (and every folder below it) is watched
        self._paths: set[str] | None = set()  # the files changed since take_paths(); None: not known one by one

    @classmethod
    def open(cls, folder: Path, tree: bool = False) -> FolderChanges | None:
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, AttributeError):
            return None
        if fd < 0:
            return None
        watch = cls(folder, libc, fd, tree)
        watch.watching = watch._watch(watch.folder)
        return watch

    def _watch(self, folder: str) -> bool:
        wd = self.libc.inotify_add_watch(self.fd, os.fsencode(folder), self._MASK)
        if wd < 0:
            return False  # gone meanwhile, or out of watches (fs.inotify.max_user_watches)
        self.folders[wd] = folder
        ok = True
        if self.tree:
            try:
                with os.scandir(folder) as it:
                    subs = [e.path for e in it if e.is_dir(follow_symlinks=False) and not _skipped(e.name)]
            except OSError:
                return ok
            for sub in subs:
                ok = self._watch(sub) and ok
        return ok

    def pending(self) -> bool:
        """True when something changed since the last call (or the watch was lost: then
        always, until the folder can be watched again)."""
        changed = not self.watching
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            changed, i = True, 0
            while i + 16 <= len(data):  # struct inotify_event: wd, mask, cookie, len, name
                wd = int.from_bytes(data[i:i + 4], "little", signed=True)
                mask, size = int.from_bytes(data[i + 4:i + 8], "little"), int.from_bytes(data[i + 12:i + 16], "little")
                name = data[i + 16:i + 16 + size].rstrip(b"\0").decode("utf-8", "surrogateescape")
                if mask & self._OVERFLOW:
                    self.watching = False  # events were lost: watch everything afresh
                elif mask & self._SELF_GONE:
                    if self.folders.pop(wd, None) == self.folder:
                        self.watching = False
                    self._paths = None
                elif mask & self._DIR:  # a folder came, went or moved: its files are not known one by one
                    if not _skipped(name):  # (one never looked into, like __pycache__, changes nothing)
                        self._paths = None
                        if self.tree and mask & self._NEW and wd in self.folders:
                            self.watching = self._watch(os.path.join(self.folders[wd], name)) and self.watching
                elif self._paths is not None and wd in self.folders:
                    self._paths.add(os.path.join(self.folders[wd], name))
                i += 16 + size
        if not self.watching:
            self._paths = None
            for wd in list(self.folders):
                self.libc.inotify_rm_watch(self.fd, wd)
            self.folders.clear()
            self.watching = self._watch(self.folder)
        return changed

    def take_paths(self) -> set[str] | None:
        """The files (full paths) the changes since the last call were to, and forget them;
        None when that is not known file by file (a folder came or went, events were lost)."""
        paths, self._paths = self._paths, set()
        return paths

    def close(self) -> None:
        os.close(self.fd)


def _skipped(name: str) -> bool:
    """A folder the workspace's files are not looked for in (hidden, dependencies, caches)."""
    return name.startswith(".") or name in ("node_modules", "__pycache__")
