"""Sample sources and the installed `tether` command, shared by the CLI-level tests."""

import shutil

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
