"""On-disk tile cache: one file per tile under ``root/<layer>/z/x/y.<ext>``."""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tilecache.tiles import Tile


@dataclass
class Entry:
    data: bytes
    stored_at: float
    path: Path


class DiskCache:
    def __init__(self, root: str | Path, max_bytes: int = 2 * 1024 ** 3, ext: str = "png"):
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.ext = ext
        self.root.mkdir(parents=True, exist_ok=True)

    def _path(self, layer: str, tile: Tile) -> Path:
        return self.root / layer / tile.path(self.ext)

    def get(self, layer: str, tile: Tile) -> Entry | None:
        path = self._path(layer, tile)
        try:
            st = path.stat()
        except FileNotFoundError:
            return None
        if st.st_size == 0:
            return Entry(b"", st.st_mtime, path)
        return Entry(path.read_bytes(), st.st_mtime, path)

    def put(self, layer: str, tile: Tile, data: bytes) -> Path:
        path = self._path(layer, tile)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    def delete(self, layer: str, tile: Tile) -> bool:
        try:
            self._path(layer, tile).unlink()
            return True
        except FileNotFoundError:
            return False

    def size(self) -> int:
        total = 0
        for dirpath, _dirs, files in os.walk(self.root):
            for name in files:
                try:
                    total += os.stat(os.path.join(dirpath, name)).st_size
                except FileNotFoundError:
                    pass
        return total

    def evict(self) -> int:
        """Bring the cache under ``max_bytes``. Returns the number of files removed."""
        # TODO: pick an eviction order; for now we only report the overshoot
        over = self.size() - self.max_bytes
        return 0 if over <= 0 else 0

    def age(self, entry: Entry) -> float:
        return time.time() - entry.stored_at
