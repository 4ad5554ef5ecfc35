"""Restore a snapshot (or part of it) into a target directory."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from .hashing import file_digest
from .manifest import Entry, Manifest
from .store import ChunkStore

log = logging.getLogger(__name__)


class RestoreError(Exception):
    pass


def restore_file(store: ChunkStore, entry: Entry, target: Path) -> Path:
    dest = target / entry.path
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(dest, "wb") as fh:
        for cid in entry.chunks:
            fh.write(store.get(cid))
    os.chmod(dest, entry.mode & 0o7777)
    os.utime(dest, (entry.mtime, entry.mtime))
    if file_digest(dest) != entry.digest:
        raise RestoreError(f"{entry.path}: digest mismatch after restore")
    return dest


def restore_snapshot(store: ChunkStore, manifest: Manifest, target: Path, only: str | None = None) -> int:
    """Restores every entry (or those under ``only``); returns the number of files written."""
    target.mkdir(parents=True, exist_ok=True)
    n = 0
    for path in sorted(manifest.entries):
        if only and not (path == only or path.startswith(only.rstrip("/") + "/")):
            continue
        restore_file(store, manifest.entries[path], target)
        n += 1
    log.info("restored %d files from %s into %s", n, manifest.snapshot, target)
    return n
