"""Sample sources and the installed `tether` command, shared by the CLI-level tests."""

import shutil
import time
from contextlib import contextmanager

import pytest

TETHER = shutil.which("tether") or pytest.fail("the tether command is not installed (pip install -e .)")

APP_PY = '''\
import os


def load_config(path):
    """Load the configuration."""
    with open(path) as f:
        data = f.read()
    return data


class Service:
    def start(self, port):
        self.port = port
        return True
'''

WEB_TS = '''\
export function handle(req: string): number {
  const n = req.length;
  return n * 2;
}

export class Router {
  route(path: string): string {
    return path.toUpperCase();
  }
}
'''


def git_init(root) -> None:
    """A git repository with an author, as a developer's would be."""
    import subprocess
    root.mkdir(parents=True, exist_ok=True)
    for args in (["init", "-q"], ["config", "user.name", "Ada Lovelace"], ["config", "user.email", "ada@example.com"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def stop_server(root) -> None:
    """Stop the ``tether serve`` of ``root`` (one a ``--serve`` hook started, maybe not
    listening yet): a request from another version of tether makes it exit."""
    from tether.cli.client import ask, listening, socket_path
    end = time.monotonic() + 60
    while not listening(socket_path(root)):
        assert time.monotonic() < end, "no server listening"
        time.sleep(0.05)
    assert ask(str(root), ["context", "x"], str(root), b"", version="stop") == (b"stale", b"", b"")


@contextmanager
def scans_counted():
    """How many times the notes folder is scanned (a stat of every note file) within the block."""
    from tether.core.repository import NoteRepository
    count, scan = [0], NoteRepository._scan

    def counted(self):
        count[0] += 1
        return scan(self)
    NoteRepository._scan = counted
    try:
        yield count
    finally:
        NoteRepository._scan = scan
