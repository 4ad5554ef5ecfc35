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
